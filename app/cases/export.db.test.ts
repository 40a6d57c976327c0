import ExcelJS from 'exceljs'
import { parse } from 'csv-parse/sync'
import { expect, test } from 'vitest'
import { decide } from '#app/aid/decisions.server.ts'
import { listFunds, setBudget } from '#app/aid/funds.server.ts'
import { createBatch, dueInstalments, markBatchSent, recordPayment, reopenPayment } from '#app/aid/payments.server.ts'
import { changeStatus } from '#app/cases/status-changes.server.ts'
import { confirmIban, giveIban } from '#app/cases/payee-accounts.server.ts'
import { saudiIbanFromBban } from '#app/domain/validators.ts'
import { createUser } from '#app/domain/staff-users.server.ts'
import { todayInRiyadh } from '#app/text/format.ts'
import { studied, submittedCase } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { received } from '#tests/fixtures/receipts.ts'
import type { CaseFilter } from './case-lists.server.ts'
import { csvExport, xlsxExport } from './export.server.ts'

// What the case export holds (docs/product.md#the-case-lists): dates a spreadsheet sorts as dates,
// and the committee's decision, its fund, the riyals paid and the bank's reference, in CSV and XLSX.

const app = withAppDatabase()
const db = () => app.handle.db

test('a paid case: its dates are dates, and its decision, fund, riyals paid and bank reference are in both files', async () => {
	const today = todayInRiyadh()
	const user = (roles: ('case_officer' | 'approver' | 'finance')[]) => createUser(db(), { name: roles.join(' '), email: `${roles.join('-')}-${Date.now()}-${Math.random()}@example.org`, mobile: '', roles, password: 'Export-Test-12345' })
	const [researcher, approver, finance] = [await user(['case_officer']), await user(['approver']), await user(['finance'])]
	const zakat = (await listFunds(db())).find((fund) => fund.zakat)!
	// Zakat is approved within what the fund received (docs/product.md#money-in).
	await received(db(), zakat.id, 100_000)
	await setBudget(db(), { programme: 'needy-families', year: Number(today.slice(0, 4)), fundId: null, allocated: 100_000 }, researcher)
	const row = await submittedCase(db())
	await studied(db(), row, researcher)
	await changeStatus(db(), row.id, { to: 2, note: 'دُرست' }, researcher)
	await decide(db(), row.id, { outcome: 'approve', aidKind: 'cash', amount: 4321.5, months: null, fundId: zakat.id, note: '' }, approver)
	const [due] = (await dueInstalments(db(), 'transfer')).filter((item) => item.caseId === row.id)
	const { batchId } = await createBatch(db(), [due!.id], '', finance)
	await markBatchSent(db(), batchId!, today, finance)
	await recordPayment(db(), batchId!, { instalmentId: due!.id, bankReference: 'FT2026ABC', paidOn: today }, finance)

	const filter: CaseFilter = { kind: 'individual', status: null, type: null, assignedTo: null, from: null, to: null, q: row.reference, sort: 'submitted', deleted: false }
	const csv = await new Response(csvExport(db(), filter, ['needy-families'])).text()
	const [headers, line, ...rest] = parse(csv.replace(/^\uFEFF/, '')) as string[][]
	expect(rest).toEqual([])
	const cell = (header: string) => line![headers!.indexOf(header)]
	expect(cell('قرار اللجنة')).toBe('اعتماد الدعم')
	expect(cell('الصندوق')).toBe('صندوق الزكاة (زكاة)')
	expect(cell('المبلغ المصروف (ريال)')).toBe('4321.5')
	expect(cell('مرجع البنك')).toBe('FT2026ABC')
	expect(cell('تاريخ آخر صرف')).toBe(today)
	// ISO 8601, which Excel reads as a date in any locale: a day, or a day and Riyadh's time.
	expect(cell('تاريخ الإرسال (ميلادي)')).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/)
	expect(cell('تاريخ القرار')).toMatch(new RegExp(`^${today} \\d{2}:\\d{2}$`))
	expect(cell('تاريخ الدراسة')).toMatch(/^\d{4}-\d{2}-\d{2}$/)

	const workbook = new ExcelJS.Workbook()
	await workbook.xlsx.load(await new Response(xlsxExport(db(), filter, ['needy-families'])).arrayBuffer())
	const sheet = workbook.worksheets[0]!
	const titles = (sheet.getRow(1).values as unknown[]).slice(1)
	const typed = (header: string) => sheet.getRow(2).getCell(titles.indexOf(header) + 1)
	for (const header of ['تاريخ الإرسال (ميلادي)', 'آخر تغيير للحالة', 'تاريخ الدراسة', 'تاريخ القرار', 'تاريخ آخر صرف']) {
		expect(typed(header).type, header).toBe(ExcelJS.ValueType.Date)
		expect(typed(header).numFmt, header).toMatch(/^yyyy-mm-dd/)
	}
	expect((typed('تاريخ آخر صرف').value as Date).toISOString().slice(0, 10)).toBe(today)
	// The decision's time as Riyadh's clock reads it (UTC+3), which is what the sheet shows.
	expect((typed('تاريخ القرار').value as Date).toISOString().slice(0, 16).replace('T', ' ')).toBe(cell('تاريخ القرار'))
	expect(typed('المبلغ المصروف (ريال)').value).toBe(4321.5)
	expect(typed('المبلغ المصروف (ريال)').numFmt).toBe('#,##0.00')
	expect([typed('قرار اللجنة').value, typed('الصندوق').value, typed('مرجع البنك').value]).toEqual(['اعتماد الدعم', 'صندوق الزكاة (زكاة)', 'FT2026ABC'])

	// The bank returned it: its row stays, reversed (docs/decisions/018-append-only-ledger.md); nothing is given, and the
	// same instalment paid again shows its new reference alone.
	await reopenPayment(db(), batchId!, due!.id, 'الحساب مغلق', finance)
	const cells = async () => {
		const [titles, values] = parse((await new Response(csvExport(db(), filter, ['needy-families'])).text()).replace(/^\uFEFF/, '')) as string[][]
		return (header: string) => values![titles!.indexOf(header)]
	}
	let after = await cells()
	expect([after('المبلغ المصروف (ريال)'), after('مرجع البنك'), after('تاريخ آخر صرف')]).toEqual(['', '', ''])
	// Another IBAN from the family, confirmed by finance (app/cases/payee-accounts.server.ts), then paid again.
	await giveIban(db(), row.id, saudiIbanFromBban(`80${'0'.repeat(16)}42`))
	await confirmIban(db(), row.id, finance)
	const again = await createBatch(db(), [due!.id], '', finance)
	await markBatchSent(db(), again.batchId!, today, finance)
	await recordPayment(db(), again.batchId!, { instalmentId: due!.id, bankReference: 'FT2026XYZ', paidOn: today }, finance)
	after = await cells()
	expect([after('المبلغ المصروف (ريال)'), after('مرجع البنك'), after('تاريخ آخر صرف')]).toEqual(['4321.5', 'FT2026XYZ', today])
})
