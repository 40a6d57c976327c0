import type { APIRequestContext, Page } from '@playwright/test'
import { expect, meetingTurn, staffState, test, unique } from './utils.ts'
import { studiedCaseAs } from './case-fixtures.ts'

// No riyal without the committee (docs/product.md#proposals-and-the-committees-four-eyes), through the
// real server: the officer's «تم تقديم الدعم» with 7,500 and «تسجيل دعم إضافي» with 300 used to write
// the aid ledger alone (issue 38, finding 1); now they are proposals in the committee's queue, the
// reports do not move, and only an approval by another member commits the money.
test.use({ storageState: staffState('case_officer') })
// One committee meeting is open at a time on the server: the tests that decide above a limit take
// turns, with each other and with the audit walk (tests/e2e/security/audit.spec.ts).
test.describe.configure({ mode: 'serial' })
let release: (() => void) | undefined
test.beforeEach(async () => {
	release = await meetingTurn()
})
test.afterEach(() => release?.())

/** The staff auth.setup.ts signs in (and the server's first admin): the committee's two members. */
const members = { approver: 'سعد العتيبي', admin: 'مدير النظام' }

/** The quorum an admin keeps on the meetings' page: two members present. */
async function quorumOfTwo(admin: APIRequestContext) {
	expect((await admin.post('/admin/meetings', { form: { intent: 'quorum', programme: 'default', quorum: '2' }, maxRedirects: 0 })).status()).toBe(302)
}

/** On the case's page, a first approval of 9,000 from the fund, above its limit: it waits for a second member. */
async function firstApproval(approver: Page, caseUrl: string, fundName: string) {
	await approver.goto(caseUrl)
	const decision = approver.getByRole('region', { name: 'قرار لجنة الصرف' })
	await decision.locator('summary', { hasText: 'اعتماد الدعم' }).click()
	await decision.getByLabel('المبلغ بالريال (للقسط الواحد)').fill('9000')
	await decision.getByLabel('الصندوق').selectOption({ label: fundName })
	await decision.getByRole('button', { name: 'اعتماد الدعم' }).click()
	await expect(approver.getByRole('status')).toContainText('سُجّل اعتمادك الأول، والطلب بانتظار اعتماد ثانٍ')
	return decision
}

/** On the open meeting's page (the approver opens one when none is), marks a member present unless they are. */
async function markPresent(meeting: Page, name: string) {
	const present = meeting.getByRole('region', { name: /^الحاضرون/ })
	if (await present.getByRole('listitem').filter({ hasText: name }).count()) return
	await meeting.getByLabel('عضو حاضر').selectOption({ label: name })
	await meeting.getByRole('button', { name: 'تسجيل حاضراً' }).click()
	await expect(meeting.getByRole('status')).toContainText(`سُجّل ${name} حاضراً`)
}

const today = () => new Date(Date.now() + 3 * 3600_000).toISOString().slice(0, 10)

/**
 * The reports' «بلا صندوق» row for this year, its riyals: what was recorded by hand, outside any
 * approval. (Its counts of cases received and studied move with the other tests' cases on this server.)
 */
async function fundless(admin: APIRequestContext): Promise<string> {
	const html = await (await admin.get(`/admin/reports?year=${today().slice(0, 4)}&by=fund`)).text()
	const row = /<tr(?:(?!<\/tr>).)*بلا صندوق(?:(?!<\/tr>).)*<\/tr>/s.exec(html)?.[0]
	return row ? [...row.matchAll(/<td[^>]*>([^<]*ر\.س\.[^<]*)<\/td>/g)].map((cell) => cell[1]).join(' | ') : 'no such row'
}

