import { describe, expect, test } from 'vitest'
import { parseCalendarDate, typedDate } from './calendar-date.ts'

describe('a date typed in either calendar', () => {
	test.each([
		['22/06/1405', 'hijri', '1985-03-14'],
		['1405/06/22', 'hijri', '1985-03-14'],
		['22-6-1405', 'hijri', '1985-03-14'],
		['22 6 1405', 'hijri', '1985-03-14'],
		['1/9/1447', 'hijri', '2026-02-18'],
		['14/03/1985', 'gregorian', '1985-03-14'],
		['1985/3/14', 'gregorian', '1985-03-14'],
		['١٤/٠٣/١٩٨٥', 'gregorian', '1985-03-14'],
		// The kept form reads as itself whatever the choice.
		['1985-03-14', 'hijri', '1985-03-14'],
		['1985-03-14', 'gregorian', '1985-03-14'],
	] as const)('%s (%s) is %s', (typed, calendar, day) => {
		expect(parseCalendarDate(typed, calendar)).toEqual({ ok: true, day })
	})

	test('is shown back day first in the calendar it was typed in', () => {
		expect(typedDate('1985-03-14', 'hijri')).toBe('22/06/1405')
		expect(typedDate('1985-03-14', 'gregorian')).toBe('14/03/1985')
		expect(typedDate('2026-02-18', 'hijri')).toBe('01/09/1447')
		for (const day of ['1985-03-14', '2026-02-17', '2000-02-29']) for (const calendar of ['hijri', 'gregorian'] as const) expect(parseCalendarDate(typedDate(day, calendar), calendar)).toEqual({ ok: true, day })
	})

	test('a year of the other calendar, or no day of it, is refused', () => {
		expect(parseCalendarDate('14/03/1985', 'hijri').ok).toBe(false)
		expect(parseCalendarDate('22/06/1405', 'gregorian').ok).toBe(false)
		expect(parseCalendarDate('30/08/1447', 'hijri').ok).toBe(false)
		expect(parseCalendarDate('29/08/1447', 'hijri')).toEqual({ ok: true, day: '2026-02-17' })
		expect(parseCalendarDate('0/08/1447', 'hijri').ok).toBe(false)
		expect(parseCalendarDate('29/02/1985', 'gregorian').ok).toBe(false)
		expect(parseCalendarDate('1985', 'gregorian').ok).toBe(false)
	})
})
