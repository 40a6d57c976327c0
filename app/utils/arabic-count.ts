// A number with its counted noun in correct Arabic. Arabic changes the noun with the number:
// 1 دقيقة واحدة, 2 دقيقتين, 3–10 + plural (3 دقائق), 11–99 + singular accusative (11 دقيقةً),
// 100 and above + singular (100 دقيقة). Intl.PluralRules('ar') names exactly these ranges.

/** The forms of one noun, as it reads after a number (genitive or accusative, as the sentence needs). */
export interface CountedNoun {
	/** Said for 1, with its number word: «دقيقة واحدة», «ملف واحد». */
	one: string
	/** The dual, standing alone: «دقيقتين», «ملفين». */
	two: string
	/** After 3 to 10: the plural «دقائق», «ملفات». */
	few: string
	/** After 11 to 99: the singular accusative «دقيقةً», «ملفاً». */
	many: string
	/** After 0 and 100 and above: the singular «دقيقة», «ملف». */
	other: string
}

const rules = new Intl.PluralRules('ar')
const digits = new Intl.NumberFormat('ar-SA-u-nu-latn')

/** «دقيقة واحدة», «دقيقتين», «3 دقائق», «11 دقيقةً», «100 دقيقة». */
export function countOf(count: number, noun: CountedNoun): string {
	const category = rules.select(count)
	if (category === 'one') return noun.one
	if (category === 'two') return noun.two
	const form = category === 'few' ? noun.few : category === 'many' ? noun.many : noun.other
	return `${digits.format(count)} ${form}`
}

export const minutes: CountedNoun = { one: 'دقيقة واحدة', two: 'دقيقتين', few: 'دقائق', many: 'دقيقةً', other: 'دقيقة' }

/** «حاول مرة أخرى بعد 5 دقائق.» for a wait given in seconds (never less than a minute). */
export function tryAgainAfter(seconds: number): string {
	return `حاول مرة أخرى بعد ${countOf(Math.max(1, Math.ceil(seconds / 60)), minutes)}.`
}

export const days: CountedNoun = { one: 'يوم واحد', two: 'يومين', few: 'أيام', many: 'يوماً', other: 'يوم' }

/** As a standalone count («صورتان», not «صورتين»): a gallery's photos, a page's news. */
export const photos: CountedNoun = { one: 'صورة واحدة', two: 'صورتان', few: 'صور', many: 'صورةً', other: 'صورة' }
export const newsItems: CountedNoun = { one: 'خبر واحد', two: 'خبران', few: 'أخبار', many: 'خبراً', other: 'خبر' }

/** In the genitive, after «من» («أكثر من ملفين»): the limits on a case's files. */
export const filesAfterOf: CountedNoun = { one: 'ملف واحد', two: 'ملفين', few: 'ملفات', many: 'ملفاً', other: 'ملف' }
