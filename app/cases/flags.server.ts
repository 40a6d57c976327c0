import { and, count, eq, inArray, isNotNull, isNull, ne, or, sql, type SQL } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { aidInstalments, caseDecisions, caseSections, cases } from '#app/db/schema.ts'
import { countOf, type CountedNoun } from '#app/text/arabic-count.ts'
import type { ApplicationDef } from '#app/forms/definition.ts'
import type { CaseRow } from './case-store.server.ts'

// Signs for staff that one family may be applying twice under different names (never blocking):
// the applicant's ID listed as a family member elsewhere, or the same IBAN or mobile on another
// applicant; or a monthly aid still being paid on another case of the same ID in the same
// programme (docs/product.md#one-open-application-per-programme).

export interface CaseFlag {
	kind: 'id_in_family' | 'same_iban' | 'same_mobile' | 'monthly_aid_running'
	reference: string
	applicantName: string
	/** monthly_aid_running: the instalments still to pay. */
	remaining?: number
}

const instalments: CountedNoun = { one: 'قسط واحد', two: 'قسطان', few: 'أقساط', many: 'قسطاً', other: 'قسط' }

export function flagLabel(flag: CaseFlag): string {
	switch (flag.kind) {
		case 'id_in_family':
			return 'رقم هوية المتقدم مسجل فرداً في أسرة طلب آخر'
		case 'same_iban':
			return 'رقم الآيبان نفسه في طلب متقدم آخر'
		case 'same_mobile':
			return 'رقم الجوال نفسه في طلب متقدم آخر'
		case 'monthly_aid_running':
			return `للأسرة دعم شهري قائم في هذا البرنامج (بقي منه ${countOf(flag.remaining ?? 0, instalments)})`
	}
}

/**
 * The other cases of this national ID in this programme with a monthly aid still being paid:
 * instalments of a monthly decision not yet paid (approved, in a batch, or held: app/aid/monthly-aid.ts). Such a case has moved
 * on from the open statuses after its first payment, so it does not count as an open application.
 */
export async function runningMonthlyAid(
	db: Database,
	row: Pick<CaseRow, 'id' | 'type' | 'nationalId'>,
): Promise<{ reference: string; applicantName: string; mobile: string | null; remaining: number }[]> {
	if (!row.nationalId) return []
	return db
		.select({ reference: cases.reference, applicantName: cases.applicantName, mobile: cases.mobile, remaining: count() })
		.from(aidInstalments)
		.innerJoin(caseDecisions, eq(caseDecisions.id, aidInstalments.decisionId))
		.innerJoin(cases, eq(cases.id, aidInstalments.caseId))
		.where(
			and(
				eq(cases.nationalId, row.nationalId),
				eq(cases.type, row.type),
				ne(cases.id, row.id),
				isNotNull(cases.submittedAt),
				isNull(cases.deletedAt),
				isNotNull(caseDecisions.months),
				inArray(aidInstalments.status, ['approved', 'in_batch', 'suspended']),
			),
		)
		.groupBy(cases.id, cases.reference, cases.applicantName, cases.mobile)
		.orderBy(cases.reference)
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
		...(await runningMonthlyAid(db, row)).map(({ reference, applicantName, remaining }) => ({ kind: 'monthly_aid_running' as const, reference, applicantName, remaining })),
	]
}
