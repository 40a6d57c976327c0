import { countOf, days } from '#app/text/arabic-count.ts'

const DAY_MS = 86_400_000

/** How long a case has waited since its last change, in whole days: «اليوم», «يومين», «12 يوماً». */
export function waitedFor(since: Date | string, now: Date = new Date()): string {
	const elapsed = Math.floor((now.getTime() - new Date(since).getTime()) / DAY_MS)
	return elapsed <= 0 ? 'اليوم' : countOf(elapsed, days)
}
