// Shared display helpers: one place decides how dates, numbers, money and phones look.
// Digits are Western (0-9), as Saudi government and bank sites show them, so an ID or a phone
// number reads the same on screen as on the card; see docs/decisions/001-stack.md.

const LOCALE = 'ar-SA-u-nu-latn'
const TIME_ZONE = 'Asia/Riyadh'

const timeFormat = new Intl.DateTimeFormat('en-u-ca-gregory-nu-latn', {
	timeZone: TIME_ZONE,
	hour: '2-digit',
	minute: '2-digit',
	hourCycle: 'h23',
})

const numberFormat = new Intl.NumberFormat(LOCALE)
const moneyFormat = new Intl.NumberFormat(LOCALE, { style: 'currency', currency: 'SAR' })

type DateInput = Date | string | number

function toDate(value: DateInput): Date {
	return value instanceof Date ? value : new Date(value)
}

// How dates read (docs/product.md#dates): day, month name, year, the Gregorian first and the Hijri
// (Umm al-Qura) beside it in brackets: «29 نوفمبر 2026م (19 جمادى الآخرة 1448هـ)». Each calendar's
// date is held together by no-break spaces, so a line may break only between the two.
const NBSP = '\u00a0'
const unbroken = (text: string) => text.replace(/ /g, NBSP)

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/

/** The calendar day of a value: a yyyy-mm-dd string is that day; an instant is the day it falls on in Riyadh. */
function dayOf(value: DateInput): string {
	return typeof value === 'string' && ISO_DAY.test(value) ? value : yearMonthDay(isoDayParts, toDate(value))
}

// Days are read at noon UTC with the UTC zone: the same day on every computer.
const atNoon = (day: string) => Date.parse(`${day}T12:00:00Z`)
const gregorianWords = new Intl.DateTimeFormat(`${LOCALE}-ca-gregory`, { timeZone: 'UTC', year: 'numeric', month: 'long', day: 'numeric' })
const hijriWords = new Intl.DateTimeFormat(`${LOCALE}-ca-islamic-umalqura`, { timeZone: 'UTC', year: 'numeric', month: 'long', day: 'numeric' })

function partsOf(format: Intl.DateTimeFormat, day: string) {
	const parts = format.formatToParts(atNoon(day))
	const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((part) => part.type === type)?.value ?? ''
	return { day: get('day'), month: get('month'), year: get('year') }
}

/** The Gregorian date alone, «29 نوفمبر 2026م»: where the Hijri has a place of its own (an export's column). */
export function formatGregorian(value: DateInput): string {
	const { day, month, year } = partsOf(gregorianWords, dayOf(value))
	return unbroken(`${day} ${month} ${year}م`)
}

/** The Umm al-Qura date alone, «19 جمادى الآخرة 1448هـ»: where the Gregorian has a place of its own. */
export function formatHijri(value: DateInput): string {
	const { day, month, year } = partsOf(hijriWords, dayOf(value))
	return unbroken(`${day} ${month} ${year}هـ`)
}

/** A day in both calendars, the one way dates are shown: «29 نوفمبر 2026م (19 جمادى الآخرة 1448هـ)». */
export function formatDate(value: DateInput): string {
	return `${formatGregorian(value)} (${formatHijri(value)})`
}

/** A moment: its day in both calendars and the hour in Riyadh, «… الساعة 10:30 صباحاً». */
export function formatDateTime(value: DateInput): string {
	return `${formatDate(value)} الساعة ${unbroken(formatClock(timeFormat.format(toDate(value))))}`
}

/** The time of day in Riyadh: «3:45 مساءً». */
export function formatTime(value: DateInput): string {
	return unbroken(formatClock(timeFormat.format(toDate(value))))
}

const monthWords = new Intl.DateTimeFormat(`${LOCALE}-ca-gregory`, { timeZone: 'UTC', year: 'numeric', month: 'long' })
const hijriMonthWords = new Intl.DateTimeFormat(`${LOCALE}-ca-islamic-umalqura`, { timeZone: 'UTC', year: 'numeric', month: 'long' })

function hijriMonthOf(day: string) {
	const parts = hijriMonthWords.formatToParts(atNoon(day))
	const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((part) => part.type === type)?.value ?? ''
	return { month: unbroken(get('month')), year: get('year') }
}

/**
 * A month given as yyyy-mm with the Hijri months it spans: «نوفمبر 2026م (جمادى الأولى–جمادى الآخرة 1448هـ)»,
 * «يونيو 2026م (ذو الحجة 1447هـ–محرم 1448هـ)» (instalments, reports, the news archive); anything else as it is.
 */
