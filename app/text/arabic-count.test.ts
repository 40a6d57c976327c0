import { describe, expect, test } from 'vitest'
import { countOf, minutes, newsItems, tryAgainAfter } from '#app/text/arabic-count.ts'

const files = { one: 'ملف واحد', two: 'ملفين', few: 'ملفات', many: 'ملفاً', other: 'ملف' }

describe('countOf', () => {
	test.each([
		[1, 'ملف واحد'],
		[2, 'ملفين'],
		[3, '3 ملفات'],
		[10, '10 ملفات'],
		[11, '11 ملفاً'],
		[99, '99 ملفاً'],
		[100, '100 ملف'],
		[103, '103 ملفات'],
		[0, '0 ملف'],
	])('%i → %s', (count, expected) => {
		expect(countOf(count, files)).toBe(expected)
	})

	test('none is said in words where the noun has a form for it: «لا أخبار», not «0 خبر» (issue 24 §5.16)', () => {
		expect(countOf(0, newsItems)).toBe('لا أخبار')
		expect(countOf(2, newsItems)).toBe('خبران')
		expect(countOf(0, files)).toBe('0 ملف')
	})

	test('minutes read as Arabic', () => {
		expect(countOf(15, minutes)).toBe('15 دقيقةً')
		expect(tryAgainAfter(30)).toBe('حاول مرة أخرى بعد دقيقة واحدة.')
		expect(tryAgainAfter(120)).toBe('حاول مرة أخرى بعد دقيقتين.')
		expect(tryAgainAfter(9 * 60 + 1)).toBe('حاول مرة أخرى بعد 10 دقائق.')
		expect(tryAgainAfter(59 * 60)).toBe('حاول مرة أخرى بعد 59 دقيقةً.')
		expect(tryAgainAfter(60 * 60)).toBe('حاول مرة أخرى بعد ساعة واحدة.')
		// A day's limit: hours, not «1,440 دقيقة».
		expect(tryAgainAfter(60 * 60 + 1)).toBe('حاول مرة أخرى بعد ساعتين.')
		expect(tryAgainAfter(5 * 60 * 60 - 30)).toBe('حاول مرة أخرى بعد 5 ساعات.')
		expect(tryAgainAfter(24 * 60 * 60)).toBe('حاول مرة أخرى بعد 24 ساعةً.')
	})
})
