import { describe, expect, test } from 'vitest'
import { gregorianOfHijri, hijriOfIsoDay, hijriYearBounds, UMM_AL_QURA_YEARS } from '#app/text/hijri.ts'

const DAY_MS = 86_400_000
const isoDays = (from: string, to: string) => {
	const days: string[] = []
	for (let at = Date.parse(`${from}T00:00:00Z`); at <= Date.parse(`${to}T00:00:00Z`); at += DAY_MS) days.push(new Date(at).toISOString().slice(0, 10))
	return days
}

describe('Umm al-Qura', () => {
	test.each([
		// Dates the Umm al-Qura calendar published: Ramadan 1447 began on Wednesday 18 February 2026,
		// Ramadan 1446 on Saturday 1 March 2025, the year 1447 on Thursday 26 June 2025.
		[{ year: 1447, month: 9, day: 1 }, '2026-02-18'],
		[{ year: 1446, month: 9, day: 1 }, '2025-03-01'],
		[{ year: 1447, month: 1, day: 1 }, '2025-06-26'],
		[{ year: 1448, month: 6, day: 19 }, '2026-11-29'],
		[{ year: 1405, month: 1, day: 1 }, '1984-09-26'],
	])('%o is %s', (hijri, gregorian) => {
		expect(gregorianOfHijri(hijri)).toBe(gregorian)
		expect(hijriOfIsoDay(gregorian)).toEqual(hijri)
	})

	test('every day from 2024 to 2027 and of 1984 goes to Hijri and back to itself', () => {
		for (const day of [...isoDays('2024-01-01', '2027-12-31'), ...isoDays('1984-01-01', '1984-12-31')]) expect(gregorianOfHijri(hijriOfIsoDay(day))).toBe(day)
	})

	test('each month of the table begins the day after the last day of the one before', () => {
		for (let year = UMM_AL_QURA_YEARS.first + 1; year <= UMM_AL_QURA_YEARS.last; year += 23) {
			for (let month = 1; month <= 12; month++) {
				const first = gregorianOfHijri({ year, month, day: 1 })!
				const before = new Date(Date.parse(`${first}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10)
				const last = hijriOfIsoDay(before)
				// A month has 29 or 30 days: its 30th exists only when it is the last day.
				expect(last.day === 29 || last.day === 30).toBe(true)
				expect(gregorianOfHijri(last)).toBe(before)
				if (last.day === 29) expect(gregorianOfHijri({ ...last, day: 30 })).toBeNull()
			}
		}
	})

	test('a day that is not in the calendar is refused', () => {
		// Some month of 1447 has 29 days (Intl says which); its 30th does not exist.
		const short = Array.from({ length: 12 }, (_, index) => index + 1).find((month) => {
			const next = gregorianOfHijri(month === 12 ? { year: 1448, month: 1, day: 1 } : { year: 1447, month: month + 1, day: 1 })!
			return hijriOfIsoDay(new Date(Date.parse(`${next}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10)).day === 29
		})!
		expect(gregorianOfHijri({ year: 1447, month: short, day: 30 })).toBeNull()
		for (const day of [
			{ year: 1447, month: 13, day: 1 },
			{ year: 1447, month: 0, day: 1 },
			{ year: 1447, month: 1, day: 0 },
			{ year: 1447, month: 1, day: 31 },
			{ year: 1447.5, month: 1, day: 1 },
			{ year: UMM_AL_QURA_YEARS.first - 1, month: 12, day: 1 },
			{ year: UMM_AL_QURA_YEARS.last + 1, month: 1, day: 1 },
		])
			expect(gregorianOfHijri(day)).toBeNull()
	})

	test('a Hijri year runs from its 1 Muharram to the eve of the next: the zakat register\'s years', () => {
		// Umm al-Qura: 1 Muharram 1447 was Thursday 26 June 2025, 1 Muharram 1448 Tuesday 16 June 2026.
		expect(hijriYearBounds(1447)).toEqual({ from: '2025-06-26', to: '2026-06-15' })
		expect(hijriYearBounds(1448)!.from).toBe('2026-06-16')
		for (let year = 1440; year <= 1460; year++) {
			const { from, to } = hijriYearBounds(year)!
			expect(hijriOfIsoDay(from)).toEqual({ year, month: 1, day: 1 })
			expect(hijriOfIsoDay(to)).toMatchObject({ year, month: 12 })
			// The next year starts the day after; a year has 354 or 355 days.
			expect(Date.parse(hijriYearBounds(year + 1)!.from) - Date.parse(to)).toBe(DAY_MS)
			expect([354, 355]).toContain((Date.parse(to) - Date.parse(from)) / DAY_MS + 1)
		}
		expect(hijriYearBounds(UMM_AL_QURA_YEARS.last)).toBeNull()
		expect(hijriYearBounds(UMM_AL_QURA_YEARS.first - 1)).toBeNull()
	})
})
