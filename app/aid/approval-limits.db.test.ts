import { eq } from 'drizzle-orm'
import { beforeAll, expect, test } from 'vitest'
import { changeStatus } from '#app/cases/status-changes.server.ts'
import { findCaseByReference, type CaseRow } from '#app/cases/case-store.server.ts'
import { aidInstalments, aidProposals, caseDecisions } from '#app/db/schema.ts'
import { Status } from '#app/cases/case-statuses.ts'
import { createUser, type PublicUser } from '#app/domain/staff-users.server.ts'
import { todayInRiyadh } from '#app/text/format.ts'
import { studied, submittedCase } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { approveMany, decide, decisionQueue, FIRST_APPROVER_MAY_NOT_CONFIRM, FourEyesError, SECOND_APPROVAL_CHANGED, type Decision } from './decisions.server.ts'
import { limitFor, listLimits, removeLimit, setLimit } from './approval-limits.server.ts'
import { listFunds, setBudget, type Fund } from './funds.server.ts'
import { proposeAid, PROPOSAL_OPEN } from './proposals.server.ts'
import { markPresent, openMeeting, setQuorum } from './meetings.server.ts'

// Approval limits (docs/product.md#approval-limits): above an amount an admin sets per programme or
// per fund, the first approval waits «بانتظار اعتماد ثانٍ» and a second, different member commits it.

const app = withAppDatabase()
const db = () => app.handle.db
const year = Number(todayInRiyadh().slice(0, 4))
let researcher: PublicUser
let first: PublicUser
let second: PublicUser
let admin: PublicUser
let general: Fund

beforeAll(async () => {
	const user = (name: string, roles: PublicUser['roles']) => createUser(db(), { name, email: `${roles.join('-')}-${Date.now()}-${Math.random()}@example.org`, mobile: '', roles, password: 'Limits-Test-12345' })
	researcher = await user('الباحثة نوف', ['case_officer'])
	first = await user('العضو الأول', ['approver'])
	second = await user('العضو الثاني', ['approver'])
	admin = await user('المدير', ['admin'])
	general = (await listFunds(db())).find((fund) => !fund.zakat)!
	await setBudget(db(), { programme: 'needy-families', year, fundId: null, allocated: 1_000_000 }, admin)
	// Above a limit the committee decides in a meeting with its quorum (./meetings.db.test.ts): both members present.
	await setQuorum(db(), { programme: null, quorum: 2 }, admin)
	const meeting = await openMeeting(db(), { heldOn: todayInRiyadh(), place: 'قاعة اللجنة', online: false }, first)
	for (const member of [first, second]) await markPresent(db(), meeting.id, member.id, first)
})

async function waiting(): Promise<CaseRow> {
	const row = await submittedCase(db())
	await studied(db(), row, researcher)
	return (await changeStatus(db(), row.id, { to: 2, note: 'دُرست' }, researcher)).row
}

const approve = (amount: number, months: number | null = null): Decision => ({ outcome: 'approve', aidKind: 'cash', amount, months, fundId: general.id, note: 'محضر 7' })
const committed = async (caseId: string) => ({
	instalments: (await db().select().from(aidInstalments).where(eq(aidInstalments.caseId, caseId))).map((item) => item.amount),
	decisions: (await db().select().from(caseDecisions).where(eq(caseDecisions.caseId, caseId))).map((item) => [item.deciderId, item.firstApproverId]),
})

test('limits are data: per programme, per fund, the lowest that applies holds; changed and removed', async () => {
	expect(await setLimit(db(), { programme: 'needy-families', fundId: null, above: 5000 }, admin)).toEqual({ before: null, after: 5000 })
	expect(await setLimit(db(), { programme: 'needy-families', fundId: null, above: 6000 }, admin)).toEqual({ before: 5000, after: 6000 })
	expect(await limitFor(db(), 'needy-families', general.id)).toBe(6000)
	expect(await limitFor(db(), 'medical-case', general.id)).toBeNull()
	await setLimit(db(), { programme: null, fundId: general.id, above: 2000 }, admin)
	expect(await limitFor(db(), 'needy-families', general.id)).toBe(2000)
	expect(await limitFor(db(), 'medical-case', general.id)).toBe(2000)
	const fundLimit = (await listLimits(db())).find((limit) => limit.fundId === general.id)!
	expect((await removeLimit(db(), fundLimit.id))?.above).toBe(2000)
	expect(await limitFor(db(), 'needy-families', general.id)).toBe(6000)
})

