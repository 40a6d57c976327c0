import { and, eq } from 'drizzle-orm'
import { beforeAll, expect, test } from 'vitest'
import { changeStatus } from '#app/cases/status-changes.server.ts'
import { type CaseRow } from '#app/cases/case-store.server.ts'
import { aidInstalments, caseDecisions, caseEvents, caseMessages } from '#app/db/schema.ts'
import { accountNotice, bounceNotice, ibanConfirmed } from '#app/cases/payee-accounts.server.ts'
import { tellApplicants } from '#app/casework/tell.server.ts'
import { createUser, type PublicUser } from '#app/domain/staff-users.server.ts'
import { formatMonth, todayInRiyadh } from '#app/text/format.ts'
import { studied, submittedCase } from '#tests/fixtures/needy-families.ts'
import { someoneWaitsOnALock, withAppDatabase } from '#tests/db.ts'
import { temporaryStorage } from '#tests/storage.ts'
import { purgeCase } from '#app/operations/retention-purge.server.ts'
import { decide } from './decisions.server.ts'
import { budgetsOf, listFunds, setBudget } from './funds.server.ts'
import { createBatch, dueInstalments, markBatchSent, recordPayment, reopenPayment } from './payments.server.ts'
import { AidFourEyesError, aidSchedules, aidsToReview, changeAid, monthShift, setRestudy } from './monthly-aid.server.ts'
import { RESUMER_MAY_NOT_CONFIRM } from './monthly-aid.ts'
import { describeSchedule } from './describe.ts'
import { aidText } from './aid-text.ts'

// A monthly aid over time (docs/product.md#monthly-aid-over-time): suspended, stopped, resumed with
// four eyes; the due list, the budget, what the applicant is told, the end and the re-study.

const app = withAppDatabase()
const db = () => app.handle.db
const today = todayInRiyadh()
const thisMonth = today.slice(0, 7)
let researcher: PublicUser
let approver: PublicUser
let finance: PublicUser
let member: PublicUser
let fundId: number
const files = temporaryStorage('monthly-aid')

beforeAll(async () => {
	const user = (name: string, roles: PublicUser['roles']) => createUser(db(), { name, email: `${roles.join('-')}-${Date.now()}-${Math.random()}@example.org`, mobile: '', roles, password: 'Monthly-Test-1234' })
	researcher = await user('الباحثة', ['case_officer'])
	approver = await user('عضو اللجنة', ['approver'])
	member = await user('عضو آخر', ['approver'])
	finance = await user('المسؤولة المالية', ['finance'])
	fundId = (await listFunds(db())).find((fund) => !fund.zakat)!.id
	await setBudget(db(), { programme: 'needy-families', year: Number(today.slice(0, 4)), fundId: null, allocated: 1_000_000 }, researcher)
})

async function monthly(months = 6, amount = 1200): Promise<{ row: CaseRow; decisionId: number }> {
	const row = await submittedCase(db())
	await studied(db(), row, researcher)
	await changeStatus(db(), row.id, { to: 2, note: 'دُرست' }, researcher)
	await decide(db(), row.id, { outcome: 'approve', aidKind: 'rent', amount, months, fundId, note: '' }, approver)
	const [decision] = await db().select().from(caseDecisions).where(eq(caseDecisions.caseId, row.id))
	return { row, decisionId: decision!.id }
}

const statuses = async (row: CaseRow) => (await db().select().from(aidInstalments).where(eq(aidInstalments.caseId, row.id)).orderBy(aidInstalments.seq)).map((item) => item.status)
const due = async (row: CaseRow) => (await dueInstalments(db(), 'transfer')).filter((item) => item.caseId === row.id).map((item) => item.seq)

/** Pays the first instalment through a batch, as finance does. */
async function payFirst(row: CaseRow) {
	const [first] = await db().select().from(aidInstalments).where(eq(aidInstalments.caseId, row.id)).orderBy(aidInstalments.seq)
	const { batchId } = await createBatch(db(), [first!.id], '', finance)
	await markBatchSent(db(), batchId!, today, finance)
	await recordPayment(db(), batchId!, { instalmentId: first!.id, bankReference: `FT${first!.id}0001`, paidOn: today }, finance)
}

