import fs from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { expect, test } from 'vitest'

// No module under app/ may import itself back through others at run time: a cycle makes the order
// in which modules load decide whether a value is there yet. Type-only imports vanish at build and
// do not count; `import { type X }` keeps the module load (verbatimModuleSyntax) and does.

const appDir = path.dirname(new URL(import.meta.url).pathname)
const root = path.dirname(appDir)

function sourceFiles(dir: string): string[] {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name)
		if (entry.isDirectory()) return entry.name === '+types' ? [] : sourceFiles(full)
		return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : []
	})
}

/** The app modules a file loads when it runs: static imports and re-exports, not type-only ones. */
function runtimeImports(file: string): string[] {
	const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false)
	const specifiers: string[] = []
	for (const statement of source.statements) {
		if (ts.isImportDeclaration(statement)) {
			if (statement.importClause?.isTypeOnly) continue
			specifiers.push((statement.moduleSpecifier as ts.StringLiteral).text)
		} else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && !statement.isTypeOnly) {
			specifiers.push((statement.moduleSpecifier as ts.StringLiteral).text)
		}
	}
	return specifiers.flatMap((specifier) => {
		const resolved = specifier.startsWith('#app/') ? path.join(appDir, specifier.slice(5)) : specifier.startsWith('.') ? path.resolve(path.dirname(file), specifier) : null
		if (!resolved) return []
		return [resolved, `${resolved}.ts`, `${resolved}.tsx`].filter((candidate) => candidate.startsWith(appDir) && fs.existsSync(candidate) && fs.statSync(candidate).isFile()).slice(0, 1)
	})
}

/** Every cycle's modules (Tarjan's strongly connected components of more than one module, or a self-import). */
function cycles(graph: Map<string, string[]>): string[][] {
	let counter = 0
	const index = new Map<string, number>()
	const low = new Map<string, number>()
	const stack: string[] = []
	const onStack = new Set<string>()
	const found: string[][] = []
	function visit(node: string) {
		index.set(node, counter)
		low.set(node, counter++)
		stack.push(node)
		onStack.add(node)
		for (const next of graph.get(node) ?? []) {
			if (!index.has(next)) {
				visit(next)
				low.set(node, Math.min(low.get(node)!, low.get(next)!))
			} else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!))
		}
		if (low.get(node) === index.get(node)) {
			const component: string[] = []
			let member: string
			do {
				member = stack.pop()!
				onStack.delete(member)
				component.push(member)
			} while (member !== node)
			if (component.length > 1 || graph.get(node)?.includes(node)) found.push(component.map((file) => path.relative(root, file)).sort())
		}
	}
	for (const node of graph.keys()) if (!index.has(node)) visit(node)
	return found
}

test('no import cycles among app/ modules at run time', () => {
	const graph = new Map(sourceFiles(appDir).map((file) => [file, runtimeImports(file)]))
	expect(graph.size).toBeGreaterThan(100)
	expect(cycles(graph)).toEqual([])
})

test('the cycle finder finds a cycle', () => {
	const graph = new Map([
		['/a.ts', ['/b.ts']],
		['/b.ts', ['/c.ts']],
		['/c.ts', ['/a.ts']],
		['/d.ts', ['/a.ts']],
	])
	expect(cycles(graph)).toHaveLength(1)
	expect(cycles(graph)[0]).toHaveLength(3)
})
