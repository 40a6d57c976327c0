import { createHash } from 'node:crypto'
import { nationalIdWithCheckDigit, saudiIbanFromBban } from '#app/domain/validators.ts'
import { bankOfChoice } from '#app/domain/saudi-banks.ts'
import { inArray, max } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { caseAid, caseEvents, caseSections, cases, caseStudies, caseVisits, privacyNotices, users, type Reopened } from '#app/db/schema.ts'
import { needyFamilies } from '#app/forms/definitions/needy-families.ts'
import { todayInRiyadh } from '#app/text/format.ts'
import type { AidKind } from './aid.ts'
import { Status, type CaseStatus } from '#app/cases/case-statuses.ts'
import { hashResumeToken, newResumeToken, REFERENCE_ALPHABET } from './tokens.server.ts'

// Realistic demo cases of needy families, made by the same rules as real ones: answers that their
// section schemas accept as stored, valid national IDs and IBANs, statuses reached the way the
// workflow table allows, with their history and aid. Deterministic: the same seed gives the same
// cases (references, names, answers, dates), so a demo or a benchmark can be reproduced. Only
// the resume token is random: nobody holds the private link of a demo case.

export type Rng = () => number

/** A small, fast seeded PRNG (mulberry32): uniform in [0, 1). */
export function mulberry32(seed: number): Rng {
	let state = seed >>> 0
	return () => {
		state = (state + 0x6d2b79f5) >>> 0
		let t = state
		t = Math.imul(t ^ (t >>> 15), t | 1)
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296
	}
}

const int = (rng: Rng, min: number, max: number) => min + Math.floor(rng() * (max - min + 1))
const chance = (rng: Rng, p: number) => rng() < p
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!

/** Picks from [item, weight] pairs. */
function weighted<T>(rng: Rng, pairs: readonly (readonly [T, number])[]): T {
	const total = pairs.reduce((sum, [, weight]) => sum + weight, 0)
	let at = rng() * total
	for (const [item, weight] of pairs) {
		at -= weight
		if (at < 0) return item
	}
	return pairs.at(-1)![0]
}

function digits(rng: Rng, count: number): string {
	let out = ''
	for (let i = 0; i < count; i++) out += String(Math.floor(rng() * 10))
	return out
}

function hex(rng: Rng, count: number): string {
	let out = ''
	for (let i = 0; i < count; i++) out += Math.floor(rng() * 16).toString(16)
	return out
}

// ——— Names, places, words ———

/** Weighted: محمد and عبدالله are the most common; a few are spelt without hamza, as people type them. */
const maleNames: readonly (readonly [string, number])[] = [
	['محمد', 12],
	['عبدالله', 9],
	['عبدالرحمن', 5],
	['أحمد', 5],
	['احمد', 2],
	['خالد', 5],
	['فهد', 5],
	['سعد', 4],
	['سلطان', 3],
	['ناصر', 3],
	['فيصل', 3],
	['تركي', 3],
	['بندر', 2],
	['ماجد', 2],
	['سعود', 3],
	['عبدالعزيز', 4],
	['علي', 4],
	['عمر', 3],
	['يوسف', 2],
	['إبراهيم', 3],
	['ابراهيم', 1],
	['حمد', 2],
	['مشعل', 2],
	['نايف', 2],
	['بدر', 2],
	['راشد', 2],
	['صالح', 3],
	['سليمان', 3],
	['منصور', 2],
	['عادل', 1],
	['وليد', 1],
	['ياسر', 1],
	['مساعد', 1],
	['عايض', 1],
	['ظافر', 1],
	['مبارك', 2],
	['متعب', 1],
	['حسن', 2],
	['حسين', 1],
	['عبدالمجيد', 1],
	['زياد', 1],
	['ثامر', 1],
	['نواف', 2],
	['موسى', 1],
	['عيسى', 1],
	['يحيى', 1],
	['إسماعيل', 1],
	['مصطفى', 1],
]

const femaleNames: readonly (readonly [string, number])[] = [
	['نورة', 6],
	['نوره', 2],
	['فاطمة', 5],
	['فاطمه', 2],
	['سارة', 4],
	['ساره', 1],
	['عائشة', 3],
	['مريم', 4],
	['هيا', 3],
	['منيرة', 3],
	['منيره', 1],
	['لطيفة', 2],
	['حصة', 3],
	['الجوهرة', 2],
	['أمل', 2],
	['ريم', 3],
	['هند', 2],
	['شيخة', 2],
	['مها', 2],
	['عبير', 1],
	['أسماء', 2],
	['اسماء', 1],
	['خديجة', 2],
	['زينب', 1],
	['رقية', 1],
	['منى', 2],
	['سلمى', 1],
	['جواهر', 1],
	['دلال', 1],
	['غادة', 1],
	['لولوة', 1],
	['بشرى', 1],
]

