import { isCalendarDay, toWesternDigits } from '#app/text/format.ts'
import { gregorianOfHijri, hijriMonthName, hijriOfIsoDay, UMM_AL_QURA_YEARS } from '#app/text/hijri.ts'
import * as m from '#app/text/messages.ts'

// A date typed in either calendar (a birth date as the national ID card shows it, in Hijri):
// day, month and year in one box, beside a choice of هجري or ميلادي (`${name}Calendar`). The answer
// kept is the Gregorian day, yyyy-mm-dd, as every other date; the calendar chosen is kept beside it
// only so the form shows the date back as it was typed (docs/product.md#dates).

export type Calendar = 'hijri' | 'gregorian'

export const calendarOptions = [
	{ value: 'hijri', label: 'هجري' },
	{ value: 'gregorian', label: 'ميلادي' },
] as const satisfies readonly { value: Calendar; label: string }[]

/** The name of the calendar choice posted beside a date field. */
export const calendarFieldName = (name: string) => `${name}Calendar`

/** Which calendar a posted or stored choice names: Gregorian unless it says Hijri (an answer kept before the choice existed). */
export const calendarOf = (value: unknown): Calendar => (value === 'hijri' ? 'hijri' : 'gregorian')

const pad = (value: number) => String(value).padStart(2, '0')

/** A kept day as it is typed in the calendar chosen, day first: «14/06/1405». */
export function typedDate(iso: string, calendar: Calendar): string {
	if (!isCalendarDay(iso)) return iso
	const { year, month, day } = calendar === 'hijri' ? hijriOfIsoDay(iso) : { year: Number(iso.slice(0, 4)), month: Number(iso.slice(5, 7)), day: Number(iso.slice(8, 10)) }
	return `${pad(day)}/${pad(month)}/${year}`
}

export type ParsedDate = { ok: true; day: string } | { ok: false; message: string }

const STORED = /^\d{4}-\d{2}-\d{2}$/

/**
 * What was typed, read in the calendar chosen: day/month/year or year/month/day, separated by «/»,
 * «-», «.» or spaces, in Western or Arabic-Indic digits. The kept form (yyyy-mm-dd with a year
 * after the Hijri table) reads as itself whatever the choice, so a stored answer parses to itself.
 */
export function parseCalendarDate(typed: string, calendar: Calendar): ParsedDate {
	const text = toWesternDigits(typed).trim()
	if (STORED.test(text) && Number(text.slice(0, 4)) > UMM_AL_QURA_YEARS.last) return isCalendarDay(text) ? { ok: true, day: text } : { ok: false, message: m.invalidDate }
	const parts = text.split(/[\s/.\-،؍]+/)
	if (parts.length !== 3 || !parts.every((part) => /^\d{1,4}$/.test(part))) return { ok: false, message: m.dateParts(calendar) }
	const yearFirst = parts[0]!.length === 4
	if (!yearFirst && parts[2]!.length !== 4) return { ok: false, message: m.dateParts(calendar) }
	const [year, month, day] = (yearFirst ? parts : [...parts].reverse()).map(Number) as [number, number, number]
	const hijriYear = year >= UMM_AL_QURA_YEARS.first && year <= UMM_AL_QURA_YEARS.last
	if (month < 1 || month > 12) return { ok: false, message: m.monthOutOfRange }
	if (calendar === 'hijri') {
		if (!hijriYear) return { ok: false, message: year > UMM_AL_QURA_YEARS.last ? m.yearOfOtherCalendar(year, 'gregorian') : m.hijriYearOutOfRange(UMM_AL_QURA_YEARS.first, UMM_AL_QURA_YEARS.last) }
		const gregorian = gregorianOfHijri({ year, month, day })
		return gregorian ? { ok: true, day: gregorian } : { ok: false, message: day === 30 ? m.noSuchHijriDay(hijriMonthName(year, month), year) : m.invalidDate }
	}
	if (hijriYear) return { ok: false, message: m.yearOfOtherCalendar(year, 'hijri') }
	const iso = `${year}-${pad(month)}-${pad(day)}`
	return year > UMM_AL_QURA_YEARS.last && isCalendarDay(iso) ? { ok: true, day: iso } : { ok: false, message: m.invalidDate }
}
