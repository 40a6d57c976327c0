import { countOf, type CountedNoun } from '#app/text/arabic-count.ts'
import { formatFileSize, formatNumber } from '#app/text/format.ts'

// Every message the form engine builds from a label or a number, in one place so their Arabic can
// be read and checked together (messages.test.ts renders each with 1, 2, 3, 11 and 100). A count
// always goes through countOf, so its noun agrees with the number: «حرف واحد», «حرفان», «10 أحرف»,
// «50 حرفاً», «300 حرف». Labels are the fields' own («الاسم الرباعي», «تاريخ الميلاد»), so a
// template quotes a label where its gender and number do not matter («الرجاء كتابة …», «…: …»);
// where a verb must agree with it, the field's `gender` says which form (definition.ts).
// The fixed identifier messages (national ID, IBAN, mobile, e-mail) are in app/domain/validators.ts:
// none of them takes a label or a number.

/** «حرف» as the subject of «… على الأكثر» (nominative, hence the dual «حرفان»). */
export const characters: CountedNoun = {
	one: 'حرف واحد',
	two: 'حرفان',
	few: 'أحرف',
	many: 'حرفاً',
	other: 'حرف',
}

/** A label without its «(اختياري)», for messages that quote it inside a sentence. */
/** A label without its «(اختياري)», as messages quote it. */
export const bare = (label: string) => label.replace(/\s*\(اختياري\)$/, '')

/** A required text, number, amount or date is empty: «الرجاء كتابة الاسم الرباعي». */
export const requiredText = (label: string) => `الرجاء كتابة ${label}`

/**
 * A required choice is empty, or not one of its options: «الرجاء اختيار صلة القرابة». A label that
 * is a question («هل يحتاج المنزل إلى صيانة؟») is answered, not chosen.
 */
export const requiredChoice = (label: string) => (/[؟?]$/.test(label.trim()) ? `الرجاء الإجابة عن السؤال: ${label}` : `الرجاء اختيار ${label}`)

/** A required file slot is empty: «الرجاء إرفاق سجل الأسرة». */
export const requiredFile = (label: string) => `الرجاء إرفاق ${label}`

/** A file over the upload limit; the limit in the same words the hint uses: «حجم الملف أكبر من 10 ميغابايت…». */
export const fileTooLarge = (maxBytes: number) => `حجم الملف أكبر من ${formatFileSize(maxBytes)}. اختر ملفاً أصغر.`

/** The hint beside a PDF upload: «ملف PDF، حتى 10 ميغابايت». */
export const pdfUploadHint = (maxBytes: number) => `ملف PDF، حتى ${formatFileSize(maxBytes)}`

/** A choice that belongs to another answer is missing while that answer is given: the second bank of a second IBAN. */
export const requiredChoiceWith = (label: string, otherLabel: string) => `${requiredChoice(bare(label))} لأنك كتبت ${bare(otherLabel)}`

/** «50 حرفاً على الأكثر» (also used alone, where the field is obvious). */
export const maxCharacters = (max: number) => `${countOf(max, characters)} على الأكثر`

/** A text is longer than its field takes: «الاسم: 200 حرف على الأكثر». */
export const tooLong = (label: string, max: number) => `${label}: ${maxCharacters(max)}`

/**
 * A whole number outside its range: «العمر: الرجاء كتابة رقم من 0 إلى 120». An optional one says
 * it may also be left empty, its label quoted without «(اختياري)».
 */
export const numberOutOfRange = (label: string, min: number, max: number, optional = false) =>
	`${optional ? bare(label) : label}: الرجاء كتابة رقم من ${formatNumber(min)} إلى ${formatNumber(max)}${optional ? '، أو ترك الحقل فارغاً' : ''}`

/**
 * A date of the past (birth, establishment, injury) after today; the verb agrees with the label:
 * «تاريخ الميلاد لا يمكن أن يكون بعد اليوم», «سنة التأسيس لا يمكن أن تكون بعد اليوم» (gender 'f').
 * The label is quoted without its «(اختياري)».
 */
export const dateAfterToday = (label: string, gender?: 'f') => `${bare(label)} لا يمكن أن ${gender === 'f' ? 'تكون' : 'يكون'} بعد اليوم`