/** Family names, with an e-mail spelling (demo addresses are on example.com, which delivers nowhere). */
const familyNames: readonly (readonly [string, string, number])[] = [
	['القحطاني', 'alqahtani', 6],
	['العتيبي', 'alotaibi', 6],
	['الشهري', 'alshehri', 5],
	['الغامدي', 'alghamdi', 5],
	['الزهراني', 'alzahrani', 5],
	['الدوسري', 'aldosari', 5],
	['المطيري', 'almutairi', 5],
	['الحربي', 'alharbi', 5],
	['الشمري', 'alshammari', 4],
	['العنزي', 'alanazi', 4],
	['السبيعي', 'alsubaie', 3],
	['البقمي', 'albuqami', 2],
	['الرشيدي', 'alrashidi', 3],
	['الجهني', 'aljohani', 3],
	['السهلي', 'alsahli', 2],
	['العمري', 'alomari', 3],
	['الأحمدي', 'alahmadi', 2],
	['الاحمدي', 'alahmadi', 1],
	['القرني', 'alqarni', 3],
	['العسيري', 'alasiri', 3],
	['المالكي', 'almalki', 3],
	['الشهراني', 'alshahrani', 3],
	['اليامي', 'alyami', 2],
	['الخالدي', 'alkhaldi', 2],
	['التميمي', 'altamimi', 2],
	['الفيفي', 'alfaifi', 1],
	['البلوي', 'albalawi', 2],
	['الثبيتي', 'althubaiti', 1],
	['الأسمري', 'alasmari', 1],
	['الهاجري', 'alhajri', 2],
	['المري', 'almarri', 1],
	['الصيعري', 'alsaiari', 1],
	['الزهراني', 'alzahrani', 1],
	['آل سعيد', 'alsaeed', 1],
]

/** Cities (most in the foundation's Riyadh region) and some of their neighbourhoods. */
const places: readonly (readonly [string, readonly string[], number])[] = [
	['الرياض', ['السويدي', 'النسيم', 'الشفا', 'العزيزية', 'الروضة', 'النظيم', 'بدر', 'الدار البيضاء', 'السلي', 'الملز', 'العريجاء', 'ظهرة لبن', 'طويق', 'المصانع'], 40],
	['الخرج', ['السيح', 'الخالدية', 'اليمامة', 'العزيزية'], 6],
	['الدرعية', ['العمارية', 'الملقا', 'البجيري'], 2],
	['المزاحمية', ['الفيصلية', 'الصناعية'], 2],
	['الدوادمي', ['الخالدية', 'الصفا'], 2],
	['القويعية', ['الربوة', 'الورود'], 1],
	['جدة', ['الصفا', 'الربوة', 'البوادي', 'الجامعة', 'الفيصلية', 'النزهة', 'السامر', 'الحمدانية'], 8],
	['مكة المكرمة', ['العزيزية', 'الشوقية', 'النوارية', 'الكعكية', 'الزاهر'], 5],
	['المدينة المنورة', ['قباء', 'العوالي', 'الحرة الشرقية', 'السيح'], 4],
	['الدمام', ['الفيصلية', 'النزهة', 'الأثير', 'طيبة'], 4],
	['الطائف', ['الحوية', 'شهار', 'القيم', 'الوشحاء'], 3],
	['أبها', ['المنسك', 'الخالدية', 'الموظفين', 'شمسان'], 3],
	['خميس مشيط', ['الراقي', 'الموسى', 'الضيافة'], 3],
	['تبوك', ['المروج', 'الريان', 'السليمانية'], 2],
	['حائل', ['النقرة', 'لبدة', 'الزبارة'], 2],
	['بريدة', ['الصفراء', 'الإسكان', 'الخليج'], 3],
	['جازان', ['الروضة', 'الشاطئ', 'السويس'], 2],
	['نجران', ['الفيصلية', 'الفهد'], 1],
	['الباحة', ['الحزام', 'شهبة'], 1],
]

/** The IBAN's bank code of each bank of the forms, from the one table of Saudi banks. */
const codeOfBank = (choice: string) => bankOfChoice(choice)!.code
const bankWeights: readonly (readonly [string, number])[] = [
	['alrajhi', 30],
	['snb', 20],
	['riyad', 10],
	['alinma', 10],
	['albilad', 6],
	['sab', 6],
	['anb', 5],
	['bsf', 4],
	['aljazira', 4],
	['saib', 3],
	['gib', 2],
]

const incomeSources = ['الضمان الاجتماعي', 'راتب تقاعدي', 'عمل حر', 'مساعدات من الأقارب', 'حساب المواطن', 'راتب شهري', 'بيع منتجات منزلية']

const applicantMessages = [
	'نرجو النظر في حالتنا، فالإيجار متأخر منذ ثلاثة أشهر.',
	'رب الأسرة متوفى والدخل لا يكفي لمصاريف الأبناء الدراسية.',
	'أعاني من مرض مزمن ولا أستطيع العمل، ونحتاج إلى مساعدة في سداد الفواتير.',
	'الأسرة كبيرة والراتب لا يغطي الاحتياجات الأساسية.',
	'نحتاج إلى سلة غذائية شهرية إن أمكن، وجزاكم الله خيراً.',
	'تعطل المكيف والثلاجة ولا نملك ثمن إصلاحهما.',
	'ابني من ذوي الإعاقة ويحتاج إلى جلسات علاج طبيعي.',
	'انتهى عقد عملي قبل أشهر وما زلت أبحث عن عمل.',
]

/** The statuses a demo case is moved to by an officer's note (not «جديد», nor the committee's). */
type NoteStatus = Exclude<CaseStatus, typeof Status.New | typeof Status.Approved | typeof Status.Rejected>

