import type { APIRequestContext } from '@playwright/test'
import { expect, test, unique } from './utils.ts'
import { studiedCaseAs } from './case-fixtures.ts'
import { today } from './aid-fixtures.ts'
import { saudiIbanFromBban } from '#app/domain/validators.ts'
import { validIban } from '#tests/fixtures/needy-families.ts'

// Issue 38, findings 2, 3, 4 and 9, through the real server and its route table: a batch keeps what
// the bank was sent (its lines, its totals and its file) after payments and a bounce; an IBAN
// corrected by staff after the batch changes neither the batch's file nor what may be paid until
// finance confirms it; a returned payment keeps its ledger row and bank reference; and the approval's
// rules are the same refusal from the case view and from the committee's queue (never a database error).

const text = async (request: APIRequestContext, path: string) => (await (await request.get(path)).text()).replace(/<!-- -->|[\u200e\u200f]/g, '')

/** A fund of its own, budgeted, and its id as the committee's queue offers it. */
async function newFund(admin: APIRequestContext, approver: APIRequestContext): Promise<string> {
	const name = `صندوق المراجعة ${unique()}`
	expect((await admin.post('/admin/funds', { form: { intent: 'add-fund', name }, maxRedirects: 0 })).status()).toBe(302)
	expect((await admin.post('/admin/funds', { form: { intent: 'budget', programme: 'needy-families', year: today().slice(0, 4), fund: 'all', allocated: '999999999' }, maxRedirects: 0 })).status()).toBe(302)
	const fund = new RegExp(`<option value="(\\d+)">${name}</option>`).exec(await text(approver, '/admin/decisions'))?.[1] ?? ''
	expect(fund, 'the new fund is offered').not.toBe('')
	return fund
}

/** The line of `reference` in finance's list (its checkbox's value), and that list item's text. */
async function lineOf(finance: APIRequestContext, reference: string): Promise<{ line: string; item: string }> {
	const item = (await text(finance, '/admin/payments')).split('<li').find((candidate) => candidate.includes(reference) && /name="line"/.test(candidate)) ?? ''
	return { line: /name="line"[^>]*value="(\d+)"|value="(\d+)"[^>]*name="line"/.exec(item)?.slice(1).find(Boolean) ?? '', item }
}

