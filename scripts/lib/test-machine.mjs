// What `npm test` needs from the machine besides npm packages: a Chromium for the browser tests and
// a PostgreSQL server for the data-layer tests. It finds them, sets up what it can (Debian's
// chromium package, the local PostgreSQL cluster), and otherwise stops with the fix in one line.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'

/**
 * Debian's `chromium-headless-shell`: the same engine as its `chromium`, without the browser around
 * it (Chromium's "old headless" shell, which Playwright itself drives headless). The browser tests
 * prefer it: the same 87 page tests took 152 s of CPU in it against 492 s in the full browser
 * (docs/performance.md#the-test-run).
 */
export const chromiumShell = '/usr/bin/chromium-headless-shell'

/** Chromium builds by the names Debian, Ubuntu and Google give them, looked up on PATH. */
export const chromiumNames = ['chromium', 'chromium-browser', 'google-chrome-stable']

export const installChromiumHint =
	'Install Chromium (Debian/Ubuntu: apt-get install chromium-headless-shell, or chromium) or point CHROMIUM_PATH at a Chromium or Chrome executable.'

/** @param {string} file */
function isExecutableFile(file) {
	try {
		fs.accessSync(file, fs.constants.X_OK)
		return fs.statSync(file).isFile()
	} catch {
		return false
	}
}

/**
 * The Chromium the browser tests will drive: CHROMIUM_PATH when set (it must work, it is never
 * second-guessed), else Debian's headless shell (unless `full`: Lighthouse wants the whole
 * browser), else /usr/bin/chromium, else the first of `chromiumNames` on PATH.
 * @param {{ env?: NodeJS.ProcessEnv, isExecutable?: (file: string) => boolean, full?: boolean }} [options]
 * @returns {{ path: string } | { error: string }}
 */
export function findChromium({ env = process.env, isExecutable = isExecutableFile, full = false } = {}) {
	if (env.CHROMIUM_PATH) {
		return isExecutable(env.CHROMIUM_PATH) ? { path: env.CHROMIUM_PATH } : { error: `CHROMIUM_PATH=${env.CHROMIUM_PATH} is not an executable file. ${installChromiumHint}` }
	}
	if (!full && isExecutable(chromiumShell)) return { path: chromiumShell }
	if (isExecutable('/usr/bin/chromium')) return { path: '/usr/bin/chromium' }
	const dirs = (env.PATH ?? '').split(path.delimiter).filter(Boolean)
	for (const name of chromiumNames) {
		for (const dir of dirs) {
			const candidate = path.join(dir, name)
			if (isExecutable(candidate)) return { path: candidate }
		}
	}
	return { error: `No Chromium found for the browser tests. ${installChromiumHint}` }
}

/** Debian or Ubuntu, as root, with apt-get: the machine can install Debian's chromium itself. */
function canInstallWithApt() {
	return process.platform === 'linux' && fs.existsSync('/etc/debian_version') && process.getuid?.() === 0 && hasCommand('apt-get')
}

/** @param {string} name */
function hasCommand(name) {
	return (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir && isExecutableFile(path.join(dir, name)))
}

/**
 * Installs a Debian package, saying so in one line; an error message when apt-get fails.
 * @param {string} name
 * @returns {string | null}
 */
function aptInstall(name) {
	console.log(`▶ No ${name} on this machine: installing Debian's ${name} package (apt-get install ${name})`)
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
	const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env })
	const install = update.status === 0 ? spawnSync('apt-get', ['install', '-y', '-qq', name], { stdio: 'inherit', env }) : update
	return install.status === 0 ? null : `apt-get could not install ${name} (exit ${install.status}).`
}

/**
 * Finds one Chromium, installing Debian's package when that is possible. Returns its path, or an
 * error message when there is none.
 * @param {boolean} full the whole browser (`chromium`), not the headless shell
 * @returns {{ path: string } | { error: string }}
 */
function ensureOne(full) {
	const found = findChromium({ full })
	const wanted = full ? '/usr/bin/chromium' : chromiumShell
	if (process.env.CHROMIUM_PATH || ('path' in found && found.path === wanted) || !canInstallWithApt()) return found
	const failed = aptInstall(full ? 'chromium' : 'chromium-headless-shell')
	if (failed && 'error' in found) return { error: `${failed} ${installChromiumHint}` }
	if (failed && 'path' in found) console.warn(`${failed} The browser tests drive ${found.path} instead, at about three times the CPU.`)
	return findChromium({ full })
}

