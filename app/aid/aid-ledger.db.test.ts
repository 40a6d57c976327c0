import { asc, eq } from 'drizzle-orm'
import { confirmIban, giveIban } from '#app/cases/payee-accounts.server.ts'
import { saudiIbanFromBban } from '#app/domain/validators.ts'
import { asRetentionPurge } from '#app/operations/retention-purge.server.ts'
import { beforeAll, expect, test } from 'vitest'
import { aidInstalments, caseAid, caseDecisions } from '#app/db/schema.ts'
import { createUser, type PublicUser } from '#app/domain/staff-users.server.ts'
import { todayInRiyadh } from '#app/text/format.ts'
import { approvedCase } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { aidLedgerOf, aidLedgerTotals } from './aid-ledger.server.ts'
import { listFunds, setBudget } from './funds.server.ts'
import { changeAid } from './monthly-aid.server.ts'
import { createBatch, markBatchSent, paymentReference, recordDelivery, recordPayment, reopenPayment } from './payments.server.ts'

// The case's aid ledger as the printed case file lists it (docs/product.md#printable-reports): aid in
// kind delivered, then the monthly aid stopped; a transfer paid, returned by the bank and paid again,
// its bank references read from the batch lines. Through the page: app/routes/admin/case-print.db.test.ts.

const app = withAppDatabase()
const db = () => app.handle.db
const today = todayInRiyadh()
let researcher: PublicUser
let approver: PublicUser
let finance: PublicUser
let otherFinance: PublicUser

beforeAll(async () => {
	const user = (name: string, roles: PublicUser['roles']) => createUser(db(), { name, email: `${roles.join('-')}-${Date.now()}-${Math.random()}@example.org`, mobile: '', roles, password: 'Ledger-Print-1234' })
	researcher = await user('الباحثة', ['case_officer'])
	approver = await user('عضو اللجنة', ['approver'])
	finance = await user('المسؤولة المالية', ['finance'])
	otherFinance = await user('المسؤول المالي الثاني', ['finance'])
	await setBudget(db(), { programme: 'needy-families', year: Number(today.slice(0, 4)), fundId: null, allocated: 1_000_000 }, researcher)
})

test('a monthly aid in kind: approved for its whole amount, a delivery, suspended, resumed (four eyes), then stopped, each with its reason; the totals', async () => {
	const fund = (await listFunds(db())).find((item) => !item.zakat)!
	const row = await approvedCase(db(), { researcher, approver }, { fundId: fund.id, aidKind: 'food_basket', amount: 300, months: 3 })
	const [first] = await db().select().from(aidInstalments).where(eq(aidInstalments.caseId, row.id)).orderBy(asc(aidInstalments.seq))
	await recordDelivery(db(), first!.id, { deliveredOn: today, deliveredBy: 'فريق التوزيع', receipt: 'R-77' }, finance)
	const [decision] = await db().select().from(caseDecisions).where(eq(caseDecisions.caseId, row.id))
	await changeAid(db(), decision!.id, { action: 'suspend', reason: 'بانتظار تحديث بيانات الدخل' }, finance)
	await changeAid(db(), decision!.id, { action: 'resume', reason: 'حُدّثت بيانات الدخل' }, finance)
	await changeAid(db(), decision!.id, { action: 'confirm', reason: 'راجعت اللجنة البيانات' }, approver)
	await changeAid(db(), decision!.id, { action: 'stop', reason: 'انتقلت الأسرة خارج المنطقة' }, finance)

	const ledger = await aidLedgerOf(db(), row.id)
	expect(ledger).toEqual([
		{ day: today, what: 'approved', amount: 900, months: 3, fund: fund.name, reference: '', bankReference: null, note: '', by: 'عضو اللجنة' },
		{ day: today, what: 'delivered', amount: 300, months: null, fund: fund.name, reference: paymentReference(first!.id), bankReference: null, note: '', by: 'المسؤولة المالية' },
		{ day: today, what: 'suspended', amount: null, months: null, fund: fund.name, reference: '', bankReference: null, note: 'بانتظار تحديث بيانات الدخل', by: 'المسؤولة المالية' },
		{ day: today, what: 'resumed', amount: null, months: null, fund: fund.name, reference: '', bankReference: null, note: 'راجعت اللجنة البيانات', by: 'عضو اللجنة' },
		{ day: today, what: 'stopped', amount: null, months: null, fund: fund.name, reference: '', bankReference: null, note: 'انتقلت الأسرة خارج المنطقة', by: 'المسؤولة المالية' },
	])
	expect(aidLedgerTotals(ledger)).toEqual({ approved: 900, paid: 0, delivered: 300, recorded: 0 })
	// An approval not yet paid: its row alone.
	const other = await approvedCase(db(), { researcher, approver }, { fundId: fund.id })
	expect((await aidLedgerOf(db(), other.id)).map((item) => item.what)).toEqual(['approved'])
})

test('a transfer paid, returned by the bank, then paid on the next batch: each bank reference read from its batch line, even once retention has cleared the notes', async () => {
	const fund = (await listFunds(db())).find((item) => !item.zakat)!
	const row = await approvedCase(db(), { researcher, approver }, { fundId: fund.id, amount: 1200 })
	const [instalment] = await db().select().from(aidInstalments).where(eq(aidInstalments.caseId, row.id))
	const pay = async (bankReference: string) => {
		const { batchId } = await createBatch(db(), [instalment!.id], '', finance)
		await markBatchSent(db(), batchId!, today, finance)
		await recordPayment(db(), batchId!, { instalmentId: instalment!.id, bankReference, paidOn: today }, finance)
		return batchId!
	}
	const first = await pay('FT-FIRST-01')
	await reopenPayment(db(), first, instalment!.id, 'الحساب مغلق', finance)
	// The family's new IBAN on their link, confirmed by another member of finance.
	await giveIban(db(), row.id, saudiIbanFromBban(`80${'0'.repeat(12)}445566`))
	await confirmIban(db(), row.id, otherFinance)
	await pay('FT-SECOND-02')
	// Retention clears the free text of the aid ledger's rows (the only change it may make).
	await db().transaction((tx) => asRetentionPurge(tx, () => tx.update(caseAid).set({ note: '' }).where(eq(caseAid.caseId, row.id))))

	const ledger = await aidLedgerOf(db(), row.id)
	const reference = paymentReference(instalment!.id)
	expect(ledger.map((item) => [item.what, item.amount, item.reference, item.bankReference, item.note])).toEqual([
		['approved', 1200, '', null, ''],
		['paid', 1200, reference, 'FT-FIRST-01', ''],
		['bounced', -1200, reference, 'FT-FIRST-01', 'الحساب مغلق'],
		['paid', 1200, reference, 'FT-SECOND-02', ''],
	])
	expect(aidLedgerTotals(ledger)).toEqual({ approved: 1200, paid: 1200, delivered: 0, recorded: 0 })
})
