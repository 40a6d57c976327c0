// Writes app/utils/common-passwords.ts: the 10,000 most common passwords of the breached-password
// corpora that @zxcvbn-ts/language-common (MIT) gathers, most common first. Run again only to take
// a newer release of that package: `node scripts/common-passwords.mjs`.
import fs from 'node:fs'
import { createRequire } from 'node:module'

export const COMMON_PASSWORDS = 10_000
const require = createRequire(import.meta.url)
const source = require.resolve('@zxcvbn-ts/language-common/src/passwords.json')
const { version } = JSON.parse(fs.readFileSync(new URL('../node_modules/@zxcvbn-ts/language-common/package.json', import.meta.url), 'utf8'))

/** @returns {string[]} */
export function commonPasswords() {
	return JSON.parse(fs.readFileSync(source, 'utf8')).slice(0, COMMON_PASSWORDS)
}

if (import.meta.url === `file://${process.argv[1]}`) {
	// A module of one string, one password a line: Vite, Vitest and tsx (the operator scripts) all load it as it is.
	const header = `// The ${COMMON_PASSWORDS} most common passwords, from @zxcvbn-ts/language-common ${version} (MIT), written by scripts/common-passwords.mjs\n`
	fs.writeFileSync(new URL('../app/utils/common-passwords.ts', import.meta.url), `${header}export default ${JSON.stringify(commonPasswords().join('\n'))}\n`)
	console.log('wrote app/utils/common-passwords.ts')
}
