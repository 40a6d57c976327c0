// The committee's meetings (docs/product.md#committee-meetings, docs/decisions/021-committee-meetings.md):
// an approver opens one (at most one is open), marks the members present (staff who may decide:
// approvers, and admins), and every decision a member present takes while it is open carries it.
// Above an approval limit a decision needs the open meeting with its quorum present, and its
// decider among them (`meetingForDecision`, called by `decide()` for the case view and the
// committee's batch alike).
// Closing a meeting writes its minutes, once; the database refuses any change to a closed meeting.
import { and, arrayOverlaps, asc, count, desc, eq, isNull, sql } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { caseDecisions, cases, committeeMeetingMembers, committeeMeetings, committeeQuorums, funds, users } from '#app/db/schema.ts'
import { areaRoles, hasRole } from '#app/db/roles.ts'
import { isUniqueViolation } from '#app/db/errors.ts'
import { CaseChangeError } from '#app/cases/status-changes.server.ts'
import { findDefinition } from '#app/forms/registry.ts'
import { countOf, type CountedNoun } from '#app/text/arabic-count.ts'
import { formatMoney } from '#app/text/format.ts'
import { fundLabel } from './aid-text.ts'
import type { Minutes, MinutesDecision } from './minutes.ts'

export type { Minutes } from './minutes.ts'

/** The quorum when an admin set none (docs/product.md#committee-meetings). */
export const DEFAULT_QUORUM = 3

export const members: CountedNoun = { one: 'عضو واحد', two: 'عضوان', few: 'أعضاء', many: 'عضواً', other: 'عضو' }

/** Refused: the meeting is closed, or not there, or the change does not fit it. A 409 on a form. */
export class MeetingRefused extends CaseChangeError {}

export const MEETING_CLOSED = 'أُغلق هذا الاجتماع وكُتب محضره: لا يُضاف إليه شيء ولا يُغيَّر.'
export const MEETING_OPEN_ALREADY = 'اجتماع للجنة الصرف مفتوح الآن: يُغلق قبل فتح اجتماع آخر.'
export const NOT_A_MEMBER = 'لا يُسجَّل حاضراً في الاجتماع إلا من يقرر في لجنة الصرف: عضو لجنة الصرف أو مدير النظام.'
export const MEMBER_DECIDED = 'سُجّلت في الاجتماع قرارات بحضور هذا العضو: لا يُحذف من الحاضرين.'

/** Above the limit with no meeting open. */
export const meetingNeeded = (limit: number) => `ما زاد على حد الاعتماد (${formatMoney(limit)}) لا يُعتمد إلا في اجتماع للجنة الصرف مكتمل النصاب: يفتح عضو من اللجنة اجتماعاً ويسجّل الحاضرين.`
/** Above the limit in a meeting short of its quorum. */
export const quorumShort = (present: number, quorum: number) => `لم يكتمل نصاب اجتماع لجنة الصرف لاعتماد ما زاد على حد الاعتماد: الحاضرون ${countOf(present, members)}، والنصاب ${countOf(quorum, members)}.`
export const DECIDER_NOT_PRESENT = 'لا يعتمد ما زاد على حد الاعتماد إلا عضو حاضر في اجتماع لجنة الصرف: سجّل حضورك في الاجتماع أولاً.'

export type Meeting = typeof committeeMeetings.$inferSelect
export type Quorum = typeof committeeQuorums.$inferSelect

// ---- The quorum an admin keeps ----

export function listQuorums(db: Database): Promise<Quorum[]> {
	return db.select().from(committeeQuorums).orderBy(sql`${committeeQuorums.programme} nulls first`)
}

/** The programme's quorum, else the default an admin set, else DEFAULT_QUORUM. */
export async function quorumFor(db: Database, programme: string): Promise<number> {
	const rows = await db
		.select()
		.from(committeeQuorums)
		.where(sql`${committeeQuorums.programme} is null or ${committeeQuorums.programme} = ${programme}`)
	return (rows.find((row) => row.programme === programme) ?? rows.find((row) => row.programme === null))?.quorum ?? DEFAULT_QUORUM
}

/** Sets the default quorum (`programme` null) or a programme's; what it was, for the audit trail. */
export async function setQuorum(db: Database, input: { programme: string | null; quorum: number }, actor: { id: number }): Promise<{ before: number | null; after: number }> {
	return db.transaction(async (tx) => {
		const where = input.programme === null ? isNull(committeeQuorums.programme) : eq(committeeQuorums.programme, input.programme)
		const [current] = await tx.select().from(committeeQuorums).where(where).for('update')
		if (current) {
			await tx.update(committeeQuorums).set({ quorum: input.quorum, updatedAt: sql`now()`, updatedBy: actor.id }).where(eq(committeeQuorums.id, current.id))
			return { before: current.quorum, after: input.quorum }
		}
		await tx.insert(committeeQuorums).values({ ...input, updatedBy: actor.id })
		return { before: null, after: input.quorum }
	})
}

