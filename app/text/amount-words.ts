// An amount of riyals in Arabic words (تفقيط), as a voucher or a cheque writes it:
// «ألف وخمسمائة ريال سعودي وخمس وعشرون هللة فقط لا غير».
//
// The counted noun agrees with its number (docs/product.md, vouchers): ريال is masculine, so 3–10
// take the feminine form of the number (ثلاثة ريالات); هللة is feminine (ثلاث هللات). The noun
// after a number is the one its last two digits call for:
//   1 ريال واحد · 2 ريالان · 3–10 ريالات · 11–99 ريالاً · a round hundred (and 101, 102 after a
//   hundred: «مائة وواحد ريال») ريال
// and the same for the scales, ألف (ألفان, آلاف, ألفاً) and مليون (مليونان, ملايين, مليوناً). A
// dual or a tamyiz directly followed by its noun is in construct: «ألفا ريال», «مائتا ريال»,
// «أحد عشر ألف ريال», «مليونا ريال». Amounts go up to 99,999,999.99.
// No npm package found does this with the agreement and construct forms above (docs/decisions/020-arabic-pdf.md).

type Gender = 'm' | 'f'

const ONES: Record<Gender, readonly string[]> = {
	// For a masculine noun (ثلاثة ريالات) and for a feminine one (ثلاث هللات).
	m: ['', 'واحد', 'اثنان', 'ثلاثة', 'أربعة', 'خمسة', 'ستة', 'سبعة', 'ثمانية', 'تسعة', 'عشرة'],
	f: ['', 'واحدة', 'اثنتان', 'ثلاث', 'أربع', 'خمس', 'ست', 'سبع', 'ثماني', 'تسع', 'عشر'],
}
const TEENS: Record<Gender, readonly string[]> = {
	m: ['', 'أحد عشر', 'اثنا عشر', 'ثلاثة عشر', 'أربعة عشر', 'خمسة عشر', 'ستة عشر', 'سبعة عشر', 'ثمانية عشر', 'تسعة عشر'],
	f: ['', 'إحدى عشرة', 'اثنتا عشرة', 'ثلاث عشرة', 'أربع عشرة', 'خمس عشرة', 'ست عشرة', 'سبع عشرة', 'ثماني عشرة', 'تسع عشرة'],
}
/** The one in 21, 31…: «واحد وعشرون ريالاً», «إحدى وعشرون هللة». */
const ONE_IN_TENS: Record<Gender, string> = { m: 'واحد', f: 'إحدى' }
const TENS = ['', '', 'عشرون', 'ثلاثون', 'أربعون', 'خمسون', 'ستون', 'سبعون', 'ثمانون', 'تسعون']
const HUNDREDS = ['', 'مائة', 'مائتان', 'ثلاثمائة', 'أربعمائة', 'خمسمائة', 'ستمائة', 'سبعمائة', 'ثمانمائة', 'تسعمائة']

/** 1–999 in words for a noun of `gender`; a round 200 that its noun follows is in construct («مائتا»). */
function words(n: number, gender: Gender): string[] {
	const parts: string[] = []
	const hundreds = Math.floor(n / 100)
	const rest = n % 100
	if (hundreds) parts.push(hundreds === 2 && rest === 0 ? 'مائتا' : HUNDREDS[hundreds]!)
	if (rest >= 1 && rest <= 10) parts.push(ONES[gender][rest]!)
	else if (rest > 10 && rest < 20) parts.push(TEENS[gender][rest - 10]!)
	else if (rest >= 20) {
		const ones = rest % 10
		if (ones) parts.push(ones === 1 ? ONE_IN_TENS[gender] : ONES[gender][ones]!)
		parts.push(TENS[Math.floor(rest / 10)]!)
	}
	return parts
}

/** A counted noun's forms. */
interface Noun {
	gender: Gender
	/** 1 alone: «ريال سعودي واحد», «ألف». */
	one: string
	/** 2 alone: «ريالان سعوديان», «ألفان»; and in construct, followed by another noun: «ألفا». */
	two: string
	twoConstruct: string
	/** After 3–10: «ريالات سعودية», «آلاف». */
	few: string
	/** After 11–99: «ريالاً سعودياً», «ألفاً»; in construct: «ألف». */
	many: string
	manyConstruct: string
	/** After a round hundred, and after 1 or 2 that follow a hundred: «ريال سعودي», «ألف». */
	single: string
}

const riyal: Noun = { gender: 'm', one: 'ريال سعودي واحد', two: 'ريالان سعوديان', twoConstruct: 'ريالان سعوديان', few: 'ريالات سعودية', many: 'ريالاً سعودياً', manyConstruct: 'ريالاً سعودياً', single: 'ريال سعودي' }
const halala: Noun = { gender: 'f', one: 'هللة واحدة', two: 'هللتان', twoConstruct: 'هللتان', few: 'هللات', many: 'هللة', manyConstruct: 'هللة', single: 'هللة' }
const thousand: Noun = { gender: 'm', one: 'ألف', two: 'ألفان', twoConstruct: 'ألفا', few: 'آلاف', many: 'ألفاً', manyConstruct: 'ألف', single: 'ألف' }
const million: Noun = { gender: 'm', one: 'مليون', two: 'مليونان', twoConstruct: 'مليونا', few: 'ملايين', many: 'مليوناً', manyConstruct: 'مليون', single: 'مليون' }

/**
 * `n` (1–999) of `noun`, as the parts joined by «و»: «ألفان», «ثلاثة آلاف», «مائة وخمسة وعشرون ريالاً سعودياً».
 * `construct`: another noun follows directly (the riyal after the last scale).
 */
function counted(n: number, noun: Noun, construct: boolean): string[] {
	if (n === 1) return [noun.one]
	if (n === 2) return [construct ? noun.twoConstruct : noun.two]
	const parts = words(n, noun.gender)
	const rest = n % 100
	const form = rest === 0 || rest <= 2 ? noun.single : rest <= 10 ? noun.few : construct ? noun.manyConstruct : noun.many
	parts[parts.length - 1] += ` ${form}`
	return parts
}

/** The largest amount written in words: 99,999,999.99. */
export const MAX_AMOUNT_IN_WORDS = 99_999_999.99

export const AMOUNT_ENDING = 'فقط لا غير'
export const ZERO_RIYALS = 'صفر ريال سعودي'

/** `amount` (riyals, to the halala) in Arabic words, ending «فقط لا غير». */
export function amountInWords(amount: number): string {
	if (!Number.isFinite(amount) || amount < 0 || amount > MAX_AMOUNT_IN_WORDS) throw new RangeError(`amountInWords: ${amount} is out of range`)
	const halalas = Math.round(amount * 100)
	const riyals = Math.floor(halalas / 100)
	const rest = halalas % 100
	const millions = Math.floor(riyals / 1_000_000)
	const thousands = Math.floor(riyals / 1000) % 1000
	const units = riyals % 1000
	const parts: string[] = []
	if (millions) parts.push(...counted(millions, million, !thousands && !units))
	if (thousands) parts.push(...counted(thousands, thousand, !units))
	if (units) parts.push(...(riyals > 2 && units <= 2 ? [...words(units, 'm').slice(0, -1), `${ONES.m[units]} ${riyal.single}`] : counted(units, riyal, false)))
	else if (riyals) parts[parts.length - 1] += ` ${riyal.single}`
	if (rest) parts.push(...counted(rest, halala, false))
	if (!parts.length) parts.push(ZERO_RIYALS)
	return `${parts.join(' و')} ${AMOUNT_ENDING}`
}
