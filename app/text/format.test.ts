import { describe, expect, test } from 'vitest'
import {
	formatDate,
	formatDateWithHijri,
	formatHijri,
	formatMoney,
	formatFileSize,
	formatNumber,
	formatSaudiMobile,
	normaliseSaudiMobile,
	todayInRiyadh,
	toWesternDigits,
} from '#app/text/format.ts'

describe('dates', () => {
	test('Gregorian in yyyy-MMM-dd order with Arabic month names', () => {
		expect(formatDate(new Date('2025-09-22T10:00:00Z'))).toBe('2025-سبتمبر-22')
		expect(formatDate('2024-01-05T10:00:00Z')).toBe('2024-يناير-05')
	})

	test('the day is the day in Riyadh, not in UTC', () => {
		// 22:30 UTC on 21 Sep is 01:30 on 22 Sep in Riyadh (UTC+3).
		expect(formatDate(new Date('2025-09-21T22:30:00Z'))).toBe('2025-سبتمبر-22')
		expect(todayInRiyadh(new Date('2025-09-21T22:30:00Z'))).toBe('2025-09-22')
		expect(todayInRiyadh(new Date('2025-01-05T20:59:00Z'))).toBe('2025-01-05')
	})

	test('Hijri dates follow Umm al-Qura', () => {
		// 1 Ramadan 1446 was 1 March 2025 in the Umm al-Qura calendar.
		expect(formatHijri(new Date('2025-03-01T12:00:00Z'))).toMatch(/^1 رمضان 1446/)
		expect(formatDateWithHijri(new Date('2025-03-01T12:00:00Z'))).toMatch(/^2025-مارس-01 \(1 رمضان 1446/)
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
