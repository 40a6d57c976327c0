import { eq } from 'drizzle-orm'
import { beforeAll, expect, test } from 'vitest'
import { ClosedPeriodError, closedPeriodMessage } from '#app/cases/refusals.ts'
import { fundReceipts, ledgerEntries } from '#app/db/schema.ts'
import { createUser, type PublicUser } from '#app/domain/staff-users.server.ts'
import { formatMoney, todayInRiyadh } from '#app/text/format.ts'
import { approvedCase } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { addFund, listFunds, setBudget, setDebitAccount, type Fund } from './funds.server.ts'
import { checkLedger } from './ledger.server.ts'
import { closeMonth, reopenMonth } from './periods.server.ts'
import {
	beyondBalanceMessage,
	cancelReceipt,
	confirmReceipt,
	fundBalances,
	importStatement,
	listReceipts,
	NOT_OUT_OF_ZAKAT,
	receiptById,
	RECORDER_MAY_NOT_CONFIRM,
	ReceiptFourEyesError,
	recordFundTransfer,
	recordReceipt,
	setGeneralOverdraft,
} from './receipts.server.ts'

// Money in (docs/product.md#money-in, docs/decisions/019-money-in.md): a receipt counts in its
// fund's balance once a second finance user confirms it; approvals beyond a zakat fund's balance
// are refused with the figures; a receipt is cancelled by an entry naming it; a closed month takes
// none; the bank statement's credits become receipts only where the statement names the fund.

