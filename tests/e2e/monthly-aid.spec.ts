import { expect, staffState, test, unique } from './utils.ts'
import { approvedMonthly, dueLine, payLine } from './aid-fixtures.ts'

// Issue 38, finding 6: an approved monthly aid can be stopped after its first payment
// (docs/product.md#monthly-aid-over-time). Finance stops it on the case's schedule with a reason from
// the list; the months left leave finance's due list, and the family reads why and which months on
// its link. Restarting it takes a second person: whoever asks does not confirm.
test.use({ storageState: staffState('finance') })

test('finding 6: a rent aid stopped after its first payment leaves finance\'s list, the family is told the months and why, and only another member restarts it', async ({ page, pageAs }) => {
	test.setTimeout(120_000)
	const marker = unique()
	const approver = (await pageAs('approver')).request
	const family = await approvedMonthly({ officer: (await pageAs('case_officer')).request, admin: (await pageAs('admin')).request, approver }, { name: `أم خالد ${marker}`, amount: 1200, months: 6 })
	const line = await dueLine(page.request, family.reference)
	expect(line, 'the first month is due').not.toBe('')
	await payLine(page.request, line, `FT${marker}`.slice(0, 30))
	// The family's link shows the schedule: one month paid, five left, the next one's month.
	const schedule = await (await page.request.get(`/apply/r/${family.token}`)).text()
	expect(schedule).toMatch(/صُرف منه<\/dt><dd>شهر واحد<\/dd><dt[^>]*>بقي منه<\/dt><dd>5 أشهر<\/dd><dt[^>]*>الدفعة التالية<\/dt>/)

	// Finance opens the case's schedule from the case page and stops what is left.
	await page.goto(`/admin/cases/${family.reference}`)
	await page.getByRole('link', { name: 'جدول الدعم: إيقافه أو استئنافه، وموعد إعادة دراسته' }).click()
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('جدول الدعم')
	await expect(page.locator('main')).toContainText('صُرف')
	await page.getByLabel('السبب (يقرؤه المتقدم)').selectOption({ label: 'انتقال الأسرة إلى خارج منطقة خدمة المؤسسة' })
	await page.getByRole('button', { name: 'إيقاف نهائي' }).click()
	await expect(page.getByRole('status')).toContainText('أُوقف الدعم نهائياً وأُبلغ المتقدم')
	await expect(page.locator('main')).toContainText('موقوف نهائياً')
	await expect(page.locator('main')).toContainText('أُلغيت')

	// Nothing of it is offered to finance any more.
	expect(await dueLine(page.request, family.reference)).toBe('')

	// The family reads it on its link: the five months and the reason.
	const told = await (await page.request.get(`/apply/r/${family.token}`)).text()
	expect(told).toContain('أُوقف صرف دعمك الشهري، ولن تُصرف أقساط 5 أشهر من')
	expect(told).toContain('السبب: انتقال الأسرة إلى خارج منطقة خدمة المؤسسة.')
	expect(told).not.toContain('الدفعة التالية')
	// And on the lookup, by ID and mobile.
	const visitor = (await pageAs('visitor')).request
	const lookup = await (await visitor.post('/apply/status', { form: { who: 'person', nationalId: family.nationalId, mobile: family.mobile } })).text()
	expect(lookup).toContain('أُوقف صرف الدعم. السبب: انتقال الأسرة إلى خارج منطقة خدمة المؤسسة')

	// Finance asks to restart it: it is not offered to them to confirm, and a confirmation posted anyway is refused.
	await page.getByLabel('سبب الاستئناف').fill('عادت الأسرة إلى المنطقة')
	await page.getByRole('button', { name: 'طلب إعادة الدعم' }).click()
	await expect(page.getByRole('status')).toContainText('طُلب استئناف الدعم')
	await expect(page.getByRole('note')).toContainText('طلبت استئناف هذا الدعم، فيؤكده عضو آخر')
	await expect(page.getByRole('button', { name: 'تأكيد الاستئناف' })).toHaveCount(0)
	const decision = await page.locator('input[name="decision"]').first().inputValue()
	const mine = await page.request.post(`/admin/cases/${family.reference}/aid`, { form: { intent: 'confirm', decision }, maxRedirects: 0 })
	expect(mine.status()).toBe(403)
	expect(await mine.text()).toContain('لا يؤكد استئناف الدعم من طلبه')

	// The committee's member sees it waiting on the monthly aid page, and confirms it.
	const member = await pageAs('approver')
	await member.goto('/admin/monthly-aid')
	await expect(member.getByRole('table', { name: 'الدعم الموقوف أو المنتظر تأكيد استئنافه' })).toContainText('بانتظار تأكيدك')
	await member.getByRole('link', { name: family.reference }).first().click()
	await member.getByRole('button', { name: 'تأكيد الاستئناف' }).click()
	await expect(member.getByRole('status')).toContainText('استُؤنف الدعم وأُبلغ المتقدم')
	const restarted = await (await page.request.get(`/apply/r/${family.token}`)).text()
	expect(restarted).toContain('استُؤنف صرف دعمك الشهري، وتُصرف أقساط 5 أشهر من')
})
