// `node scripts/folder-loops.mjs [app-dir]`: the folders of app/ that import each other in a loop
// (strongly connected components of the folder graph, from run-time imports). The floors of
// docs/architecture.md keep it empty; app/import-cycles.test.ts fails on any import up a floor.
// Given another checkout's app/ (a `git worktree` of an older commit), it measures that one.
import path from 'node:path'
import { folderOf, loops, runtimeImports, sourceFiles } from './lib/import-graph.mjs'

const appDir = path.resolve(process.argv[2] ?? 'app')

/** @type {Map<string, string[]>} */
const graph = new Map()
for (const file of sourceFiles(appDir)) {
	const from = folderOf(file, appDir)
	const targets = new Set(graph.get(from) ?? [])
	for (const target of runtimeImports(file, appDir)) if (folderOf(target, appDir) !== from) targets.add(folderOf(target, appDir))
	graph.set(from, [...targets])
}

const components = loops(graph)
console.log(`${graph.size} folders in ${path.relative(process.cwd(), appDir) || '.'}`)
if (!components.length) console.log('no folders import each other in a loop')
for (const component of components.sort((a, b) => b.length - a.length)) console.log(`${component.length} folders in one loop: ${component.join(', ')}`)
process.exitCode = components.length ? 1 : 0