/** Removes a programme's quorum or the default; the removed one, for the audit trail, or undefined. */
export async function removeQuorum(db: Database, id: number): Promise<Quorum | undefined> {
	const [removed] = await db.delete(committeeQuorums).where(eq(committeeQuorums.id, id)).returning()
	return removed
}

// ---- Meetings ----

/** Opens a meeting; refused while another is open. */
export async function openMeeting(db: Database, input: { heldOn: string; place: string; online: boolean }, actor: { id: number }): Promise<Meeting> {
	try {
		const [meeting] = await db.insert(committeeMeetings).values({ ...input, openedBy: actor.id }).returning()
		return meeting!
	} catch (error) {
		if (isUniqueViolation(error)) throw new MeetingRefused(MEETING_OPEN_ALREADY)
		throw error
	}
}

/** The meeting, locked against closing and changes of its members, or refused: not there (null) or closed. */
async function lockOpen(tx: Database, meetingId: number): Promise<Meeting | null> {
	const [meeting] = await tx.select().from(committeeMeetings).where(eq(committeeMeetings.id, meetingId)).for('update')
	if (!meeting) return null
	if (meeting.closedAt) throw new MeetingRefused(MEETING_CLOSED)
	return meeting
}

/**
 * Marks a member present: a staff user who may decide (areaRoles.decisions: the approver role, or an
 * admin, who sits on the committee too), not deleted (a stopped account still attends in person),
 * named as they are now. False: no such meeting.
 */
export async function markPresent(db: Database, meetingId: number, userId: number, actor: { id: number }): Promise<{ name: string } | false> {
	return db.transaction(async (tx) => {
		if (!(await lockOpen(tx, meetingId))) return false
		const [user] = await tx.select().from(users).where(eq(users.id, userId))
		if (!user || user.deletedAt || !hasRole(user, ...areaRoles.decisions)) throw new MeetingRefused(NOT_A_MEMBER)
		await tx.insert(committeeMeetingMembers).values({ meetingId, userId, name: user.name, markedBy: actor.id }).onConflictDoNothing()
		return { name: user.name }
	})
}

/** Takes a member off the present, before any decision was taken in the meeting. False: no such meeting or member. */
export async function unmarkPresent(db: Database, meetingId: number, userId: number): Promise<{ name: string } | false> {
	return db.transaction(async (tx) => {
		if (!(await lockOpen(tx, meetingId))) return false
		const [decided] = await tx.select({ total: count() }).from(caseDecisions).where(eq(caseDecisions.meetingId, meetingId))
		if (decided?.total) throw new MeetingRefused(MEMBER_DECIDED)
		const [removed] = await tx
			.delete(committeeMeetingMembers)
			.where(and(eq(committeeMeetingMembers.meetingId, meetingId), eq(committeeMeetingMembers.userId, userId)))
			.returning()
		return removed ? { name: removed.name } : false
	})
}

/**
 * Which meeting a decision carries, called by `decide()` inside its transaction: the open meeting
 * when the decider is present in it, else none. Above the approval limit (`limit` not null and
 * `total` above it) it refuses, in Arabic, a decision with no meeting open, short of the quorum of
 * the case's programme, or by a member not present. The open meeting is read FOR SHARE: it is not
 * closed, nor its members changed, until the decision is written.
 */
export async function meetingForDecision(tx: Database, input: { programme: string; total: number; limit: number | null; deciderId: number }): Promise<number | null> {
	const [open] = await tx.select({ id: committeeMeetings.id }).from(committeeMeetings).where(isNull(committeeMeetings.closedAt)).for('share')
	const present = open ? await tx.select({ userId: committeeMeetingMembers.userId }).from(committeeMeetingMembers).where(eq(committeeMeetingMembers.meetingId, open.id)) : []
	const decider = present.some((member) => member.userId === input.deciderId)
	if (input.limit !== null && input.total > input.limit) {
		if (!open) throw new MeetingRefused(meetingNeeded(input.limit))
		const quorum = await quorumFor(tx, input.programme)
		if (present.length < quorum) throw new MeetingRefused(quorumShort(present.length, quorum))
		if (!decider) throw new MeetingRefused(DECIDER_NOT_PRESENT)
	}
	return open && decider ? open.id : null
}

/** The open meeting, if any. */
export async function openMeetingNow(db: Database): Promise<Meeting | undefined> {
	const [open] = await db.select().from(committeeMeetings).where(isNull(committeeMeetings.closedAt))
	return open
}

export const MEETINGS_PAGE_SIZE = 25