test('finding 6: a rent aid stopped after its first payment cancels the five months left, and the family is told which', async () => {
	const { row, decisionId } = await monthly()
	await payFirst(row)
	const change = await changeAid(db(), decisionId, { action: 'stop', reason: 'انتقال الأسرة إلى خارج منطقة خدمة المؤسسة' }, finance)
	expect(await statuses(row)).toEqual(['paid', 'cancelled', 'cancelled', 'cancelled', 'cancelled', 'cancelled'])
	expect(change).toMatchObject({ from: 'active', to: 'stopped', inBatch: [] })
	expect(change.told).toBe(
		`أُوقف صرف دعمك الشهري، ولن تُصرف أقساط 5 أشهر من ${formatMonth(monthShift(today, 1).slice(0, 7))} إلى ${formatMonth(monthShift(today, 5).slice(0, 7))}. السبب: انتقال الأسرة إلى خارج منطقة خدمة المؤسسة.`,
	)
	// The applicant reads it on their link and the lookup: it is the case's latest message.
	const events = await db().select().from(caseEvents).where(eq(caseEvents.caseId, row.id))
	expect(events.filter((event) => event.kind === 'applicant_message').at(-1)!.note).toBe(change.told)
	expect(events.find((event) => event.kind === 'aid_changed')).toMatchObject({ actorId: finance.id, data: { action: 'stop', from: 'active', to: 'stopped' } })
	const [schedule] = await aidSchedules(db(), [row.id])
	expect(schedule).toMatchObject({ state: 'stopped', paid: 1, left: 0, cancelled: 5, next: null, reason: 'انتقال الأسرة إلى خارج منطقة خدمة المؤسسة' })
	// The family's link and the lookup read it so.
	expect(describeSchedule(schedule!)).toEqual({ id: decisionId, what: aidText({ aidKind: 'rent', amount: 1200, months: 6 }), monthly: true, paid: 'شهر واحد', left: null, next: null, hold: 'أُوقف صرف الدعم. السبب: انتقال الأسرة إلى خارج منطقة خدمة المؤسسة' })
	// Stopped twice is refused with what is allowed.
	await expect(changeAid(db(), decisionId, { action: 'stop', reason: 'مكرر' }, member)).rejects.toThrow('لا يمكن «إيقاف نهائي» لدعم حالته «موقوف نهائياً». المسموح: «طلب الاستئناف»')
})

test('a suspended aid is not offered to finance until another member confirms its resumption; the months are told both times', async () => {
	const { row, decisionId } = await monthly(3)
	expect(await due(row)).toEqual([1])
	expect(describeSchedule((await aidSchedules(db(), [row.id]))[0]!)).toMatchObject({ paid: 'لم يُصرف بعد', left: '3 أشهر', next: formatMonth(thisMonth), hold: null })
	await expect(changeAid(db(), decisionId, { action: 'suspend', reason: '' }, finance)).rejects.toThrow('الرجاء اختيار السبب أو كتابته')
	await expect(changeAid(db(), decisionId, { action: 'suspend', reason: 'مراجعة دخل الأسرة' }, researcher)).rejects.toThrow('إيقاف الدعم واستئنافه للجنة الصرف والمسؤولين الماليين')
	const held = await changeAid(db(), decisionId, { action: 'suspend', reason: 'مراجعة دخل الأسرة' }, finance)
	expect(held.told).toBe(`أُوقف صرف دعمك الشهري مؤقتاً، فلا تُصرف أقساط 3 أشهر من ${formatMonth(thisMonth)} إلى ${formatMonth(monthShift(today, 2).slice(0, 7))} حتى يُستأنف. السبب: مراجعة دخل الأسرة. سنبلغك عند استئنافه.`)
	expect(await statuses(row)).toEqual(['suspended', 'suspended', 'suspended'])
	expect(await due(row)).toEqual([])
	expect(describeSchedule((await aidSchedules(db(), [row.id]))[0]!)).toMatchObject({ left: '3 أشهر', next: null, hold: 'أُوقف صرف الدعم مؤقتاً. السبب: مراجعة دخل الأسرة' })
	const [instalment] = await db().select().from(aidInstalments).where(eq(aidInstalments.caseId, row.id)).orderBy(aidInstalments.seq)
	expect((await createBatch(db(), [instalment!.id], '', finance)).refused[0]!.reason).toBe('لم يعد هذا القسط بانتظار الصرف')
	// Held money stays committed in the budget.
	const committed = (await budgetsOf(db(), Number(today.slice(0, 4)))).find((item) => item.programme === 'needy-families' && item.fundId === null)!.committed
	expect(committed).toBeGreaterThanOrEqual(3600)

	// The one who asks does not confirm: nothing moves.
	const asked = await changeAid(db(), decisionId, { action: 'resume', reason: 'تبيّن أن الدخل لم يتغير' }, finance)
	expect(asked).toMatchObject({ to: 'resuming', told: '', months: [] })
	await expect(changeAid(db(), decisionId, { action: 'confirm', reason: '' }, finance)).rejects.toThrow(AidFourEyesError)
	await expect(changeAid(db(), decisionId, { action: 'confirm', reason: '' }, finance)).rejects.toThrow(RESUMER_MAY_NOT_CONFIRM)
	expect(await due(row)).toEqual([])
	const resumed = await changeAid(db(), decisionId, { action: 'confirm', reason: '' }, member)
	expect(resumed.told).toBe(`استُؤنف صرف دعمك الشهري، وتُصرف أقساط 3 أشهر من ${formatMonth(thisMonth)} إلى ${formatMonth(monthShift(today, 2).slice(0, 7))}.`)
	expect(await statuses(row)).toEqual(['approved', 'approved', 'approved'])
	expect(await due(row)).toEqual([1])
	expect((await aidSchedules(db(), [row.id]))[0]).toMatchObject({ state: 'active', reason: '', left: 3, next: `${thisMonth}-01` })
})

