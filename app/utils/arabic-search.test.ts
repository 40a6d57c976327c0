import { describe, expect, test } from 'vitest'
import { containsPattern, foldArabic } from '#app/utils/arabic-search.ts'

describe('foldArabic', () => {
	test.each([
		['أحمد', 'احمد'],
		['إبراهيم', 'ابراهيم'],
		['آمنة', 'امنه'],
		['موسى', 'موسي'],
		['فاطمة', 'فاطمه'],
		['عائشة', 'عايشه'],
		['مؤمن', 'مومن'],
		['مُحَمَّد', 'محمد'],
		['عبـــدالله', 'عبدالله'],
		['Sara', 'sara'],
	])('%s → %s', (input, folded) => {
		expect(foldArabic(input)).toBe(folded)
	})
})

test('containsPattern takes LIKE wildcards literally', () => {
	expect(containsPattern('50%_a\\b')).toBe('%50\\%\\_a\\\\b%')
})