const statusNotes: Record<NoteStatus, readonly string[]> = {
	[Status.Studied]: ['تمت زيارة الأسرة ودراسة الحالة، والأسرة مستحقة للدعم.', 'اكتملت الدراسة الميدانية والمستندات مطابقة.', 'تم التحقق من الدخل والسكن، وترفع للجنة.'],
	[Status.SupportProvided]: ['اعتمدت اللجنة صرف الدعم.', 'صرف الدعم حسب قرار لجنة المساعدات.', 'تم الصرف بعد اعتماد المدير التنفيذي.'],
	[Status.Incomplete]: ['سجل الأسرة غير واضح ويحتاج إلى إعادة إرفاق.', 'رقم الآيبان لا يطابق اسم المتقدم.', 'بيانات أفراد الأسرة ناقصة.'],
	[Status.SupportStopped]: ['تحسن دخل الأسرة بعد توظيف رب الأسرة.', 'انتقلت الأسرة خارج منطقة خدمة المؤسسة.', 'تبين استفادة الأسرة من جهة أخرى بالدعم نفسه.'],
	[Status.Closed]: ['إغلاق الطلب لعدم استكمال المتطلبات خلال المهلة.', 'طلب مكرر، أُغلق والاعتماد على الطلب الأحدث.', 'تعذر التواصل مع المتقدم بعد عدة محاولات.'],
}

const incompleteMessages = [
	'نأمل إعادة إرفاق صورة واضحة من سجل الأسرة.',
	'الرجاء التأكد من رقم الآيبان وأنه باسم المتقدم.',
	'الرجاء استكمال بيانات أفراد الأسرة وأعمارهم.',
]

const reopenedChoices: readonly Reopened[] = [
	{ sections: [], slots: ['family_report'] },
	{ sections: ['bank'], slots: [] },
	{ sections: ['family'], slots: [] },
	{ sections: ['bank'], slots: ['bank_statement'] },
	{ sections: [], slots: ['identity', 'family_report'] },
]

const aidNotes: Record<AidKind, readonly string[]> = {
	cash: ['تحويل بنكي إلى حساب المتقدم', 'دعم مقطوع لمرة واحدة'],
	food_basket: ['سلة غذائية من مستودع المؤسسة', 'سلة غذائية شهرية'],
	eid_clothing: ['كسوة العيد لأطفال الأسرة'],
	bill_payment: ['سداد فاتورة الكهرباء المتأخرة', 'سداد فاتورة المياه'],
	rent: ['سداد إيجار ستة أشهر', 'سداد قسط الإيجار المتأخر'],
	restoration: ['ترميم دورة المياه والمطبخ'],
	medical: ['كرسي متحرك', 'جلسات علاج طبيعي'],
	devices: ['ثلاجة وغسالة', 'مكيف شباك'],
	other: ['حقيبة مدرسية للأبناء'],
}

/** Who the researcher met on a demo visit, and what the study concluded. */
/** The zakat categories the demo's studies find families in (those drizzle/0045_zakat_categories.sql adds). */
const demoZakatCategories = ['الفقراء', 'المساكين', 'الغارمين', 'ابن السبيل']
const studyMet = ['الأم وابنها الأكبر', 'رب الأسرة وزوجته', 'الأم وحدها', 'الجدة والأحفاد']
const studySummaries = [
	'أسرة بلا دخل ثابت بعد وفاة العائل، والسكن مستأجر ومتأخر الإيجار.',
	'دخل الأسرة من الضمان لا يكفي حاجتها، والأبناء في المدارس.',
	'رب الأسرة مريض لا يعمل، والمنزل يحتاج إلى صيانة عاجلة.',
	'أسرة كبيرة في شقة صغيرة، ودخلها أقل من نفقاتها الأساسية.',
]

/** What staff give, how often, and in what range of riyals (amounts round to 50). */
const aidRanges: readonly (readonly [AidKind, number, number, number])[] = [
	['cash', 30, 500, 5000],
	['food_basket', 25, 250, 600],
	['bill_payment', 15, 300, 2500],
	['rent', 12, 2000, 12000],
	['devices', 7, 800, 3500],
	['medical', 6, 500, 6000],
	['restoration', 3, 3000, 15000],
	['other', 2, 200, 1000],
]

// ——— Identifiers ———

const REFERENCE_BASE = BigInt(REFERENCE_ALPHABET.length)
const REFERENCE_SPACE = REFERENCE_BASE ** 8n

/** A 32-bit number from the seed and a label, so each identifier family has its own offset. */
function seedHash(seed: number, label: string): bigint {
	return BigInt(`0x${createHash('sha256').update(`ataa-demo:${seed}:${label}`).digest('hex').slice(0, 12)}`)
}

/**
 * `index` mapped one-to-one into [0, space): a multiplier prime to the space and an offset from the
 * seed, so the cases of one seed never share a reference, national ID or mobile.
 */
function spread(index: number, seed: number, label: string, multiplier: bigint, space: bigint): bigint {
	return (BigInt(index) * multiplier + seedHash(seed, label)) % space
}

/** A reference such as «K7M2-PX4R», in the alphabet of `newReference` (app/cases/tokens.server.ts). */
function demoReference(index: number, seed: number): string {
	let value = spread(index, seed, 'reference', 104_729_003n, REFERENCE_SPACE)
	let out = ''
	for (let i = 0; i < 8; i++) {
		out = REFERENCE_ALPHABET[Number(value % REFERENCE_BASE)]! + out
		value /= REFERENCE_BASE
	}
	return `${out.slice(0, 4)}-${out.slice(4)}`
}

const eightDigits = (value: bigint) => value.toString().padStart(8, '0')

