// Builds the app when build/ is missing or was built from other sources, so `npm start` on a
// fresh clone (or after a pull) serves what is checked out.
import { createHash } from 'node:crypto'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const inputs = ['app', 'public', 'vite', 'package-lock.json', 'vite.config.ts', 'react-router.config.ts', 'tsconfig.json']
const stampFile = path.join(root, 'build', '.source-hash')

/**
 * @param {string} entry
 * @returns {Generator<string>}
 */
function* files(entry) {
	const full = path.join(root, entry)
	if (!fs.existsSync(full)) return
	if (fs.statSync(full).isDirectory()) {
		for (const name of fs.readdirSync(full).sort()) yield* files(path.join(entry, name))
	} else if (!entry.endsWith('.test.ts')) {
		yield entry
	}
}

export function sourceHash() {
	const hash = createHash('sha256')
	for (const input of inputs) {
		for (const file of files(input)) {
			hash.update(file).update('\0').update(fs.readFileSync(path.join(root, file))).update('\0')
		}
	}
	return hash.digest('hex')
}

export function buildIfNeeded() {
	const wanted = sourceHash()
	const built = fs.existsSync(path.join(root, 'build/server/index.js')) && fs.existsSync(stampFile)
		? fs.readFileSync(stampFile, 'utf8').trim()
		: ''
	if (built === wanted) return
	console.log('Building Ataa…')
	const result = spawnSync(process.execPath, [path.join(root, 'node_modules/@react-router/dev/bin.js'), 'build'], {
		cwd: root,
		stdio: 'inherit',
		env: { ...process.env, NODE_ENV: 'production' },
	})
	if (result.status !== 0) {
		console.error('The build failed.')
		process.exit(result.status ?? 1)
	}
	fs.writeFileSync(stampFile, wanted)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) buildIfNeeded()
