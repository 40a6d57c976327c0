import { isCalendarDay, toWesternDigits } from '#app/text/format.ts'

// The days a bank's confirmation file writes, as banks and Excel write them: 2026-11-29 (or
// 2026/11/29), 29/11/2026 (or 29-11-2026, 29.11.2026; day first, as in Saudi Arabia), each with or
// without a time after it (10:15, 10:15:30, T10:15:30Z). Anything else is not read, never guessed:
// 11/29/2026 is no day of a day-first calendar, and is refused, not turned around.

const TIME = String.raw`(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:\s?[AaPp][Mm])?(?:Z|[+-]\d{2}:?\d{2})?)?`
const YEAR_FIRST = new RegExp(String.raw`^(\d{4})[-/](\d{1,2})[-/](\d{1,2})${TIME}$`)
const DAY_FIRST = new RegExp(String.raw`^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})${TIME}$`)

/** The calendar day (YYYY-MM-DD) a bank's file wrote, or null when it is none. */
export function bankDay(written: string): string | null {
	const value = toWesternDigits(written).trim()
	const yearFirst = YEAR_FIRST.exec(value)
	const dayFirst = yearFirst ? null : DAY_FIRST.exec(value)
	const [year, month, day] = yearFirst ? [yearFirst[1]!, yearFirst[2]!, yearFirst[3]!] : dayFirst ? [dayFirst[3]!, dayFirst[2]!, dayFirst[1]!] : []
	if (!year) return null
	const iso = `${year}-${month!.padStart(2, '0')}-${day!.padStart(2, '0')}`
	return isCalendarDay(iso) ? iso : null
}
