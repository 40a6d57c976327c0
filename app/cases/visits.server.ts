// Home visits planned on a case (docs/product.md#the-social-study): who goes, on which day and at
// which hour. Planning or cancelling one is a case event and a message to the applicant, who is told
// by the notifier (the route sends it) and sees it on their private link and in the lookup.
import { and, asc, eq, gte, inArray, sql } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { caseEvents, cases, caseSections, caseVisits, users } from '#app/db/schema.ts'
import { findDefinition } from '#app/forms/registry.ts'
import { formatClock, formatDate, formatWeekday, isCalendarDay, todayInRiyadh } from '#app/text/format.ts'
import { CaseChangeError, caseOfficers } from './status-changes.server.ts'
import type { CaseRow } from './case-store.server.ts'
import { quotedStatus, Status, type CaseStatus } from './case-statuses.ts'

/** The statuses in which a case waits for its study, and a visit may be planned. */
const VISIT_STATUSES: readonly CaseStatus[] = [Status.New, Status.Incomplete]

/** HH:MM now in Riyadh (UTC+3, no daylight saving). */
const riyadhClock = (now = new Date()) => new Date(now.getTime() + 3 * 3600_000).toISOString().slice(11, 16)

export interface VisitInput {
	/** yyyy-mm-dd, today or later. */
	visitOn: string
	/** HH:MM */
	visitAt: string
	visitorId: number
}

/** What the applicant is told of a planned visit, with the day in both calendars. */
export function visitMessage(visit: Pick<VisitInput, 'visitOn' | 'visitAt'> & { visitorName: string }): string {
	return `يزوركم باحث المؤسسة${visit.visitorName ? ` ${visit.visitorName}` : ''} لدراسة طلبكم يوم ${formatWeekday(visit.visitOn)} ${formatDate(visit.visitOn)} الساعة ${formatClock(visit.visitAt)}. نرجو أن يكون أحد أفراد الأسرة البالغين في المنزل، وإن لم يناسبكم الموعد فاتصلوا بالمؤسسة.`
}

export function visitCancelledMessage(visit: Pick<VisitInput, 'visitOn' | 'visitAt'>): string {
	return `أُلغي موعد الزيارة الذي كان محدداً يوم ${formatWeekday(visit.visitOn)} ${formatDate(visit.visitOn)} الساعة ${formatClock(visit.visitAt)}.`
}

/** A sent case of a programme where the researcher visits, not deleted, not purged, under its lock. */
async function lockedForVisit(tx: Database, caseId: string): Promise<CaseRow> {
	const [locked] = await tx.select().from(cases).where(eq(cases.id, caseId)).for('update')
	if (!locked || locked.deletedAt) throw new CaseChangeError('الطلب غير موجود أو محذوف')
	if (!locked.submittedAt) throw new CaseChangeError('لم يُرسل هذا الطلب بعد')
	if (locked.purgedAt) throw new CaseChangeError('أُتلفت بيانات هذا الطلب وفق مدة الاحتفاظ')
	if (findDefinition(locked.type)?.kind !== 'individual') throw new CaseChangeError('طلبات الجمعيات والمؤسسات تُدرس دراسة مكتبية بلا زيارة')
	return locked
}

/** A visit is planned while the case waits for its study: new, or sent back to complete. */
function refuseUnlessStudying(row: CaseRow) {
	if (!VISIT_STATUSES.includes(row.status as CaseStatus)) throw new CaseChangeError(`تُحدَّد الزيارة لطلب بانتظار الدراسة: ${quotedStatus(Status.New)} أو ${quotedStatus(Status.Incomplete)}`)
}

/** Plans a visit: the visit, its event, and the message to the applicant, all or nothing. Returns the case and the message to send. */
export async function scheduleVisit(db: Database, caseId: string, input: VisitInput, actor: { id: number }): Promise<{ row: CaseRow; message: string }> {
	if (!isCalendarDay(input.visitOn) || input.visitOn < todayInRiyadh()) throw new CaseChangeError('الرجاء اختيار يوم الزيارة: اليوم أو بعده')
	if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(input.visitAt)) throw new CaseChangeError('الرجاء كتابة ساعة الزيارة')
	if (input.visitOn === todayInRiyadh() && input.visitAt <= riyadhClock()) throw new CaseChangeError('الرجاء اختيار ساعة لم تمضِ بعد')
	const visitor = (await caseOfficers(db)).find((officer) => officer.id === input.visitorId)
	if (!visitor) throw new CaseChangeError('الرجاء اختيار من يزور الأسرة من موظفي الحالات')
	return db.transaction(async (tx) => {
		const row = await lockedForVisit(tx, caseId)
		refuseUnlessStudying(row)
		const message = visitMessage({ ...input, visitorName: visitor.name })
		// One appointment at a time: a new one replaces the one planned before (the message says the new one).
		await tx.update(caseVisits).set({ status: 'cancelled' }).where(and(eq(caseVisits.caseId, caseId), eq(caseVisits.status, 'planned')))
		await tx.insert(caseVisits).values({ caseId, visitOn: input.visitOn, visitAt: input.visitAt, visitorId: visitor.id, createdBy: actor.id })
		await tx.insert(caseEvents).values([
			{ caseId, actorId: actor.id, kind: 'visit_scheduled', data: { visitOn: input.visitOn, visitAt: input.visitAt, visitorName: visitor.name } },
			{ caseId, actorId: actor.id, kind: 'applicant_message', note: message },
		])
		await tx.update(cases).set({ updatedAt: sql`now()` }).where(eq(cases.id, caseId))
		return { row, message }
	})
}

