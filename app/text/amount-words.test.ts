import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { AMOUNT_ENDING, amountInWords, MAX_AMOUNT_IN_WORDS, ZERO_RIYALS } from './amount-words.ts'

// Known amounts, written by hand (docs/product.md, vouchers): the riyals part, then the halalas.
const R = 'ريال سعودي'
const known: [number, string][] = [
	[0, ZERO_RIYALS],
	[1, 'ريال سعودي واحد'],
	[2, 'ريالان سعوديان'],
	[3, 'ثلاثة ريالات سعودية'],
	[4, 'أربعة ريالات سعودية'],
	[5, 'خمسة ريالات سعودية'],
	[6, 'ستة ريالات سعودية'],
	[7, 'سبعة ريالات سعودية'],
	[8, 'ثمانية ريالات سعودية'],
	[9, 'تسعة ريالات سعودية'],
	[10, 'عشرة ريالات سعودية'],
	[11, 'أحد عشر ريالاً سعودياً'],
	[12, 'اثنا عشر ريالاً سعودياً'],
	[13, 'ثلاثة عشر ريالاً سعودياً'],
	[19, 'تسعة عشر ريالاً سعودياً'],
	[20, 'عشرون ريالاً سعودياً'],
	[21, 'واحد وعشرون ريالاً سعودياً'],
	[22, 'اثنان وعشرون ريالاً سعودياً'],
	[35, 'خمسة وثلاثون ريالاً سعودياً'],
	[99, 'تسعة وتسعون ريالاً سعودياً'],
	[100, `مائة ${R}`],
	[101, `مائة وواحد ${R}`],
	[102, `مائة واثنان ${R}`],
	[103, 'مائة وثلاثة ريالات سعودية'],
	[110, 'مائة وعشرة ريالات سعودية'],
	[111, 'مائة وأحد عشر ريالاً سعودياً'],
	[200, `مائتا ${R}`],
	[250, 'مائتان وخمسون ريالاً سعودياً'],
	[300, `ثلاثمائة ${R}`],
	[800, `ثمانمائة ${R}`],
	[999, 'تسعمائة وتسعة وتسعون ريالاً سعودياً'],
	[1000, `ألف ${R}`],
	[1001, `ألف وواحد ${R}`],
	[1002, `ألف واثنان ${R}`],
	[1010, 'ألف وعشرة ريالات سعودية'],
	[1500, `ألف وخمسمائة ${R}`],
	[2000, `ألفا ${R}`],
	[2500, `ألفان وخمسمائة ${R}`],
	[3000, `ثلاثة آلاف ${R}`],
	[3003, 'ثلاثة آلاف وثلاثة ريالات سعودية'],
	[10000, `عشرة آلاف ${R}`],
	[11000, `أحد عشر ألف ${R}`],
	[11500, `أحد عشر ألفاً وخمسمائة ${R}`],
	[12000, `اثنا عشر ألف ${R}`],
	[21000, `واحد وعشرون ألف ${R}`],
	[100000, `مائة ألف ${R}`],
	[101000, `مائة وواحد ألف ${R}`],
	[103000, `مائة وثلاثة آلاف ${R}`],
	[200000, `مائتا ألف ${R}`],
	[250000, `مائتان وخمسون ألف ${R}`],
	[999999, 'تسعمائة وتسعة وتسعون ألفاً وتسعمائة وتسعة وتسعون ريالاً سعودياً'],
	[1000000, `مليون ${R}`],
	[1000001, `مليون وواحد ${R}`],
	[1001000, `مليون وألف ${R}`],
	[2000000, `مليونا ${R}`],
	[2500000, `مليونان وخمسمائة ألف ${R}`],
	[3000000, `ثلاثة ملايين ${R}`],
	[11000000, `أحد عشر مليون ${R}`],
	[15250000, `خمسة عشر مليوناً ومائتان وخمسون ألف ${R}`],
	[99999999, 'تسعة وتسعون مليوناً وتسعمائة وتسعة وتسعون ألفاً وتسعمائة وتسعة وتسعون ريالاً سعودياً'],
	[0.01, 'هللة واحدة'],
	[0.02, 'هللتان'],
	[0.03, 'ثلاث هللات'],
	[0.08, 'ثماني هللات'],
	[0.1, 'عشر هللات'],
	[0.11, 'إحدى عشرة هللة'],
	[0.12, 'اثنتا عشرة هللة'],
	[0.18, 'ثماني عشرة هللة'],
	[0.21, 'إحدى وعشرون هللة'],
	[0.25, 'خمس وعشرون هللة'],
	[0.99, 'تسع وتسعون هللة'],
	[1.01, 'ريال سعودي واحد وهللة واحدة'],
	[2.5, 'ريالان سعوديان وخمسون هللة'],
	[1500.25, `ألف وخمسمائة ${R} وخمس وعشرون هللة`],
	[3000.03, `ثلاثة آلاف ${R} وثلاث هللات`],
	[99999999.99, 'تسعة وتسعون مليوناً وتسعمائة وتسعة وتسعون ألفاً وتسعمائة وتسعة وتسعون ريالاً سعودياً وتسع وتسعون هللة'],
]