test('the officer\'s 7,500 and 300 are proposals in the committee\'s queue that give nothing; approved by another member, the money is committed', async ({ page, pageAs }) => {
	test.setTimeout(180_000)
	const marker = unique()
	const officer = page.request
	const family = await studiedCaseAs(officer, { name: `أم فهد ${marker}` })
	const caseUrl = `/admin/cases/${family.reference}`
	const admin = (await pageAs('admin')).request
	expect((await admin.post('/admin/funds', { form: { intent: 'add-fund', name: `صندوق اللجنة ${marker}` }, maxRedirects: 0 })).status()).toBe(302)
	expect((await admin.post('/admin/funds', { form: { intent: 'budget', programme: 'needy-families', year: today().slice(0, 4), fund: 'all', allocated: '999999999' }, maxRedirects: 0 })).status()).toBe(302)
	const reportBefore = await fundless(admin)
	expect(reportBefore.split(' | '), 'the row’s riyals approved and given').toHaveLength(2)

	// The old path is gone: «تم تقديم الدعم» with 7,500 cash is refused and records nothing.
	const old = await officer.post(caseUrl, { form: { intent: 'status', to: '3', from: '2', note: 'صُرف نقداً', amount: '7500', aidKind: 'cash', givenOn: today() }, maxRedirects: 0 })
	expect(old.status()).toBe(409)
	expect((await officer.post(caseUrl, { form: { intent: 'aid', amount: '300', aidKind: 'cash', givenOn: today() }, maxRedirects: 0 })).status()).toBe(400)
	// The officer proposes 7,500 instead.
	expect((await officer.post(caseUrl, { form: { intent: 'propose', amount: '7500', aidKind: 'cash', note: `إيجار متأخر ${marker}` }, maxRedirects: 0 })).status()).toBe(302)
	await page.goto(caseUrl)
	await expect(page.getByRole('region', { name: 'قرار لجنة الصرف' })).toContainText('اقتراح دعم من')
	await expect(page.getByRole('region', { name: 'قرار لجنة الصرف' })).toContainText('7,500')
	await expect(page.getByRole('region', { name: 'الدعم المقدم لهذا المستفيد في كل البرامج' })).toContainText('لم يُسجَّل أي دعم')
	await expect(page.locator('main header')).toContainText('تمت الدراسة')
	expect(await fundless(admin)).toBe(reportBefore)

	// The committee's queue shows the proposal; another member approves it, choosing the fund.
	const approverPage = await pageAs('approver')
	await approverPage.goto('/admin/decisions?programme=needy-families')
	const row = approverPage.getByRole('listitem').filter({ has: approverPage.getByRole('link', { name: family.reference }) })
	await expect(row).toContainText('اقتراح دعم من')
	await expect(row.getByLabel(/^المبلغ بالريال/)).toHaveValue('7500')
	await row.getByRole('checkbox').check()
	await row.getByLabel(/^الصندوق/).selectOption({ label: `صندوق اللجنة ${marker}` })
	await approverPage.getByRole('button', { name: 'اعتماد الطلبات المختارة' }).click()
	await expect(approverPage.getByRole('status')).toContainText('اعتُمد طلب واحد')
	await page.reload()
	await expect(page.locator('main header')).toContainText('معتمد بانتظار الصرف')
	const instalments = page.getByRole('region', { name: 'جدول الأقساط المعتمدة' })
	await expect(instalments).toContainText('7,500')
	await expect(instalments).toContainText(`صندوق اللجنة ${marker}`)

	// Finance pays it: the case is «تم تقديم الدعم», with the 7,500 in the ledger.
	const finance = (await pageAs('finance')).request
	const due = (await (await finance.get('/admin/payments')).text()).split('<li')
	const line = /name="line"[^>]*value="(\d+)"|value="(\d+)"[^>]*name="line"/.exec(due.find((item) => item.includes(family.reference)) ?? '')?.slice(1).find(Boolean) ?? ''
	expect(line, 'the approved 7,500 is due').not.toBe('')
	const made = await finance.post('/admin/payments', { form: { intent: 'batch', line, note: '' }, maxRedirects: 0 })
	const batchUrl = made.headers()['location']!.split('?')[0]!
	expect((await finance.post(batchUrl, { form: { intent: 'sent', sentOn: today() }, maxRedirects: 0 })).status()).toBe(302)
	expect((await finance.post(batchUrl, { form: { intent: 'record', instalment: line, bankReference: `FT${marker}`.slice(0, 30), paidOn: today() }, maxRedirects: 0 })).status()).toBe(302)
	await page.reload()
	await expect(page.locator('main header')).toContainText('تم تقديم الدعم')
	const ledger = page.getByRole('region', { name: 'الدعم المقدم لهذا المستفيد في كل البرامج' })
	await expect(ledger).toContainText('7,500')

	// «تسجيل دعم إضافي» with 300 is a proposal too: the ledger and the reports do not move.
	const proposal = page.getByRole('region', { name: 'اقتراح دعم إضافي على لجنة الصرف' })
	await proposal.getByLabel('المبلغ بالريال').fill('300')
	await proposal.getByLabel('نوع الدعم').selectOption({ label: 'دعم نقدي' })
	await proposal.getByRole('button', { name: 'إرسال الاقتراح إلى لجنة الصرف' }).click()
	await expect(page.getByRole('status')).toContainText('أُرسل اقتراح الدعم إلى لجنة الصرف')
	await expect(page.getByRole('region', { name: 'قرار لجنة الصرف' })).toContainText('اقتراح دعم إضافي من')
	await expect(ledger).not.toContainText('300')
	expect(await fundless(admin)).toBe(reportBefore)

	// The committee's member approves it on the case page: its instalment is committed, the case stays «تم تقديم الدعم».
	await approverPage.goto('/admin/decisions?programme=needy-families')
	await expect(row).toContainText('اقتراح دعم إضافي من')
	await approverPage.goto(caseUrl)
	const decision = approverPage.getByRole('region', { name: 'قرار لجنة الصرف' })
	await decision.locator('summary', { hasText: 'اعتماد الدعم' }).click()
	await expect(decision.getByLabel('المبلغ بالريال (للقسط الواحد)')).toHaveValue('300')
	await decision.getByLabel('الصندوق').selectOption({ label: `صندوق اللجنة ${marker}` })
	await decision.getByRole('button', { name: 'اعتماد الدعم' }).click()
	await expect(approverPage.getByRole('status')).toContainText('تم تسجيل القرار')
	await expect(approverPage.getByRole('region', { name: 'جدول الأقساط المعتمدة' }).getByRole('row')).toHaveCount(3)
	await expect(approverPage.locator('main header')).toContainText('تم تقديم الدعم')
	expect(await fundless(admin)).toBe(reportBefore)
})

