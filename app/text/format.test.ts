import { describe, expect, test } from 'vitest'
import { formatDate, formatDateTime, formatGregorian, formatHijri, formatMonth, formatYear, formatMoney, formatFileSize, formatNumber, formatSaudiMobile, normaliseSaudiMobile, todayInRiyadh, toWesternDigits } from '#app/text/format.ts'

describe('dates', () => {
	// Each calendar's date holds together with no-break spaces; a line may break only between the two.
	const spaced = (text: string) => text.replace(/\u00a0/g, ' ')

	test('day, month name and year, the Gregorian first and the Umm al-Qura date beside it', () => {
		expect(spaced(formatDate('2026-11-29'))).toBe('29 نوفمبر 2026م (19 جمادى الآخرة 1448هـ)')
		expect(spaced(formatDate(new Date('2025-09-22T10:00:00Z')))).toBe('22 سبتمبر 2025م (30 ربيع الأول 1447هـ)')
		expect(spaced(formatGregorian('2024-01-05'))).toBe('5 يناير 2024م')
		expect(spaced(formatHijri('2026-02-18'))).toBe('1 رمضان 1447هـ')
	})

	test('no ordinary space inside either date, one between them', () => {
		const text = formatDate('2026-11-29')
		expect(text.split(' ')).toHaveLength(2)
		expect(text).not.toMatch(/-/)
	})

	test('the day is the day in Riyadh, not in UTC', () => {
		// 22:30 UTC on 21 Sep is 01:30 on 22 Sep in Riyadh (UTC+3).
		expect(spaced(formatGregorian(new Date('2025-09-21T22:30:00Z')))).toBe('22 سبتمبر 2025م')
		expect(todayInRiyadh(new Date('2025-09-21T22:30:00Z'))).toBe('2025-09-22')
		expect(todayInRiyadh(new Date('2025-01-05T20:59:00Z'))).toBe('2025-01-05')
		// A day written yyyy-mm-dd is that day, whatever the hour or zone.
		expect(formatDate('2025-09-22')).toBe(formatDate(new Date('2025-09-22T12:00:00+03:00')))
	})

	test('Hijri dates follow Umm al-Qura across a month boundary', () => {
		// Sha'ban 1447 had 29 days in Umm al-Qura: 17 February 2026 was its last, the 18th 1 Ramadan.
		expect(spaced(formatHijri('2026-02-17'))).toBe('29 شعبان 1447هـ')
		expect(spaced(formatHijri('2026-02-18'))).toBe('1 رمضان 1447هـ')
		expect(spaced(formatHijri('2025-03-01'))).toBe('1 رمضان 1446هـ')
	})

	test('a moment is its day in both calendars and the hour in Riyadh', () => {
		expect(spaced(formatDateTime(new Date('2026-11-29T07:30:00Z')))).toBe('29 نوفمبر 2026م (19 جمادى الآخرة 1448هـ) الساعة 10:30 صباحاً')
		expect(spaced(formatDateTime(new Date('2026-11-29T21:05:00Z')))).toBe('30 نوفمبر 2026م (20 جمادى الآخرة 1448هـ) الساعة 12:05 صباحاً')
	})

	test('a month with the Hijri months it spans', () => {
		expect(spaced(formatMonth('2026-11'))).toBe('نوفمبر 2026م (جمادى الأولى–جمادى الآخرة 1448هـ)')
		expect(spaced(formatMonth('2026-02'))).toBe('فبراير 2026م (شعبان–رمضان 1447هـ)')
		expect(spaced(formatMonth('2026-06'))).toBe('يونيو 2026م (ذو الحجة 1447هـ–محرم 1448هـ)')
		expect(formatMonth('غير شهر')).toBe('غير شهر')
	})

	test('a year with the Hijri years it spans', () => {
		expect(formatYear(2026)).toBe('2026م (1447–1448هـ)')
		expect(formatYear(2025)).toBe('2025م (1446–1447هـ)')
	})
})

describe('numbers and money', () => {
	test('numbers use Western digits with grouping', () => {
		expect(formatNumber(1234567)).toMatch(/^1.234.567$/)
	})

	test('file sizes count a kilobyte as 1000 bytes and a megabyte as 1,000,000', () => {
		expect(formatFileSize(900)).toBe('900 بايت')
		expect(formatFileSize(999)).toBe('999 بايت')
		expect(formatFileSize(1000)).toBe('1 كيلوبايت')
		expect(formatFileSize(52_163)).toBe('52 كيلوبايت')
		expect(formatFileSize(245_760)).toBe('246 كيلوبايت')
		expect(formatFileSize(1_000_000)).toBe('1 ميغابايت')
		expect(formatFileSize(1_500_000)).toMatch(/^1.5 ميغابايت$/)
		expect(formatFileSize(10_000_000)).toBe('10 ميغابايت')
	})

	test('amounts are Saudi riyals', () => {
		const text = formatMoney(1500)
		expect(text).toMatch(/1.500/)
		expect(text).toMatch(/ر\.س|﷼|SAR/)
	})
})

describe('Saudi mobile numbers', () => {
	test.each([
		['0551234567', '+966551234567'],
		['551234567', '+966551234567'],
		['+966551234567', '+966551234567'],
		['00966551234567', '+966551234567'],
		['966551234567', '+966551234567'],
		['055 123 4567', '+966551234567'],
		['055-123-4567', '+966551234567'],
		['٠٥٥١٢٣٤٥٦٧', '+966551234567'],
		['۰۵۵۱۲۳۴۵۶۷', '+966551234567'],
	])('%s is stored as %s', (input, stored) => {
		expect(normaliseSaudiMobile(input)).toBe(stored)
	})

	test.each(['', '0451234567', '05512345', '055123456789', '+971551234567', 'abcdefghij', '0114567890'])(
		'%s is not a Saudi mobile number',
		(input) => {
			expect(normaliseSaudiMobile(input)).toBeNull()
		},
	)

	test('stored numbers are shown as 05XXXXXXXX', () => {
		expect(formatSaudiMobile('+966551234567')).toBe('0551234567')
		expect(formatSaudiMobile('')).toBe('')
	})

	test('Arabic-Indic digits become Western digits', () => {
		expect(toWesternDigits('رقم ١٢٣ و۴۵۶')).toBe('رقم 123 و456')
	})
})