test('the known amounts are written as the table says, ending «فقط لا غير»', () => {
	expect(known.length).toBeGreaterThanOrEqual(60)
	for (const [amount, text] of known) expect(amountInWords(amount), String(amount)).toBe(`${text} ${AMOUNT_ENDING}`)
})

test('the brief example reads as a voucher writes it', () => {
	expect(amountInWords(1500.25)).toBe('ألف وخمسمائة ريال سعودي وخمس وعشرون هللة فقط لا غير')
})

test('an amount with a fraction below the halala is rounded to the halala; an amount out of range is refused', () => {
	expect(amountInWords(10.004)).toBe(amountInWords(10))
	expect(amountInWords(0.1 + 0.2)).toBe(amountInWords(0.3))
	for (const bad of [-1, MAX_AMOUNT_IN_WORDS + 0.01, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => amountInWords(bad)).toThrow(RangeError)
})

/** Every word amounts are written with. */
const vocabulary = new Set(
	[
		'واحد اثنان ثلاثة أربعة خمسة ستة سبعة ثمانية تسعة عشرة أحد عشر اثنا',
		'واحدة اثنتان ثلاث أربع خمس ست سبع ثماني تسع عشر إحدى عشرة اثنتا',
		'عشرون ثلاثون أربعون خمسون ستون سبعون ثمانون تسعون',
		'مائة مائتان مائتا ثلاثمائة أربعمائة خمسمائة ستمائة سبعمائة ثمانمائة تسعمائة',
		'ألف ألفان ألفا آلاف ألفاً مليون مليونان مليونا ملايين مليوناً',
		'ريال ريالان ريالات ريالاً سعودي سعوديان سعودية سعودياً هللة هللتان هللات صفر',
	]
		.join(' ')
		.split(' '),
)

/** The known amounts' texts for the numbers below 1000 of each gender, by the number: what a part of a larger amount must agree with. */
const belowThousand = (n: number) => amountInWords(n).replace(` ${AMOUNT_ENDING}`, '')

describe('random amounts up to 99,999,999.99', () => {
	test('are well formed: parts joined by «و», each of the known words, none empty, the riyals before the halalas', () => {
		fc.assert(
			fc.property(fc.integer({ min: 0, max: Math.round(MAX_AMOUNT_IN_WORDS * 100) }), (halalas) => {
				const text = amountInWords(halalas / 100)
				expect(text.endsWith(` ${AMOUNT_ENDING}`)).toBe(true)
				const body = text.slice(0, -AMOUNT_ENDING.length - 1)
				// Words one space apart, each a known word, or «و» joined to the known word that starts the next part.
				const tokens = body.split(' ')
				for (const token of tokens) {
					expect(token, text).not.toBe('')
					expect(vocabulary.has(token) || (token.startsWith('و') && vocabulary.has(token.slice(1))), `${token} in ${text}`).toBe(true)
				}
				expect(tokens[0]!.startsWith('و') && !vocabulary.has(tokens[0]!)).toBe(false)
				const riyals = Math.floor(halalas / 100)
				const rest = halalas % 100
				// The halalas come last, written as the table writes them alone.
				if (rest) expect(body.endsWith(amountInWords(rest / 100).replace(` ${AMOUNT_ENDING}`, ''))).toBe(true)
				else expect(body).not.toMatch(/هلل/)
				if (!halalas) expect(body).toBe(ZERO_RIYALS)
				else if (!riyals) expect(body).not.toMatch(/ريال/)
				else expect(body).toMatch(/ريال/)
			}),
			{ numRuns: 5000 },
		)
	})

	test('agree with the table: the riyals below a thousand are written as the amount alone, after the thousands', () => {
		fc.assert(
			fc.property(fc.integer({ min: 1, max: 99_999 }), fc.integer({ min: 3, max: 999 }), (thousands, units) => {
				// An amount of thousands and 3–999 riyals ends with the words of those riyals alone.
				expect(amountInWords(thousands * 1000 + units).replace(` ${AMOUNT_ENDING}`, '')).toMatch(new RegExp(` و${belowThousand(units)}$`))
			}),
			{ numRuns: 3000 },
		)
	})

	test('the millions and thousands are written as the table writes them alone, with their construct form before the riyal', () => {
		fc.assert(
			fc.property(fc.integer({ min: 1, max: 99 }), fc.integer({ min: 1, max: 999 }), (millions, thousands) => {
				const text = amountInWords(millions * 1_000_000 + thousands * 1000)
				const millionsAlone = amountInWords(millions * 1_000_000).replace(` ريال سعودي ${AMOUNT_ENDING}`, '')
				const thousandsAlone = amountInWords(thousands * 1000).replace(` ${AMOUNT_ENDING}`, '')
				// Followed by thousands, the millions take their absolute form (مليونان, مليوناً).
				const absolute = millionsAlone.replace(/مليونا$/, 'مليونان').replace(/ مليون$/, millions % 100 > 10 ? ' مليوناً' : ' مليون')
				expect(text).toBe(`${absolute} و${thousandsAlone} ${AMOUNT_ENDING}`)
			}),
			{ numRuns: 2000 },
		)
	})
})
