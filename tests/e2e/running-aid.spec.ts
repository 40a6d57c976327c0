import { expect, staffState, test, unique } from './utils.ts'
import { submitCaseAsStaff } from './case-fixtures.ts'
import { approvedMonthly, dueLine, payLine } from './aid-fixtures.ts'
import { basicAnswers } from '#tests/fixtures/needy-families.ts'

// A monthly aid still being paid, on a case «تم تقديم الدعم» after its first payment, no longer
// blocks a new application of the same ID in the same programme; staff see it flagged on the new
// case, and its private link tells it only once the mobile is proven
// (docs/product.md#one-open-application-per-programme).
test.use({ storageState: staffState('case_officer') })

test('a new application while a monthly aid is still being paid is flagged to staff with what is left, and told on the family\'s page only once its mobile is proven and is that case\'s', async ({ page, pageAs }) => {
	test.setTimeout(120_000)
	const marker = unique()
	const family = await approvedMonthly({ officer: page.request, admin: (await pageAs('admin')).request, approver: (await pageAs('approver')).request }, { name: `أم سعد ${marker}`, amount: 700, months: 3 })
	const caseUrl = `/admin/cases/${family.reference}`

	// Finance pays the first month: the case is «تم تقديم الدعم», two months still to pay.
	const finance = (await pageAs('finance')).request
	const line = await dueLine(finance, family.reference)
	expect(line, 'the first month is due').not.toBe('')
	await payLine(finance, line, `FT${marker}`.slice(0, 30))
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