/** A valid Saudi IBAN for the bank: SA, the ISO 13616 check digits, the bank's code and 18 digits. */
export const demoIban = (bankCode: string, account: string) => saudiIbanFromBban(`${bankCode}${account}`)

/** A UUID from the seed and index (RFC 4122 version and variant bits), so a seed's ids are stable. */
function demoUuid(seed: number, index: number): string {
	const hex = createHash('sha256').update(`ataa-demo-case:${seed}:${index}`).digest('hex')
	const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

const mobileOf = (eight: string) => `+9665${eight}`

// ——— Dates ———

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
/** How far back demo cases go: about six months. */
const SPAN_DAYS = 182

/** Moves a moment to Riyadh's waking hours (08:00–23:00, UTC+3) on the same day or the one before. */
function inWakingHours(rng: Rng, at: number): number {
	// Drawn whatever the hour, so the rest of a seed's cases do not depend on the time of day it is seeded at.
	const minutes = int(rng, 0, 4 * 60)
	const riyadhHour = new Date(at + 3 * HOUR).getUTCHours()
	if (riyadhHour >= 8) return at
	return at - (riyadhHour + 1) * HOUR - minutes * MINUTE
}

/** `count` sorted moments in (start, end]; the last is `end`. */
function momentsBetween(rng: Rng, start: number, end: number, count: number): number[] {
	const inner = Array.from({ length: count - 1 }, () => start + (end - start) * (0.15 + 0.7 * rng())).sort((a, b) => a - b)
	return [...inner, end].map(Math.round)
}

// ——— The case ———

export interface DemoOfficer {
	id: number
	name: string
}

export interface DemoCaseOptions {
	/** «Now» for the demo: cases are submitted over the ~6 months before it. */
	now: Date
	/** Makes identifiers (reference, national ID, mobile, id) unique per seed; default 1. */
	seed?: number
	/** Staff who study, decide and hold cases; without any, nobody is assigned and changes have no actor. */
	officers?: readonly DemoOfficer[]
}

export interface DemoCase {
	case: typeof cases.$inferInsert & { id: string; reference: string; status: CaseStatus; submittedAt: Date; statusChangedAt: Date }
	sections: (typeof caseSections.$inferInsert)[]
	events: (typeof caseEvents.$inferInsert)[]
	aid: (typeof caseAid.$inferInsert)[]
	studies: (typeof caseStudies.$inferInsert)[]
	visits: (typeof caseVisits.$inferInsert)[]
}

type Person = { first: string; female: boolean }

function firstName(rng: Rng, female: boolean): string {
	return weighted(rng, female ? femaleNames : maleNames)
}

function ageGroup(age: number): { edu: string; social: string } {
	if (age < 6) return { edu: 'under_school_age', social: 'child' }
	if (age < 12) return { edu: 'primary', social: 'child' }
	if (age < 15) return { edu: 'intermediate', social: 'child' }
	if (age < 18) return { edu: 'secondary', social: 'single' }
	return { edu: '', social: '' }
}

/** The latest moment in a case's history. */
function updatedBefore(events: readonly (typeof caseEvents.$inferInsert)[]): number {
	return Math.max(...events.map((event) => (event.at as Date).getTime()))
}

function riyadhDay(at: number): string {
	return todayInRiyadh(new Date(at))
}

/**
 * One submitted needy-families case: the rows to insert into cases, case_sections, case_events and
 * case_aid. Pure (no database); deterministic for the same `rng` state, index and options, except
 * the hash of a random resume token.
 */
export function generateDemoCase(rng: Rng, index: number, options: DemoCaseOptions): DemoCase {
	const seed = options.seed ?? 1
	const officers = options.officers ?? []
	const now = options.now.getTime()
	const id = demoUuid(seed, index)

	// Who applies.
	const family = weighted(
		rng,
		familyNames.map(([name, latin, weight]) => [[name, latin], weight] as const),
	)
	const [familyName, latin] = family
	const female = chance(rng, 0.32)
	const resident = chance(rng, 0.08)
	const applicantFirst = firstName(rng, female)
	const father = firstName(rng, false)
	const grandfather = firstName(rng, false)
	const fullName = `${applicantFirst} ${father} ${grandfather} ${familyName}`
	const age = int(rng, 24, 72)
	const social = female ? weighted(rng, [['widowed', 40], ['divorced', 30], ['married', 25], ['single', 5]] as const) : weighted(rng, [['married', 80], ['divorced', 8], ['widowed', 6], ['single', 6]] as const)
	const career = age >= 62 ? weighted(rng, [['retired', 70], ['unemployed', 30]] as const) : weighted(rng, [['unemployed', 45], ['private_employee', 30], ['public_employee', 10], ['retired', 15]] as const)
	const nationalId = nationalIdWithCheckDigit(`${resident ? '2' : '1'}${eightDigits(spread(index, seed, 'national-id', 7_654_321n, 100_000_000n))}`)
	const mobile = mobileOf(eightDigits(spread(index, seed, 'mobile', 3_141_593n, 100_000_000n)))
	const email = chance(rng, 0.3) ? `${latin}.${(index % 997) + 3}@example.com` : undefined
	const [city, neighbourhoods] = weighted(
		rng,
		places.map(([name, list, weight]) => [[name, list] as const, weight] as const),
	)
	const housingStatus = chance(rng, 0.7) ? 'rented' : 'owned'
	const salary = career === 'private_employee' || career === 'public_employee' ? int(rng, 30, 90) * 50 : career === 'retired' ? int(rng, 20, 70) * 50 : undefined
	const birthYear = new Date(now).getUTCFullYear() - age
	const basic: Record<string, unknown> = {
		Full_Name: fullName,
		Identify_Id: nationalId,
		Gander: female ? 'female' : 'male',
		Nationalty: resident ? 'resident' : 'saudi',
		...(chance(rng, 0.85) ? { BirthDate: `${birthYear}-${String(int(rng, 1, 12)).padStart(2, '0')}-${String(int(rng, 1, 28)).padStart(2, '0')}` } : {}),
		Social_Situation: social,
		Career: career,
		...(salary !== undefined ? { Salary: salary } : {}),
		...(chance(rng, 0.6) ? { Income_Source: career === 'retired' ? 'راتب تقاعدي' : pick(rng, incomeSources) } : {}),
		Family_Role: female && social === 'married' ? weighted(rng, [['not_head', 70], ['head', 30]] as const) : weighted(rng, [['head', 92], ['other', 8]] as const),
		Phone: mobile,
		...(email ? { Email: email } : {}),
		Housing_Status: housingStatus,
		Housing_Type: weighted(rng, [['apartment', 45], ['popular_house', 40], ['villa', 15]] as const),
		city,
		...(chance(rng, 0.9) ? { Neighborhood: pick(rng, neighbourhoods) } : {}),
	}

	// The bank account(s).
	const bank1 = weighted(rng, bankWeights)
	const bank: Record<string, unknown> = { Bank_Name_1: bank1, Bank_No_1: demoIban(codeOfBank(bank1), digits(rng, 18)) }
	if (chance(rng, 0.1)) {
		const bank2 = weighted(rng, bankWeights)
		bank.Bank_Name_2 = bank2
		bank.Bank_No_2 = demoIban(codeOfBank(bank2), digits(rng, 18))
	}

	// Money, monthly.
	const socialInsurance = career === 'unemployed' || social === 'widowed' || social === 'divorced' ? (chance(rng, 0.7) ? int(rng, 8, 50) * 50 : undefined) : undefined
	const retirement = career === 'retired' && salary === undefined ? int(rng, 20, 60) * 50 : undefined
	const subsidies = chance(rng, 0.35) ? int(rng, 2, 20) * 50 : undefined
	const other = chance(rng, 0.1) ? int(rng, 2, 30) * 50 : undefined
	const netIncome = (salary ?? 0) + (socialInsurance ?? 0) + (retirement ?? 0) + (subsidies ?? 0) + (other ?? 0)
	const financial: Record<string, unknown> = {
		Net_Income: netIncome,
		...(salary !== undefined ? { Salary: salary } : {}),
		...(retirement !== undefined ? { Retirement: retirement } : {}),
		...(socialInsurance !== undefined ? { Social_Insurance: socialInsurance } : {}),
		...(subsidies !== undefined ? { Subsidies: subsidies } : {}),
		...(other !== undefined ? { Other_Money_Sources: other } : {}),
	}

	// Who lives with them: 1–8 people.
	const size = Math.min(8, Math.max(1, Math.round(1 + rng() * 4 + rng() * 3.5)))
	const members: Record<string, unknown>[] = []
	const member = (person: Person, relationship: string, memberAge: number, name: string, adultSocial?: string) => {
		const group = ageGroup(memberAge)
		members.push({
			FamilyName: name,
			RelationShip: relationship,
			...(memberAge >= 15 && chance(rng, 0.55) ? { Identify_Id: nationalIdWithCheckDigit(`${resident ? '2' : '1'}${digits(rng, 8)}`) } : {}),
			Age: memberAge,
			Gander: person.female ? 'female' : 'male',
			Level_Edu: group.edu || weighted(rng, [['secondary', 35], ['university', 20], ['intermediate', 15], ['primary', 12], ['none', 10], ['diploma', 8]] as const),
			Social_Status: group.social || adultSocial || (memberAge > 24 && chance(rng, 0.4) ? 'married' : 'single'),
			Health_Status: weighted(rng, [['healthy', 80], ['chronic', 11], ['disability', 6], ['other', 3]] as const),
			// Rows added one at a time carry a key (app/cases/case-store.server.ts applyRowEdit).
			_key: hex(rng, 16),
		})
	}
	// A married woman's children carry their father's names.
	const childFather = female ? firstName(rng, false) : applicantFirst
	const childFamily = female ? pick(rng, familyNames)[0] : familyName
	if (social === 'married') {
		const spouse: Person = { first: female ? childFather : firstName(rng, true), female: !female }
		const spouseFamily = female ? childFamily : pick(rng, familyNames)[0]
		member(spouse, female ? 'husband' : 'wife', Math.max(20, age + int(rng, female ? 0 : -12, female ? 12 : 2)), `${spouse.first} ${firstName(rng, false)} ${spouseFamily}`, 'married')
	}
	if (social === 'single') {
		// Living with their parents and brothers and sisters.
		if (chance(rng, 0.7)) {
			const mother: Person = { first: firstName(rng, true), female: true }
			member(mother, 'mother', age + int(rng, 20, 30), `${mother.first} ${firstName(rng, false)} ${pick(rng, familyNames)[0]}`, chance(rng, 0.5) ? 'widowed' : 'married')
		}
		while (members.length < size) {
			const girl = chance(rng, 0.5)
			const sibling: Person = { first: firstName(rng, girl), female: girl }
			member(sibling, girl ? 'sister' : 'brother', Math.max(0, age + int(rng, -14, 6)), `${sibling.first} ${father} ${familyName}`)
		}
	} else {
		const eldest = Math.max(1, Math.min(age - 19, 30))
		while (members.length < size) {
			const girl = chance(rng, 0.5)
			const child: Person = { first: firstName(rng, girl), female: girl }
			member(child, girl ? 'daughter' : 'son', int(rng, 0, eldest), `${child.first} ${childFather} ${childFamily}`)
		}
	}

	// Three referrers, at least one official.
	const officialKind = weighted(rng, [['village_head', 45], ['mosque_imam', 35], ['tribe_sheikh', 20]] as const)
	const officialTitle = { village_head: 'عمدة حي', mosque_imam: 'إمام مسجد', tribe_sheikh: 'الشيخ' }[officialKind]
	const neighbourhood = typeof basic.Neighborhood === 'string' ? basic.Neighborhood : city
	const addressCode = () => `${pick(rng, ['RR', 'RI', 'JE', 'MK', 'DM', 'AB', 'KH'])}${pick(rng, ['SA', 'SB', 'SC', 'HA', 'MA', 'NA'])}${digits(rng, 4)}`
	const persons: Record<string, unknown>[] = [
		{
			Name: officialKind === 'mosque_imam' ? `${officialTitle} ${neighbourhood} ${firstName(rng, false)} ${pick(rng, familyNames)[0]}` : `${officialTitle} ${firstName(rng, false)} ${pick(rng, familyNames)[0]}`,
			NationalAddress: addressCode(),
			...(chance(rng, 0.7) ? { PhoneNumber: mobileOf(digits(rng, 8)) } : {}),
			RelatedPerson: officialKind,
		},
	]
	for (let i = 0; i < 2; i++) {
		const second = chance(rng, 0.15)
		persons.push({
			Name: `${firstName(rng, false)} ${firstName(rng, false)} ${pick(rng, familyNames)[0]}`,
			NationalAddress: addressCode(),
			...(chance(rng, 0.5) ? { PhoneNumber: mobileOf(digits(rng, 8)) } : {}),
			RelatedPerson: second ? weighted(rng, [['mosque_imam', 1], ['village_head', 1]] as const) : 'other',
		})
	}
	// The official need not come first on the form.
	const officialAt = int(rng, 0, 2)
	;[persons[0], persons[officialAt]] = [persons[officialAt]!, persons[0]!]

	// What they ask for.
	const wanted = new Set<string>()
	wanted.add(weighted(rng, [['food_basket', 30], ['financial_support', 30], ['house_rent', housingStatus === 'rented' ? 25 : 2], ['bills', 15], ['service_bills', 10]] as const))
	for (const [service, p] of [
		['food_basket', 0.35],
		['bills', 0.2],
		['financial_support', 0.25],
		['winter_clothing', 0.12],
		['service_bills', 0.15],
		['medical_supplies', members.some((row) => row.Health_Status !== 'healthy') ? 0.5 : 0.03],
		['physiotherapy', members.some((row) => row.Health_Status === 'disability') ? 0.5 : 0.01],
	] as const) {
		if (chance(rng, p)) wanted.add(service)
	}
	const otherService = chance(rng, 0.06) ? pick(rng, ['أجهزة منزلية', 'حقيبة مدرسية', 'ترميم المنزل', 'نظارات طبية']) : undefined
	const services: Record<string, unknown> = { services: [...wanted, ...(otherService ? ['other'] : [])], ...(otherService ? { servicesOther: otherService } : {}) }
	const files: Record<string, unknown> = chance(rng, 0.55) ? { PatientMassage: pick(rng, applicantMessages) } : {}

	// When: sent over the last ~6 months, more of them recently; the draft started a little before.
	const submittedAt = inWakingHours(rng, now - Math.max(20 * MINUTE, Math.round(SPAN_DAYS * DAY * rng() ** 1.25)))
	const createdAt = submittedAt - int(rng, 8, 60 * 24 * 2) * MINUTE
	const ageDays = (now - submittedAt) / DAY

	// Where the case is now, reached as the workflow table allows (app/cases/workflow.ts).
	const recent = ageDays < 10
	const status: CaseStatus = recent
		? weighted(rng, [[Status.New, 85], [Status.Studied, 6], [Status.Incomplete, 6], [Status.Closed, 3]] as const)
		: weighted(rng, [[Status.New, 40], [Status.Studied, 16], [Status.SupportProvided, 18], [Status.Incomplete, 8], [Status.SupportStopped, 7], [Status.Closed, 11]] as const)
	const pathOf = (): ({ to: CaseStatus } | { resubmitted: true })[] => {
		switch (status) {
			case Status.New:
				return !recent && chance(rng, 0.1) ? [{ to: Status.Incomplete }, { resubmitted: true }] : []
			case Status.Studied:
				return [{ to: Status.Studied }]
			case Status.SupportProvided:
				return [{ to: Status.Studied }, { to: Status.SupportProvided }]
			case Status.Incomplete:
				return [{ to: Status.Incomplete }]
			case Status.SupportStopped:
				return chance(rng, 0.2) ? [{ to: Status.Incomplete }, { to: Status.SupportStopped }] : [{ to: Status.SupportStopped }]
			case Status.Closed:
				return chance(rng, 0.25) ? [{ to: Status.SupportStopped }, { to: Status.Closed }] : [{ to: Status.Closed }]
		}
	}
	const path = pathOf()
	const lastChange = path.length ? Math.min(now - MINUTE, submittedAt + Math.max(HOUR, Math.round((now - submittedAt) * (0.1 + 0.8 * rng())))) : submittedAt
	const moments = path.length ? momentsBetween(rng, submittedAt, lastChange, path.length) : []
	const statusChangedAt = path.length ? moments.at(-1)! : submittedAt

	// Who holds it.
	// Drawn whether or not there are officers, so a seed's names and answers do not depend on them.
	const officerOf = (draw: number) => (officers.length ? officers[Math.floor(draw * officers.length)] : undefined)
	const assignDraw = rng()
	const assignee = officerOf(rng())
	const assigned = assignDraw < (status === Status.New ? 0.3 : 0.75) ? assignee : undefined
	const actor = () => {
		const other = officerOf(rng())
		return (assigned ?? other)?.id ?? null
	}
	// Some were typed in by staff for a walk-in or phone applicant.
	const paperDraw = rng()
	const clerk = officerOf(rng())
	const paperIntake = clerk !== undefined && paperDraw < 0.04
	const createdBy = paperIntake ? clerk.id : null

	const events: (typeof caseEvents.$inferInsert)[] = [
		{ caseId: id, at: new Date(createdAt), actorId: createdBy, kind: 'created', data: { section: 'basic' } },
		{ caseId: id, at: new Date(submittedAt), actorId: createdBy, kind: 'submitted', data: { resubmitted: false } },
	]
	if (assigned) {
		const at = Math.round(submittedAt + (moments[0] !== undefined ? (moments[0] - submittedAt) * 0.1 : Math.min(DAY, (now - submittedAt) * 0.2)))
		events.push({ caseId: id, at: new Date(at), actorId: assigned.id, kind: 'assigned', data: { officerId: assigned.id, officerName: assigned.name } })
	}
	let reopened: Reopened | null = null
	const aid: (typeof caseAid.$inferInsert)[] = []
	const studies: (typeof caseStudies.$inferInsert)[] = []
	let from: CaseStatus = Status.New
	path.forEach((step, i) => {
		const at = new Date(moments[i]!)
		if ('resubmitted' in step) {
			events.push({ caseId: id, at, actorId: null, kind: 'submitted', data: { resubmitted: true, from, to: Status.New } })
			from = Status.New
			reopened = null
			return
		}
		const by = actor()
		const to = step.to
		// «تمت الدراسة» follows the researcher's visit and study (drawn from the case's own number, not the random stream, so the rest of the seed stays as it was).
		if (to === Status.Studied) {
			const [kind, , min, max] = aidRanges[index % aidRanges.length]!
			const amount = Math.round((min + ((max - min) * ((index * 37) % 100)) / 100) / 50) * 50 || min
			const months = kind === 'rent' ? 6 : null
			studies.push({ caseId: id, kind: 'visit', studiedOn: riyadhDay(at.getTime() - HOUR), metWith: studyMet[index % studyMet.length]!, housing: { condition: ['good', 'medium', 'dilapidated'][index % 3]!, needsMaintenance: index % 2 ? 'yes' : 'no' }, needs: '', summary: studySummaries[index % studySummaries.length]!, recommendation: 'support', ...(index % 4 !== 0 ? { zakatCategory: demoZakatCategories[index % demoZakatCategories.length]!, zakatReason: 'دخل الأسرة لا يكفي حاجتها الأساسية كما رُئيت في الزيارة' } : {}), aidKind: kind, aidAmount: amount, aidMonths: months, authorId: by, createdAt: new Date(at.getTime() - HOUR) })
			events.push({ caseId: id, at: new Date(at.getTime() - HOUR), actorId: by, kind: 'study_recorded', data: { recommendation: 'support', aidKind: kind, amount, months } })
		}
		const note = pick(rng, statusNotes[to as NoteStatus])
		if (to === Status.Incomplete) {
			reopened = pick(rng, reopenedChoices)
			events.push({ caseId: id, at, actorId: by, kind: 'status_changed', note, data: { from, to, reopened } })
			events.push({ caseId: id, at, actorId: by, kind: 'applicant_message', note: pick(rng, incompleteMessages) })
		} else {
			reopened = null
			events.push({ caseId: id, at, actorId: by, kind: 'status_changed', note, data: { from, to } })
		}
		if (to === Status.SupportProvided) {
			const gifts = chance(rng, 0.2) ? 2 : 1
			for (let g = 0; g < gifts; g++) {
				const [kind, , min, max] = weighted(
					rng,
					aidRanges.map((range) => [range, range[1]] as const),
				)
				const amount = int(rng, min / 50, max / 50) * 50
				// A second gift comes later (a basket next month), never after «now».
				const givenAt = g === 0 ? at.getTime() : Math.min(now - MINUTE, at.getTime() + int(rng, 1, 40) * DAY)
				const givenOn = riyadhDay(givenAt)
				const aidNote = pick(rng, aidNotes[kind])
				aid.push({ caseId: id, amount, kind, givenOn, note: aidNote, createdBy: by, createdAt: new Date(givenAt) })
				events.push({ caseId: id, at: new Date(givenAt), actorId: by, kind: 'aid_recorded', note: aidNote, data: { amount, kind, givenOn } })
			}
		}
		from = to
	})

	// A few were deleted by staff (kept, hidden until an admin restores them).
	const deleteDraw = rng()
	const deleter = officerOf(rng())
	const deleteAfter = int(rng, 1, 20) * HOUR
	const reason = pick(rng, ['طلب مكرر أُدخل بالخطأ', 'طلب تجريبي', 'بيانات غير صحيحة بطلب المتقدم'])
	const deleted = deleter !== undefined && deleteDraw < 0.01
	const deletedAt = deleted ? Math.min(now - MINUTE, Math.max(statusChangedAt, updatedBefore(events)) + deleteAfter) : null
	const deletedBy = deleted ? deleter.id : null
	const deletedReason = deleted ? reason : null
	if (deletedAt !== null) events.push({ caseId: id, at: new Date(deletedAt), actorId: deletedBy, kind: 'deleted', note: deletedReason! })

	const updatedAt = updatedBefore(events)
	const sectionRows = Object.entries({ basic, bank, financial, family: { members }, referrers: { persons }, services, files }).map(([section, answers], order) => ({
		caseId: id,
		section,
		answers,
		// Filled in step by step while the draft was open.
		updatedAt: new Date(createdAt + Math.round(((submittedAt - createdAt) * (order + 1)) / 8)),
	}))

	return {
		case: {
			id,
			type: needyFamilies.type,
			reference: demoReference(index, seed),
			status,
			applicantName: fullName,
			nationalId,
			mobile,
			email: email ?? '',
			// As a save promotes them (case-store.server.ts, applicantColumns): the city, and the household's size.
			city,
			household: 1 + members.length,
			resumeTokenHash: hashResumeToken(newResumeToken()),
			createdAt: new Date(createdAt),
			updatedAt: new Date(updatedAt),
			submittedAt: new Date(submittedAt),
			statusChangedAt: new Date(statusChangedAt),
			assignedTo: assigned?.id ?? null,
			reopened: status === Status.Incomplete ? reopened : null,
			paperIntake,
			createdBy,
			deletedAt: deletedAt === null ? null : new Date(deletedAt),
			deletedBy,
			deletedReason,
		},
		sections: sectionRows,
		events,
		aid,
		studies,
		// A few new cases held by a researcher have their home visit planned in the coming days («زياراتي»).
		visits:
			status === Status.New && assigned && deletedAt === null && index % 6 === 0
				? [{ caseId: id, visitOn: riyadhDay(now + ((index / 6) % 4) * DAY), visitAt: ['09:30', '11:00', '16:30', '18:00'][(index / 6) % 4]!, visitorId: assigned.id, createdBy: assigned.id, createdAt: new Date(statusChangedAt + MINUTE) }]
				: [],
	}
}


export interface InsertDemoCasesOptions {
	/** The PRNG seed: the same seed gives the same cases. */
	seed: number
	/** Case officers (or admins) to assign cases to and to act in their history. */
	officerIds?: readonly number[]
	now?: Date
	/** Cases per INSERT statement (and per transaction); default 500. */
	batchSize?: number
	/** Called after each batch with the number inserted so far. */
	onProgress?: (inserted: number) => void
}

/** The database or a transaction on it (the seed inserts demo cases inside its own). */
type Executor = Database | Parameters<Parameters<Database['transaction']>[0]>[0]

/**
 * Inserts `count` generated cases, `batchSize` at a time: one multi-row INSERT per table per batch,
 * each batch in its own transaction. Returns how many cases were inserted.
 */
export async function insertDemoCases(db: Executor, count: number, options: InsertDemoCasesOptions): Promise<number> {
	const now = options.now ?? new Date()
	const batchSize = Math.max(1, Math.min(options.batchSize ?? 500, 1000))
	const ids = [...new Set(options.officerIds ?? [])]
	const named = ids.length ? await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, ids)) : []
	// In the order given, so the same ids give the same assignments.
	const officers = ids.flatMap((id) => named.filter((user) => user.id === id))
	const rng = mulberry32(options.seed)
	// The notice the server wrote on start (app/bootstrap.server.ts); none in a bare database.
	const [{ noticeVersion } = { noticeVersion: null }] = await db.select({ noticeVersion: max(privacyNotices.version) }).from(privacyNotices)
	let inserted = 0
	while (inserted < count) {
		const batch = Array.from({ length: Math.min(batchSize, count - inserted) }, (_, i) => generateDemoCase(rng, inserted + i, { now, seed: options.seed, officers }))
		await db.transaction(async (tx) => {
			// Every demo family agreed on the consent step, a minute after starting (docs/product.md#privacy-and-consent).
			await tx.insert(cases).values(batch.map((item) => ({ ...item.case, consent: 'given' as const, consentAt: new Date(item.case.createdAt!.getTime() + MINUTE), consentNoticeVersion: noticeVersion })))
			await tx.insert(caseSections).values(batch.flatMap((item) => item.sections))
			await tx.insert(caseEvents).values(batch.flatMap((item) => item.events))
			const aid = batch.flatMap((item) => item.aid)
			if (aid.length) await tx.insert(caseAid).values(aid)
			const studies = batch.flatMap((item) => item.studies)
			if (studies.length) await tx.insert(caseStudies).values(studies)
			const visits = batch.flatMap((item) => item.visits)
			if (visits.length) await tx.insert(caseVisits).values(visits)
		})
		inserted += batch.length
		options.onProgress?.(inserted)
	}
	return inserted
}