test('an approval above the fund\'s approval limit waits «بانتظار اعتماد ثانٍ» and commits nothing; the first member cannot confirm it; another member commits it from the queue', async ({ pageAs }) => {
	test.setTimeout(180_000)
	const marker = unique()
	const fundName = `منحة الترميم ${marker}`
	const adminPage = await pageAs('admin')
	const admin = adminPage.request
	expect((await admin.post('/admin/funds', { form: { intent: 'add-fund', name: fundName }, maxRedirects: 0 })).status()).toBe(302)
	expect((await admin.post('/admin/funds', { form: { intent: 'budget', programme: 'needy-families', year: today().slice(0, 4), fund: 'all', allocated: '999999999' }, maxRedirects: 0 })).status()).toBe(302)
	// The admin sets the fund's limit on its own page, under the funds.
	await adminPage.goto('/admin/funds')
	await adminPage.getByRole('link', { name: /^حدود الاعتماد/ }).click()
	await expect(adminPage.getByRole('heading', { level: 1 })).toHaveText('حدود الاعتماد')
	await adminPage.getByLabel('الصندوق').selectOption({ label: fundName })
	await adminPage.getByLabel('يلزم اعتماد ثانٍ لما زاد على (بالريال)').fill('5000')
	await adminPage.getByRole('button', { name: 'حفظ الحد' }).click()
	await expect(adminPage.getByRole('status')).toContainText('تم حفظ حد الاعتماد')
	await expect(adminPage.getByRole('region', { name: 'جدول حدود الاعتماد' }).getByRole('row').filter({ hasText: fundName })).toContainText('5,000')

	const officer = (await pageAs('case_officer')).request
	const family = await studiedCaseAs(officer, { name: `أبو ناصر ${marker}` })
	const caseUrl = `/admin/cases/${family.reference}`
	const approver = await pageAs('approver')
	// Above the limit the committee decides in a meeting with its quorum (the next test walks it): both members present.
	await quorumOfTwo(admin)
	await approver.goto('/admin/meetings')
	await approver.getByRole('button', { name: 'فتح الاجتماع' }).click()
	await markPresent(approver, members.approver)
	await markPresent(approver, members.admin)
	const meetingUrl = new URL(approver.url()).pathname
	const decision = await firstApproval(approver, caseUrl, fundName)
	await expect(decision).toContainText('بانتظار اعتماد ثانٍ: اعتمد')
	await expect(decision).toContainText('اعتمدت هذا الدعم أولاً')
	await expect(approver.locator('main header')).toContainText('تمت الدراسة')
	await expect(approver.getByRole('region', { name: 'جدول الأقساط المعتمدة' })).toHaveCount(0)
	// The first member confirming their own approval is refused (four eyes), and nothing is committed.
	const fund = await decision.getByLabel('الصندوق').inputValue()
	const again = await approver.request.post(caseUrl, { form: { intent: 'decide', outcome: 'approve', aidKind: 'cash', amount: '9000', months: '', fund, note: '' }, maxRedirects: 0 })
	expect(again.status()).toBe(403)
	expect(await again.text()).toContain('لا يعتمد الطلب مرة ثانية من اعتمده أولاً')

	// Another member (an admin sits on the committee too) finds it in the queue and commits it as it is.
	await adminPage.goto('/admin/decisions?programme=needy-families')
	const row = adminPage.getByRole('listitem').filter({ has: adminPage.getByRole('link', { name: family.reference }) })
	await expect(row).toContainText('بانتظار اعتماد ثانٍ')
	await expect(row.getByLabel(/^المبلغ بالريال/)).toHaveValue('9000')
	await row.getByRole('checkbox').check()
	await adminPage.getByRole('button', { name: 'اعتماد الطلبات المختارة' }).click()
	await expect(adminPage.getByRole('status')).toContainText('اعتُمد طلب واحد')
	await approver.reload()
	await expect(approver.locator('main header')).toContainText('معتمد بانتظار الصرف')
	await expect(approver.getByRole('region', { name: 'جدول الأقساط المعتمدة' })).toContainText('9,000')
	// The meeting closed: its minutes written.
	await approver.goto(meetingUrl)
	await approver.getByRole('button', { name: 'إغلاق الاجتماع وكتابة المحضر' }).click()
	await expect(approver.getByRole('status')).toContainText('أُغلق الاجتماع وكُتب محضره')
})