test('a declined request leaves the aid held; a stopped aid restarts only when someone else confirms, within the budget', async () => {
	const { row, decisionId } = await monthly(2)
	await changeAid(db(), decisionId, { action: 'suspend', reason: 'تحقق من الإقامة' }, member)
	await changeAid(db(), decisionId, { action: 'resume', reason: 'انتهى التحقق' }, member)
	expect((await changeAid(db(), decisionId, { action: 'decline', reason: '' }, finance)).to).toBe('suspended')
	expect(await statuses(row)).toEqual(['suspended', 'suspended'])
	// Stopping a held aid cancels the held months.
	await changeAid(db(), decisionId, { action: 'stop', reason: 'تحسن دخل الأسرة' }, finance)
	expect(await statuses(row)).toEqual(['cancelled', 'cancelled'])
	await changeAid(db(), decisionId, { action: 'resume', reason: 'خطأ في بيانات الدخل' }, finance)
	expect(await statuses(row)).toEqual(['cancelled', 'cancelled'])
	const restarted = await changeAid(db(), decisionId, { action: 'confirm', reason: '' }, member)
	expect(restarted).toMatchObject({ from: 'restarting', to: 'active' })
	expect(restarted.told).toContain('نعتذر عن إيقافه.')
	expect(await statuses(row)).toEqual(['approved', 'approved'])
})

test('a stopped aid of a case retention has purged is not restarted', async () => {
	const { row, decisionId } = await monthly(2)
	// Retention comes for a case once something was given and nothing is still to pay.
	await payFirst(row)
	await changeAid(db(), decisionId, { action: 'stop', reason: 'انتقلت الأسرة' }, finance)
	const purged = await purgeCase(db(), files.storage, row.id, { months: 12, now: new Date(Date.now() + 2 * 366 * 86_400_000), runBy: 'command' })
	expect(purged).not.toBeNull()
	await expect(changeAid(db(), decisionId, { action: 'resume', reason: 'خطأ في بيانات الانتقال' }, finance)).rejects.toThrow('أُتلفت بيانات هذا الطلب وفق مدة الاحتفاظ')
	expect(await statuses(row)).toEqual(['paid', 'cancelled'])
})

test('an instalment already in a batch is not touched by a stop: the family is told it still comes', async () => {
	const { row, decisionId } = await monthly(2)
	const [first] = await db().select().from(aidInstalments).where(eq(aidInstalments.caseId, row.id)).orderBy(aidInstalments.seq)
	await createBatch(db(), [first!.id], '', finance)
	const change = await changeAid(db(), decisionId, { action: 'stop', reason: 'وفاة المستفيد' }, finance)
	expect(await statuses(row)).toEqual(['in_batch', 'cancelled'])
	expect(change.told).toContain(`أما قسط شهر ${formatMonth(thisMonth)} فقد أُرسل إلى البنك قبل ذلك، ويصلك.`)
})

test('a monthly aid ends with its last instalment and is re-studied a month before, unless the committee set a day', async () => {
	const { row, decisionId } = await monthly(2)
	const [schedule] = await aidSchedules(db(), [row.id])
	const last = monthShift(today, 1)
	expect(schedule).toMatchObject({ endsOn: last, restudyOn: monthShift(today, 0), restudySet: false, months: 2, amount: 1200 })
	const listed = (await aidsToReview(db(), thisMonth)).find((item) => item.decisionId === decisionId)
	expect(listed).toMatchObject({ caseReference: row.reference, ends: false, restudy: true })
	expect((await aidsToReview(db(), last.slice(0, 7))).find((item) => item.decisionId === decisionId)).toMatchObject({ ends: true, restudy: false })
	await expect(setRestudy(db(), decisionId, '2001-01-01', approver)).rejects.toThrow('الرجاء كتابة تاريخ إعادة دراسة صحيح')
	await setRestudy(db(), decisionId, monthShift(today, 6), approver)
	expect((await aidsToReview(db(), thisMonth)).some((item) => item.decisionId === decisionId)).toBe(false)
	expect((await aidSchedules(db(), [row.id]))[0]).toMatchObject({ restudyOn: monthShift(today, 6), restudySet: true })
	// A stopped aid is not listed.
	await setRestudy(db(), decisionId, null, approver)
	await changeAid(db(), decisionId, { action: 'stop', reason: 'انتقال الأسرة' }, finance)
	expect((await aidsToReview(db(), thisMonth)).some((item) => item.decisionId === decisionId)).toBe(false)
})

