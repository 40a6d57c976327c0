import { isGiven, type ApplicationDef, type FieldDef, type RowFieldDef, type SectionDef } from './definition.ts'
import { conditionHolds, conditionOf, isSectionAsked } from './conditions.ts'
import { nationalIdWithCheckDigit, saudiIbanFromBban } from '#app/domain/validators.ts'
import { sectionSchema } from './schema.ts'
import { ibanBankPairs } from './bank-account.ts'
import { bankOfChoice } from '#app/domain/saudi-banks.ts'

// Made-up but valid answers to any definition, as a browser sends them once Conform has read the
// form: text as typed (05 mobiles, digits as text), empty inputs left out, checkbox lists as arrays,
// a ticked checkbox as true, a group as an array of row objects. Built from the field definitions
// only, never from a programme's name, so every programme can be tested and benchmarked alike
// (app/forms/definitions.test.ts, scripts/bench-apply.ts). Deterministic for a seed.

export type SampleVariant = 'minimal' | 'full'

export interface SampleOptions {
	/** Same seed, same answers (default 1). */
	seed?: number
	/** `minimal`: only the required fields; `full`: every field (default). */
	variant?: SampleVariant
}

/** Answers by section key. */
export type SampleAnswers = Record<string, Record<string, unknown>>

export interface SampleFile {
	/** The key of the section that holds the slot. */
	section: string
	slot: string
	required: boolean
	/** Photos kept as pictures (a house's), not pages of a document. */
	pictures: boolean
}

/** How many times a section is drawn again when its own rules (`rules`) refuse the answers drawn. */
const ATTEMPTS = 200

// ─── Random numbers ─────────────────────────────────────────────────────────────────────────────

/** mulberry32: a small, fast PRNG, good enough for made-up answers. */
function prng(seed: number) {
	let state = seed >>> 0
	const next = () => {
		state = (state + 0x6d2b79f5) >>> 0
		let t = state
		t = Math.imul(t ^ (t >>> 15), t | 1)
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296
	}
	/** A whole number from `min` to `max`, both included. */
	const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1))
	const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)]!
	const digits = (count: number) => Array.from({ length: count }, () => String(int(0, 9))).join('')
	return { next, int, pick, digits }
}

type Random = ReturnType<typeof prng>

// ─── Saudi identifiers ──────────────────────────────────────────────────────────────────────────

// ─── Text ───────────────────────────────────────────────────────────────────────────────────────

const givenNames = ['عبدالله', 'محمد', 'فهد', 'سعد', 'خالد', 'نورة', 'سارة', 'هند', 'ريم', 'أحمد', 'عبدالرحمن', 'منيرة']
const familyNames = ['القحطاني', 'العتيبي', 'الشمري', 'الدوسري', 'الغامدي', 'الزهراني', 'الحربي', 'المطيري']
const words = ['الرياض', 'جدة', 'الدمام', 'أبها', 'حي النسيم', 'حي الملز', 'طريق الملك فهد', 'شارع الأمير سلطان', 'الجمعية الخيرية', 'مركز الخدمة']
const sentences = [
	'نرجو النظر في حالتنا بعين الاعتبار.',
	'الأسرة بحاجة إلى الدعم لتغطية المصاريف الأساسية.',
	'تفاصيل إضافية عن الحالة يطلع عليها الباحث.',
	'تم إرفاق المستندات المطلوبة كاملة.',
	'نشكر لكم جهودكم في خدمة المجتمع.',
]

function clip(text: string, maxLength: number): string {
	return text.length <= maxLength ? text : text.slice(0, maxLength).trim()
}

/** A user name (autocomplete «username»), a person's name where the field asks for one (its autocomplete or label says so), else a place or a phrase. */
function plainText(field: { label: string; autoComplete?: string; maxLength?: number }, random: Random): string {
	if (field.autoComplete === 'username') return `user${random.digits(6)}`
	const isName = field.autoComplete?.includes('name') || field.label.includes('اسم')
	const text = isName ? `${random.pick(givenNames)} ${random.pick(givenNames)} ${random.pick(familyNames)}` : random.pick(words)
	return clip(text, field.maxLength ?? 200)
}

