import { and, eq, isNotNull, isNull, ne, or, sql, type SQL } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { caseSections, cases } from '#app/db/schema.ts'
import type { ApplicationDef } from '#app/forms/definition.ts'
import type { CaseRow } from './case-store.server.ts'

// Signs for staff that one family may be applying twice under different names (never blocking):
// the applicant's ID listed as a family member elsewhere, or the same IBAN or mobile on another
// applicant.

export interface CaseFlag {
	kind: 'id_in_family' | 'same_iban' | 'same_mobile'
	reference: string
	applicantName: string
}

export const flagLabels: Record<CaseFlag['kind'], string> = {
	id_in_family: 'رقم هوية المتقدم مسجل فرداً في أسرة طلب آخر',
	same_iban: 'رقم الآيبان نفسه في طلب متقدم آخر',
	same_mobile: 'رقم الجوال نفسه في طلب متقدم آخر',
}

/** Field names of a format, per section, from the definition: e.g. every IBAN field. */
function fieldsOfFormat(definition: ApplicationDef, format: 'iban' | 'nationalId'): { section: string; group: string | null; name: string }[] {
	return definition.sections.flatMap((section) =>
		section.fields.flatMap((field): { section: string; group: string | null; name: string }[] => {
			if (field.kind === 'text' && field.format === format) return [{ section: section.key, group: null, name: field.name }]
			if (field.kind === 'group') {
				return field.fields.filter((sub) => sub.kind === 'text' && sub.format === format).map((sub) => ({ section: section.key, group: field.name, name: sub.name }))
			}
			return []
		}),
	)
}

export async function caseFlags(db: Database, definition: ApplicationDef, row: CaseRow): Promise<CaseFlag[]> {
	// Sent, not deleted: a draft or a deleted case is nobody's second application (and its page is a 404).
	const others = and(ne(cases.id, row.id), ne(cases.nationalId, row.nationalId), isNotNull(cases.submittedAt), isNull(cases.deletedAt))
	const found = async (kind: CaseFlag['kind'], condition: SQL | undefined) => {
		if (!condition) return []
		const rows = await db
			.selectDistinct({ reference: cases.reference, applicantName: cases.applicantName })
			.from(cases)
			.leftJoin(caseSections, eq(caseSections.caseId, cases.id))
			.where(and(others, condition))
			.limit(20)
		return rows.map((match) => ({ kind, ...match }))
	}

	const memberIds = fieldsOfFormat(definition, 'nationalId').filter((field) => field.group)
	const idInFamily = or(
		...memberIds.map((field) => sql`${caseSections.answers} @> ${JSON.stringify({ [field.group!]: [{ [field.name]: row.nationalId }] })}::jsonb`),
	)

	const ibanFields = fieldsOfFormat(definition, 'iban').filter((field) => !field.group)
	const [own] = await db
		.select({ answers: caseSections.answers })
		.from(caseSections)
		.where(and(eq(caseSections.caseId, row.id), eq(caseSections.section, ibanFields[0]?.section ?? '')))
	const ownIbans = ibanFields.map((field) => (own?.answers as Record<string, unknown> | undefined)?.[field.name]).filter((v): v is string => typeof v === 'string')
	const sameIban = ownIbans.length
		? or(...ibanFields.map((field) => sql`${caseSections.answers} ->> ${field.name} in (${sql.join(ownIbans.map((iban) => sql`${iban}`), sql`, `)})`))
		: undefined

	return [
		...(await found('id_in_family', idInFamily)),
		...(await found('same_iban', sameIban)),
		...(row.mobile ? await found('same_mobile', eq(cases.mobile, row.mobile)) : []),
	]
}
