// autocannon runs that a benchmark can stop at any moment (its time limit, Ctrl-C): the run under way
// is kept, so stop() ends it, and none starts once `signal` is aborted.
import autocannon, { type Instance, type Options, type Result } from 'autocannon'

export interface LoadGenerator {
	/** One run; rejects at once when the benchmark was aborted. */
	fire: (options: Options) => Promise<Result>
	/** Ends the run under way, if any. */
	stop: () => void
}

export function loadGenerator(signal: AbortSignal): LoadGenerator {
	let current: Instance | undefined
	return {
		fire(options) {
			signal.throwIfAborted()
			const instance = autocannon({ timeout: 10, ...options })
			current = instance
			return Promise.resolve(instance).finally(() => {
				if (current === instance) current = undefined
			})
		},
		stop: () => current?.stop(),
	}
}
