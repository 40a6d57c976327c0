import { UsageError } from './bench-options.ts'
import { killAllNow } from './bench-processes.ts'

export interface BenchmarkRun<O> {
	/** Parses the command line; what it throws is printed (message only) and the process exits 1. */
	readOptions: () => O
	timeoutSeconds: (options: O) => number
	/** The benchmark; true when every measurement succeeded. */
	main: (options: O) => Promise<boolean>
	/** Stops whatever the run started; awaited once before exiting. */
	cleanUp: () => Promise<void>
	/** The controller the run watches; aborted on the deadline or the first SIGINT/SIGTERM. */
	abort: AbortController
	/** Called right after each abort, to stop work that does not watch the signal. */
	onAbort?: () => void
	/** Errors besides UsageError whose message alone is printed (no stack). */
	quiet?: (error: Error) => boolean
}

/**
 * Runs a benchmark script's `main` and exits with 0 when it succeeds, 1 otherwise, after `cleanUp`.
 * Past the deadline (or on SIGINT/SIGTERM) the run is aborted and cleans up; a second signal cleans up
 * at once, and if cleanup hangs for 60 s after the deadline every process started is killed.
 */
export function runBenchmark<O>({ readOptions, timeoutSeconds, main, cleanUp, abort, onAbort, quiet }: BenchmarkRun<O>): void {
	let finishing = false
	async function finish(code: number) {
		if (finishing) return
		finishing = true
		await cleanUp()
		clearTimeout(deadline)
		process.exit(code)
	}

	let options: O
	try {
		options = readOptions()
	} catch (error) {
		console.error(error instanceof Error ? error.message : error)
		process.exit(1)
	}
	// Bounded run: past the deadline everything in flight is aborted; if cleanup itself hangs, exit anyway.
	const deadline = setTimeout(
		() => {
			abort.abort(new Error(`timed out after ${timeoutSeconds(options)} s`))
			onAbort?.()
			setTimeout(() => {
				killAllNow()
				console.error('Cleanup did not finish in time.')
				process.exit(1)
			}, 60_000).unref()
		},
		timeoutSeconds(options) * 1000,
	)
	for (const signal of ['SIGINT', 'SIGTERM'] as const) {
		process.on(signal, () => {
			// The run stops at its next step and cleans up; a second signal cleans up at once.
			if (abort.signal.aborted) return void finish(1)
			abort.abort(new Error(`stopped by ${signal}`))
			onAbort?.()
		})
	}

	main(options).then(
		(ok) => finish(ok ? 0 : 1),
		(error: unknown) => {
			// Stopped (deadline, signal): the reason, not whatever the interrupted step threw.
			const reason: unknown = abort.signal.aborted ? abort.signal.reason : error
			const detail = reason instanceof Error ? (abort.signal.aborted || reason instanceof UsageError || quiet?.(reason) ? reason.message : (reason.stack ?? reason.message)) : String(reason)
			console.error(`The benchmark did not complete: ${detail}`)
			return finish(1)
		},
	)
}
