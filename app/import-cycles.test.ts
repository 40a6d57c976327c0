import path from 'node:path'
import { folderOf, loops, runtimeImports, sourceFiles } from '../scripts/lib/import-graph.mjs'
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
	// The database (schema, client, roles), and files.
	['db', 'storage'],
	// Services on the database: users, foundation details and contact messages; limits and flash
	// notices; pictures; the documents library; PDFs made of pages, and an applicant's PDF made again.
	['domain', 'http', 'images', 'documents', 'pdf'],
	// Sessions and sign-in; shared React components.
	['auth', 'components'],
	// The form engine and programme definitions; content and the gallery.
	['forms', 'content'],
	// Consent and the privacy notice; the public-page cache; the site's frame and map (its programmes from the registry).
	['privacy', 'cache', 'site'],
	// The case store, workflow and exports.
	['cases'],
	// Messages sent out: the drivers, and the outbox, which tells of cases in their programme's and status's words.
	['notify'],
	// Institution accounts; the audit trail; the aid cycle after the study (decisions, funds, budgets).
	['accounts', 'audit', 'aid', 'verify'],
	// Backups, retention, subject access; running a programme's steps for every caller; each staff action on cases and aid, and what it tells the applicant.
	['operations', 'runner', 'casework'],
	// Route modules; start-up and the document.
	['routes', '(root)'],
]

const appDir = path.dirname(new URL(import.meta.url).pathname)
const root = path.dirname(appDir)

/** Every cycle's modules, relative to the repository. */
const cycles = (graph: Map<string, string[]>) => loops(graph).map((component) => component.map((file) => path.relative(root, file)).sort())
const importsOf = (file: string) => runtimeImports(file, appDir)

test('no import cycles among app/ modules at run time', () => {
	const graph = new Map(sourceFiles(appDir).map((file) => [file, importsOf(file)]))
	expect(graph.size).toBeGreaterThan(100)
	expect(cycles(graph)).toEqual([])
})

const folderIn = (file: string) => folderOf(file, appDir)

/** Each import from a folder to one on its floor or above, as «from => to (folder floor → folder floor)». */
function upwardImports(graph: Map<string, string[]>, floorList: readonly (readonly string[])[]): string[] {
	const floorOf = new Map(floorList.flatMap((folders, floor) => folders.map((folder) => [folder, floor] as const)))
	const found: string[] = []
	for (const [file, imports] of graph) {
		const from = folderIn(file)
		for (const target of imports) {
			const to = folderIn(target)
			if (from === to) continue
			if ((floorOf.get(to) ?? Infinity) >= (floorOf.get(from) ?? -Infinity)) {
				found.push(`${path.relative(root, file)} => ${path.relative(root, target)} (${from} ${floorOf.get(from)} → ${to} ${floorOf.get(to)})`)
			}
		}
	}
	return found
}

test('every folder of app/ is on a floor, and imports only from the floors below it', () => {
	const folders = new Set(sourceFiles(appDir).map(folderIn))
	expect([...folders].filter((folder) => !floors.some((floor) => floor.includes(folder))), 'folders not on any floor').toEqual([])
	expect(floors.flat().filter((folder) => !folders.has(folder)), 'floors naming no folder').toEqual([])
	const graph = new Map(sourceFiles(appDir).map((file) => [file, importsOf(file)]))
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

test('the README names every folder of app/ in its layout, and links every decision record', async () => {
	const fs = await import('node:fs')
	const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8')
	const folders = [...new Set(sourceFiles(appDir).map(folderIn))].filter((folder) => folder !== '(root)' && folder !== 'routes')
	expect(folders.filter((folder) => !readme.includes(`| \`app/${folder}/\``)), 'folders missing from the layout').toEqual([])
	const records = fs.readdirSync(path.join(root, 'docs/decisions')).filter((name) => /^\d{3}-/.test(name) && !name.startsWith('000-'))
	expect(records.filter((name) => !readme.includes(`(docs/decisions/${name})`)), 'decision records the README does not link').toEqual([])
})

test('routes hold no SQL: they call the folders that own the tables (docs/architecture.md)', async () => {
	const fs = await import('node:fs')
	const routes = sourceFiles(path.join(appDir, 'routes')).filter((file) => !file.endsWith('.test.ts'))
	expect(routes.length).toBeGreaterThan(50)
	const querying = routes.filter((file) => /from '(drizzle-orm|#app\/db\/schema\.ts)'/.test(fs.readFileSync(file, 'utf8')))
	expect(querying.map((file) => path.relative(root, file))).toEqual([])
})