/** The meetings, newest first, with how many members were present and decisions taken. */
export async function listMeetings(db: Database, page: number) {
	const [counted] = await db.select({ total: count() }).from(committeeMeetings)
	const rows = await db
		.select({
			meeting: committeeMeetings,
			// The meeting's id named with its table: inside the subquery a bare "id" would be the decision's own.
			present: sql<number>`(select count(*)::int from ${committeeMeetingMembers} m where m.meeting_id = "committee_meetings"."id")`,
			decisions: sql<number>`(select count(*)::int from ${caseDecisions} d where d.meeting_id = "committee_meetings"."id")`,
		})
		.from(committeeMeetings)
		.orderBy(desc(committeeMeetings.heldOn), desc(committeeMeetings.id))
		.limit(MEETINGS_PAGE_SIZE)
		.offset((page - 1) * MEETINGS_PAGE_SIZE)
	return { total: counted?.total ?? 0, rows }
}

export async function findMeeting(db: Database, id: number): Promise<Meeting | undefined> {
	const [meeting] = await db.select().from(committeeMeetings).where(eq(committeeMeetings.id, id))
	return meeting
}

/** The members present at a meeting, in the order they were marked. */
export function presentAt(db: Database, meetingId: number) {
	return db.select().from(committeeMeetingMembers).where(eq(committeeMeetingMembers.meetingId, meetingId)).orderBy(asc(committeeMeetingMembers.markedAt), asc(committeeMeetingMembers.userId))
}

/** Staff who may be marked present: users who may decide, not deleted (a stopped account said so). */
export async function committeeMembers(db: Database) {
	return db
		.select({ id: users.id, name: users.name, active: users.active })
		.from(users)
		.where(and(arrayOverlaps(users.roles, [...areaRoles.decisions]), isNull(users.deletedAt)))
		.orderBy(asc(users.name))
}

// ---- The minutes ----

/** The minutes of a meeting as its record stands now (`closedAt` and who closes it given). */
export async function minutesOf(db: Database, meeting: Meeting, closing: { closedBy: string | null; closedAt: string | null }): Promise<Minutes> {
	const opener = meeting.openedBy ? (await db.select({ name: users.name }).from(users).where(eq(users.id, meeting.openedBy)))[0] : undefined
	const present = await presentAt(db, meeting.id)
	const decider = sql<string | null>`(select ${users.name} from ${users} where ${users.id} = ${caseDecisions.deciderId})`
	const first = sql<string | null>`(select ${users.name} from ${users} where ${users.id} = ${caseDecisions.firstApproverId})`
	const rows = await db
		.select({ decision: caseDecisions, reference: cases.reference, name: cases.applicantName, type: cases.type, fund: funds, decider, first })
		.from(caseDecisions)
		.innerJoin(cases, eq(cases.id, caseDecisions.caseId))
		.leftJoin(funds, eq(funds.id, caseDecisions.fundId))
		.where(eq(caseDecisions.meetingId, meeting.id))
		.orderBy(asc(caseDecisions.createdAt), asc(caseDecisions.id))
	const decisions = rows.map(
		(row): MinutesDecision => ({
			id: row.decision.id,
			reference: row.reference,
			name: row.name,
			programme: findDefinition(row.type)?.title ?? row.type,
			outcome: row.decision.outcome,
			aidKind: row.decision.aidKind,
			amount: row.decision.amount,
			months: row.decision.months,
			fund: row.fund ? fundLabel(row.fund) : null,
			reason: row.decision.reason,
			decider: row.decider,
			firstApprover: row.first,
			at: row.decision.createdAt.toISOString(),
		}),
	)
	return {
		meeting: { id: meeting.id, heldOn: meeting.heldOn, place: meeting.place, online: meeting.online, openedBy: opener?.name ?? null, openedAt: meeting.openedAt.toISOString(), ...closing },
		members: present.map((member) => ({ userId: member.userId, name: member.name })),
		decisions,
		approvedTotal: decisions.reduce((sum, item) => sum + (item.outcome === 'approve' && item.amount !== null ? Math.round(item.amount * (item.months ?? 1) * 100) : 0), 0) / 100,
	}
}

/** Closes a meeting and writes its minutes, once. False: no such meeting. */
export async function closeMeeting(db: Database, meetingId: number, actor: { id: number; name: string }): Promise<Minutes | false> {
	return db.transaction(async (tx) => {
		const meeting = await lockOpen(tx, meetingId)
		if (!meeting) return false
		const closedAt = new Date()
		const minutes = await minutesOf(tx, meeting, { closedBy: actor.name, closedAt: closedAt.toISOString() })
		await tx.update(committeeMeetings).set({ closedAt, closedBy: actor.id, minutes }).where(eq(committeeMeetings.id, meetingId))
		return minutes
	})
}
