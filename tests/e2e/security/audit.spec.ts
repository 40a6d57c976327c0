// The audit trail through the real server and the real route table (docs/security.md#audit-trail):
// five staff members made for this test — a case officer, an admin, a content editor, an approver and a finance officer — do every
// audited thing once, and the trail's own CSV export lists each of it with the right action, page and
// case. Every action a back-office route declares (`audited(…)` in its module) must be done here: a
// route that reads applicants' data, or changes anything, without an entry fails this test.
import fs from 'node:fs'
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test'
import { auditActions, type AuditAction } from '#app/audit/actions.ts'
import { jpeg, minimalMp4 } from '#tests/fixtures/attack-files.ts'
import { minimalPdf } from '#tests/fixtures/pdf.ts'
import { studyForm } from '#tests/fixtures/needy-families.ts'
import { saudiIbanFromBban } from '#app/domain/validators.ts'
import { caseFileIds, registerInstitutionAsStaff, studiedCaseAs, submitCaseAsStaff, type RegisteredInstitution, type SubmittedCase } from '../case-fixtures.ts'
import { meetingTurn, signIn, staffState, unique, type StaffRole } from '../utils.ts'
import { adminRoutes, addUser, inquiry, inputValue, newUserForm, send, userId, type FormBody, type MultipartBody } from './route-table.ts'

test.describe.configure({ mode: 'default' })

/** One thing done, and the entry it must leave: the route that answers it, the action, the page (and the case). */
interface Expected {
	route: string
	action: AuditAction
	path: string
	reference?: string
}

interface Actor {
	role: StaffRole
	email: string
	id: string
	request: APIRequestContext
	page: Page
}

let baseURL: string
let admin: APIRequestContext
const actors = {} as Record<StaffRole, Actor>
const expected: (Expected & { actor: StaffRole })[] = []
const marker = unique()

/** A staff member of `role` made by the admin for this test alone, signed in through the form (and its second step). */
async function newActor(browser: Browser, role: StaffRole): Promise<Actor> {
	const email = `audit-${role}-${marker}@e2e.test`
	const password = `Audit-Trail-${marker}`
	await addUser(admin, email, role, password)
	const context = await browser.newContext({ baseURL })
	const page = await context.newPage()
	await signIn(page, { email, password })
	await expect(page).toHaveURL(/\/admin/)
	return { role, email, id: await userId(admin, email), request: context.request, page }
}

/** A member of the committee who also keeps the accounts (a small foundation), made and signed in for this test. */
async function newDualActor(browser: Browser): Promise<{ id: string; request: APIRequestContext }> {
	const email = `audit-dual-${marker}@e2e.test`
	const password = `Audit-Trail-${marker}`
	expect((await send(admin, { path: '/admin/users/new', form: { ...newUserForm(email, 'approver', password), roles: ['approver', 'finance'] }, status: 302 })).status()).toBe(302)
	const context = await browser.newContext({ baseURL })
	const page = await context.newPage()
	await signIn(page, { email, password })
	await expect(page).toHaveURL(/\/admin/)
	return { id: await userId(admin, email), request: context.request }
}

/** Does one thing as `who` and notes the entry it must leave. */
async function act(who: StaffRole, entry: Expected, answer: Promise<{ status: () => number }>, statuses: number[] = [200, 302]) {
	const response = await answer
	expect(statuses, `${entry.route}: ${entry.action} (${entry.path}) answered ${response.status()}`).toContain(response.status())
	expected.push({ ...entry, actor: who })
}

const get = (who: StaffRole, path: string) => actors[who].request.get(path, { maxRedirects: 0 })
const post = (who: StaffRole, path: string, body: { form?: FormBody; multipart?: MultipartBody }, headers: Record<string, string> = {}) =>
	send(actors[who].request, { path, ...body, status: 0 }, { Origin: baseURL, ...headers })
const pdf = (name: string) => ({ name, mimeType: 'application/pdf', buffer: Buffer.from(minimalPdf()) })
const today = () => new Date(Date.now() + 3 * 3600_000).toISOString().slice(0, 10)

/** Parses the trail's CSV (quoted fields, doubled quotes inside). */
function parseCsv(text: string): string[][] {
	const rows: string[][] = []
	let row: string[] = []
	let field = ''
	let quoted = false
	for (let i = 0; i < text.length; i++) {
		const char = text[i]!
		if (quoted && char === '"' && text[i + 1] === '"') {
			field += '"'
			i++
		} else if (char === '"') {
			quoted = !quoted
		} else if (!quoted && (char === ',' || char === '\n')) {
			row.push(field)
			field = ''
			if (char === '\n') {
				rows.push(row)
				row = []
			}
		} else if (quoted || char !== '\r') {
			field += char
		}
	}
	if (field || row.length) rows.push([...row, field])
	return rows
}

/** The actions an admin route's module declares in `audited(…)`, read from its source. */
function declaredActions(file: string): AuditAction[] {
	const source = fs.readFileSync(new URL(`../../../app/${file}`, import.meta.url), 'utf8')
	const start = source.indexOf('audited(')
	if (start < 0) return []
	let depth = 0
	let end = start + 'audited'.length
	do {
		if (source[end] === '(') depth++
		else if (source[end] === ')') depth--
		end++
	} while (depth > 0 && end < source.length)
	return [...source.slice(start, end).matchAll(/'([a-z-]+\.[a-z-]+)'/g)].map((match) => match[1]!).filter((name): name is AuditAction => Object.hasOwn(auditActions, name))
}

