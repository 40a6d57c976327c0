import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { chromiumShell, findChromium } from './test-machine.mjs'

let root: string
beforeEach(() => {
	root = fs.mkdtempSync(path.join(os.tmpdir(), 'ataa-chromium-'))
})
afterEach(() => fs.rmSync(root, { recursive: true, force: true }))

/** A fake executable (or a plain file when `executable` is false) in a directory of its own. */
function place(dir: string, name: string, executable = true): string {
	fs.mkdirSync(path.join(root, dir), { recursive: true })
	const file = path.join(root, dir, name)
	fs.writeFileSync(file, '#!/bin/sh\n', { mode: executable ? 0o755 : 0o644 })
	return file
}

/** The real check, with this machine's /usr/bin/chromium and headless shell hidden, as on a fresh machine. */
const withoutSystemChromium = (file: string) => {
	if (file === '/usr/bin/chromium' || file === chromiumShell) return false
	try {
		fs.accessSync(file, fs.constants.X_OK)
		return fs.statSync(file).isFile()
	} catch {
		return false
	}
}

describe('findChromium', () => {
	test('nothing installed: an error that says what to install and how to point CHROMIUM_PATH at it', () => {
		const result = findChromium({ env: { PATH: [path.join(root, 'empty'), path.join(root, 'bin')].join(path.delimiter) }, isExecutable: withoutSystemChromium })
		expect(result).toEqual({ error: expect.stringContaining('apt-get install chromium') })
		expect(result).toEqual({ error: expect.stringContaining('CHROMIUM_PATH') })
	})

	test('finds chromium-browser or google-chrome-stable on PATH, in that order, skipping files that are not executable', () => {
		place('a', 'chromium', false)
		const chrome = place('a', 'google-chrome-stable')
		const env = { PATH: [path.join(root, 'a'), path.join(root, 'b')].join(path.delimiter) }
		expect(findChromium({ env, isExecutable: withoutSystemChromium })).toEqual({ path: chrome })
		const browser = place('b', 'chromium-browser')
		expect(findChromium({ env, isExecutable: withoutSystemChromium })).toEqual({ path: browser })
	})

	test('/usr/bin/chromium comes before PATH', () => {
		place('a', 'chromium-browser')
		const all = (file: string) => file === '/usr/bin/chromium' || withoutSystemChromium(file)
		expect(findChromium({ env: { PATH: path.join(root, 'a') }, isExecutable: all })).toEqual({ path: '/usr/bin/chromium' })
	})

	test("Debian's headless shell comes first for the tests; Lighthouse asks for the whole browser", () => {
		const both = (file: string) => file === '/usr/bin/chromium' || file === chromiumShell || withoutSystemChromium(file)
		expect(findChromium({ env: { PATH: '' }, isExecutable: both })).toEqual({ path: chromiumShell })
		expect(findChromium({ env: { PATH: '' }, isExecutable: both, full: true })).toEqual({ path: '/usr/bin/chromium' })
		const shellOnly = (file: string) => file === chromiumShell
		expect(findChromium({ env: { PATH: '' }, isExecutable: shellOnly, full: true })).toEqual({ error: expect.stringContaining('No Chromium found') })
	})

	test('CHROMIUM_PATH wins, and a wrong one is an error rather than a silent fallback', () => {
		const mine = place('opt', 'my-chrome')
		place('a', 'chromium')
		expect(findChromium({ env: { CHROMIUM_PATH: mine, PATH: path.join(root, 'a') }, isExecutable: withoutSystemChromium })).toEqual({ path: mine })
		const result = findChromium({ env: { CHROMIUM_PATH: path.join(root, 'missing'), PATH: path.join(root, 'a') }, isExecutable: withoutSystemChromium })
		expect(result).toEqual({ error: expect.stringContaining(`CHROMIUM_PATH=${path.join(root, 'missing')} is not an executable file`) })
	})
})