test('findings 2, 3 and 4: the batch keeps its lines, totals and file after a payment, a bounce and an IBAN corrected by staff; the returned payment keeps its row', async ({ pageAs }) => {
	test.setTimeout(180_000)
	const [officer, admin, approver, finance] = await Promise.all([pageAs('case_officer'), pageAs('admin'), pageAs('approver'), pageAs('finance')])
	const paid = await studiedCaseAs(officer.request, { name: `أم سالم ${unique()}` })
	const returned = await studiedCaseAs(officer.request, { name: `أم ناصر ${unique()}` })
	// The queue offers the funds beside the cases it holds.
	const fund = await newFund(admin.request, approver.request)
	for (const [family, amount] of [
		[paid, '1000'],
		[returned, '500'],
	] as const) {
		const decided = await approver.request.post(`/admin/cases/${family.reference}`, { form: { intent: 'decide', outcome: 'approve', aidKind: 'cash', amount, months: '', fund, note: '' }, maxRedirects: 0 })
		expect(decided.status()).toBe(302)
	}
	const [first, second] = [(await lineOf(finance.request, paid.reference)).line, (await lineOf(finance.request, returned.reference)).line]
	expect(first && second, 'both transfers are due').toBeTruthy()
	const made = await finance.request.post('/admin/payments', {
		data: new URLSearchParams([['intent', 'batch'], ['line', first], ['line', second], ['note', '']]).toString(),
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		maxRedirects: 0,
	})
	expect(made.status()).toBe(302)
	const batchUrl = made.headers()['location']!.split('?')[0]!
	const fileUrl = `${batchUrl}/file/common/csv`
	const asMade = await (await finance.request.get(fileUrl)).body()
	expect(asMade.toString('utf8')).toContain(validIban)

	// Finding 3: staff correct the second family's IBAN after the batch was made. The batch's line is
	// pinned: its file is the same bytes, without the new IBAN.
	const corrected = saudiIbanFromBban(`80${'0'.repeat(12)}${String(Date.now()).slice(-6)}`)
	const edit = await officer.request.post(`/admin/cases/${returned.reference}/edit/bank`, { form: { Bank_Name_1: 'alrajhi', Bank_No_1: corrected }, maxRedirects: 0 })
	expect(edit.status()).toBe(302)
	const afterEdit = await (await finance.request.get(fileUrl)).body()
	expect(afterEdit.equals(asMade)).toBe(true)
	expect(afterEdit.toString('utf8')).not.toContain(corrected)

	expect((await finance.request.post(batchUrl, { form: { intent: 'sent', sentOn: today() }, maxRedirects: 0 })).status()).toBe(302)
	const asSent = await (await finance.request.get(fileUrl)).body()
	const marker = unique()
	for (const [line, reference] of [
		[first, `FTA${marker}`.slice(0, 30)],
		[second, `FTB${marker}`.slice(0, 30)],
	] as const) {
		expect((await finance.request.post(batchUrl, { form: { intent: 'record', instalment: line, bankReference: reference, paidOn: today() }, maxRedirects: 0 })).status()).toBe(302)
	}
	expect((await finance.request.post(batchUrl, { form: { intent: 'reopen', instalment: second, reason: 'الحساب مغلق' }, maxRedirects: 0 })).status()).toBe(302)

	// Finding 2: both lines stay in the batch, and its page reads like the bank's statement.
	const batchPage = await text(finance.request, batchUrl)
	expect(batchPage).toContain('سطران، المجموع 1,500.00')
	const statement = (label: string) => new RegExp(`<dt[^>]*>${label}</dt><dd>([^<]*)</dd>`).exec(batchPage)?.[1]
	expect(statement('أُرسل إلى البنك')).toContain('1,500.00')
	expect(statement('الصافي \\(المُرسل ناقص ما أعاده البنك\\)')).toContain('1,000.00')
	expect(batchPage).toContain(returned.reference)
	expect(batchPage).toContain('السبب: الحساب مغلق')
	expect((await (await finance.request.get(fileUrl)).body()).equals(asSent)).toBe(true)

	// Finding 4: the returned payment keeps its row in the case's ledger, with the bank's reference,
	// beside the entry that reverses it.
	const printed = await text(officer.request, `/admin/cases/${returned.reference}/print`)
	const ledger = /<table[^>]*>\s*<caption[^>]*>سجل الدعم المالي[\s\S]*?<\/table>/.exec(printed)?.[0] ?? ''
	expect(ledger).toContain(`FTB${marker}`.slice(0, 30))
	expect(ledger).toMatch(/أعاد(?:ه)? البنك|مرتجع|أُعيد/)

	// Finding 3, after the bounce: the bank refused the IBAN it was sent, not the one corrected since;
	// the corrected one waits for finance, and its line is offered again only once finance confirms it.
	const held = (await lineOf(finance.request, returned.reference)).item
	expect(held).toContain('بانتظار تأكيد الآيبان')
	expect(held).toContain(corrected)
	expect(held).toMatch(/name="line"[^>]*disabled|disabled[^>]*name="line"/)
	const waiting = (await text(finance.request, '/admin/payments')).split('<li').find((item) => item.includes(returned.reference) && item.includes('name="case"')) ?? ''
	expect(waiting).toContain(corrected)
	// A forged confirmation naming no case is refused as such, not a server error.
	expect((await finance.request.post('/admin/payments', { form: { intent: 'confirm-iban', case: 'x' }, maxRedirects: 0 })).status()).toBe(400)
	const caseId = /name="case" value="([0-9a-f-]{36})"/.exec(waiting)?.[1] ?? ''
	expect((await finance.request.post('/admin/payments', { form: { intent: 'confirm-iban', case: caseId }, maxRedirects: 0 })).status()).toBe(302)
	const offered = (await lineOf(finance.request, returned.reference)).item
	expect(offered).not.toMatch(/name="line"[^>]*disabled|disabled[^>]*name="line"/)
	expect(offered).toContain(corrected)
})

test('finding 9: an incomplete approval is the same Arabic refusal from the case view and from the committee\'s queue, and commits nothing', async ({ pageAs }) => {
	test.setTimeout(120_000)
	const [officer, admin, approver] = await Promise.all([pageAs('case_officer'), pageAs('admin'), pageAs('approver')])
	const family = await studiedCaseAs(officer.request)
	const fund = await newFund(admin.request, approver.request)
	const bad = { aidKind: 'cash', amount: '700', months: '1', fund: '' }

	const single = await approver.request.post(`/admin/cases/${family.reference}`, { form: { intent: 'decide', outcome: 'approve', ...bad, note: '' }, maxRedirects: 0 })
	expect(single.status()).toBe(400)
	const singleText = (await single.text()).replace(/<!-- -->|[\u200e\u200f]/g, '')
	for (const message of ['الرجاء اختيار صندوق الصرف', 'الدعم الشهري من شهرين إلى 24 شهراً']) expect(singleText).toContain(message)

	const r = family.reference
	const queue = await approver.request.post('/admin/decisions', { form: { case: r, [`kind-${r}`]: bad.aidKind, [`amount-${r}`]: bad.amount, [`months-${r}`]: bad.months, [`fund-${r}`]: bad.fund }, maxRedirects: 0 })
	expect(queue.status()).toBe(400)
	const queueText = (await queue.text()).replace(/<!-- -->|[\u200e\u200f]/g, '')
	for (const message of ['الرجاء اختيار صندوق الصرف', 'الدعم الشهري من شهرين إلى 24 شهراً']) expect(queueText).toContain(message)

	// Nothing was committed: the case still waits for the committee, and approving it properly works.
	const decidable = async () => (await text(approver.request, `/admin/cases/${r}`)).includes('name="intent" value="decide"')
	expect(await decidable()).toBe(true)
	const good = await approver.request.post('/admin/decisions', { form: { case: r, [`kind-${r}`]: 'cash', [`amount-${r}`]: '700', [`months-${r}`]: '', [`fund-${r}`]: fund }, maxRedirects: 0 })
	expect(good.status()).toBe(200)
	expect(await decidable()).toBe(false)
})
