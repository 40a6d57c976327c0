// The part of autocannon's programmatic API the benchmarks use (scripts/lib/load-generator.ts) (the package ships no types).
declare module 'autocannon' {
	export interface Options {
		url: string
		/** Concurrent connections (default 10). */
		connections?: number
		/** Seconds to run (default 10). */
		duration?: number
		headers?: Record<string, string>
		/** Seconds before a request times out (default 10). */
		timeout?: number
		title?: string
		/** Worker threads to spread the connections over (default: none, the calling thread). */
		workers?: number
	}

	/** A histogram as autocannon reports it: latencies in ms, requests per second, bytes per second. */
	export interface Histogram {
		average: number
		mean: number
		stddev: number
		min: number
		max: number
		total: number
		p50: number
		p90: number
		p97_5: number
		p99: number
	}

	export interface Result {
		title?: string
		url: string
		/** Seconds actually run. */
		duration: number
		errors: number
		timeouts: number
		non2xx: number
		'2xx': number
		statusCodeStats: Record<string, { count: number }>
		latency: Histogram
		requests: Histogram & { sent: number }
		throughput: Histogram
	}

	export interface Instance extends PromiseLike<Result> {
		stop(): void
	}

	function autocannon(options: Options): Instance
	export default autocannon
}