/** Cancels a planned visit of the case; the applicant is told. Null when there is no such planned visit. */
export async function cancelVisit(db: Database, caseId: string, visitId: number, actor: { id: number }): Promise<{ row: CaseRow; message: string } | null> {
	return db.transaction(async (tx) => {
		const row = await lockedForVisit(tx, caseId)
		if (!VISIT_STATUSES.includes(row.status as CaseStatus)) return null
		const [visit] = await tx
			.update(caseVisits)
			.set({ status: 'cancelled' })
			.where(and(eq(caseVisits.id, visitId), eq(caseVisits.caseId, caseId), eq(caseVisits.status, 'planned')))
			.returning()
		if (!visit) return null
		const message = visitCancelledMessage(visit)
		await tx.insert(caseEvents).values([
			{ caseId, actorId: actor.id, kind: 'visit_cancelled', data: { visitOn: visit.visitOn, visitAt: visit.visitAt } },
			{ caseId, actorId: actor.id, kind: 'applicant_message', note: message },
		])
		return { row, message }
	})
}

/**
 * A study recorded: the case's planned visits are done, whatever day was planned (the researcher came
 * early, or the study was made on another visit). A case that leaves «جديد» and «غير مكتمل» without
 * a study has them cancelled by the database (drizzle/0034_settled_visits.sql), whichever screen or
 * task changed its status: no visit stays planned on a case that no longer waits for one.
 */
export async function markVisitsDone(tx: Database, caseId: string): Promise<void> {
	await tx
		.update(caseVisits)
		.set({ status: 'done' })
		.where(and(eq(caseVisits.caseId, caseId), eq(caseVisits.status, 'planned')))
}

/** The case's planned visits, soonest first, with who goes. */
export function plannedVisits(db: Database, caseId: string) {
	return db
		.select({ id: caseVisits.id, visitOn: caseVisits.visitOn, visitAt: caseVisits.visitAt, visitorName: users.name })
		.from(caseVisits)
		.leftJoin(users, eq(users.id, caseVisits.visitorId))
		.where(and(eq(caseVisits.caseId, caseId), eq(caseVisits.status, 'planned')))
		.orderBy(asc(caseVisits.visitOn), asc(caseVisits.visitAt))
}

/**
 * The visit the applicant waits for, in the words they were told (visitMessage): the case's next
 * planned visit from today on while the case waits for its study; null when there is none. Shown
 * on the private link and in the lookup on its own, whatever staff wrote to them since.
 */
export async function upcomingVisit(db: Database, caseId: string): Promise<string | null> {
	const [visit] = await db
		.select({ visitOn: caseVisits.visitOn, visitAt: caseVisits.visitAt, visitorName: users.name })
		.from(caseVisits)
		.innerJoin(cases, eq(cases.id, caseVisits.caseId))
		.leftJoin(users, eq(users.id, caseVisits.visitorId))
		.where(and(eq(caseVisits.caseId, caseId), eq(caseVisits.status, 'planned'), gte(caseVisits.visitOn, todayInRiyadh()), inArray(cases.status, [...VISIT_STATUSES])))
		.orderBy(asc(caseVisits.visitOn), asc(caseVisits.visitAt))
		.limit(1)
	return visit ? visitMessage({ ...visit, visitorName: visit.visitorName ?? '' }) : null
}

/** Answers that say where a family lives, by field name, as the programmes ask them. */
const whereFields = { city: ['city', 'City'], neighborhood: ['Neighborhood'], address: ['address', 'Address', 'NationalAddress'] } as const

/**
 * A researcher's planned visits from `from` on (all researchers' with `visitorId` null), soonest
 * first, with what they need on the road: the family's name, mobile, city, neighbourhood and address.
 */
export async function visitsOf(db: Database, visitorId: number | null, from: string) {
	const rows = await db
		.select({
			id: caseVisits.id,
			visitOn: caseVisits.visitOn,
			visitAt: caseVisits.visitAt,
			visitorName: users.name,
			caseId: cases.id,
			reference: cases.reference,
			type: cases.type,
			applicantName: cases.applicantName,
			mobile: cases.mobile,
		})
		.from(caseVisits)
		.innerJoin(cases, eq(cases.id, caseVisits.caseId))
		.leftJoin(users, eq(users.id, caseVisits.visitorId))
		.where(and(eq(caseVisits.status, 'planned'), gte(caseVisits.visitOn, from), sql`${cases.deletedAt} is null`, inArray(cases.status, [...VISIT_STATUSES]), ...(visitorId === null ? [] : [eq(caseVisits.visitorId, visitorId)])))
		.orderBy(asc(caseVisits.visitOn), asc(caseVisits.visitAt))
		.limit(200)
	const sections = rows.length
		? await db
				.select({ caseId: caseSections.caseId, answers: caseSections.answers })
				.from(caseSections)
				.where(
					inArray(
						caseSections.caseId,
						rows.map((row) => row.caseId),
					),
				)
		: []
	const where = (caseId: string, names: readonly string[]) => {
		for (const section of sections) {
			if (section.caseId !== caseId) continue
			const answers = section.answers as Record<string, unknown>
			for (const name of names) if (typeof answers[name] === 'string' && answers[name]) return answers[name] as string
		}
		return ''
	}
	return rows.map((row) => ({
		...row,
		programme: findDefinition(row.type)?.title ?? row.type,
		city: where(row.caseId, whereFields.city),
		neighborhood: where(row.caseId, whereFields.neighborhood),
		address: where(row.caseId, whereFields.address),
	}))
}
