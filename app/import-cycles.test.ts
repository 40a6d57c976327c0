import fs from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { expect, test } from 'vitest'

// No module under app/ may import itself back through others at run time: a cycle makes the order
// in which modules load decide whether a value is there yet. Type-only imports vanish at build and
// do not count; `import { type X }` keeps the module load (verbatimModuleSyntax) and does.
//
// And the folders of app/ stand on floors (docs/architecture.md): a module imports from its own
// folder or from a folder on a lower floor, never from its floor or above. So no two folders can
// import each other, however indirectly, and a leaf stays a leaf.

/** The floors, lowest first. Every folder of app/ is on one; `(root)` is app/'s own files (start-up, the document, the route table). */
const floors: readonly (readonly string[])[] = [
	// Arabic words, numbers and dates: the messages, the plural helper, formatting.
	['text'],
	// Helpers that keep no state: environment, log, cookies, origin checks, password hashing, pagination.
	['utils'],
	// The database (schema, client, roles), files, and messages sent out.
	['db', 'storage', 'notify'],
	// Services on the database: users, foundation details and contact messages; limits and flash
	// notices; pictures; the documents library.
	['domain', 'http', 'images', 'documents'],
	// Sessions and sign-in; shared React components.
	['auth', 'components'],
	// The form engine and programme definitions; content and the gallery.
	['forms', 'content'],
	// Consent and the privacy notice; the public-page cache; the site's frame and map (its programmes from the registry).
	['privacy', 'cache', 'site'],
	// The case store, workflow and exports.
	['cases'],
	// Institution accounts; the audit trail.
	['accounts', 'audit'],
	// Backups, retention, subject access; running a programme's steps for every caller.
	['operations', 'runner'],
	// Route modules; start-up and the document.
	['routes', '(root)'],
]

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

/** app/'s folder of a module: its first directory, or `(root)`. */
const folderOf = (file: string) => {
	const parts = path.relative(appDir, file).split(path.sep)
	return parts.length === 1 ? '(root)' : parts[0]!
}

/** Each import from a folder to one on its floor or above, as «from => to (folder floor → folder floor)». */
function upwardImports(graph: Map<string, string[]>, floorList: readonly (readonly string[])[]): string[] {
	const floorOf = new Map(floorList.flatMap((folders, floor) => folders.map((folder) => [folder, floor] as const)))
	const found: string[] = []
	for (const [file, imports] of graph) {
		const from = folderOf(file)
		for (const target of imports) {
			const to = folderOf(target)
			if (from === to) continue
			if ((floorOf.get(to) ?? Infinity) >= (floorOf.get(from) ?? -Infinity)) {
				found.push(`${path.relative(root, file)} => ${path.relative(root, target)} (${from} ${floorOf.get(from)} → ${to} ${floorOf.get(to)})`)
			}
		}
	}
	return found
}

test('every folder of app/ is on a floor, and imports only from the floors below it', () => {
	const folders = new Set(sourceFiles(appDir).map(folderOf))
	expect([...folders].filter((folder) => !floors.some((floor) => floor.includes(folder))), 'folders not on any floor').toEqual([])
	expect(floors.flat().filter((folder) => !folders.has(folder)), 'floors naming no folder').toEqual([])
	const graph = new Map(sourceFiles(appDir).map((file) => [file, runtimeImports(file)]))
	expect(upwardImports(graph, floors)).toEqual([])
})

test('the floor check finds an import from a lower floor up, and one between folders of one floor', () => {
	const file = (name: string) => path.join(appDir, name)
	const graph = new Map([
		[file('utils/a.ts'), [file('db/b.ts')]],
		[file('db/b.ts'), [file('utils/c.ts')]],
		[file('storage/d.ts'), [file('db/b.ts')]],
	])
	expect(upwardImports(graph, [['utils'], ['db', 'storage']])).toEqual(['app/utils/a.ts => app/db/b.ts (utils 0 → db 1)', 'app/storage/d.ts => app/db/b.ts (storage 1 → db 1)'])
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
