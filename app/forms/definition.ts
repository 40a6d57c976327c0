// An application type is data: ordered sections of typed fields and file slots. Everything else —
// the Zod schemas, the step pages, progress, check-your-answers, the staff view and the export
// columns — is derived from it (docs/decisions/004-forms-as-data-and-cases.md).

import type { CountedNoun } from '#app/text/arabic-count.ts'

export interface Option {
	value: string
	label: string
}

interface FieldBase {
	/** The key in the stored answers (the old system's field name where it had one: docs/product.md#rules-shared-by-every-programme). */
	name: string
	label: string
	hint?: string
	required?: boolean
	/**
	 * The label's grammatical gender, for the messages whose verb agrees with it
	 * (app/text/messages.ts): 'f' for a feminine label («سنة التأسيس لا يمكن أن تكون بعد اليوم»);
	 * masculine when absent («تاريخ الميلاد لا يمكن أن يكون بعد اليوم»).
	 */
	gender?: 'f'
	/** Asked only when an earlier answer of the same section (or row) says so; see `Condition`. */
	when?: Condition
}

/**
 * When a field (or, with `section`, a whole section) is asked: an earlier answer is one of `is`, or (`given`) was or was
 * not answered. Evaluated the same in the browser (the field appears and disappears) and on the
 * server, which drops the answer when the condition does not hold (app/forms/conditions.ts).
 */
export type Condition = { field: string; is: readonly string[] } | { field: string; given: boolean }

/** Text with a Saudi format rule: the validators in app/domain/validators.ts ('licence': an association's licence or an institution's permit number). */
export type TextFormat = 'nationalId' | 'mobile' | 'iban' | 'email' | 'licence'

export type FieldDef =
	| (FieldBase & {
			kind: 'text'
			format?: TextFormat
			maxLength?: number
			default?: string
			autoComplete?: string
	  })
	| (FieldBase & { kind: 'textarea'; maxLength?: number })
	| (FieldBase & { kind: 'number'; min?: number; max?: number })
	| (FieldBase & { kind: 'money' })
	| (FieldBase & {
			kind: 'date'
			/** A date of the past (birth, establishment, injury): one after today in Riyadh is refused. */
			past?: boolean
			/** Another date field of the same section or row that this one may not precede (a project's end, its start). */
			notBefore?: string
			/**
			 * Typed in either calendar, the applicant choosing هجري or ميلادي (a birth date as the national
			 * ID card shows it): app/forms/calendar-date.ts. Kept as the Gregorian day all the same. Not
			 * with `when` or `notBefore`, which read the answer as typed.
			 */
			hijri?: true
	  })
	| (FieldBase & ChoiceDef)
	| (FieldBase & {
			kind: 'age'
			/** The birth-date field of the same section: with it given, the age is worked out from it and not asked. */
			birthDate: string
	  })
	| (FieldBase & {
			kind: 'newPassword'
			/** The confirmation input's label («تأكيد كلمة المرور»); its value is never stored. */
			confirmLabel: string
	  })
	| (FieldBase & { kind: 'checkbox' })
	| (FieldBase & {
			kind: 'checkboxes'
			options: readonly Option[]
			other?: { label: string }
	  })
	| (FieldBase & {
			kind: 'group'
			/** The fields of one row. */
			fields: readonly RowFieldDef[]
			min: number
			max: number
			/** Names one row: numbered rows «فرد 2», «المعرّف 1», and a list's add form «إضافة فرد» (so indefinite there). */
			itemLabel: string
			/** What a list that grows row by row says before its first row: «لم تُضف أحداً بعد.», «لم تُضف مشروعاً بعد.». */
			emptyText: string
			/** A row as counted in messages («الرجاء إضافة 3 معرّفين»): app/text/arabic-count.ts. */
			counted: CountedNoun
			/** Sums shown under the rows (a budget's prices, percentages and amounts): app/forms/totals.ts. */
			totals?: readonly GroupTotal[]
	  })

/** A column of a repeatable group summed under its rows. */
export interface GroupTotal {
	/** A money or number field of the row. */
	field: string
	label: string
	/** What the sum should be (100 for percentages); otherwise a warning is shown, not an error. */
	expected?: number
	warning?: string
}

/**
 * A select or radio group. Only a required choice may start on a default (the old system's
 * sensible first option, docs/product.md#rules-shared-by-every-programme): the applicant sees it
 * chosen and keeps or changes it. An optional one starts on «اختر» (radios: none ticked), so a
 * default is never stored as if the applicant had chosen it.
 */
type ChoiceDef = {
	kind: 'select' | 'radio'
	options: readonly Option[]
	/**
	 * Another field of the same section (or row) this choice belongs to, e.g. the second bank to
	 * the second IBAN: without that answer the choice is not kept; with it, the choice is required.
	 */
	onlyWith?: string
} & ({ required: true; default?: string } | { required?: false; default?: never })

/** Fields a repeatable row may hold (no nested groups). */
export type RowFieldDef = Exclude<FieldDef, { kind: 'group' }>

export type GroupDef = Extract<FieldDef, { kind: 'group' }>

/**
 * Health data, or bank (credit) data of a natural person: the PDPL asks for explicit consent before
 * they are collected. A section or file slot so marked is offered only once the applicant agreed on
 * the consent step (docs/product.md#privacy-and-consent; app/forms/conditions.ts `isOffered`). An
 * association's or institution's bank account belongs to an organisation, not a person: not marked.
 */
export type Sensitive = 'health' | 'bank'

/** What a file slot takes, judged by the bytes: PDF documents and photos, in every slot. */
export type FileKind = 'pdf' | 'photo'

