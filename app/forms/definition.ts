// An application type is data: ordered sections of typed fields and file slots. Everything else —
// the Zod schemas, the step pages, progress, check-your-answers, the staff view and the export
// columns — is derived from it (DESIGN.md, "Forms are data").

export interface Option {
	value: string
	label: string
}

interface FieldBase {
	/** The key in the stored answers (the spec's field name where it has one). */
	name: string
	label: string
	hint?: string
	required?: boolean
}

/** Text with a Saudi format rule: the validators in app/domain/validators.ts. */
export type TextFormat = 'nationalId' | 'mobile' | 'iban' | 'email'

export type FieldDef =
	| (FieldBase & { kind: 'text'; format?: TextFormat; maxLength?: number; default?: string; autoComplete?: string })
	| (FieldBase & { kind: 'textarea'; maxLength?: number })
	| (FieldBase & { kind: 'number'; min?: number; max?: number })
	| (FieldBase & { kind: 'money' })
	| (FieldBase & { kind: 'date' })
	| (FieldBase & { kind: 'select' | 'radio'; options: readonly Option[]; default?: string })
	| (FieldBase & { kind: 'checkbox' })
	| (FieldBase & { kind: 'checkboxes'; options: readonly Option[]; other?: { label: string } })
	| (FieldBase & {
			kind: 'group'
			/** The fields of one row. */
			fields: readonly RowFieldDef[]
			min: number
			max: number
			/** «فرد الأسرة» — names one row in headings and buttons. */
			itemLabel: string
	  })

/** Fields a repeatable row may hold (no nested groups). */
export type RowFieldDef = Exclude<FieldDef, { kind: 'group' }>

export interface FileSlot {
	slot: string
	label: string
	hint?: string
	required?: boolean
	multiple?: boolean
}

export interface SectionRule {
	/** Checks the whole section; returns a message (and the field it is about) when broken. */
	check: (values: Record<string, unknown>) => { path: string[]; message: string } | null
}

export interface SectionDef {
	key: string
	/** The spec's step code, e.g. '1-4'. */
	code: string
	title: string
	description?: string
	fields: readonly FieldDef[]
	files?: readonly FileSlot[]
	rules?: readonly SectionRule[]
}

export interface ApplicationDef {
	/** The URL segment and stored case type, e.g. 'needy-families'. */
	type: string
	/** The spec's form name (FormName), shown to applicants and staff. */
	title: string
	/** The printable report's title (spec §4 "report title by form"). */
	reportTitle: string
	summary: string
	eligibility: readonly string[]
	documents: readonly string[]
	sections: readonly SectionDef[]
	/** The field of the first section that names the applicant, holds the national ID, the mobile, the e-mail. */
	applicant: { name: string; nationalId: string; mobile: string; email?: string }
	/** Acknowledgement the applicant ticks before submitting. */
	acknowledgement: string
}

/** A collection section: one repeatable group edited row by row (add, list, delete). */
export function collectionOf(section: SectionDef): Extract<FieldDef, { kind: 'group' }> | undefined {
	const [only] = section.fields
	return section.fields.length === 1 && only?.kind === 'group' && only.min !== only.max ? only : undefined
}
