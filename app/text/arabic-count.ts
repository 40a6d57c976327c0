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
	/** Said instead of «0 …» where a count of none reads better as words: «لا أخبار». */
	none?: string
}

const rules = new Intl.PluralRules('ar')
const digits = new Intl.NumberFormat('ar-SA-u-nu-latn')

/** «دقيقة واحدة», «دقيقتين», «3 دقائق», «11 دقيقةً», «100 دقيقة». */
export function countOf(count: number, noun: CountedNoun): string {
	if (count === 0 && noun.none) return noun.none
	const category = rules.select(count)
	if (category === 'one') return noun.one
	if (category === 'two') return noun.two
	const form = category === 'few' ? noun.few : category === 'many' ? noun.many : noun.other
	return `${digits.format(count)} ${form}`
}

/** A word that refers back to counted things, in their number: «صاحبه», «صاحباهما», «أصحابها». */
export function byNumber(count: number, forms: { one: string; two: string; other: string }): string {
	const category = rules.select(count)
	return category === 'one' ? forms.one : category === 'two' ? forms.two : forms.other
}

export const minutes: CountedNoun = { one: 'دقيقة واحدة', two: 'دقيقتين', few: 'دقائق', many: 'دقيقةً', other: 'دقيقة' }

export const hours: CountedNoun = { one: 'ساعة واحدة', two: 'ساعتين', few: 'ساعات', many: 'ساعةً', other: 'ساعة' }

/**
 * «حاول مرة أخرى بعد 5 دقائق.» for a wait given in seconds (never less than a minute); a wait
 * of an hour or more in whole hours, rounded up («بعد 3 ساعات», not «بعد 151 دقيقة»).
 */
export function tryAgainAfter(seconds: number): string {
	const wait = Math.max(1, Math.ceil(seconds / 60))
	return `حاول مرة أخرى بعد ${wait < 60 ? countOf(wait, minutes) : countOf(Math.ceil(wait / 60), hours)}.`
}

export const days: CountedNoun = { one: 'يوم واحد', two: 'يومين', few: 'أيام', many: 'يوماً', other: 'يوم' }

/** As a standalone count («صورتان», not «صورتين»): a gallery's photos, a page's news. */
/** «أثرنا»: families helped. */
export const families: CountedNoun = { one: 'أسرة واحدة', two: 'أسرتين', few: 'أسر', many: 'أسرةً', other: 'أسرة' }
export const photos: CountedNoun = { one: 'صورة واحدة', two: 'صورتان', few: 'صور', many: 'صورةً', other: 'صورة' }
export const applications: CountedNoun = { one: 'طلب واحد', two: 'طلبان', few: 'طلبات', many: 'طلباً', other: 'طلب' }
export const newsItems: CountedNoun = { one: 'خبر واحد', two: 'خبران', few: 'أخبار', many: 'خبراً', other: 'خبر', none: 'لا أخبار' }

/** As the object of a verb or noun («تم تغيير حالة طلبين»): the case lists' bulk actions. */
export const requests: CountedNoun = { one: 'طلب واحد', two: 'طلبين', few: 'طلبات', many: 'طلباً', other: 'طلب' }

/** Pages of a document, after «من» or «لأكثر من» (the genitive's two: «صفحتين»). */
export const pages: CountedNoun = { one: 'صفحة واحدة', two: 'صفحتين', few: 'صفحات', many: 'صفحةً', other: 'صفحة' }
/** As the object of a verb («يمكن رفع ملفين»): uploads. */
export const files: CountedNoun = { one: 'ملف واحد', two: 'ملفين', few: 'ملفات', many: 'ملفاً', other: 'ملف' }

/** As a standalone count («سجلان»): the audit trail's entries. */
/** Disbursement vouchers (سندات الصرف): a batch's vouchers. */
export const vouchers: CountedNoun = { one: 'سند واحد', two: 'سندان', few: 'سندات', many: 'سنداً', other: 'سند' }

export const records: CountedNoun = { one: 'سجل واحد', two: 'سجلان', few: 'سجلات', many: 'سجلاً', other: 'سجل', none: 'لا سجلات' }

/** As the subject of «بقي» («بقي لديك رمزا استرداد»): a staff member's two-step recovery codes. */
export const recoveryCodes: CountedNoun = { one: 'رمز استرداد واحد', two: 'رمزا استرداد', few: 'رموز استرداد', many: 'رمزَ استرداد', other: 'رمز استرداد' }

/** As a standalone count («رسالتان»): the contact form's messages. */
export const messages: CountedNoun = { one: 'رسالة واحدة', two: 'رسالتان', few: 'رسائل', many: 'رسالةً', other: 'رسالة', none: 'لا رسائل' }

/** After «بقيت لك» (subject, nominative): a code's tries left. */
export const triesLeft: CountedNoun = { one: 'محاولة واحدة', two: 'محاولتان', few: 'محاولات', many: 'محاولةً', other: 'محاولة' }
/** After «بعد»: a short wait. */
export const seconds: CountedNoun = { one: 'ثانية واحدة', two: 'ثانيتين', few: 'ثوانٍ', many: 'ثانيةً', other: 'ثانية' }