/**
 * Finds Chromium, installing Debian's packages when that is possible: the whole browser (Lighthouse,
 * and the tests of its PDF viewer) and, for every other browser test, its headless shell. Sets
 * CHROMIUM_FULL_PATH and CHROMIUM_PATH (the shell, or the whole browser when there is no shell).
 * Returns an error message when the run cannot go on.
 * @param {{ full?: boolean }} [options] the whole browser only (Lighthouse)
 * @returns {string | null}
 */
export function ensureChromium({ full = false } = {}) {
	const whole = ensureOne(true)
	if ('error' in whole) return whole.error
	const shell = full ? whole : ensureOne(false)
	if ('error' in shell) return shell.error
	process.env.CHROMIUM_FULL_PATH ??= whole.path
	process.env.CHROMIUM_PATH = shell.path
	return null
}

/** The whole browser for the tests that need it (its PDF viewer): as ensureChromium found it, else as findChromium finds it. */
export function wholeChromium() {
	const found = findChromium({ full: true })
	return process.env.CHROMIUM_FULL_PATH ?? ('path' in found ? found.path : '/usr/bin/chromium')
}

/** What every browser test launches Chromium with (playwright.config.ts, and tests that need the whole browser). */
export const chromiumArgs = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync']

export const installFfmpegHint = 'Install ffmpeg (Debian/Ubuntu: apt-get install ffmpeg): the demo videos and the video gallery\'s browser test need it.'

/**
 * ffmpeg makes the demo video clips and their posters (app/content/gallery/seed-gallery.server.ts); the
 * browser test plays and seeks one. Installed from Debian when possible, else an error message.
 * @returns {string | null}
 */
export function ensureFfmpeg() {
	if (hasCommand('ffmpeg')) return null
	if (!canInstallWithApt()) return `No ffmpeg found. ${installFfmpegHint}`
	const failed = aptInstall('ffmpeg')
	if (failed) return `${failed} ${installFfmpegHint}`
	return hasCommand('ffmpeg') ? null : `No ffmpeg found after installing it. ${installFfmpegHint}`
}

export const installNginxHint = 'Install nginx (Debian/Ubuntu: apt-get install nginx): the cluster browser test balances two instances with it.'

/**
 * nginx balances the cluster browser test's two instances (scripts/lib/cluster.ts). Installed from
 * Debian when possible, else an error message.
 * @returns {string | null}
 */
export function ensureNginx() {
	if (isExecutableFile('/usr/sbin/nginx') || hasCommand('nginx')) return null
	if (!canInstallWithApt()) return `No nginx found. ${installNginxHint}`
	const failed = aptInstall('nginx')
	if (failed) return `${failed} ${installNginxHint}`
	return isExecutableFile('/usr/sbin/nginx') ? null : `No nginx found after installing it. ${installNginxHint}`
}

/**
 * @param {string} host
 * @param {number} port
 * @returns {Promise<boolean>}
 */
export function answers(host, port, timeoutMs = 1000) {
	return new Promise((resolve) => {
		const socket = net.connect({ host, port })
		const done = (/** @type {boolean} */ ok) => {
			socket.destroy()
			resolve(ok)
		}
		socket.setTimeout(timeoutMs, () => done(false))
		socket.once('connect', () => done(true))
		socket.once('error', () => done(false))
	})
}

/**
 * When nothing answers at the test database's address and this machine has a local PostgreSQL
 * cluster (Debian's pg_ctlcluster), starts the newest one and waits for it. Anything else is left to
 * the data-layer tests' own loud failure, which says how to fix it.
 * @param {string} url
 */
export async function ensurePostgres(url) {
	const { hostname, port } = new URL(url)
	const host = hostname.replace(/^\[|\]$/g, '')
	const portNumber = Number(port || 5432)
	if (await answers(host, portNumber)) return
	if (!['127.0.0.1', 'localhost', '::1'].includes(host) || !hasCommand('pg_ctlcluster') || !fs.existsSync('/etc/postgresql')) return
	const versions = fs.readdirSync('/etc/postgresql').filter((name) => /^\d+(\.\d+)?$/.test(name))
	const version = versions.sort((a, b) => Number(b) - Number(a))[0]
	if (!version) return
	console.log(`▶ PostgreSQL is not answering on ${host}:${portNumber}: starting the local cluster (pg_ctlcluster ${version} main start)`)
	spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start'], { stdio: 'inherit' })
	for (let i = 0; i < 30 && !(await answers(host, portNumber)); i++) await new Promise((resolve) => setTimeout(resolve, 1000))
}