export interface FileSlot {
	slot: string
	label: string
	hint?: string
	required?: boolean
	/** Several files, each a document of its own kind («مرفقات أخرى»): still one PDF, of every page given. */
	multiple?: boolean
	/**
	 * Photos kept as pictures, each on its own (a house's rooms), not made one document of pages: a
	 * PDF given here is kept as it is (app/documents/pages.ts).
	 */
	pictures?: true
	/** A file of health or bank data in a section that holds other things too: offered only with consent (`Sensitive`). */
	sensitive?: Sensitive
}

/** The kinds of file every slot takes: a PDF or a photo (HEIC too, where it can be read). */
export const SLOT_KINDS: readonly FileKind[] = ['photo', 'pdf']

export interface SectionRule {
	/** Checks the whole section; returns a message (and the field it is about) when broken. */
	check: (values: Record<string, unknown>) => { path: string[]; message: string } | null
}

export interface SectionDef {
	key: string
	/** The old system's step code, e.g. '1-4' (docs/product.md#rules-shared-by-every-programme). */
	code: string
	title: string
	description?: string
	/**
	 * Links shown under the description, e.g. a template to print. `newTab` opens the page in a new
	 * tab, and the link then says so («… (يفتح في صفحة جديدة)»).
	 */
	links?: readonly { to: string; label: string; newTab?: boolean }[]
	/** The step offers the association guidance manual to download, once staff have uploaded it (app/content/types.ts associationGuide). */
	offersGuide?: boolean
	fields: readonly FieldDef[]
	files?: readonly FileSlot[]
	rules?: readonly SectionRule[]
	/**
	 * Asked only when an answer of an earlier section (`section`) says so. A section not asked is
	 * skipped by the journey and left out of the check page, the case view, the report and the
	 * export; its answers and files are dropped when the case is sent (app/forms/conditions.ts).
	 */
	when?: Condition & { section: string }
	/** Health or bank data of a person: asked only with consent, after the consent step (`Sensitive`). */
	sensitive?: Sensitive
}

export interface ApplicationDef {
	/** The URL segment and stored case type, e.g. 'needy-families'. */
	type: string
	/**
	 * Who applies, which decides the staff list the case is in (/admin/cases or
	 * /admin/associations) and its status transitions (app/cases/workflow.ts).
	 */
	kind: 'individual' | 'association'
	/** The form's name (the old FormName), shown to applicants and staff. */
	title: string
	/** The printable report's title (docs/product.md#printable-reports). */
	reportTitle: string
	summary: string
	eligibility: readonly string[]
	/** What to have at hand besides the documents its file slots ask for (shown before step 1). */
	prepare?: readonly string[]
	sections: readonly SectionDef[]
	/**
	 * The fields of the first section that name the applicant and hold the national ID (an
	 * association's licence number), the mobile, the e-mail, and the answers the staff lists show
	 * (a person's nationality, an association's specialty).
	 */
	applicant: {
		name: string
		nationalId: string
		mobile: string
		email?: string
		nationality?: string
		specialty?: string
		/** Where the applicant lives (any section): the committee's queue and the reports filter on it. */
		city?: string
		/** The group field listing the family members (any section): the household is the applicant and them. */
		household?: string
	}
	/**
	 * Sending the application opens an institution account (/account): its user name, e-mail,
	 * mobile and password are fields of `section` (checked there, as typed, for a name already
	 * taken); its name may be a field of any section (app/accounts/institution-accounts.server.ts).
	 */
	createsAccount?: { section: string; name: string; userName: string; email: string; mobile: string; password: string }
	/**
	 * A request started from an institution's account (/account) starts filled in from its
	 * registration: by section, this definition's field ← the registration's field. The applicant
	 * sees the answers in the form and keeps or changes them; nothing is saved until they do.
	 */
	prefill?: Readonly<Record<string, Readonly<Record<string, string>>>>
	/** Acknowledgement the applicant ticks before submitting. */
	acknowledgement: string
	/** «ماذا بعد؟» on the page shown once the application is sent: what happens next, in order. */
	afterSubmit: readonly string[]
}

/** What the applicant's identifier is called: «رقم الهوية أو الإقامة», an association's «رقم الترخيص», an institution's «رقم التصريح». */
export function identifierLabel(definition: Pick<ApplicationDef, 'sections' | 'applicant'>): string {
	return definition.sections.flatMap((section) => section.fields).find((field) => field.name === definition.applicant.nationalId)?.label ?? 'رقم الهوية'
}

/**
 * A section's list that grows row by row (GOV.UK «add another»: add, change, delete), beside the
 * section's other fields: its one group whose size is not fixed.
 */
export function collectionOf(section: SectionDef): GroupDef | undefined {
	const groups = section.fields.filter((field): field is GroupDef => field.kind === 'group' && field.min !== field.max)
	return groups.length === 1 ? groups[0] : undefined
}

/** A section's fields other than its growing list: what its own form posts. */
export function fieldsBesideCollection(section: SectionDef): readonly FieldDef[] {
	const collection = collectionOf(section)
	return collection ? section.fields.filter((field) => field !== collection) : section.fields
}

/** Whether an answer holds something: not missing, blank or an empty list. */
export function isGiven(value: unknown): boolean {
	return value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0)
}

/** A choice that belongs to another answer (`onlyWith`) and stands alone: not kept, not shown. */
export function isOrphanChoice(field: RowFieldDef, answers: Record<string, unknown>): boolean {
	return (field.kind === 'select' || field.kind === 'radio') && field.onlyWith !== undefined && !isGiven(answers[field.onlyWith])
}

/** The id of a file slot's input: the error summary links a missing file to it. */
export const uploadInputId = (slot: string) => `upload-${slot}`