function isoDate(random: Random): string {
	// A fixed span well before today, so the answers do not change from day to day.
	return `${random.int(1950, 2015)}-${String(random.int(1, 12)).padStart(2, '0')}-${String(random.int(1, 28)).padStart(2, '0')}`
}

// ─── Values ─────────────────────────────────────────────────────────────────────────────────────

function choiceValue(field: Extract<RowFieldDef, { kind: 'select' | 'radio' }>, random: Random, variant: SampleVariant): string {
	// The applicant who changes nothing keeps the default; the full one picks.
	if (variant === 'minimal' && field.default !== undefined) return field.default
	return random.pick(field.options).value
}

/** One field's answers (a checkbox list with `other` also gives `${name}Other`). */
function fieldValue(field: RowFieldDef, random: Random, variant: SampleVariant, counter: { next: number }): Record<string, unknown> {
	switch (field.kind) {
		case 'text': {
			switch (field.format) {
				case 'nationalId':
					return {
						[field.name]: nationalIdWithCheckDigit(`${random.next() < 0.8 ? 1 : 2}${random.digits(8)}`),
					}
				case 'mobile':
					return { [field.name]: `05${random.digits(8)}` }
				case 'iban':
					return {
						[field.name]: saudiIbanFromBban(`${random.int(10, 99)}${random.digits(18)}`),
					}
				case 'licence':
					return { [field.name]: random.digits(random.int(4, 10)).replace(/^0/, '1') }
				case 'email':
					return {
						[field.name]: `applicant${counter.next++}.${random.digits(6)}@example.com`,
					}
				default:
					return { [field.name]: plainText(field, random) }
			}
		}
		case 'textarea':
			return {
				[field.name]: clip(`${random.pick(sentences)} ${random.pick(sentences)}`, field.maxLength ?? 2000),
			}
		case 'number': {
			const min = field.min ?? 0
			const max = Math.min(field.max ?? 1_000_000, min + 100)
			return { [field.name]: String(random.int(min, max)) }
		}
		case 'money': {
			const whole = random.int(0, 20_000)
			return {
				[field.name]: random.next() < 0.3 ? `${whole}.${random.digits(2)}` : String(whole),
			}
		}
		case 'date':
			return { [field.name]: isoDate(random) }
		case 'select':
		case 'radio':
			return { [field.name]: choiceValue(field, random, variant) }
		case 'checkbox':
			return { [field.name]: true }
		case 'age':
			return { [field.name]: String(random.int(18, 90)) }
		case 'newPassword': {
			const password = `Ataa${random.digits(6)}Pass`
			return { [field.name]: password, [`${field.name}Confirm`]: password }
		}
		case 'checkboxes': {
			const count = random.int(1, Math.min(3, field.options.length))
			const chosen = [...field.options]
				.map((option) => ({ option, order: random.next() }))
				.sort((a, b) => a.order - b.order)
				.slice(0, count)
				.map(({ option }) => option.value)
			// Options in the order the form lists them, as the browser posts them.
			const values = field.options.map((option) => option.value).filter((value) => chosen.includes(value))
			if (field.other && variant === 'full')
				return {
					[field.name]: [...values, 'other'],
					[`${field.name}Other`]: clip(random.pick(words), 300),
				}
			return { [field.name]: values }
		}
	}
}

/** Whether a field holds an answer of its own (a group its rows). */
function wanted(field: FieldDef, variant: SampleVariant): boolean {
	if (variant === 'full') return true
	if (field.kind === 'group') return field.min > 0
	return field.required === true
}

/**
 * The answers of one object (a section or a group's row). Fields are drawn in order so that a
 * `when` can look at earlier ones; an `onlyWith` choice and its partner are both given or both left out.
 */
