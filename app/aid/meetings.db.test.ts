import { eq } from 'drizzle-orm'
import { beforeAll, expect, test } from 'vitest'
import { changeStatus } from '#app/cases/status-changes.server.ts'
import type { CaseRow } from '#app/cases/case-store.server.ts'
import { caseDecisions, committeeMeetingMembers, committeeMeetings } from '#app/db/schema.ts'
import { createUser, type PublicUser } from '#app/domain/staff-users.server.ts'
import { todayInRiyadh } from '#app/text/format.ts'
import { studied, submittedCase } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { findDefinition } from '#app/forms/registry.ts'
import { approveMany, decide, type Decision } from './decisions.server.ts'
import { setLimit } from './approval-limits.server.ts'
import { fundLabel, listFunds, setBudget, type Fund } from './funds.server.ts'
import {
	closeMeeting,
	DECIDER_NOT_PRESENT,
	DEFAULT_QUORUM,
	listMeetings,
	listQuorums,
	markPresent,
	MEETING_CLOSED,
	MEETING_OPEN_ALREADY,
	meetingNeeded,
	MEMBER_DECIDED,
	NOT_A_MEMBER,
	openMeeting,
	quorumFor,
	quorumShort,
	removeQuorum,
	setQuorum,
	unmarkPresent,
	type Minutes,
} from './meetings.server.ts'

// Committee meetings (docs/product.md#committee-meetings): above the approval limit a decision needs
// the open meeting with its quorum present and its decider among them, in the case view and the
// committee's batch alike; a decision by a member present carries the meeting; closing it writes
// the minutes and fixes it, in the code and in the database.

const app = withAppDatabase()
const db = () => app.handle.db
const year = Number(todayInRiyadh().slice(0, 4))
let researcher: PublicUser
let first: PublicUser
let second: PublicUser
let third: PublicUser
let finance: PublicUser
let admin: PublicUser
let general: Fund

beforeAll(async () => {
	const user = (name: string, roles: PublicUser['roles']) => createUser(db(), { name, email: `${roles.join('-')}-${Date.now()}-${Math.random()}@example.org`, mobile: '', roles, password: 'Meetings-Test-12345' })
	researcher = await user('الباحثة نوف', ['case_officer'])
	first = await user('العضو الأول', ['approver'])
	second = await user('العضو الثاني', ['approver'])
	third = await user('العضو الثالث', ['approver'])
	finance = await user('المسؤول المالي', ['finance'])
	admin = await user('المدير', ['admin'])
	general = (await listFunds(db())).find((fund) => !fund.zakat)!
	await setBudget(db(), { programme: 'needy-families', year, fundId: null, allocated: 1_000_000 }, admin)
	await setLimit(db(), { programme: null, fundId: null, above: 5000 }, admin)
})

async function waiting(): Promise<CaseRow> {
	const row = await submittedCase(db())
	await studied(db(), row, researcher)
	return (await changeStatus(db(), row.id, { to: 2, note: 'دُرست' }, researcher)).row
}

const approve = (amount: number): Decision => ({ outcome: 'approve', aidKind: 'cash', amount, months: null, fundId: general.id, note: 'في الاجتماع' })
const decisionsOf = async (caseId: string) => db().select().from(caseDecisions).where(eq(caseDecisions.caseId, caseId))

test('the quorum: the default until an admin sets one, a programme\'s own over the default, removed back', async () => {
	expect(await quorumFor(db(), 'needy-families')).toBe(DEFAULT_QUORUM)
	expect(await setQuorum(db(), { programme: null, quorum: 2 }, admin)).toEqual({ before: null, after: 2 })
	expect(await setQuorum(db(), { programme: 'medical-case', quorum: 4 }, admin)).toEqual({ before: null, after: 4 })
	expect(await quorumFor(db(), 'needy-families')).toBe(2)
	expect(await quorumFor(db(), 'medical-case')).toBe(4)
	const own = (await listQuorums(db())).find((quorum) => quorum.programme === 'medical-case')!
	expect((await removeQuorum(db(), own.id))?.quorum).toBe(4)
	expect(await quorumFor(db(), 'medical-case')).toBe(2)
})