export function formatMonth(month: string): string {
	const match = /^(\d{4})-(\d{2})$/.exec(month)
	if (!match) return month
	const [year, index] = [Number(match[1]), Number(match[2])]
	const first = `${month}-01`
	const last = new Date(Date.UTC(year, index, 0)).toISOString().slice(0, 10)
	const [from, to] = [hijriMonthOf(first), hijriMonthOf(last)]
	const hijri =
		from.year !== to.year
			? `${from.month}${NBSP}${from.year}هـ–${to.month}${NBSP}${to.year}هـ`
			: from.month !== to.month
				? `${from.month}–${to.month}${NBSP}${to.year}هـ`
				: `${to.month}${NBSP}${to.year}هـ`
	return `${unbroken(monthWords.format(atNoon(first)))}م (${hijri})`
}

const hijriYearFormat = new Intl.DateTimeFormat(`${LOCALE}-ca-islamic-umalqura`, { timeZone: 'UTC', year: 'numeric' })

/** A Gregorian year with the Hijri years it spans: «2026م (1447–1448هـ)» («أثرنا», reports by year). */
export function formatYear(year: number): string {
	const [first, last] = [Date.UTC(year, 0, 1, 12), Date.UTC(year, 11, 31, 12)].map((day) => hijriYearFormat.formatToParts(day).find((part) => part.type === 'year')!.value)
	return `${year}م (${first === last ? first : `${first}–${last}`}هـ)`
}

function yearMonthDay(format: Intl.DateTimeFormat, date: Date): string {
	const parts = format.formatToParts(date)
	const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((part) => part.type === type)?.value ?? ''
	return `${get('year')}-${get('month')}-${get('day')}`
}

export function formatNumber(value: number): string {
	return numberFormat.format(value)
}

const sizeFormat = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 1 })

/**
 * A file's size as people read it, in decimal units (1 كيلوبايت = 1000 bytes, 1 ميغابايت = 1,000,000,
 * docs/product.md#business-constants): «900 بايت», «52 كيلوبايت», «1.5 ميغابايت». The only place
 * sizes are put into words, upload limits included.
 */
export function formatFileSize(bytes: number): string {
	if (bytes < 1000) return `${numberFormat.format(bytes)} بايت`
	if (bytes < 1_000_000) return `${numberFormat.format(Math.round(bytes / 1000))} كيلوبايت`
	return `${sizeFormat.format(bytes / 1_000_000)} ميغابايت`
}

const isoDayParts = new Intl.DateTimeFormat('en-u-ca-gregory-nu-latn', { timeZone: TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' })

/** Today in Riyadh as yyyy-mm-dd (what a date input holds), wherever the code runs. */
export function todayInRiyadh(now: Date = new Date()): string {
	return yearMonthDay(isoDayParts, now)
}

/** Saudi riyals for ar-SA. */
export function formatMoney(value: number): string {
	return moneyFormat.format(value)
}

/** Arabic-Indic (٠-٩) and Eastern Arabic-Indic (۰-۹) digits to 0-9. */
export function toWesternDigits(value: string): string {
	return value.replace(/[٠-٩]/g, (d) => String(d.charCodeAt(0) - 0x0660)).replace(/[۰-۹]/g, (d) => String(d.charCodeAt(0) - 0x06f0))
}

/**
 * A Saudi mobile number in any usual spelling (05XXXXXXXX, 5XXXXXXXX, +966 5X…, 00966 5X…, with
 * spaces or dashes, Arabic-Indic digits) as stored: +9665XXXXXXXX. Anything else gives null.
 */
export function normaliseSaudiMobile(input: string): string | null {
	const digits = toWesternDigits(input).replace(/[\s\-().]/g, '')
	const match = /^(?:\+966|00966|966|0)?(5\d{8})$/.exec(digits)
	return match ? `+966${match[1]}` : null
}

/** A stored +9665XXXXXXXX shown as 05XXXXXXXX; anything else is shown as it is. */
export function formatSaudiMobile(stored: string): string {
	const match = /^\+966(5\d{8})$/.exec(stored)
	return match ? `0${match[1]}` : stored
}

/** A landline or unified number as typed, digits normalised (01XXXXXXXX, 920XXXXXX). */
export function formatPhone(value: string): string {
	return toWesternDigits(value).trim()
}

/** A real calendar day written yyyy-mm-dd (not 2026-02-30). */
export function isCalendarDay(value: string): boolean {
	if (!ISO_DAY.test(value)) return false
	const date = new Date(`${value}T00:00:00Z`)
	return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value
}

const weekdayFormat = new Intl.DateTimeFormat(`${LOCALE}-ca-gregory`, { timeZone: 'UTC', weekday: 'long' })

/** «الأحد»: the day of the week of a yyyy-mm-dd day. */
export function formatWeekday(day: string): string {
	return isCalendarDay(day) ? weekdayFormat.format(new Date(`${day}T00:00:00Z`)) : ''
}

/** «10:30 صباحاً», «4:00 مساءً»: an hour written HH:MM (24 hours); anything else as it is. */
export function formatClock(time: string): string {
	const match = /^(\d{2}):(\d{2})$/.exec(time)
	if (!match) return time
	const hours = Number(match[1])
	return `${hours % 12 === 0 ? 12 : hours % 12}:${match[2]} ${hours < 12 ? 'صباحاً' : 'مساءً'}`
}
