// The Umm al-Qura calendar (Saudi Arabia's official Hijri calendar) both ways. Intl only formats
// (Gregorian → Hijri); a Hijri date is turned into a Gregorian day by bisecting over days, reading
// each with Intl, so both directions agree with the same table (ICU's, 1300–1600 AH).

/** A day of the Umm al-Qura calendar. */
export interface HijriDay {
	year: number
	month: number
	day: number
}

const DAY_MS = 86_400_000

// Noon UTC stands for a whole day: the Hijri day begins at sunset, but a calendar's day is reckoned
// from the civil day it matches, the same in every time zone.
const hijriNumbers = new Intl.DateTimeFormat('en-u-ca-islamic-umalqura-nu-latn', { timeZone: 'UTC', year: 'numeric', month: 'numeric', day: 'numeric' })

/** The Hijri day of a Gregorian day given as days since 1970-01-01. */
function hijriOfDayNumber(dayNumber: number): HijriDay {
	const parts = hijriNumbers.formatToParts(dayNumber * DAY_MS + DAY_MS / 2)
	const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((part) => part.type === type)!.value)
	return { year: get('year'), month: get('month'), day: get('day') }
}

const order = ({ year, month, day }: HijriDay) => year * 10_000 + month * 100 + day

/** The Umm al-Qura date of a yyyy-mm-dd day. */
export function hijriOfIsoDay(iso: string): HijriDay {
	return hijriOfDayNumber(Math.floor(Date.parse(`${iso}T00:00:00Z`) / DAY_MS))
}

/** The years in which ICU's Umm al-Qura table is the official one; outside it Intl falls back to arithmetic. */
export const UMM_AL_QURA_YEARS = { first: 1300, last: 1600 } as const

// 1 Muharram 1 AH was Friday 16 July 622 (Julian), 19 July 622 in the proleptic Gregorian calendar.
const EPOCH_DAY = Math.floor(Date.UTC(622, 6, 19) / DAY_MS)
const MEAN_YEAR = 354.367_06
const MEAN_MONTH = MEAN_YEAR / 12

/**
 * The Gregorian day (yyyy-mm-dd) of an Umm al-Qura date, or null when there is no such day (the
 * 30th of a month of 29 days, a 13th month) or the year is outside the table.
 */
export function gregorianOfHijri({ year, month, day }: HijriDay): string | null {
	if (![year, month, day].every(Number.isInteger)) return null
	if (year < UMM_AL_QURA_YEARS.first || year > UMM_AL_QURA_YEARS.last || month < 1 || month > 12 || day < 1 || day > 30) return null
	const target = order({ year, month, day })
	// The mean lengths miss by a few days at most; two months either side is more than enough.
	const estimate = EPOCH_DAY + Math.round((year - 1) * MEAN_YEAR + (month - 1) * MEAN_MONTH + day - 1)
	let low = estimate - 60
	let high = estimate + 60
	// The first day whose Hijri date is not before the target.
	while (low < high) {
		const middle = Math.floor((low + high) / 2)
		if (order(hijriOfDayNumber(middle)) < target) low = middle + 1
		else high = middle
	}
	if (order(hijriOfDayNumber(low)) !== target) return null
	return new Date(low * DAY_MS).toISOString().slice(0, 10)
}

const monthNames = new Intl.DateTimeFormat('ar-SA-u-nu-latn-ca-islamic-umalqura', { timeZone: 'UTC', month: 'long' })

/** The name of a month of a Hijri year, as dates are written: «جمادى الآخرة». */
export function hijriMonthName(year: number, month: number): string {
	const first = gregorianOfHijri({ year, month, day: 1 })
	return first ? monthNames.format(Date.parse(`${first}T12:00:00Z`)) : String(month)
}

/**
 * The first and last Gregorian days (yyyy-mm-dd) of an Umm al-Qura year: 1 Muharram to the day
 * before the next year's 1 Muharram (the zakat register and the reports by Hijri year); null outside
 * the table.
 */
export function hijriYearBounds(year: number): { from: string; to: string } | null {
	const from = gregorianOfHijri({ year, month: 1, day: 1 })
	const next = gregorianOfHijri({ year: year + 1, month: 1, day: 1 })
	if (!from || !next) return null
	return { from, to: new Date(Date.parse(`${next}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10) }
}
