// The processes a benchmark starts (the app's server, nginx, php-fpm): each is registered when it is
// spawned and stopped by its own pid, so a failure or Ctrl-C anywhere still leaves none behind.
// Also what /proc says about them: CPU time of a process and its descendants, resident memory.
import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process'
import fs from 'node:fs'

export interface Service {
	name: string
	child: ChildProcess
	pid: number
	/** The last lines it wrote to stderr (and stdout, when piped), for a report when something fails. */
	log: string[]
	exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
	/** Set once it has exited. */
	exit: { code: number | null; signal: NodeJS.Signals | null } | undefined
}

const running = new Set<Service>()

/** Spawns a long-running process with its output kept in `log` (last 200 lines) and registers it for stopAll(). */
export function startService(name: string, command: string, args: string[], options: SpawnOptions = {}): Service {
	const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options })
	if (child.pid === undefined) throw new Error(`${name}: could not start ${command}`)
	const service: Service = {
		name,
		child,
		pid: child.pid,
		log: [],
		exit: undefined,
		exited: new Promise((resolve) => {
			child.once('exit', (code, signal) => {
				service.exit = { code, signal }
				running.delete(service)
				resolve({ code, signal })
			})
		}),
	}
	child.once('error', (error) => service.log.push(`${name}: ${error.message}`))
	for (const stream of [child.stdout, child.stderr]) {
		stream?.setEncoding('utf8')
		stream?.on('data', (chunk: string) => {
			service.log.push(...chunk.split('\n').filter(Boolean))
			if (service.log.length > 200) service.log.splice(0, service.log.length - 200)
		})
	}
	running.add(service)
	return service
}

/** Sends `signal` and waits; SIGKILL after `graceMs`. Returns at once if it has already exited. */
export async function stopService(service: Service, signal: NodeJS.Signals = 'SIGTERM', graceMs = 15_000): Promise<void> {
	if (service.exit) return
	service.child.kill(signal)
	const killed = setTimeout(() => service.child.kill('SIGKILL'), graceMs)
	await service.exited
	clearTimeout(killed)
}

/** Stops every registered service still running, newest first. */
export async function stopAll(): Promise<void> {
	for (const service of [...running].reverse()) {
		try {
			await stopService(service)
		} catch (error) {
			console.error(`Cleanup: could not stop ${service.name}:`, error instanceof Error ? error.message : error)
		}
	}
}

/** Last resort when cleanup itself hangs: SIGKILL whatever is still registered, without waiting. */
export function killAllNow(): void {
	for (const service of running) service.child.kill('SIGKILL')
}

