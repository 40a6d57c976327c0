import { eq } from 'drizzle-orm'
import { beforeAll, expect, test } from 'vitest'
import { changeStatus, CaseChangeError } from '#app/cases/status-changes.server.ts'
import { findCaseByReference, type CaseRow } from '#app/cases/case-store.server.ts'
import { aidInstalments, aidProposals, caseAid, caseDecisions, caseEvents, cases } from '#app/db/schema.ts'
import { Status } from '#app/cases/case-statuses.ts'
import { createUser, type PublicUser } from '#app/domain/staff-users.server.ts'
import { todayInRiyadh } from '#app/text/format.ts'
import { handRecordedAid, studied, submittedCase } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { approveMany, decide, decisionQueue, FourEyesError, PROPOSER_MAY_NOT_DECIDE } from './decisions.server.ts'
import { ApprovalRefused } from './approval.ts'
import { budgetsOf, listFunds, setBudget, type Fund } from './funds.server.ts'
import { proposeAid, PROPOSAL_OPEN, PROPOSAL_STATUS } from './proposals.server.ts'
import { aidReport } from './reports.server.ts'

// No riyal without the committee (docs/product.md#proposals-and-the-committees-four-eyes): the
// officer's «تم تقديم الدعم» with an amount and «تسجيل دعم إضافي» are proposals in the committee's
// queue; nothing is given until a member who neither proposed nor recommended it approves it.

const app = withAppDatabase()
const db = () => app.handle.db
const year = Number(todayInRiyadh().slice(0, 4))
let researcher: PublicUser
let officer: PublicUser
let approver: PublicUser
let general: Fund

beforeAll(async () => {
	const user = (name: string, roles: PublicUser['roles']) => createUser(db(), { name, email: `${roles.join('-')}-${Date.now()}-${Math.random()}@example.org`, mobile: '', roles, password: 'Proposals-Test-1234' })
	researcher = await user('الباحثة نوف', ['case_officer'])
	// A small foundation: this officer also sits on the committee.
	officer = await user('الباحث فهد', ['case_officer', 'approver'])
	approver = await user('عضو اللجنة سعد', ['approver'])
	const admin = await user('المدير', ['admin'])
	general = (await listFunds(db())).find((fund) => !fund.zakat)!
	await setBudget(db(), { programme: 'needy-families', year, fundId: null, allocated: 1_000_000 }, admin)
})

async function waiting(): Promise<CaseRow> {
	const row = await submittedCase(db())
	await studied(db(), row, researcher, { aidAmount: 600 })
	return (await changeStatus(db(), row.id, { to: 2, note: 'دُرست' }, researcher)).row
}

/** What the reports and the budget read: aid given (by fund), and what is committed. */
async function money() {
	const given = (await aidReport(db(), year, 'fund')).rows.filter((row) => row.givenRiyals).map((row) => [row.key, row.givenRiyals])
	const budget = (await budgetsOf(db(), year)).find((item) => item.programme === 'needy-families' && item.fundId === null)!
	return { given, committed: budget.committed, paid: budget.paid }
}

const moneyOf = async (caseId: string) => ({
	aid: await db().select().from(caseAid).where(eq(caseAid.caseId, caseId)),
	instalments: await db().select().from(aidInstalments).where(eq(aidInstalments.caseId, caseId)),
	decisions: await db().select().from(caseDecisions).where(eq(caseDecisions.caseId, caseId)),
})