test('above the limit the first approval commits nothing and waits in the queue; the first member cannot confirm it, nor change it; a second member commits it', async () => {
	await setLimit(db(), { programme: 'needy-families', fundId: null, above: 6000 }, admin)
	const row = await waiting()
	const awaiting = await decide(db(), row.id, approve(7500), first)
	expect(awaiting).toMatchObject({ awaitingSecond: true, to: Status.Studied, message: '' })
	expect(await committed(row.id)).toEqual({ instalments: [], decisions: [] })
	const [open] = await db().select().from(aidProposals).where(eq(aidProposals.caseId, row.id))
	expect(open).toMatchObject({ state: 'awaiting_second', amount: 7500, fundId: general.id, firstApproverId: first.id, firstNote: 'محضر 7', proposedBy: null })
	expect((await decisionQueue(db(), { page: 1 })).rows.find((item) => item.id === row.id)?.proposal).toMatchObject({ state: 'awaiting_second', firstApproverName: 'العضو الأول' })
	// Nor may an officer propose over it.
	await expect(proposeAid(db(), row.id, { aidKind: 'cash', amount: 100, note: '' }, researcher)).rejects.toThrow(PROPOSAL_OPEN)

	await expect(decide(db(), row.id, approve(7500), first)).rejects.toThrow(FIRST_APPROVER_MAY_NOT_CONFIRM)
	await expect(decide(db(), row.id, approve(7500), first)).rejects.toBeInstanceOf(FourEyesError)
	await expect(decide(db(), row.id, approve(7000), second)).rejects.toThrow(SECOND_APPROVAL_CHANGED)
	expect(await committed(row.id)).toEqual({ instalments: [], decisions: [] })

	const [confirmed] = await approveMany(db(), [{ reference: row.reference, decision: { ...approve(7500), note: 'اعتماد ثانٍ' } }], second)
	expect(confirmed!.refusal).toBeNull()
	expect(confirmed!.decided).toMatchObject({ to: Status.Approved })
	expect(await committed(row.id)).toEqual({ instalments: [7500], decisions: [[second.id, first.id]] })
	expect((await db().select().from(caseDecisions).where(eq(caseDecisions.caseId, row.id)))[0]!.note).toBe('محضر 7\nاعتماد ثانٍ')
	expect((await db().select().from(aidProposals).where(eq(aidProposals.caseId, row.id)))[0]).toMatchObject({ state: 'approved', settledBy: second.id })
	expect((await findCaseByReference(db(), row.reference))!.status).toBe(Status.Approved)
})

test('at or below the limit one member commits; a monthly aid counts every month; an officer\'s proposal above it waits for two members who did not propose it', async () => {
	await setLimit(db(), { programme: 'needy-families', fundId: null, above: 6000 }, admin)
	const small = await waiting()
	expect((await decide(db(), small.id, approve(6000), first)).awaitingSecond).toBeUndefined()
	expect((await committed(small.id)).instalments).toEqual([6000])

	const monthly = await waiting()
	expect((await decide(db(), monthly.id, approve(1500, 6), first)).awaitingSecond).toBe(true)
	expect((await committed(monthly.id)).instalments).toEqual([])

	const proposed = await waiting()
	await proposeAid(db(), proposed.id, { aidKind: 'cash', amount: 9000, note: 'ترميم عاجل' }, researcher)
	expect((await decide(db(), proposed.id, approve(9000), first)).awaitingSecond).toBe(true)
	expect((await db().select().from(aidProposals).where(eq(aidProposals.caseId, proposed.id)))[0]).toMatchObject({ state: 'awaiting_second', proposedBy: researcher.id, note: 'ترميم عاجل' })
	// A rejection by the second member rejects the case: nothing was committed.
	await decide(db(), proposed.id, { outcome: 'reject', reason: 'يتجاوز ما يدعمه البرنامج', note: '' }, second)
	expect(await committed(proposed.id)).toEqual({ instalments: [], decisions: [[second.id, null]] })
	expect((await db().select().from(aidProposals).where(eq(aidProposals.caseId, proposed.id)))[0]!.state).toBe('rejected')
})