test('a transfer the bank returns after its aid was held stays held, and after a stop it is cancelled, its money back in the budget (found by the ledger model)', async () => {
	const committed = async () => (await budgetsOf(db(), Number(today.slice(0, 4)))).find((item) => item.programme === 'needy-families' && item.fundId === null)!.committed
	for (const [action, status] of [
		['suspend', 'suspended'],
		['stop', 'cancelled'],
	] as const) {
		const { row, decisionId } = await monthly(2)
		const [first] = await db().select().from(aidInstalments).where(eq(aidInstalments.caseId, row.id)).orderBy(aidInstalments.seq)
		const { batchId } = await createBatch(db(), [first!.id], '', finance)
		await markBatchSent(db(), batchId!, today, finance)
		await changeAid(db(), decisionId, { action, reason: 'مراجعة دخل الأسرة' }, finance)
		// On its way to the bank when the aid was held: untouched, until the bank sends it back.
		expect(await statuses(row)).toEqual(['in_batch', status])
		const before = await committed()
		await reopenPayment(db(), batchId!, first!.id, 'الحساب مغلق', finance)
		expect(await statuses(row)).toEqual([status, status])
		expect(await due(row)).toEqual([])
		// Held money stays committed; a stopped instalment's goes back to the budget.
		expect(await committed()).toBe(action === 'suspend' ? before : before - 1200)
	}
})

test('a transfer the bank returns after its aid was stopped tells the family it is not sent again, and asks no IBAN; held, it still asks', async () => {
	for (const action of ['suspend', 'stop'] as const) {
		const { row, decisionId } = await monthly(2)
		const [first] = await db().select().from(aidInstalments).where(eq(aidInstalments.caseId, row.id)).orderBy(aidInstalments.seq)
		const { batchId } = await createBatch(db(), [first!.id], '', finance)
		await markBatchSent(db(), batchId!, today, finance)
		await changeAid(db(), decisionId, { action, reason: 'مراجعة دخل الأسرة' }, finance)
		const notices = await reopenPayment(db(), batchId!, first!.id, 'الحساب مغلق', finance)
		const asks = action === 'suspend'
		expect(notices).toEqual([{ kind: 'payment-bounced', caseId: row.id, reason: 'الحساب مغلق', ...(asks ? {} : { final: true }) }])
		await tellApplicants(db(), notices, finance)
		const [sms] = await db().select().from(caseMessages).where(and(eq(caseMessages.caseId, row.id), eq(caseMessages.channel, 'sms')))
		expect(sms!.event).toBe(asks ? 'payment-bounced' : 'payment-bounced-final')
		expect(sms!.body).toContain(asks ? 'أرسل آيباناً آخر من: ' : 'لن يعاد لإيقاف دعمك: ')
		const told = (await db().select().from(caseEvents).where(and(eq(caseEvents.caseId, row.id), eq(caseEvents.kind, 'applicant_message')))).at(-1)!
		expect(told.note).toBe(bounceNotice('الحساب مغلق', asks))
		// The family's page offers the form for another IBAN only while a transfer is owed; the returned IBAN stays held either way.
		expect(await accountNotice(db(), row.id)).toEqual(asks ? { bounced: 'الحساب مغلق', waiting: false } : null)
		expect(await ibanConfirmed(db(), row.id)).toBe(false)
	}
})

test.skipIf(process.env.TEST_DB !== 'postgres')('a bounce recorded while the aid is being suspended waits for the suspension, and its transfer is held with the rest (no approved instalment beside a held aid)', async () => {
	const { row, decisionId } = await monthly(2)
	const [first] = await db().select().from(aidInstalments).where(eq(aidInstalments.caseId, row.id)).orderBy(aidInstalments.seq)
	const { batchId } = await createBatch(db(), [first!.id], '', finance)
	await markBatchSent(db(), batchId!, today, finance)
	let release!: () => void
	const held = new Promise<void>((resolve) => (release = resolve))
	let suspended!: () => void
	const suspending = new Promise<void>((resolve) => (suspended = resolve))
	// The suspension's transaction, open: its instalments moved, not yet committed.
	const suspension = db().transaction(async (tx) => {
		await changeAid(tx, decisionId, { action: 'suspend', reason: 'مراجعة دخل الأسرة' }, finance)
		suspended()
		await held
	})
	await suspending
	const bounce = reopenPayment(db(), batchId!, first!.id, 'الحساب مغلق', finance)
	const waited = await someoneWaitsOnALock(db())
	release()
	expect(waited).toBe(true)
	await Promise.all([suspension, bounce])
	expect(await statuses(row)).toEqual(['suspended', 'suspended'])
	expect(await due(row)).toEqual([])
})