test('above the limit: refused with no meeting, refused short of the quorum, refused to a member not present; with the quorum it passes and carries the meeting; closing writes the minutes and fixes it', async () => {
	await setQuorum(db(), { programme: null, quorum: 2 }, admin)
	const row = await waiting()
	// No meeting open: refused, in words, in the case view and in the committee's batch.
	await expect(decide(db(), row.id, approve(7000), first)).rejects.toThrow(meetingNeeded(5000))
	expect((await approveMany(db(), [{ reference: row.reference, decision: approve(7000) }], first))[0]!.refusal).toBe(meetingNeeded(5000))
	expect(await decisionsOf(row.id)).toEqual([])

	const meeting = await openMeeting(db(), { heldOn: todayInRiyadh(), place: 'قاعة اللجنة', online: false }, first)
	await expect(openMeeting(db(), { heldOn: todayInRiyadh(), place: '', online: true }, second)).rejects.toThrow(MEETING_OPEN_ALREADY)
	// Only members of the committee are marked present.
	await expect(markPresent(db(), meeting.id, finance.id, first)).rejects.toThrow(NOT_A_MEMBER)
	await expect(markPresent(db(), meeting.id, 999_999, first)).rejects.toThrow(NOT_A_MEMBER)
	expect(await markPresent(db(), 999_999, first.id, first)).toBe(false)
	await markPresent(db(), meeting.id, first.id, first)
	// One present, two needed.
	await expect(decide(db(), row.id, approve(7000), first)).rejects.toThrow(quorumShort(1, 2))
	expect(quorumShort(1, 2)).toBe('لم يكتمل نصاب اجتماع لجنة الصرف لاعتماد ما زاد على حد الاعتماد: الحاضرون عضو واحد، والنصاب عضوان.')
	await markPresent(db(), meeting.id, second.id, first)
	// The quorum is there, but the decider is not among the present.
	await expect(decide(db(), row.id, approve(7000), third)).rejects.toThrow(DECIDER_NOT_PRESENT)
	expect(await decisionsOf(row.id)).toEqual([])

	// First approval by a member present, second by another member present: committed, carrying the meeting.
	expect((await decide(db(), row.id, approve(7000), first)).awaitingSecond).toBe(true)
	const [confirmed] = await approveMany(db(), [{ reference: row.reference, decision: approve(7000) }], second)
	expect(confirmed!.refusal).toBeNull()
	expect((await decisionsOf(row.id)).map((item) => [item.meetingId, item.deciderId, item.firstApproverId])).toEqual([[meeting.id, second.id, first.id]])

	// Below the limit, a member present decides alone and the decision carries the meeting; one not present decides outside it.
	const small = await waiting()
	await decide(db(), small.id, { outcome: 'reject', reason: 'لا تنطبق الشروط', note: '' }, first)
	const outside = await waiting()
	await decide(db(), outside.id, approve(1000), third)
	expect((await decisionsOf(small.id))[0]!.meetingId).toBe(meeting.id)
	expect((await decisionsOf(outside.id))[0]!.meetingId).toBeNull()
	// A member is not taken off the present once a decision was taken in the meeting.
	await expect(unmarkPresent(db(), meeting.id, second.id)).rejects.toThrow(MEMBER_DECIDED)

	const minutes = (await closeMeeting(db(), meeting.id, { id: second.id, name: second.name })) as Minutes
	expect(minutes.meeting).toMatchObject({ id: meeting.id, place: 'قاعة اللجنة', online: false, openedBy: 'العضو الأول', closedBy: 'العضو الثاني' })
	expect(minutes.members.map((member) => member.name)).toEqual(['العضو الأول', 'العضو الثاني'])
	expect(minutes.decisions.map((item) => ({ reference: item.reference, name: item.name, programme: item.programme, outcome: item.outcome, amount: item.amount, fund: item.fund, decider: item.decider, firstApprover: item.firstApprover }))).toEqual([
		{ reference: row.reference, name: row.applicantName, programme: findDefinition('needy-families')!.title, outcome: 'approve', amount: 7000, fund: fundLabel(general), decider: 'العضو الثاني', firstApprover: 'العضو الأول' },
		{ reference: small.reference, name: small.applicantName, programme: findDefinition('needy-families')!.title, outcome: 'reject', amount: null, fund: null, decider: 'العضو الأول', firstApprover: null },
	])
	expect(minutes.approvedTotal).toBe(7000)
	// The list of meetings counts each one's members present and decisions.
	const listed = (await listMeetings(db(), 1)).rows.find((item) => item.meeting.id === meeting.id)
	expect([listed?.present, listed?.decisions]).toEqual([2, 2])
	const [stored] = await db().select().from(committeeMeetings).where(eq(committeeMeetings.id, meeting.id))
	expect(stored).toMatchObject({ closedBy: second.id, minutes: JSON.parse(JSON.stringify(minutes)) })

	// Closed: nothing is added to it, in the code or in the database, and its record is never edited.
	await expect(markPresent(db(), meeting.id, third.id, first)).rejects.toThrow(MEETING_CLOSED)
	await expect(unmarkPresent(db(), meeting.id, first.id)).rejects.toThrow(MEETING_CLOSED)
	await expect(closeMeeting(db(), meeting.id, { id: first.id, name: first.name })).rejects.toThrow(MEETING_CLOSED)
	await expect(db().insert(committeeMeetingMembers).values({ meetingId: meeting.id, userId: third.id, name: 'العضو الثالث' })).rejects.toThrow()
	await expect(db().delete(committeeMeetingMembers).where(eq(committeeMeetingMembers.meetingId, meeting.id))).rejects.toThrow()
	await expect(db().update(committeeMeetings).set({ place: 'مكان آخر' }).where(eq(committeeMeetings.id, meeting.id))).rejects.toThrow()
	await expect(db().delete(committeeMeetings).where(eq(committeeMeetings.id, meeting.id))).rejects.toThrow()
	const later = await waiting()
	await expect(db().insert(caseDecisions).values({ caseId: later.id, outcome: 'return', note: 'إضافة إلى اجتماع مغلق', meetingId: meeting.id })).rejects.toThrow()
	expect((await presentAfter(meeting.id)).length).toBe(2)
	// With the meeting closed, above the limit is refused again; a new meeting may be opened.
	await expect(decide(db(), later.id, approve(9000), first)).rejects.toThrow(meetingNeeded(5000))
	const next = await openMeeting(db(), { heldOn: todayInRiyadh(), place: 'اجتماع عن بعد', online: true }, third)
	expect(next.id).not.toBe(meeting.id)
	await markPresent(db(), next.id, third.id, third)
	expect(await unmarkPresent(db(), next.id, third.id)).toEqual({ name: 'العضو الثالث' })
})

const presentAfter = (meetingId: number) => db().select().from(committeeMeetingMembers).where(eq(committeeMeetingMembers.meetingId, meetingId))