function objectValues(fields: readonly FieldDef[], random: Random, variant: SampleVariant, counter: { next: number }): Record<string, unknown> {
	const values: Record<string, unknown> = {}
	const paired = new Map<string, string>()
	for (const field of fields) {
		if ((field.kind === 'select' || field.kind === 'radio') && field.onlyWith !== undefined) {
			paired.set(field.name, field.onlyWith)
			paired.set(field.onlyWith, field.name)
		}
	}
	const chosen = new Set(fields.filter((field) => wanted(field, variant)).map((field) => field.name))
	for (const [name, partner] of paired) if (chosen.has(partner)) chosen.add(name)
	for (const field of fields) {
		const condition = conditionOf(field)
		if (!chosen.has(field.name) || (condition && !conditionHolds(condition, values))) continue
		if (field.kind === 'group') {
			const count = variant === 'minimal' ? field.min : Math.min(field.max, field.min + 2)
			// A row of a list with no required field is answered in full: a blank row is refused (schema.ts isBlankRow).
			const rowVariant = field.fields.some((sub) => sub.required) ? variant : 'full'
			values[field.name] = Array.from({ length: count }, () => objectValues(field.fields, random, rowVariant, counter))
		} else {
			Object.assign(values, fieldValue(field, random, variant, counter))
		}
	}
	// A date that may not precede another (a project's end) is moved to that day when drawn before it.
	for (const field of fields) {
		if (field.kind !== 'date' || !field.notBefore) continue
		const [value, start] = [values[field.name], values[field.notBefore]]
		if (typeof value === 'string' && typeof start === 'string' && value < start) values[field.name] = start
	}
	// An IBAN is of the bank chosen beside it (./bank-account.ts): its bank code is that bank's.
	for (const pair of ibanBankPairs(fields)) {
		const [iban, bank] = [values[pair.iban], bankOfChoice(String(values[pair.bank] ?? ''))]
		if (typeof iban === 'string' && bank) values[pair.iban] = saudiIbanFromBban(`${bank.code}${iban.slice(6)}`)
	}
	// A choice left without its partner (a `when` skipped it) is left out too: the form would not keep it.
	for (const field of fields) {
		if ((field.kind === 'select' || field.kind === 'radio') && field.onlyWith !== undefined && !isGiven(values[field.onlyWith])) delete values[field.name]
	}
	return values
}

/**
 * Valid answers to every section of `definition` (each parses with its `sectionSchema`). A section
 * with rules of its own is drawn again until they accept it.
 */
export function sampleAnswers(definition: ApplicationDef, options: SampleOptions = {}): SampleAnswers {
	const random = prng(options.seed ?? 1)
	const variant = options.variant ?? 'full'
	const counter = { next: 1 }
	const answers: SampleAnswers = {}
	for (const section of definition.sections) {
		// A section whose `when` the earlier answers do not meet is left out, as the journey skips it.
		if (!isSectionAsked(section, answers)) continue
		answers[section.key] = sectionValues(section, random, variant, counter)
	}
	return answers
}

function sectionValues(section: SectionDef, random: Random, variant: SampleVariant, counter: { next: number }): Record<string, unknown> {
	let values = objectValues(section.fields, random, variant, counter)
	if (!section.rules?.length) return values
	const schema = sectionSchema(section)
	for (let attempt = 1; attempt < ATTEMPTS && !schema.safeParse(values).success; attempt++) {
		values = objectValues(section.fields, random, variant, counter)
	}
	return values
}

/** Every file slot of `definition`, in order, with its section and whether it must hold a file. */
export function sampleFiles(definition: ApplicationDef): SampleFile[] {
	return definition.sections.flatMap((section) =>
		(section.files ?? []).map((slot) => ({
			section: section.key,
			slot: slot.slot,
			required: slot.required === true,
			pictures: slot.pictures === true,
		})),
	)
}