/** Polls `url` until it answers `status` (default 200); fails if `service` exits first or after `timeoutMs`. */
export async function waitForHttp(url: string, service: Service | undefined, timeoutMs: number, signal?: AbortSignal): Promise<void> {
	const deadline = Date.now() + timeoutMs
	for (;;) {
		signal?.throwIfAborted()
		if (service?.exit) throw new Error(`${service.name} exited (code ${service.exit.code}, signal ${service.exit.signal}) before answering ${url}`)
		try {
			const response = await fetch(url, { signal: AbortSignal.timeout(2_000) })
			await response.arrayBuffer()
			if (response.status === 200) return
		} catch {
			// Not listening yet.
		}
		if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${Math.round(timeoutMs / 1000)} s`)
		await new Promise((resolve) => setTimeout(resolve, 250))
	}
}

/**
 * Waits until `pid` and its descendants have used less than `share` of one core over the last
 * `windowMs` (start-up work done in the background, such as the demo pictures' variants, must not
 * be measured as the requests'). Fails after `timeoutMs`, or if `service` exits first.
 */
export async function waitUntilQuiet(pid: number, options: { windowMs?: number; share?: number; timeoutMs: number; service?: Service; signal?: AbortSignal }): Promise<number> {
	const windowMs = options.windowMs ?? 3_000
	const share = options.share ?? 0.1
	const started = performance.now()
	const samples: { at: number; cpu: number }[] = []
	for (;;) {
		options.signal?.throwIfAborted()
		if (options.service?.exit) throw new Error(`${options.service.name} exited while starting up`)
		const at = performance.now()
		samples.push({ at, cpu: treeCpuMs([pid]) })
		while (samples.length > 1 && at - samples[1]!.at >= windowMs) samples.shift()
		const first = samples[0]!
		if (at - first.at >= windowMs && (samples.at(-1)!.cpu - first.cpu) / (at - first.at) < share) return (at - started) / 1000
		if (at - started > options.timeoutMs) throw new Error(`pid ${pid} was still busy ${Math.round(options.timeoutMs / 1000)} s after it answered`)
		await new Promise((resolve) => setTimeout(resolve, 250))
	}
}

// ——— /proc ———

let ticksPerSecond: number | undefined

/** Clock ticks per second of /proc's CPU times (getconf CLK_TCK; 100 on Linux in practice). */
function clockTicks(): number {
	if (ticksPerSecond === undefined) {
		const answer = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })
		const ticks = Number(answer.stdout?.trim())
		ticksPerSecond = Number.isInteger(ticks) && ticks > 0 ? ticks : 100
	}
	return ticksPerSecond
}

interface ProcStat {
	pid: number
	ppid: number
	/** utime + stime of the process (all its threads), plus cutime + cstime of its children it has reaped, in ticks. */
	ticks: number
}

function readStat(pid: number): ProcStat | undefined {
	let text: string
	try {
		text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
	} catch {
		return undefined
	}
	// The command name is in parentheses and may hold spaces: the fields start after the last ')'.
	const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
	// fields[0] is field 3 (state): ppid is field 4, utime..cstime are fields 14..17.
	const number = (field: number) => Number(fields[field - 3])
	return { pid, ppid: number(4), ticks: number(14) + number(15) + number(16) + number(17) }
}

function allStats(): ProcStat[] {
	const stats: ProcStat[] = []
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue
		const stat = readStat(Number(entry))
		if (stat) stats.push(stat)
	}
	return stats
}

/**
 * CPU milliseconds used so far by each of `roots` and all their descendants. A descendant that has
 * exited and been reaped is still counted, in its parent's cutime/cstime; one still unreaped is not.
 */
export function treeCpuMs(roots: readonly number[]): number {
	const stats = allStats()
	const children = new Map<number, ProcStat[]>()
	for (const stat of stats) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), stat])
	const byPid = new Map(stats.map((stat) => [stat.pid, stat]))
	let ticks = 0
	const seen = new Set<number>()
	const visit = (stat: ProcStat) => {
		if (seen.has(stat.pid)) return
		seen.add(stat.pid)
		ticks += stat.ticks
		for (const child of children.get(stat.pid) ?? []) visit(child)
	}
	for (const root of roots) {
		const stat = byPid.get(root)
		if (stat) visit(stat)
	}
	return (ticks * 1000) / clockTicks()
}

/** CPU milliseconds used so far by each pid on its own (its threads included), for processes shared with others. */
export function processCpuMs(pids: readonly number[]): Map<number, number> {
	const result = new Map<number, number>()
	for (const pid of pids) {
		const stat = readStat(pid)
		if (stat) result.set(pid, (stat.ticks * 1000) / clockTicks())
	}
	return result
}

/** The pids of running processes whose command name is one of `names` (/proc/<pid>/comm). */
export function pidsNamed(names: readonly string[]): number[] {
	const pids: number[] = []
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue
		try {
			if (names.includes(fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim())) pids.push(Number(entry))
		} catch {
			// Gone meanwhile.
		}
	}
	return pids
}

/** Resident memory of a process and its descendants, in MB (VmRSS, kB / 1000). */
export function treeRssMb(root: number): number {
	const stats = allStats()
	const pids = new Set<number>([root])
	let grew = true
	while (grew) {
		grew = false
		for (const stat of stats) {
			if (!pids.has(stat.pid) && pids.has(stat.ppid)) {
				pids.add(stat.pid)
				grew = true
			}
		}
	}
	let kb = 0
	for (const pid of pids) {
		try {
			const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+)\s+kB/m)
			if (line) kb += Number(line[1])
		} catch {
			// Gone meanwhile.
		}
	}
	return kb / 1000
}