test('the committee meets: an approver opens a meeting and marks the members present; above the limit a decision needs it with its quorum, and carries it; closed, its minutes download as a PDF and nothing is added to it', async ({ pageAs }) => {
	test.setTimeout(180_000)
	const marker = unique()
	const fundName = `صندوق الاجتماع ${marker}`
	const adminPage = await pageAs('admin')
	const admin = adminPage.request
	expect((await admin.post('/admin/funds', { form: { intent: 'add-fund', name: fundName }, maxRedirects: 0 })).status()).toBe(302)
	expect((await admin.post('/admin/funds', { form: { intent: 'budget', programme: 'needy-families', year: today().slice(0, 4), fund: 'all', allocated: '999999999' }, maxRedirects: 0 })).status()).toBe(302)
	await adminPage.goto('/admin/funds/limits')
	await adminPage.getByLabel('الصندوق').selectOption({ label: fundName })
	await adminPage.getByLabel('يلزم اعتماد ثانٍ لما زاد على (بالريال)').fill('5000')
	await adminPage.getByRole('button', { name: 'حفظ الحد' }).click()
	await expect(adminPage.getByRole('status')).toContainText('تم حفظ حد الاعتماد')
	// The admin keeps the quorum on the meetings' page: two members present.
	await adminPage.goto('/admin/meetings')
	await adminPage.getByLabel('البرنامج').selectOption({ label: 'النصاب العام (كل البرامج)' })
	await adminPage.getByLabel('عدد الأعضاء الحاضرين').fill('2')
	await adminPage.getByRole('button', { name: 'حفظ النصاب' }).click()
	await expect(adminPage.getByRole('status')).toContainText('تم حفظ النصاب: عضوان')

	const officer = (await pageAs('case_officer')).request
	const family = await studiedCaseAs(officer, { name: `أم سلطان ${marker}` })
	const caseUrl = `/admin/cases/${family.reference}`
	const approver = await pageAs('approver')
	await approver.goto(caseUrl)
	const fund = await approver
		.getByRole('region', { name: 'قرار لجنة الصرف' })
		.getByLabel('الصندوق')
		.locator('option', { hasText: fundName })
		.getAttribute('value')
	const approve = (who: APIRequestContext) => who.post(caseUrl, { form: { intent: 'decide', outcome: 'approve', aidKind: 'cash', amount: '9000', months: '', fund: fund!, note: '' }, maxRedirects: 0 })
	// No meeting open: refused, with the reason.
	const alone = await approve(approver.request)
	expect(alone.status()).toBe(409)
	expect(await alone.text()).toContain('لا يُعتمد إلا في اجتماع للجنة الصرف مكتمل النصاب')

	// The approver opens a meeting and marks the members present.
	await approver.goto('/admin/meetings')
	await approver.getByLabel('المكان (أو اسم رابط الاجتماع عن بعد)').fill(`قاعة اللجنة ${marker}`)
	await approver.getByRole('button', { name: 'فتح الاجتماع' }).click()
	await expect(approver.getByRole('status')).toContainText('فُتح الاجتماع')
	const meetingUrl = new URL(approver.url()).pathname
	expect(meetingUrl).toMatch(/^\/admin\/meetings\/\d+$/)
	await markPresent(approver, members.approver)
	// One present, two needed: refused.
	const short = await approve(approver.request)
	expect(short.status()).toBe(409)
	expect(await short.text()).toContain('لم يكتمل نصاب اجتماع لجنة الصرف')
	await markPresent(approver, members.admin)
	await expect(approver.getByRole('heading', { name: /^الحاضرون/ })).toHaveText('الحاضرون: عضوان')

	// With the quorum: the approver's first approval, the admin's second, in the case view and the committee's queue.
	await firstApproval(approver, caseUrl, fundName)
	await adminPage.goto('/admin/decisions?programme=needy-families')
	await expect(adminPage.getByText(/اجتماع لجنة الصرف رقم \d+ مفتوح/)).toBeVisible()
	const row = adminPage.getByRole('listitem').filter({ has: adminPage.getByRole('link', { name: family.reference }) })
	await row.getByRole('checkbox').check()
	await adminPage.getByRole('button', { name: 'اعتماد الطلبات المختارة' }).click()
	await expect(adminPage.getByRole('status')).toContainText('اعتُمد طلب واحد')

	// The decision is the meeting's; closing it writes the minutes.
	await approver.goto(meetingUrl)
	const taken = approver.getByRole('region', { name: 'جدول قرارات الاجتماع' }).getByRole('row').filter({ hasText: family.reference })
	await expect(taken).toContainText(`أم سلطان ${marker}`)
	await expect(taken).toContainText('9,000')
	await expect(taken).toContainText(fundName)
	await approver.getByRole('button', { name: 'إغلاق الاجتماع وكتابة المحضر' }).click()
	await expect(approver.getByRole('status')).toContainText('أُغلق الاجتماع وكُتب محضره')
	const minutesLink = approver.getByRole('link', { name: 'تنزيل المحضر للطباعة والتوقيع (PDF)' })
	const minutes = await approver.request.get((await minutesLink.getAttribute('href'))!)
	expect(minutes.status()).toBe(200)
	expect(minutes.headers()['content-type']).toBe('application/pdf')
	expect((await minutes.body()).subarray(0, 5).toString()).toBe('%PDF-')

	// Closed: nothing is added to it.
	const late = await approver.request.post(meetingUrl, { form: { intent: 'mark-present', member: '1' }, maxRedirects: 0 })
	expect(late.status()).toBe(409)
	expect(await late.text()).toContain('أُغلق هذا الاجتماع وكُتب محضره')
	await expect(approver.getByRole('button', { name: 'تسجيل حاضراً' })).toHaveCount(0)
})