test('the officer proposes 7,500 on a studied case: nothing is given, the queue shows it, the proposer cannot approve it; another member approves it and the instalment is committed', async () => {
	const row = await waiting()
	const before = await money()
	// «تم تقديم الدعم» is not the officer's any more.
	await expect(changeStatus(db(), row.id, { to: Status.SupportProvided, note: 'صُرف نقداً' }, officer)).rejects.toThrow('لا يمكن تغيير حالة طلب في حالة «تمت الدراسة»')
	const proposal = await proposeAid(db(), row.id, { aidKind: 'cash', amount: 7500, note: 'إيجار متأخر' }, officer)
	expect(proposal).toMatchObject({ purpose: 'support', state: 'proposed', amount: 7500, proposedBy: officer.id })
	await expect(proposeAid(db(), row.id, { aidKind: 'cash', amount: 100, note: '' }, researcher)).rejects.toThrow(PROPOSAL_OPEN)
	expect(await moneyOf(row.id)).toEqual({ aid: [], instalments: [], decisions: [] })
	expect((await findCaseByReference(db(), row.reference))!.status).toBe(Status.Studied)
	expect(await money()).toEqual(before)
	const queued = (await decisionQueue(db(), { page: 1 })).rows.find((item) => item.id === row.id)
	expect(queued?.proposal).toMatchObject({ amount: 7500, aidKind: 'cash', proposerName: 'الباحث فهد' })

	// Four eyes: the proposer, an approver too, may not approve it; nor may the recommender.
	await expect(decide(db(), row.id, { outcome: 'approve', aidKind: 'cash', amount: 7500, months: null, fundId: general.id, note: '' }, officer)).rejects.toThrow(PROPOSER_MAY_NOT_DECIDE)
	await expect(decide(db(), row.id, { outcome: 'reject', reason: 'لا', note: '' }, officer)).rejects.toBeInstanceOf(FourEyesError)
	const [refused] = await approveMany(db(), [{ reference: row.reference, decision: { outcome: 'approve', aidKind: 'cash', amount: 7500, months: null, fundId: general.id, note: '' } }], officer)
	expect(refused!.refusal).toBe(PROPOSER_MAY_NOT_DECIDE)
	expect(await moneyOf(row.id)).toEqual({ aid: [], instalments: [], decisions: [] })

	const [approved] = await approveMany(db(), [{ reference: row.reference, decision: { outcome: 'approve', aidKind: 'cash', amount: 7500, months: null, fundId: general.id, note: 'محضر 12' } }], approver)
	expect(approved!.refusal).toBeNull()
	const after = await moneyOf(row.id)
	expect(after.instalments.map((item) => [item.amount, item.status, item.fundId])).toEqual([[7500, 'approved', general.id]])
	expect(after.decisions.map((item) => [item.outcome, item.deciderId])).toEqual([['approve', approver.id]])
	// Committed, not given: the ledger waits for finance's payment.
	expect(after.aid).toEqual([])
	expect((await money()).committed).toBe(before.committed + 7500)
	expect((await money()).given).toEqual(before.given)
	const [settled] = await db().select().from(aidProposals).where(eq(aidProposals.id, proposal.id))
	expect(settled).toMatchObject({ state: 'approved', decisionId: after.decisions[0]!.id, settledBy: approver.id })
	expect((await findCaseByReference(db(), row.reference))!.status).toBe(Status.Approved)
})