test('every audited action of the back office leaves its entry in the trail, as its export shows', async ({ browser, playwright }, testInfo) => {
	testInfo.setTimeout(300_000)
	baseURL = testInfo.project.use.baseURL!
	admin = await playwright.request.newContext({ baseURL, storageState: staffState('admin'), extraHTTPHeaders: { Origin: baseURL } })
	for (const role of ['case_officer', 'admin', 'content_editor', 'approver', 'finance'] as const) actors[role] = await newActor(browser, role)

	// The case officer: a paper intake, then everything done with a case.
	const officer = actors.case_officer
	const submitted: SubmittedCase = await submitCaseAsStaff(officer.request)
	const second: SubmittedCase = await submitCaseAsStaff(officer.request)
	const third: SubmittedCase = await submitCaseAsStaff(officer.request)
	const institution: RegisteredInstitution = await registerInstitutionAsStaff(officer.request)
	for (const made of [submitted, second, third]) expected.push({ actor: 'case_officer', route: 'routes/apply/new', action: 'case.create', path: '/apply/needy-families/new', reference: made.reference })
	const ref = submitted.reference
	const caseUrl = `/admin/cases/${ref}`
	const [fileId] = await caseFileIds(officer.request, ref)
	expected.push({ actor: 'case_officer', route: 'routes/admin/case', action: 'case.view', path: caseUrl, reference: ref })
	await act('case_officer', { route: 'routes/admin/case-file', action: 'case.file', path: `${caseUrl}/files/${fileId}`, reference: ref }, get('case_officer', `${caseUrl}/files/${fileId}`))
	await act('case_officer', { route: 'routes/admin/case-print', action: 'case.print', path: `${caseUrl}/print`, reference: ref }, get('case_officer', `${caseUrl}/print`))
	await act('case_officer', { route: 'routes/admin/case-edit', action: 'case.view', path: `${caseUrl}/edit/financial`, reference: ref }, get('case_officer', `${caseUrl}/edit/financial`))
	await act(
		'case_officer',
		{ route: 'routes/admin/case-edit', action: 'case.correct', path: `${caseUrl}/edit/financial`, reference: ref },
		post('case_officer', `${caseUrl}/edit/financial`, { form: { Net_Income: '2750' } }),
		[302],
	)
	for (const format of ['csv', 'xlsx'])
		await act('case_officer', { route: 'routes/admin/cases-export', action: 'cases.export', path: `/admin/cases/export/${format}` }, get('case_officer', `/admin/cases/export/${format}?q=${ref}`))
	await act(
		'case_officer',
		{ route: 'admin-associations-export', action: 'cases.export', path: '/admin/associations/export/csv' },
		get('case_officer', `/admin/associations/export/csv?q=${institution.reference}`),
	)
	const caseAction = (action: AuditAction, form: FormBody) => act('case_officer', { route: 'routes/admin/case', action, path: caseUrl, reference: ref }, post('case_officer', caseUrl, { form }), [302])
	await caseAction('case.assign', { intent: 'assign', officer: officer.id })
	await caseAction('case.note', { intent: 'note', note: `ملاحظة ${marker}` })
	await caseAction('case.message', { intent: 'message', message: 'نرجو إرسال صورة من عقد الإيجار' })
	// Its SMS failed (this server has no SMS provider): sent again from the case page.
	const failedMessage = /name="messageId" value="([0-9a-f-]{36})"/.exec(await (await get('case_officer', caseUrl)).text())?.[1]
	expect(failedMessage, 'a failed message offers «إعادة الإرسال»').toBeTruthy()
	await caseAction('case.resend', { intent: 'resend', messageId: failedMessage! })
	// A home visit planned, then cancelled: each told to the applicant and recorded.
	const tomorrow = new Date(Date.now() + 27 * 3600_000).toISOString().slice(0, 10)
	await caseAction('case.visit', { intent: 'visit', visitOn: tomorrow, visitAt: '10:00', visitor: officer.id })
	const visitId = /name="visitId" value="(\d+)"/.exec(await (await get('case_officer', caseUrl)).text())?.[1]
	await caseAction('case.visit', { intent: 'cancel-visit', visitId: visitId ?? '' })
	// «تمت الدراسة» follows the study, recorded on its own page.
	await act('case_officer', { route: 'routes/admin/case-study', action: 'case.view', path: `${caseUrl}/study`, reference: ref }, get('case_officer', `${caseUrl}/study`))
	await act('case_officer', { route: 'routes/admin/case-study', action: 'case.study', path: `${caseUrl}/study`, reference: ref }, post('case_officer', `${caseUrl}/study`, { form: studyForm() }), [302])
	// The visit's photos: one added from the phone, then removed.
	const visitPhotosUrl = `${caseUrl}/study/photos`
	const visitPhoto = { name: 'house.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(await jpeg()) }
	await act('case_officer', { route: 'routes/admin/case-study-photos', action: 'case.visit-photo', path: visitPhotosUrl, reference: ref }, post('case_officer', visitPhotosUrl, { multipart: { photos: visitPhoto } }), [302])
	const visitPhotoId = /name="file" value="([0-9a-f-]{36})"/.exec(await (await get('case_officer', `${caseUrl}/study`)).text())?.[1]
	expect(visitPhotoId, 'the photo is listed on the study page').toBeTruthy()
	await act('case_officer', { route: 'routes/admin/case-study-photos', action: 'case.visit-photo-remove', path: visitPhotosUrl, reference: ref }, post('case_officer', visitPhotosUrl, { form: { intent: 'remove', file: visitPhotoId! } }), [302])
	await caseAction('case.status', { intent: 'status', to: '2', note: 'تمت دراسة الطلب' })
	// No money by the officer's hand: aid is proposed to the committee (docs/product.md#proposals-and-the-committees-four-eyes).
	await caseAction('case.propose', { intent: 'propose', amount: '1500', aidKind: 'cash', note: 'إيجار متأخر' })
	for (const [list, reference, route] of [
		['/admin/cases', second.reference, 'routes/admin/cases'],
		['/admin/associations', institution.reference, 'admin-associations'],
	] as const) {
		await act('case_officer', { route, action: 'cases.bulk-assign', path: list }, post('case_officer', list, { form: { intent: 'bulk-assign', ref: [reference], officer: officer.id } }), [302])
		// A family's case is studied before «تمت الدراسة»; an institution's registration is reviewed without one.
		if (route === 'routes/admin/cases') expect((await post('case_officer', `/admin/cases/${reference}/study`, { form: studyForm() })).status()).toBe(302)
		await act(
			'case_officer',
			{ route, action: 'cases.bulk-status', path: list },
			post('case_officer', list, { form: { intent: 'bulk-status', ref: [reference], status: '2', note: 'دُرست مع غيرها' } }),
			[302],
		)
	}

	// The committee, on a fund and a budget the admin sets: a studied case approved from the queue,
	// another (a food basket) on its page.
	await act('admin', { route: 'routes/admin/funds', action: 'funds.change', path: '/admin/funds' }, post('admin', '/admin/funds', { form: { intent: 'add-fund', name: `صندوق التدقيق ${marker}` } }), [302])
	await act(
		'admin',
		{ route: 'routes/admin/funds', action: 'budget.change', path: '/admin/funds' },
		post('admin', '/admin/funds', { form: { intent: 'budget', programme: 'needy-families', year: today().slice(0, 4), fund: 'all', allocated: '999999999' } }),
		[302],
	)
	// Money in: finance records a receipt into that fund (docs/product.md#money-in), and the admin keeps the overdraft setting.
	const audited = new RegExp(`<option value="(\\d+)">صندوق التدقيق ${marker}</option>`).exec(await (await get('finance', '/admin/funds/receipts')).text())?.[1] ?? ''
	await act(
		'finance',
		{ route: 'routes/admin/fund-receipts', action: 'receipts.record', path: '/admin/funds/receipts' },
		post('finance', '/admin/funds/receipts', { form: { intent: 'receipt', fund: audited, amount: '5000', receivedOn: today(), source: 'cash', donor: `متبرع ${marker}` } }),
		[302],
	)
	const receiptsPage = await (await get('finance', '/admin/funds/receipts')).text()
	const receipt = new RegExp(`id="receipt-(\\d+)"(?:(?!id="receipt-\\d)[\\s\\S])*?متبرع ${marker}`).exec(receiptsPage)?.[1] ?? ''
	const general = /<option value="(\d+)">صندوق الصدقات/.exec(receiptsPage)?.[1] ?? ''
	expect([receipt, general].every(Boolean), 'the receipt and the general fund are on the page').toBe(true)
	// Another member of the payments area (the admin) confirms it; the recorder moves some of it and cancels that; then a statement.
	await act('admin', { route: 'routes/admin/fund-receipts', action: 'receipts.confirm', path: '/admin/funds/receipts' }, post('admin', '/admin/funds/receipts', { form: { intent: 'confirm', id: receipt } }), [302])
	await act(
		'finance',
		{ route: 'routes/admin/fund-receipts', action: 'receipts.transfer', path: '/admin/funds/receipts' },
		post('finance', '/admin/funds/receipts', { form: { intent: 'transfer', from: audited, to: general, amount: '100', movedOn: today(), note: `مناقلة ${marker}` } }),
		[302],
	)
	const moved = new RegExp(`id="receipt-(\\d+)"(?:(?!id="receipt-\\d)[\\s\\S])*?مناقلة ${marker}`).exec(await (await get('finance', '/admin/funds/receipts')).text())?.[1] ?? ''
	await act('finance', { route: 'routes/admin/fund-receipts', action: 'receipts.cancel', path: '/admin/funds/receipts' }, post('finance', '/admin/funds/receipts', { form: { intent: 'cancel', id: moved, reason: 'سُجّلت خطأً' } }), [302])
	await act(
		'finance',
		{ route: 'routes/admin/fund-receipts', action: 'receipts.import', path: '/admin/funds/receipts' },
		post('finance', '/admin/funds/receipts', { multipart: { intent: 'import', file: { name: 'statement.csv', mimeType: 'text/csv', buffer: Buffer.from(`value_date,credit,account,reference\n${today()},50,SA4420000001234567891234,AUD${marker}`) } } }),
		[200],
	)
	await act('admin', { route: 'routes/admin/funds', action: 'funds.overdraft', path: '/admin/funds' }, post('admin', '/admin/funds', { form: { intent: 'overdraft', allow: 'yes' } }), [302])
	// The committee meets (docs/product.md#committee-meetings), in turn with tests/e2e/committee.spec.ts
	// (one meeting open at a time): the admin keeps the quorum, an approver opens a meeting, marks a
	// member present and closes it, and its minutes download.
	const release = await meetingTurn()
	try {
		await act('admin', { route: 'routes/admin/meetings', action: 'quorum.change', path: '/admin/meetings' }, post('admin', '/admin/meetings', { form: { intent: 'quorum', programme: 'default', quorum: '2' } }), [302])
		const opening = post('approver', '/admin/meetings', { form: { intent: 'open-meeting', heldOn: today(), place: `قاعة ${marker}` } })
		await act('approver', { route: 'routes/admin/meetings', action: 'meetings.open', path: '/admin/meetings' }, opening, [302])
		const meeting = new URL((await opening).headers()['location'] ?? '', baseURL).pathname
		expect(meeting, 'the meeting opened').toMatch(/^\/admin\/meetings\/\d+$/)
		const member = /<option value="(\d+)"/.exec(await (await get('approver', meeting)).text())?.[1] ?? ''
		await act('approver', { route: 'routes/admin/meeting', action: 'meetings.present', path: meeting }, post('approver', meeting, { form: { intent: 'mark-present', member } }), [302])
		await act('approver', { route: 'routes/admin/meeting', action: 'meetings.close', path: meeting }, post('approver', meeting, { form: { intent: 'close-meeting' } }), [302])
		await act('approver', { route: 'routes/admin/meeting-minutes', action: 'meetings.minutes', path: `${meeting}/minutes` }, get('approver', `${meeting}/minutes`))
	} finally {
		release()
	}
	const queue = await (await get('approver', '/admin/decisions')).text()
	const fund = new RegExp(`<option value="(\\d+)">صندوق التدقيق ${marker}</option>`).exec(queue)?.[1] ?? ''
	expect(fund, 'the new fund is offered in the queue').not.toBe('')
	// An approval limit on that fund, high enough that this test's approvals need one member.
	await act('admin', { route: 'routes/admin/approval-limits', action: 'limits.change', path: '/admin/funds/limits' }, post('admin', '/admin/funds/limits', { form: { intent: 'limit', programme: 'all', fund, above: '999999' } }), [302])
	await act(
		'approver',
		{ route: 'routes/admin/decisions', action: 'cases.decide', path: '/admin/decisions' },
		post('approver', '/admin/decisions', { form: { case: second.reference, [`kind-${second.reference}`]: 'cash', [`amount-${second.reference}`]: '1000', [`months-${second.reference}`]: '2', [`fund-${second.reference}`]: fund } }),
	)
	const thirdUrl = `/admin/cases/${third.reference}`
	expect((await post('case_officer', `${thirdUrl}/study`, { form: studyForm() })).status()).toBe(302)
	expect((await post('case_officer', thirdUrl, { form: { intent: 'status', to: '2', note: 'دُرست' } })).status()).toBe(302)
	await act(
		'approver',
		{ route: 'routes/admin/case', action: 'case.decide', path: thirdUrl, reference: third.reference },
		post('approver', thirdUrl, { form: { intent: 'decide', outcome: 'approve', aidKind: 'food_basket', amount: '300', months: '', fund, note: '' } }),
		[302],
	)

	// Finance pays the first in a batch (its file, sent, a confirmation that matches nothing, a
	// reference typed, then bounced) and records the second, aid in kind, as delivered.
	const due = (await (await get('finance', '/admin/payments')).text()).split('<li')
	const lineOf = (reference: string) => /name="line"[^>]*value="(\d+)"|value="(\d+)"[^>]*name="line"/.exec(due.find((item) => item.includes(reference)) ?? '')?.slice(1).find(Boolean) ?? ''
	const deliveryOf = (reference: string) => /name="instalment" value="(\d+)"/.exec(due.find((item) => item.includes(reference)) ?? '')?.[1] ?? ''
	const line = lineOf(second.reference)
	expect(line, 'the approved transfer is due').not.toBe('')
	const made = await post('finance', '/admin/payments', { form: { intent: 'batch', line, note: '' } })
	await act('finance', { route: 'routes/admin/payments', action: 'payments.batch', path: '/admin/payments' }, Promise.resolve(made), [302])
	const batchUrl = made.headers()['location']!.split('?')[0]!
	await act('finance', { route: 'routes/admin/payment-file', action: 'payments.file', path: `${batchUrl}/file/common/csv` }, get('finance', `${batchUrl}/file/common/csv`))
	await act('finance', { route: 'routes/admin/payment-batch', action: 'payments.sent', path: batchUrl }, post('finance', batchUrl, { form: { intent: 'sent', sentOn: today() } }), [302])
	// Finance closes a month long over (docs/product.md#periods): a payment dated in it is refused with
	// the month named (409), and the refusal is in the trail; its report is unchanged; an admin reopens it with a reason.
	const closedMonth = '2021-03'
	const periodsUrl = '/admin/periods?year=2021'
	const reportTable = async () => /<table[\s\S]*<\/table>/.exec(await (await get('finance', '/admin/reports?year=2021&by=month')).text())?.[0]
	await act('finance', { route: 'routes/admin/periods', action: 'periods.close', path: '/admin/periods' }, post('finance', periodsUrl, { form: { intent: 'close', month: closedMonth } }), [302])
	const reportBefore = await reportTable()
	const refusedPayment = await post('finance', batchUrl, { form: { intent: 'record', instalment: line, bankReference: `FT${marker}`.slice(0, 30), paidOn: `${closedMonth}-15` } })
	expect(refusedPayment.status()).toBe(409)
	expect(await refusedPayment.text()).toContain('مقفل: لا تُسجَّل فيه حركة مالية. سجّلها بتاريخ في شهر مفتوح، أو اطلب من مدير النظام إعادة فتحه.')
	expect(await reportTable()).toBe(reportBefore)
	expect((await post('finance', periodsUrl, { form: { intent: 'reopen', month: closedMonth, reason: 'ليس للمسؤول المالي' } })).status()).toBe(403)
	await act('admin', { route: 'routes/admin/periods', action: 'periods.reopen', path: '/admin/periods' }, post('admin', periodsUrl, { form: { intent: 'reopen', month: closedMonth, reason: 'اختبار سجل التدقيق' } }), [302])
	// What the bank received, kept as sent: downloaded again after the line is paid, returned and paid in another batch, the same bytes.
	const asSent = await (await get('finance', `${batchUrl}/file/anb/xlsx`)).body()
	// The transfer's own line with its 1,000 written «0x3E8»: not read as 1,000 (JavaScript's Number()
	// would), its line named; the transfer is still to record.
	const confirmation = await post('finance', batchUrl, {
		multipart: { intent: 'reconcile', file: { name: 'bank.csv', mimeType: 'text/csv', buffer: Buffer.from(`payment_reference,amount,bank_reference,paid_on\nATAA-999999,1,X-1,${today()}\nATAA-${line},0x3E8,X-2,${today()}`) } },
	})
	await act('finance', { route: 'routes/admin/payment-batch', action: 'payments.reconcile', path: batchUrl }, Promise.resolve(confirmation))
	const reconciled = await confirmation.text()
	expect(reconciled).toContain('لم يُسجَّل صرف أي تحويل.')
	expect(reconciled).toMatch(/السطر (?:<!-- -->)?3(?:<!-- -->)? \(<bdi dir="ltr">ATAA-\d+<\/bdi>\): (?:<!-- -->)?المبلغ «0x3E8» ليس رقماً عشرياً/)
	await act('finance', { route: 'routes/admin/payment-batch', action: 'payments.record', path: batchUrl }, post('finance', batchUrl, { form: { intent: 'record', instalment: line, bankReference: `FT${marker}`.slice(0, 30), paidOn: today() } }), [302])
	// Its disbursement voucher, now that it is paid: names and IBANs leave the system, so it is in the trail.
	await act('finance', { route: 'routes/admin/payment-vouchers', action: 'payments.voucher', path: `${batchUrl}/vouchers/${line}` }, get('finance', `${batchUrl}/vouchers/${line}`))
	await act('finance', { route: 'routes/admin/payment-batch', action: 'payments.reopen', path: batchUrl }, post('finance', batchUrl, { form: { intent: 'reopen', instalment: line, reason: 'أعاده البنك' } }), [302])
	// Bounced, the second's family gives another IBAN on its link (here typed for it by the case
	// officer), and finance confirms it.
	const newIban = saudiIbanFromBban(`80${'0'.repeat(12)}${String(Date.now()).slice(-6)}`)
	expect((await post('case_officer', `/apply/r/${second.token}`, { form: { iban: newIban } })).status()).toBe(302)
	const held = (await (await get('finance', '/admin/payments')).text()).split('<li').find((item) => item.includes(second.reference) && item.includes('name="case"')) ?? ''
	const heldCase = /name="case" value="([0-9a-f-]{36})"/.exec(held)?.[1] ?? ''
	expect(heldCase, 'the new IBAN waits for finance').not.toBe('')
	await act('finance', { route: 'routes/admin/payments', action: 'payments.iban-confirm', path: '/admin/payments' }, post('finance', '/admin/payments', { form: { intent: 'confirm-iban', case: heldCase } }), [302])
	// Returned, it stays in its batch; due again, it goes into a new one, paid this time from the bank's
	// confirmation file with the day as Excel writes it: the trail names the payment the file recorded (issue 38, finding 8).
	const resent = await post('finance', '/admin/payments', { form: { intent: 'batch', line, note: '' } })
	await act('finance', { route: 'routes/admin/payments', action: 'payments.batch', path: '/admin/payments' }, Promise.resolve(resent), [302])
	const resentUrl = resent.headers()['location']!.split('?')[0]!
	await act('finance', { route: 'routes/admin/payment-batch', action: 'payments.sent', path: resentUrl }, post('finance', resentUrl, { form: { intent: 'sent', sentOn: today() } }), [302])
	const [year, month, day] = today().split('-')
	const paidFromFile = await post('finance', resentUrl, {
		multipart: { intent: 'reconcile', file: { name: 'bank.csv', mimeType: 'text/csv', buffer: Buffer.from(`payment_reference,amount,bank_reference,paid_on\nATAA-${line},1000.00,BNK-${marker},${day}/${month}/${year} 10:30\n`) } },
	})
	await act('finance', { route: 'routes/admin/payment-batch', action: 'payments.reconcile', path: resentUrl }, Promise.resolve(paidFromFile))
	expect(await paidFromFile.text()).toContain('سُجّل صرف تحويل واحد.')
	expect((await (await get('finance', batchUrl)).text()).replace(/<!-- -->/g, '')).toContain('السبب: أعاده البنك')
	expect((await (await get('finance', `${batchUrl}/file/anb/xlsx`)).body()).equals(asSent)).toBe(true)
	// An approver who also keeps the accounts tries to batch their own approval: refused (403), and audited.
	const dual = await newDualActor(browser)
	const own = await studiedCaseAs(officer.request)
	expect((await send(dual.request, { path: '/admin/decisions', form: { case: own.reference, [`kind-${own.reference}`]: 'cash', [`amount-${own.reference}`]: '700', [`months-${own.reference}`]: '', [`fund-${own.reference}`]: fund }, status: 0 }, { Origin: baseURL })).status()).toBe(200)
	const ownLine = /value="(\d+)"/.exec((await (await dual.request.get('/admin/payments')).text()).split('<li').find((item) => item.includes(own.reference)) ?? '')?.[1] ?? ''
	expect(ownLine, 'their approval is due').not.toBe('')
	const refusedBatch = await send(dual.request, { path: '/admin/payments', form: { intent: 'batch', line: ownLine, note: '' }, status: 0 }, { Origin: baseURL })
	expect(refusedBatch.status()).toBe(403)
	await act('finance', { route: 'routes/admin/reports-export', action: 'reports.export', path: '/admin/reports/export' }, get('finance', `/admin/reports/export?year=${today().slice(0, 4)}&by=fund`))
	// The zakat register names beneficiaries: reading it and downloading it are both recorded.
	await act('finance', { route: 'routes/admin/zakat', action: 'zakat.view', path: '/admin/zakat' }, get('finance', '/admin/zakat?period=hijri-1448'))
	await act('approver', { route: 'routes/admin/zakat-export', action: 'zakat.export', path: '/admin/zakat/export' }, get('approver', '/admin/zakat/export?period=gregorian-2026'))
	// The second's monthly aid over time (app/routes/admin/case-aid.tsx): held, asked back, declined,
	// asked again and confirmed by another, stopped; the committee sets its re-study.
	const aidUrl = `/admin/cases/${second.reference}/aid`
	await act('finance', { route: 'routes/admin/case-aid', action: 'case.view', path: aidUrl, reference: second.reference }, get('finance', aidUrl))
	const decision = /name="decision" value="(\d+)"/.exec(await (await get('finance', aidUrl)).text())?.[1] ?? ''
	expect(decision, 'the approved aid is on its schedule').not.toBe('')
	const aidChange = (who: StaffRole, action: AuditAction, form: FormBody) => act(who, { route: 'routes/admin/case-aid', action, path: aidUrl, reference: second.reference }, post(who, aidUrl, { form: { decision, ...form } }), [302])
	await aidChange('finance', 'aid.suspend', { intent: 'suspend', reasonId: 'other', reason: 'مراجعة وضع الأسرة' })
	await aidChange('finance', 'aid.resume', { intent: 'resume', reason: 'انتهت المراجعة' })
	await aidChange('approver', 'aid.decline', { intent: 'decline' })
	await aidChange('finance', 'aid.resume', { intent: 'resume', reason: 'انتهت المراجعة' })
	await aidChange('approver', 'aid.confirm', { intent: 'confirm' })
	await aidChange('approver', 'aid.restudy', { intent: 'restudy', restudyOn: today() })
	await aidChange('finance', 'aid.stop', { intent: 'stop', reasonId: 'other', reason: 'انتقال الأسرة' })
	const delivery = deliveryOf(third.reference)
	expect(delivery, 'the approved food basket is due').not.toBe('')
	await act(
		'finance',
		{ route: 'routes/admin/payments', action: 'payments.deliver', path: '/admin/payments' },
		// With the signed receipt photographed: the one form of the screen sent as multipart.
		post('finance', '/admin/payments', { multipart: { intent: 'deliver', instalment: delivery, deliveredOn: today(), deliveredBy: 'المتطوع سالم', receipt: 'R-1', receiptFile: { name: 'receipt.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(await jpeg()) } } }),
		[302],
	)

	// The admin: a case deleted and restored, users, the foundation's settings, personal data looked up and exported.
	await act('admin', { route: 'routes/admin/reasons', action: 'reasons.change', path: '/admin/reasons' }, post('admin', '/admin/reasons', { form: { intent: 'add', kind: 'study-reject', label: `سبب للتدقيق ${marker}` } }), [302])
	const secondUrl = `/admin/cases/${second.reference}`
	await act(
		'admin',
		{ route: 'routes/admin/case', action: 'case.delete', path: secondUrl, reference: second.reference },
		post('admin', secondUrl, { form: { intent: 'delete', reason: 'طلب مكرر', confirm: 'on' } }),
		[302],
	)
	await act('admin', { route: 'routes/admin/case', action: 'case.restore', path: secondUrl, reference: second.reference }, post('admin', secondUrl, { form: { intent: 'restore' } }), [302])
	const person = `audit-person-${marker}@e2e.test`
	const password = `Lantern-Orbit-${marker}`
	await act(
		'admin',
		{ route: 'admin-user-new', action: 'user.create', path: '/admin/users/new' },
		post('admin', '/admin/users/new', { form: { name: 'موظف للتدقيق', email: person, mobile: '0551000007', roles: 'case_officer', active: 'on', password, confirmPassword: password } }),
		[302],
	)
	const personId = await userId(admin, person)
	const personUrl = `/admin/users/${personId}/edit`
	await act(
		'admin',
		{ route: 'admin-user-edit', action: 'user.update', path: personUrl },
		post('admin', personUrl, { form: { name: 'موظف للتدقيق (معدل)', email: person, mobile: '0551000007', roles: 'case_officer', active: 'on', password: '', confirmPassword: '' } }),
		[302],
	)
	const users = (action: AuditAction, form: FormBody) => act('admin', { route: 'routes/admin/users', action, path: '/admin/users' }, post('admin', '/admin/users', { form }), [302])
	await users('user.deactivate', { intent: 'toggle-active', userId: personId })
	await users('user.activate', { intent: 'toggle-active', userId: personId })
	await users('auth.two-step-reset', { intent: 'reset-two-step', userId: personId })
	const usersPage = await (await get('admin', '/admin/users')).text()
	const required = [...usersPage.matchAll(/<input[^>]*name="role"[^>]*>/g)].filter((input) => /\bchecked=""/.test(input[0])).map((input) => /value="([^"]+)"/.exec(input[0])![1]!)
	expect(required, 'the roles that need the second step now').toContain('admin')
	await users('auth.two-step-roles', { intent: 'two-step-roles', role: required })
	await users('user.delete', { intent: 'delete', userId: personId })
	await act(
		'admin',
		{ route: 'routes/admin/subject-access', action: 'subject-access.lookup', path: '/admin/subject-access' },
		post('admin', '/admin/subject-access', { form: { nationalId: submitted.nationalId } }),
	)
	await act(
		'admin',
		{ route: 'routes/admin/subject-access-export', action: 'subject-access.export', path: '/admin/subject-access/export' },
		post('admin', '/admin/subject-access/export', { form: { nationalId: submitted.nationalId } }),
	)
	await act('admin', { route: 'routes/admin/audit-export', action: 'audit.export', path: '/admin/audit/export' }, get('admin', `/admin/audit/export?user=${officer.id}`))
	const message = await inquiry(admin, admin, { subject: `رسالة لاختبار سجل التدقيق ${marker}` })
	await act('admin', { route: 'routes/admin/inquiry', action: 'inquiry.view', path: `/admin/inquiries/${message}` }, get('admin', `/admin/inquiries/${message}`))
	await act(
		'admin',
		{ route: 'routes/admin/inquiry', action: 'inquiry.change', path: `/admin/inquiries/${message}` },
		post('admin', `/admin/inquiries/${message}`, { form: { handled: 'true' } }),
		[302],
	)
	// Intake and the foundation's details are saved as they are, from their own pages.
	await saveOnPage('admin', { route: 'routes/admin/intake', action: 'intake.change', path: '/admin/intake' })
	await saveOnPage('admin', { route: 'routes/admin/foundation', action: 'foundation.change', path: '/admin/foundation' })
	// The reminders' days as they are, and a message's wording back to its default: nothing another test reads changes.
	await act(
		'admin',
		{ route: 'routes/admin/intake', action: 'reminders.change', path: '/admin/intake' },
		post('admin', '/admin/intake', { form: { intent: 'reminders', incompleteFirstDays: '3', incompleteSecondDays: '7', draftDays: '2' } }),
		[302],
	)
	// The SMS budgets as the server's defaults (README: SMS_BUDGET_*), so nothing another test reads changes.
	await act(
		'admin',
		{ route: 'routes/admin/intake', action: 'sms-budget.change', path: '/admin/intake' },
		post('admin', '/admin/intake', { form: { intent: 'sms-budget', perHour: '600', perDay: '5000', perAddressHour: '30' } }),
		[302],
	)
	await act('admin', { route: 'routes/admin/messages', action: 'messages.template', path: '/admin/messages' }, post('admin', '/admin/messages', { form: { intent: 'reset', event: 'reminder:draft' } }), [200, 302])
	const privacy = await (await get('admin', '/admin/privacy')).text()
	const body = /<textarea[^>]*name="body"[^>]*>([^<]*)<\/textarea>/.exec(privacy)?.[1] ?? inputValue(privacy, 'body')
	await act(
		'admin',
		{ route: 'routes/admin/privacy', action: 'privacy.publish', path: '/admin/privacy' },
		post('admin', '/admin/privacy', { form: { body: body ? decodeEntities(body) : `<p>إشعار الخصوصية ${marker}</p>` } }),
		[302],
	)

	// The content editor: a committee added, edited and deleted; an album with a photo; the libraries' uploads.
	await act(
		'content_editor',
		{ route: 'admin-content-new', action: 'content.create', path: '/admin/content/committees/new' },
		post('content_editor', '/admin/content/committees/new', { form: { name: `لجنة التدقيق ${marker}`, members: 'عضو', duties: '<p>مهام</p>', order: '998' } }),
		[302],
	)
	const committees = await (await get('content_editor', `/admin/content/committees?q=${marker}`)).text()
	const committee = new RegExp(`/admin/content/committees/([0-9a-f-]{36})/edit`).exec(committees)?.[1]
	expect(committee, 'the committee just added').toBeTruthy()
	await act(
		'content_editor',
		{ route: 'admin-content-edit', action: 'content.update', path: `/admin/content/committees/${committee}/edit` },
		post('content_editor', `/admin/content/committees/${committee}/edit`, { form: { name: `لجنة التدقيق المعدلة ${marker}`, members: 'عضو', duties: '<p>مهام</p>', order: '998' } }),
		[302],
	)
	await act(
		'content_editor',
		{ route: 'routes/admin/content-delete', action: 'content.delete', path: `/admin/content/committees/${committee}/delete` },
		post('content_editor', `/admin/content/committees/${committee}/delete`, { form: {} }),
		[302],
	)
	await saveOnPage('content_editor', { route: 'admin-content-singleton', action: 'content.update', path: '/admin/content/chairman-speech/edit' })
	await act(
		'content_editor',
		{ route: 'admin-content-new', action: 'content.create', path: '/admin/content/albums/new' },
		post('content_editor', '/admin/content/albums/new', { form: { title: `ألبوم التدقيق ${marker}`, slug: `audit-${marker}`, description: '', date: today() } }),
		[302],
	)
	const albums = await (await get('content_editor', `/admin/content/albums?q=${marker}`)).text()
	const album = /\/admin\/content\/albums\/([0-9a-f-]{36})\/photos/.exec(albums)?.[1]
	expect(album, 'the album just added').toBeTruthy()
	const photosUrl = `/admin/content/albums/${album}/photos`
	const photo = { name: 'photo.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(await jpeg()) }
	await act(
		'content_editor',
		{ route: 'routes/admin/album-photos', action: 'content.upload', path: photosUrl },
		post('content_editor', photosUrl, { multipart: { photos: photo } }, { Accept: 'application/json' }),
	)
	const photoId = /name="photo" value="([0-9a-f-]{36})"/.exec(await (await get('content_editor', photosUrl)).text())?.[1]
	expect(photoId, 'the photo just uploaded').toBeTruthy()
	await act(
		'content_editor',
		{ route: 'routes/admin/album-photos', action: 'content.update', path: photosUrl },
		post('content_editor', photosUrl, { form: { intent: 'caption', photo: photoId!, caption: 'صورة للتدقيق' } }),
		[302],
	)
	await act(
		'content_editor',
		{ route: 'routes/admin/album-photos', action: 'content.update', path: photosUrl },
		post('content_editor', photosUrl, { form: { intent: 'cover', photo: photoId! } }),
		[302],
	)
	await act(
		'content_editor',
		{ route: 'routes/admin/album-photos', action: 'content.delete', path: photosUrl },
		post('content_editor', photosUrl, { form: { intent: 'delete', photo: photoId! } }),
		[302],
	)
	await act(
		'content_editor',
		{ route: 'routes/admin/content-list', action: 'content.upload', path: '/admin/content/documents' },
		post('content_editor', '/admin/content/documents', { multipart: { category: 'policies', files: pdf(`سياسة ${marker}.pdf`) } }),
		[302],
	)
	await act(
		'content_editor',
		{ route: 'routes/admin/content-upload', action: 'content.upload', path: '/admin/content/documents/upload' },
		post('content_editor', '/admin/content/documents/upload', { multipart: { category: 'policies', files: pdf(`لائحة ${marker}.pdf`) } }, { Accept: 'application/json' }),
	)
	await act(
		'content_editor',
		{ route: 'routes/admin/video-upload', action: 'content.upload', path: '/admin/content/videos/video-upload' },
		post(
			'content_editor',
			'/admin/content/videos/video-upload',
			{ multipart: { video: { name: 'clip.mp4', mimeType: 'video/mp4', buffer: Buffer.from(minimalMp4()) } } },
			{ Accept: 'application/json' },
		),
	)

	// Every action a route's module declares was done above, through a route of that module (one
	// module can serve several routes: adding and editing a user); and every route that records
	// anything was used.
	const fileOf = new Map(adminRoutes.map((route) => [route.id, route.file]))
	const done = new Set(expected.map((entry) => `${fileOf.get(entry.route) ?? entry.route} ${entry.action}`))
	const declared = [...new Set(adminRoutes.flatMap((route) => declaredActions(route.file).map((action) => `${route.file} ${action}`)))]
	expect(declared.length, 'the routes declare their actions').toBeGreaterThan(30)
	expect(
		declared.filter((pair) => !done.has(pair)),
		'declared by a route, never done by this test',
	).toEqual([])
	const used = new Set(expected.map((entry) => entry.route))
	expect(
		adminRoutes.filter((route) => declaredActions(route.file).length > 0 && !used.has(route.id)).map((route) => route.id),
		'routes that record something, never used by this test',
	).toEqual([])

	// And the trail holds each of them, as its own export lists it.
	// The committee's and finance's too: money actions included (issue 38, finding 8).
	for (const role of ['case_officer', 'admin', 'content_editor', 'approver', 'finance'] as const) {
		const response = await admin.get(`/admin/audit/export?user=${actors[role].id}`)
		expect(response.status()).toBe(200)
		const [header, ...rows] = parseCsv((await response.text()).replace(/^\uFEFF/, ''))
		expect(header).toEqual(['الرقم', 'الوقت (الرياض، UTC+3)', 'المستخدم', 'الإجراء', 'رقم الطلب', 'الصفحة', 'عنوان IP', 'التفاصيل'])
		const entries = rows.map((row) => ({ action: row[3], reference: row[4], path: row[5] }))
		const missing = expected
			.filter((entry) => entry.actor === role)
			.filter((entry) => !entries.some((row) => row.action === auditActions[entry.action] && row.path === entry.path && (!entry.reference || row.reference === entry.reference)))
			.map((entry) => `${entry.action} ${entry.path}`)
		expect(missing, `${role}: entries missing from the trail`).toEqual([])
	}

	// The payment refused in the closed month, with why and the month.
	const financeRows = parseCsv((await (await admin.get(`/admin/audit/export?user=${actors.finance.id}`)).text()).replace(/^\uFEFF/, '')).slice(1)
	expect(financeRows.find((row) => row[3] === auditActions['payments.record'] && row[7]?.includes('رُفض: الحركة مؤرخة في شهر مقفل'))?.[7]).toContain('2021-03')

	// Every detail in Arabic (issue 37, §2.14): no entry of anyone shows a key as the code wrote it
	// («outcome: approve»), and the committee's decision reads as words.
	for (const role of Object.keys(actors) as StaffRole[]) {
		const rows = parseCsv((await (await admin.get(`/admin/audit/export?user=${actors[role].id}`)).text()).replace(/^\uFEFF/, '')).slice(1)
		const coded = rows.map((row) => row[7] ?? '').filter((details) => /(^|، )[A-Za-z][\w-]*: /.test(details))
		expect(coded, `${role}: details with a key not in words`).toEqual([])
		if (role === 'approver') expect(rows.find((row) => row[4] === third.reference && row[3] === auditActions['case.decide'])?.[7]).toContain('القرار: اعتماد الدعم')
	}

	// Money actions in the trail (issue 38, finding 8): the payment the confirmation file recorded, by
	// its reference; and the approver's refused batch of their own approval, with why.
	expect(financeRows.find((row) => row[3] === auditActions['payments.reconcile'] && row[5] === resentUrl)?.[7]).toContain(`مراجع التحويلات: ATAA-${line}`)
	const dualRows = parseCsv((await (await admin.get(`/admin/audit/export?user=${dual.id}`)).text()).replace(/^\uFEFF/, '')).slice(1)
	const refusal = dualRows.find((row) => row[3] === auditActions['access.denied'] && row[5] === '/admin/payments')?.[7] ?? ''
	expect(refusal).toContain('رُفض: من أوصى بالدعم أو أعدّ الدفعة لا يعتمدها (فصل المهام)')
	expect(refusal).toContain(`ATAA-${ownLine}`)

	// The admin's screen shows the case officer's reads.
	const screen = await (await admin.get(`/admin/audit?user=${officer.id}`)).text()
	for (const action of ['case.view', 'case.file', 'case.print', 'cases.export'] as const) expect(screen, `/admin/audit shows «${auditActions[action]}»`).toContain(auditActions[action])
})

/** Opens a form page as its user, as a person would, and saves it unchanged (its first «حفظ» button). */
async function saveOnPage(who: StaffRole, entry: Expected) {
	const page = actors[who].page
	await page.goto(entry.path)
	const posted = page.waitForResponse((answer) => answer.request().method() === 'POST' && new URL(answer.url()).pathname.startsWith(entry.path))
	await page.getByRole('button', { name: /حفظ/ }).first().click()
	expect((await posted).status(), `saving ${entry.path}`).toBeLessThan(400)
	await page.waitForLoadState()
	await expect(page).not.toHaveTitle(/^خطأ/)
	expected.push({ ...entry, actor: who })
}

const decodeEntities = (text: string) =>
	text
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&quot;/g, '"')
		.replace(/&#x27;|&#39;/g, "'")
		.replace(/&amp;/g, '&')

test.afterAll(async () => {
	await Promise.all([admin?.dispose(), ...Object.values(actors).map((actor) => actor.page.context().close())])
})
