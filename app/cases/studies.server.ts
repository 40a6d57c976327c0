// The social study's store (docs/product.md#the-social-study): each study recorded is kept, the
// newest is the case's; recording one is a case event. «تمت الدراسة» needs one (status-changes.server.ts).
import { desc, eq, sql } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { caseEvents, cases, caseStudies, users } from '#app/db/schema.ts'
import { findDefinition } from '#app/forms/registry.ts'
import { CaseChangeError } from './status-changes.server.ts'
import { markVisitsDone } from './visits.server.ts'
import { housingSeen, proposedAidText, recommendationLabel, type StudyInput, type StudyKind } from './studies.ts'
import { aidKindLabel } from './aid.ts'
import { formatDate, formatMoney } from '#app/text/format.ts'
import { monthsCount } from '#app/privacy/consent-rules.ts'

export type CaseStudy = typeof caseStudies.$inferSelect & { authorName: string | null }

/** A visit for a family, a desk study for an association or institution (no visit happens). */
export function studyKindOf(type: string): StudyKind {
	return findDefinition(type)?.kind === 'association' ? 'desk' : 'visit'
}

/** The case's study: the newest recorded, with its author's name; undefined before the first. */
export async function latestStudy(db: Database, caseId: string): Promise<CaseStudy | undefined> {
	const [study] = await db
		.select({ study: caseStudies, authorName: users.name })
		.from(caseStudies)
		.leftJoin(users, eq(users.id, caseStudies.authorId))
		.where(eq(caseStudies.caseId, caseId))
		.orderBy(desc(caseStudies.createdAt), desc(caseStudies.id))
		.limit(1)
	return study && { ...study.study, authorName: study.authorName }
}

/**
 * Records a study of a sent case, with its event in the history, under the case's lock. A deleted
 * case, or one whose data retention destroyed, is refused.
 */
export async function recordStudy(db: Database, caseId: string, input: StudyInput, actor: { id: number }): Promise<CaseStudy> {
	return db.transaction(async (tx) => {
		const [locked] = await tx.select().from(cases).where(eq(cases.id, caseId)).for('update')
		if (!locked || locked.deletedAt) throw new CaseChangeError('الطلب غير موجود أو محذوف')
		if (!locked.submittedAt) throw new CaseChangeError('لم يُرسل هذا الطلب بعد')
		if (locked.purgedAt) throw new CaseChangeError('أُتلفت بيانات هذا الطلب وفق مدة الاحتفاظ')
		const support = input.recommendation === 'support'
		const [study] = await tx
			.insert(caseStudies)
			.values({
				caseId,
				kind: studyKindOf(locked.type),
				studiedOn: input.studiedOn,
				metWith: input.metWith ?? '',
				housing: Object.fromEntries((['condition', 'type', 'ownership', 'needsMaintenance'] as const).flatMap((name) => (input[name] ? [[name, input[name]!]] : []))),
				needs: input.needs ?? '',
				summary: input.summary,
				recommendation: input.recommendation,
				rejectReason: input.recommendation === 'reject' ? input.rejectReason : null,
				referTo: input.recommendation === 'refer' ? (input.referTo ?? '') : '',
				zakatCategory: input.zakatCategory ?? null,
				zakatReason: input.zakatCategory ? (input.zakatReason ?? '') : '',
				aidKind: support ? input.aidKind : null,
				aidAmount: support ? input.aidAmount : null,
				aidMonths: support && input.aidFrequency === 'monthly' ? input.aidMonths : null,
				works: input.works ?? '',
				quote: input.quote ?? null,
				invoice: support && input.aidKind === 'bill_payment' ? (input.invoice ?? null) : null,
				authorId: actor.id,
			})
			.returning()
		await tx.insert(caseEvents).values({
			caseId,
			actorId: actor.id,
			kind: 'study_recorded',
			data: { recommendation: input.recommendation, ...(support ? { aidKind: input.aidKind, amount: input.aidAmount, months: study!.aidMonths } : {}) },
		})
		// The visit it reports on is done (only the programmes with a visit have any planned).
		await markVisitsDone(tx, caseId)
		await tx.update(cases).set({ updatedAt: sql`now()` }).where(eq(cases.id, caseId))
		return { ...study!, authorName: null }
	})
}

/** The case's study in words, for the case view and the print; null before the first. */
export function describeStudy(study: CaseStudy | undefined) {
	if (!study) return null
	const option = (name: (typeof housingSeen)[number]['name']) => {
		const seen = housingSeen.find((item) => item.name === name)!
		const value = study.housing[name]
		return value ? [{ label: seen.label, value: seen.options.find((item) => item.value === value)?.label ?? value }] : []
	}
	return {
		kind: study.kind === 'visit' ? 'زيارة منزلية' : 'دراسة مكتبية',
		on: formatDate(study.studiedOn),
		by: study.authorName ?? '',
		metWith: study.metWith,
		housing: housingSeen.flatMap((item) => option(item.name)),
		needs: study.needs,
		summary: study.summary,
		recommendation: recommendationLabel(study.recommendation),
		why: study.recommendation === 'reject' ? (study.rejectReason ?? '') : study.recommendation === 'refer' ? study.referTo : '',
		aid: proposedAidText({ kind: study.aidKind, amount: study.aidAmount === null ? null : formatMoney(study.aidAmount), months: study.aidMonths }, aidKindLabel, monthsCount),
		works: study.works,
		quote: study.quote === null ? '' : formatMoney(study.quote),
		invoice: study.invoice === null ? '' : formatMoney(study.invoice),
		zakatCategory: study.zakatCategory,
		zakatReason: study.zakatReason,
	}
}

export type StudyDescription = NonNullable<ReturnType<typeof describeStudy>>