const app = withAppDatabase()
const db = () => app.handle.db
const today = todayInRiyadh()
const year = Number(today.slice(0, 4))
const lastMonth = (() => {
	const [y, m] = today.split('-').map(Number) as [number, number]
	return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`
})()
let researcher: PublicUser
let approver: PublicUser
let recorder: PublicUser
let confirmer: PublicUser
let admin: PublicUser
let zakat: Fund
let general: Fund
/** A zakat fund of its own for each test that counts riyals. */
const zakatFund = async (label: string) => addFund(db(), { name: `زكاة ${label} ${Math.random()}`, zakat: true })

beforeAll(async () => {
	const user = (name: string, roles: PublicUser['roles']) => createUser(db(), { name, email: `${roles.join('-')}-${Date.now()}-${Math.random()}@example.org`, mobile: '', roles, password: 'Receipts-Test-1234' })
	;[researcher, approver, recorder, confirmer, admin] = await Promise.all([
		user('الباحثة', ['case_officer']),
		user('عضو اللجنة', ['approver']),
		user('أمين الصندوق', ['finance']),
		user('المراجع المالي', ['finance']),
		user('مدير النظام', ['admin']),
	])
	const funds = await listFunds(db())
	zakat = funds.find((fund) => fund.zakat)!
	general = funds.find((fund) => !fund.zakat)!
	await setBudget(db(), { programme: 'needy-families', year, fundId: null, allocated: 10_000_000 }, admin)
})

const balanceOf = async (fundId: number) => (await fundBalances(db(), fundId)).get(fundId)!
const zakatReceipt = (fundId: number, amount: number, extra: Partial<Parameters<typeof recordReceipt>[1]> = {}) =>
	recordReceipt(db(), { fundId, amount, receivedOn: today, source: 'ehsan', donor: 'فاعل خير', programme: 'needy-families', condition: 'للأسر المحتاجة', ...extra }, recorder)

test('a receipt counts once another finance user confirms it; its number has no gaps in its year; the recorder may not confirm it', async () => {
	const fund = await zakatFund('الأرقام')
	const first = await zakatReceipt(fund.id, 5000)
	const second = await zakatReceipt(fund.id, 250.5)
	expect(second.seq).toBe(first.seq + 1)
	expect((await receiptById(db(), first.id))!).toMatchObject({ number: `ق-${year}-${String(first.seq).padStart(6, '0')}`, state: 'awaiting', fundName: expect.stringContaining('زكاة'), donor: 'فاعل خير', programme: 'needy-families', condition: 'للأسر المحتاجة' })
	expect((await balanceOf(fund.id)).received).toBe(0)

	await expect(confirmReceipt(db(), first.id, recorder)).rejects.toThrow(ReceiptFourEyesError)
	await expect(confirmReceipt(db(), first.id, recorder)).rejects.toThrow(RECORDER_MAY_NOT_CONFIRM)
	await confirmReceipt(db(), first.id, confirmer)
	await expect(confirmReceipt(db(), first.id, admin)).rejects.toThrow('مؤكد من قبل')
	expect(await balanceOf(fund.id)).toEqual({ fundId: fund.id, received: 5000, committed: 0, paid: 0, balance: 5000 })
	expect((await receiptById(db(), first.id))!).toMatchObject({ state: 'confirmed', recordedByName: 'أمين الصندوق', confirmedByName: 'المراجع المالي' })
	// The row itself never changes: the database refuses it.
	await expect(db().update(fundReceipts).set({ amount: 1 }).where(eq(fundReceipts.id, first.id))).rejects.toThrow()
	await expect(db().delete(fundReceipts).where(eq(fundReceipts.id, first.id))).rejects.toThrow()
	expect(await checkLedger(db())).toEqual([])
})

test('an approval beyond a zakat fund\'s balance is refused with the figures; within it passes and is committed', async () => {
	const fund = await zakatFund('الاعتماد')
	const receipt = await zakatReceipt(fund.id, 3000)
	await confirmReceipt(db(), receipt.id, confirmer)
	await approvedCase(db(), { researcher, approver }, { fundId: fund.id, amount: 2000 })
	expect(await balanceOf(fund.id)).toEqual({ fundId: fund.id, received: 3000, committed: 2000, paid: 0, balance: 1000 })
	const refused = approvedCase(db(), { researcher, approver }, { fundId: fund.id, amount: 1000.01 })
	await expect(refused).rejects.toThrow(beyondBalanceMessage(fund, 1000.01, { fundId: fund.id, received: 3000, committed: 2000, paid: 0, balance: 1000 }))
	await expect(approvedCase(db(), { researcher, approver }, { fundId: fund.id, amount: 400, months: 3 })).rejects.toThrow(`يتجاوز المبلغ (${formatMoney(1200)}) رصيد`)
	await approvedCase(db(), { researcher, approver }, { fundId: fund.id, amount: 1000 })
	expect((await balanceOf(fund.id)).balance).toBe(0)
	expect(await checkLedger(db())).toEqual([])
})

test('a general fund follows the admin\'s setting: overdrawn by default, bounded by its balance once forbidden', async () => {
	const fund = await addFund(db(), { name: `عام ${Math.random()}`, zakat: false })
	await approvedCase(db(), { researcher, approver }, { fundId: fund.id, amount: 700 })
	expect((await balanceOf(fund.id)).balance).toBe(-700)
	expect(await setGeneralOverdraft(db(), false, admin)).toEqual({ before: true, after: false })
	try {
		await expect(approvedCase(db(), { researcher, approver }, { fundId: fund.id, amount: 1 })).rejects.toThrow(`المقبوض ${formatMoney(0)}، المعتمد غير المصروف ${formatMoney(700)}`)
	} finally {
		await setGeneralOverdraft(db(), true, admin)
	}
	await approvedCase(db(), { researcher, approver }, { fundId: fund.id, amount: 1 })
})

test('a receipt is cancelled with a reason: voided before confirmation, reversed after by an entry naming it; never below what the zakat fund committed', async () => {
	const fund = await zakatFund('الإلغاء')
	const wrong = await zakatReceipt(fund.id, 800)
	await expect(cancelReceipt(db(), wrong.id, 'خطأ', recorder)).rejects.toThrow('سبب الإلغاء')
	expect((await cancelReceipt(db(), wrong.id, 'سُجّل مرتين', recorder)).was).toBe('awaiting')
	await expect(confirmReceipt(db(), wrong.id, confirmer)).rejects.toThrow('ملغى')

	const kept = await zakatReceipt(fund.id, 1000)
	await confirmReceipt(db(), kept.id, confirmer)
	await approvedCase(db(), { researcher, approver }, { fundId: fund.id, amount: 600 })
	await expect(cancelReceipt(db(), kept.id, 'المبلغ لم يصل', confirmer)).rejects.toThrow(`يتجاوز المبلغ (${formatMoney(1000)}) رصيد`)
	const extra = await zakatReceipt(fund.id, 1000)
	await confirmReceipt(db(), extra.id, confirmer)
	expect((await cancelReceipt(db(), kept.id, 'المبلغ لم يصل إلى الحساب', confirmer)).was).toBe('confirmed')
	await expect(cancelReceipt(db(), kept.id, 'مرة أخرى', confirmer)).rejects.toThrow('ملغى من قبل')
	const entries = await db().select().from(ledgerEntries).where(eq(ledgerEntries.receiptId, kept.id))
	const posting = entries.find((entry) => entry.phase === 'posted' && entry.correctsId === null)!
	expect(entries.find((entry) => entry.correctsId === posting.id)).toMatchObject({ debitAccount: posting.creditAccount, creditAccount: posting.debitAccount, amount: 1000, reason: 'المبلغ لم يصل إلى الحساب', valueDate: today })
	expect(await balanceOf(fund.id)).toEqual({ fundId: fund.id, received: 1000, committed: 600, paid: 0, balance: 400 })
	expect((await receiptById(db(), kept.id))!).toMatchObject({ state: 'cancelled', cancelReason: 'المبلغ لم يصل إلى الحساب', cancelledByName: 'المراجع المالي' })
	expect(await checkLedger(db())).toEqual([])
})

test('money moves between funds once confirmed, never out of a zakat fund nor beyond what the fund holds', async () => {
	const endowment = await addFund(db(), { name: `عائد الوقف ${Math.random()}`, zakat: false })
	const into = await recordReceipt(db(), { fundId: endowment.id, amount: 2000, receivedOn: today, source: 'endowment_yield' }, recorder)
	await confirmReceipt(db(), into.id, confirmer)
	await expect(recordFundTransfer(db(), { fromFundId: zakat.id, toFundId: general.id, amount: 1, movedOn: today, note: 'نقل' }, recorder)).rejects.toThrow(NOT_OUT_OF_ZAKAT)
	await expect(recordFundTransfer(db(), { fromFundId: endowment.id, toFundId: general.id, amount: 2000.5, movedOn: today, note: 'نقل' }, recorder)).rejects.toThrow('يتجاوز المبلغ')
	const before = await balanceOf(general.id)
	const moved = await recordFundTransfer(db(), { fromFundId: endowment.id, toFundId: general.id, amount: 1500, movedOn: today, note: 'عائد الوقف إلى الصدقات' }, recorder)
	expect(moved.series).toBe('م')
	expect((await balanceOf(endowment.id)).received).toBe(2000)
	await expect(confirmReceipt(db(), moved.id, recorder)).rejects.toThrow(RECORDER_MAY_NOT_CONFIRM)
	await confirmReceipt(db(), moved.id, confirmer)
	expect((await balanceOf(endowment.id)).received).toBe(500)
	expect((await balanceOf(general.id)).received).toBe(before.received + 1500)
	expect(await checkLedger(db())).toEqual([])
})

test('the bank statement\'s credits: a row is recorded only into the account one fund names; every other row is listed with why', async () => {
	const fund = await zakatFund('الكشف')
	const account = 'SA0380000000608010167519'
	await setDebitAccount(db(), fund.id, account)
	const csv = [
		'\uFEFFValue_Date,Credit,Debit,Account,Reference,Depositor,Description',
		`29/11/2025,"1,500.00",,${account},STM-A-${year},محمد,تبرع زكاة`,
		`2025-11-28,250,,SA03 8000 0000 6080 1016 7519,STM-B-${year},,`,
		`2025-11-28,,300,${account},STM-C-${year},,رسوم`,
		`2025-11-28,400,,SA4420000001234567891234,STM-D-${year},,`,
		`11/29/2025,400,,${account},STM-E-${year},,`,
		`2025-11-28,12e3,,${account},STM-F-${year},,`,
		`2025-11-28,90,,${account},,,`,
		`29/11/2025,"1,500.00",,${account},STM-A-${year},محمد,تبرع زكاة`,
	].join('\r\n')
	const imported = await importStatement(db(), csv, recorder)
	expect(imported.recorded).toHaveLength(2)
	expect(imported.unmatched.map((row) => [row.line, row.reference, row.reason])).toEqual([
		[4, `STM-C-${year}`, 'ليس قيداً دائناً (لا مبلغ في عمود «credit»)'],
		[5, `STM-D-${year}`, 'الحساب «SA4420000001234567891234» لا يعود إلى صندوق: لا صندوق حسابه هذا الآيبان'],
		[6, `STM-E-${year}`, 'تاريخ القيد «11/29/2025» غير مقروء: يُكتب يوماً فشهراً فسنة مثل 29/11/2026، أو 2026-11-29'],
		[7, `STM-F-${year}`, 'المبلغ «12e3» ليس رقماً عشرياً أكبر من صفر: يُكتب بالأرقام وحدها، مثل 1500 أو 1,500.00'],
		[8, '', 'بلا مرجع بنك: لا يُسجّل قيد لا يُعرف إن سُجّل من قبل'],
		[9, `STM-A-${year}`, `مرجع البنك «STM-A-${year}» مسجّل في سند آخر: لا يُقبض المبلغ مرتين`],
	])
	const rows = await listReceipts(db(), { fundId: fund.id })
	expect(rows.map((row) => [row.amount, row.receivedOn, row.source, row.donor, row.state]).sort()).toEqual([
		[1500, '2025-11-29', 'bank_deposit', 'محمد', 'awaiting'],
		[250, '2025-11-28', 'bank_deposit', '', 'awaiting'],
	])
	// Imported, they still wait for a second finance user.
	expect((await balanceOf(fund.id)).received).toBe(0)
	await expect(importStatement(db(), 'just,words\n1,2', recorder)).rejects.toThrow('كشف الحساب بلا أعمدة')
})

test('a receipt dated in a closed month is refused with the month named, and writes nothing', async () => {
	const fund = await zakatFund('الإقفال')
	await closeMonth(db(), lastMonth, recorder)
	try {
		const before = (await db().select().from(fundReceipts)).length
		const refused = recordReceipt(db(), { fundId: fund.id, amount: 100, receivedOn: `${lastMonth}-10`, source: 'cash' }, recorder)
		await expect(refused).rejects.toThrow(ClosedPeriodError)
		await expect(recordReceipt(db(), { fundId: fund.id, amount: 100, receivedOn: `${lastMonth}-10`, source: 'cash' }, recorder)).rejects.toThrow(closedPeriodMessage(lastMonth))
		expect((await db().select().from(fundReceipts)).length).toBe(before)
	} finally {
		await reopenMonth(db(), lastMonth, 'لإكمال الاختبار', admin)
	}
	// Its number was not taken: the next receipt of the year follows the last one.
	const next = await recordReceipt(db(), { fundId: fund.id, amount: 100, receivedOn: `${lastMonth}-10`, source: 'cash' }, recorder)
	const sameYear = (await db().select().from(fundReceipts).where(eq(fundReceipts.year, next.year))).filter((row) => row.series === 'ق')
	expect(Math.max(...sameYear.map((row) => row.seq))).toBe(sameYear.length)
})
