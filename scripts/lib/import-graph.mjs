// The run-time import graph of app/'s modules, for app/import-cycles.test.ts (no cycles, floors
// kept) and scripts/folder-loops.mjs (the folders that import each other in a loop).
import fs from 'node:fs'
import path from 'node:path'
import ts from 'typescript'

/** The modules under `dir`, tests and generated route types left out. @param {string} dir @returns {string[]} */
export function sourceFiles(dir) {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name)
		if (entry.isDirectory()) return entry.name === '+types' ? [] : sourceFiles(full)
		return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : []
	})
}

/**
 * The app modules `file` loads when it runs: static imports and re-exports, not type-only ones
 * (`import { type X }` keeps the load under verbatimModuleSyntax, and counts).
 * @param {string} file @param {string} appDir @returns {string[]}
 */
export function runtimeImports(file, appDir) {
	const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false)
	/** @type {string[]} */
	const specifiers = []
	for (const statement of source.statements) {
		if (ts.isImportDeclaration(statement)) {
			if (statement.importClause?.isTypeOnly) continue
			specifiers.push(/** @type {ts.StringLiteral} */ (statement.moduleSpecifier).text)
		} else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && !statement.isTypeOnly) {
			specifiers.push(/** @type {ts.StringLiteral} */ (statement.moduleSpecifier).text)
		}
	}
	return specifiers.flatMap((specifier) => {
		const resolved = specifier.startsWith('#app/') ? path.join(appDir, specifier.slice(5)) : specifier.startsWith('.') ? path.resolve(path.dirname(file), specifier) : null
		if (!resolved) return []
		return [resolved, `${resolved}.ts`, `${resolved}.tsx`].filter((candidate) => candidate.startsWith(appDir) && fs.existsSync(candidate) && fs.statSync(candidate).isFile()).slice(0, 1)
	})
}

/** app/'s folder of a module: its first directory, or `(root)`. @param {string} file @param {string} appDir @returns {string} */
export function folderOf(file, appDir) {
	const parts = path.relative(appDir, file).split(path.sep)
	return parts.length === 1 ? '(root)' : (parts[0] ?? '(root)')
}

/**
 * The loops of a graph: Tarjan's strongly connected components of more than one node, or a node
 * that points at itself.
 * @param {Map<string, readonly string[]>} graph @returns {string[][]}
 */
export function loops(graph) {
	let counter = 0
	/** @type {Map<string, number>} */
	const index = new Map()
	/** @type {Map<string, number>} */
	const low = new Map()
	/** @type {string[]} */
	const stack = []
	const onStack = new Set()
	/** @type {string[][]} */
	const found = []
	/** @param {string} node */
	function visit(node) {
		index.set(node, counter)
		low.set(node, counter++)
		stack.push(node)
		onStack.add(node)
		for (const next of graph.get(node) ?? []) {
			if (!index.has(next)) {
				visit(next)
				low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0))
			} else if (onStack.has(next)) low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0))
		}
		if (low.get(node) !== index.get(node)) return
		/** @type {string[]} */
		const component = []
		/** @type {string | undefined} */
		let member
		do {
			member = /** @type {string} */ (stack.pop())
			onStack.delete(member)
			component.push(member)
		} while (member !== node)
		if (component.length > 1 || graph.get(node)?.includes(node)) found.push(component.sort())
	}
	for (const node of graph.keys()) if (!index.has(node)) visit(node)
	return found
}