export const dateBefore = (label: string, other: string, gender?: 'f') => `${bare(label)} لا يمكن أن ${gender === 'f' ? 'تكون' : 'يكون'} قبل ${bare(other)}`

export const blankRow = 'الرجاء تعبئة حقل واحد على الأقل'

export const invalidDate = 'الرجاء كتابة تاريخ صحيح'

// A date typed in either calendar (app/forms/calendar-date.ts).
export const dateParts = (calendar: 'hijri' | 'gregorian') => `الرجاء كتابة التاريخ باليوم والشهر والسنة، مثل ${calendar === 'hijri' ? '14/06/1405' : '14/03/1985'}`
export const monthOutOfRange = 'الرجاء كتابة الشهر برقم من 1 إلى 12'
/** The year typed belongs to the other calendar than the one chosen. */
export const yearOfOtherCalendar = (year: number, calendar: 'hijri' | 'gregorian') =>
	calendar === 'hijri' ? `السنة ${year} هجرية: اختر «هجري» أو اكتب التاريخ الميلادي` : `السنة ${year} ميلادية: اختر «ميلادي» أو اكتب التاريخ الهجري`
export const hijriYearOutOfRange = (first: number, last: number) => `الرجاء كتابة سنة هجرية من ${first} إلى ${last}`
/** The 30th of a Hijri month of 29 days: «لا يوجد يوم 30 في شهر صفر 1405هـ بتقويم أم القرى: الشهر 29 يوماً». */
export const noSuchHijriDay = (month: string, year: number) => `لا يوجد يوم 30 في شهر ${month} ${year}هـ بتقويم أم القرى: الشهر 29 يوماً`
export const invalidWholeNumber = 'الرجاء كتابة رقم صحيح'
export const invalidAmount = 'الرجاء كتابة المبلغ بالأرقام، مثل 1500 أو 1500.50'

/** What a repeatable group needs to name its rows in a count («3 معرّفين»). */
interface CountedGroup {
	min: number
	max: number
	counted: CountedNoun
}

/**
 * Too few rows: «الرجاء إضافة فرد واحد على الأقل» for a list that grows row by row, «الرجاء إضافة
 * 3 معرّفين» for a group of fixed size.
 */
export const tooFewRows = ({ min, max, counted }: CountedGroup) => (min === max ? `الرجاء إضافة ${countOf(min, counted)}` : `الرجاء إضافة ${countOf(min, counted)} على الأقل`)

/** Too many rows: «لا يمكن إضافة أكثر من 20 فرداً». */
export const tooManyRows = ({ max, counted }: CountedGroup) => `لا يمكن إضافة أكثر من ${countOf(max, counted)}`

/** Staff delete a row the list cannot spare: «لا يمكن الحذف: يجب ألا تقل القائمة عن فرد واحد». */
export const tooFewToRemove = ({ min, counted }: CountedGroup) => `لا يمكن الحذف: يجب ألا تقل القائمة عن ${countOf(min, counted)}`

/** A new password shorter than the rule: «كلمة المرور يجب ألا تقل عن 12 حرفاً». */
export const passwordTooShort = (min: number) => `كلمة المرور يجب ألا تقل عن ${countOf(min, { ...characters, two: 'حرفين' })}`

/** A password found in the list of common and leaked ones (app/utils/common-passwords.server.ts). */
export const passwordTooCommon = 'كلمة المرور هذه شائعة أو مسرّبة ويسهل تخمينها. اختر عبارة أطول من كلمات لا يجمعها غيرك.'

/** A password built on the site's name or the account's own e-mail or user name. */
export const passwordHasContext = 'كلمة المرور تحتوي على اسم الموقع أو اسم المستخدم أو بريدك الإلكتروني، فيسهل تخمينها. اختر عبارة لا تحتويها.'

/** The hint under every new-password field. */
export const passwordHint = '12 حرفاً على الأقل. عبارة من عدة كلمات أسهل في التذكر وأصعب في التخمين.'

/** Passwords: at least this long, and nothing else asked (no mix of cases or digits; docs/security.md). */
export const PASSWORD_MIN = 12
export const PASSWORD_MAX = 128

export const passwordsDiffer = 'كلمتا المرور غير متطابقتين'