test('«تسجيل دعم إضافي» of 300 on a case whose support was provided is a proposal: rejected with a reason it gives nothing and the case stays; approved by another member it gives its instalment', async () => {
	const row = await waiting()
	// Support provided before the committee existed, by hand (an old ledger row, still read).
	await db().update(cases).set({ status: Status.SupportProvided }).where(eq(cases.id, row.id))
	await handRecordedAid(db(), row.id, { amount: 1000, kind: 'cash', givenOn: `${year}-01-15`, note: 'قبل النظام' }, researcher)
	const before = await money()
	const proposal = await proposeAid(db(), row.id, { aidKind: 'food_basket', amount: 300, note: 'سلة رمضان' }, officer)
	expect(proposal.purpose).toBe('additional')
	expect(await money()).toEqual(before)
	expect((await decisionQueue(db(), { page: 1 })).rows.some((item) => item.id === row.id)).toBe(true)

	await expect(decide(db(), row.id, { outcome: 'return', note: 'ادرسوه' }, approver)).rejects.toThrow('اقتراح الدعم الإضافي يُعتمد أو يُرفض')
	const rejected = await decide(db(), row.id, { outcome: 'reject', reason: 'سبق صرف سلة هذا الشهر', note: '' }, approver)
	expect(rejected).toMatchObject({ to: Status.SupportProvided, message: '' })
	expect((await findCaseByReference(db(), row.reference))!.status).toBe(Status.SupportProvided)
	expect((await moneyOf(row.id)).decisions).toEqual([])
	expect((await db().select().from(aidProposals).where(eq(aidProposals.id, proposal.id)))[0]).toMatchObject({ state: 'rejected', reason: 'سبق صرف سلة هذا الشهر' })
	expect((await decisionQueue(db(), { page: 1 })).rows.some((item) => item.id === row.id)).toBe(false)

	await proposeAid(db(), row.id, { aidKind: 'food_basket', amount: 300, note: '' }, officer)
	const decided = await decide(db(), row.id, { outcome: 'approve', aidKind: 'food_basket', amount: 300, months: null, fundId: general.id, note: '' }, approver)
	expect(decided).toMatchObject({ to: Status.SupportProvided, messageOnly: true })
	const after = await moneyOf(row.id)
	expect(after.instalments.map((item) => [item.amount, item.aidKind, item.status])).toEqual([[300, 'food_basket', 'approved']])
	// The old row stays as it was, read as before.
	expect(after.aid.map((item) => [item.amount, item.instalmentId])).toEqual([[1000, null]])
	expect((await money()).given).toEqual(before.given)
	const events = await db().select().from(caseEvents).where(eq(caseEvents.caseId, row.id))
	expect(events.filter((event) => event.kind === 'aid_proposed')).toHaveLength(2)
	expect(events.filter((event) => event.kind === 'status_changed').map((event) => event.data)).toEqual([{ from: Status.New, to: Status.Studied }])
})

test('a proposal is for a studied case or one whose support was provided', async () => {
	const row = await submittedCase(db())
	await expect(proposeAid(db(), row.id, { aidKind: 'cash', amount: 100, note: '' }, officer)).rejects.toThrow(PROPOSAL_STATUS)
})

test('decide() asserts the approval itself: no fund, amount 0, months out of range or a missing kind are refused in Arabic, and nothing is written', async () => {
	const row = await waiting()
	const base = { outcome: 'approve' as const, aidKind: 'cash', amount: 500, months: null, fundId: general.id, note: '' }
	const refusal = async (decision: Record<string, unknown>) => {
		const error = await decide(db(), row.id, { ...base, ...decision } as never, approver).catch((caught: unknown) => caught)
		expect(error).toBeInstanceOf(ApprovalRefused)
		expect(error).toBeInstanceOf(CaseChangeError)
		return (error as ApprovalRefused).message
	}
	expect(await refusal({ fundId: undefined })).toBe('الرجاء اختيار صندوق الصرف')
	expect(await refusal({ fundId: 0 })).toBe('الرجاء اختيار صندوق الصرف')
	expect(await refusal({ amount: 0 })).toBe('المبلغ يجب أن يكون أكبر من صفر')
	expect(await refusal({ amount: -5 })).toBe('الرجاء كتابة مبلغ صحيح بالريال، مثل 1500')
	expect(await refusal({ months: 1 })).toBe('الدعم الشهري من شهرين إلى 24 شهراً')
	expect(await refusal({ months: 36 })).toBe('الدعم الشهري من شهرين إلى 24 شهراً')
	expect(await refusal({ aidKind: undefined })).toBe('الرجاء اختيار نوع الدعم')
	expect(await refusal({ aidKind: 'gold' })).toBe('الرجاء اختيار نوع الدعم')
	expect(await refusal({ aidKind: '', amount: 0 })).toBe('الرجاء اختيار نوع الدعم؛ المبلغ يجب أن يكون أكبر من صفر')
	const [refused] = await approveMany(db(), [{ reference: row.reference, decision: { ...base, fundId: Number.NaN } }], approver)
	expect(refused!.refusal).toBe('الرجاء اختيار صندوق الصرف')
	expect(await moneyOf(row.id)).toEqual({ aid: [], instalments: [], decisions: [] })
	expect((await findCaseByReference(db(), row.reference))!.status).toBe(Status.Studied)
})
