// Shared display helpers: one place decides how dates, numbers, money and phones look.
// Digits are Western (0-9), as Saudi government and bank sites show them, so an ID or a phone
// number reads the same on screen as on the card; see docs/decisions/001-stack.md.

const LOCALE = 'ar-SA-u-nu-latn'
const TIME_ZONE = 'Asia/Riyadh'

const gregorianParts = new Intl.DateTimeFormat(`${LOCALE}-ca-gregory`, {
	timeZone: TIME_ZONE,
	year: 'numeric',
	month: 'long',
	day: '2-digit',
})

const hijriFormat = new Intl.DateTimeFormat(`${LOCALE}-ca-islamic-umalqura`, {
	timeZone: TIME_ZONE,
	year: 'numeric',
	month: 'long',
	day: 'numeric',
})

const timeFormat = new Intl.DateTimeFormat(`${LOCALE}-ca-gregory`, {
	timeZone: TIME_ZONE,
	hour: 'numeric',
	minute: '2-digit',
})

const numberFormat = new Intl.NumberFormat(LOCALE)
const moneyFormat = new Intl.NumberFormat(LOCALE, { style: 'currency', currency: 'SAR' })

function toDate(value: Date | string | number): Date {
	return value instanceof Date ? value : new Date(value)
}

/** Gregorian, in the old site's yyyy-MMM-dd order with the Arabic month name: «2026-نوفمبر-22» (docs/product.md#business-constants). */
export function formatDate(value: Date | string | number): string {
	return yearMonthDay(gregorianParts, toDate(value))
}

function yearMonthDay(format: Intl.DateTimeFormat, date: Date): string {
	const parts = format.formatToParts(date)
	const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((part) => part.type === type)?.value ?? ''
	return `${get('year')}-${get('month')}-${get('day')}`
}

/** Umm al-Qura (Saudi official) Hijri date: «2 جمادى الآخرة 1448 هـ». */
export function formatHijri(value: Date | string | number): string {
	return hijriFormat.format(toDate(value))
}

const hijriYearFormat = new Intl.DateTimeFormat(`${LOCALE}-ca-islamic-umalqura`, { timeZone: 'UTC', year: 'numeric' })

/** The Hijri years a Gregorian year spans: «1447–1448 هـ» («أثرنا»: figures per year in both calendars). */
export function formatHijriYears(year: number): string {
	const [first, last] = [Date.UTC(year, 0, 1), Date.UTC(year, 11, 31)].map((day) => hijriYearFormat.formatToParts(day).find((part) => part.type === 'year')!.value)
	return first === last ? `${first} هـ` : `${first}–${last} هـ`
}

/** Gregorian with the Hijri date beside it, for dates that matter (news, cases). */
export function formatDateWithHijri(value: Date | string | number): string {
	return `${formatDate(value)} (${formatHijri(value)})`
}

const monthFormat = new Intl.DateTimeFormat(`${LOCALE}-ca-gregory`, { timeZone: 'UTC', year: 'numeric', month: 'long' })

/** A month given as yyyy-mm, in words: «نوفمبر 2026» (the news archive); anything else as it is. */
export function formatMonth(month: string): string {
	const match = /^(\d{4})-(\d{2})$/.exec(month)
	return match ? monthFormat.format(Date.UTC(Number(match[1]), Number(match[2]) - 1, 15)) : month
}

/** The time of day in Riyadh: «٣:٤٥ م». */
export function formatTime(value: Date | string | number): string {
	return timeFormat.format(toDate(value))
}

export function formatDateTime(value: Date | string | number): string {
	return `${formatDate(value)} ${timeFormat.format(toDate(value))}`
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

const DAY = /^\d{4}-\d{2}-\d{2}$/

/** A real calendar day written yyyy-mm-dd (not 2026-02-30). */
export function isCalendarDay(value: string): boolean {
	if (!DAY.test(value)) return false
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
