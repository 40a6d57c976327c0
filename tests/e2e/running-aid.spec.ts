import { expect, staffState, test, unique } from './utils.ts'
import { studiedCaseAs, submitCaseAsStaff } from './case-fixtures.ts'
import { basicAnswers } from '#tests/fixtures/needy-families.ts'

// A monthly aid still being paid, on a case «تم تقديم الدعم» after its first payment, no longer
// blocks a new application of the same ID in the same programme; staff see it flagged on the new
// case, and its private link tells it only once the mobile is proven
// (docs/product.md#one-open-application-per-programme).
test.use({ storageState: staffState('case_officer') })

const today = () => new Date(Date.now() + 3 * 3600_000).toISOString().slice(0, 10)

test('a new application while a monthly aid is still being paid is flagged to staff with what is left, and told on the family\'s page only once its mobile is proven and is that case\'s', async ({ page, pageAs }) => {
	test.setTimeout(120_000)
	const marker = unique()
	const family = await studiedCaseAs(page.request, { name: `أم سعد ${marker}` })
	const admin = (await pageAs('admin')).request
	expect((await admin.post('/admin/funds', { form: { intent: 'add-fund', name: `صندوق الدعم الشهري ${marker}` }, maxRedirects: 0 })).status()).toBe(302)
	expect((await admin.post('/admin/funds', { form: { intent: 'budget', programme: 'needy-families', year: today().slice(0, 4), fund: 'all', allocated: '999999999' }, maxRedirects: 0 })).status()).toBe(302)
	const approver = (await pageAs('approver')).request
	const queue = await (await approver.get('/admin/decisions')).text()
	const fund = new RegExp(`<option value="(\\d+)">صندوق الدعم الشهري ${marker}</option>`).exec(queue)?.[1] ?? ''
	expect(fund, 'the new fund is offered').not.toBe('')
	const caseUrl = `/admin/cases/${family.reference}`
	expect((await approver.post(caseUrl, { form: { intent: 'decide', outcome: 'approve', aidKind: 'cash', amount: '700', months: '3', fund, note: '' }, maxRedirects: 0 })).status()).toBe(302)

	// Finance pays the first month: the case is «تم تقديم الدعم», two months still to pay.
	const finance = (await pageAs('finance')).request
	const due = (await (await finance.get('/admin/payments')).text()).split('<li')
	const line = /name="line"[^>]*value="(\d+)"|value="(\d+)"[^>]*name="line"/.exec(due.find((item) => item.includes(family.reference)) ?? '')?.slice(1).find(Boolean) ?? ''
	expect(line, 'the first month is due').not.toBe('')
	const made = await finance.post('/admin/payments', { form: { intent: 'batch', line, note: '' }, maxRedirects: 0 })
	expect(made.status()).toBe(302)
	const batchUrl = made.headers()['location']!.split('?')[0]!
	expect((await finance.post(batchUrl, { form: { intent: 'sent', sentOn: today() }, maxRedirects: 0 })).status()).toBe(302)
	expect((await finance.post(batchUrl, { form: { intent: 'record', instalment: line, bankReference: `FT${marker}`.slice(0, 30), paidOn: today() }, maxRedirects: 0 })).status()).toBe(302)
	await page.goto(caseUrl)
	await expect(page.locator('main')).toContainText('تم تقديم الدعم')

	// The family applies again (entered by staff): it goes through, and the new case carries the flag.
	const again = await submitCaseAsStaff(page.request, { name: `أم سعد ${marker}`, nationalId: family.nationalId, mobile: family.mobile })
	await page.goto(`/admin/cases/${again.reference}`)
	const flags = page.getByRole('region', { name: 'تنبيهات تكرار محتمل' })
	await expect(flags).toContainText('للأسرة دعم شهري قائم في هذا البرنامج (بقي منه قسطان)')
	await expect(flags.getByRole('link', { name: family.reference })).toHaveAttribute('href', caseUrl)

	// Entered by staff, its mobile was proven in person and is the running case's: the family's page tells it, and lets it go on.
	const own = await (await page.request.get(`/apply/r/${again.token}`)).text()
	expect(own).toContain(`لك دعم شهري ما زال يُصرف في هذا البرنامج على طلبك السابق رقم <bdi dir="ltr">${family.reference}</bdi>. يمكنك إكمال هذا الطلب، وتدرسه المؤسسة مع مراعاة ذلك الدعم.`)

	// A stranger who types the ID with another mobile: their draft's page (open to them here, with
	// codes off) and the same draft opened by staff say nothing of the aid: its mobile is not proven.
	const visitor = (await pageAs('visitor')).request
	const started = await visitor.post('/apply/needy-families/new', { form: basicAnswers(family.nationalId, '0559876543') })
	const token = /\/apply\/r\/([A-Za-z0-9_-]{43})/.exec(started.url())?.[1] ?? ''
	expect(token, 'the stranger\'s draft').not.toBe('')
	expect(await started.text()).not.toContain('دعم شهري')
	const strangers = await (await page.request.get(`/apply/r/${token}`)).text()
	expect(strangers).toContain('رابط طلبك الخاص')
	expect(strangers).not.toContain('دعم شهري')
})
