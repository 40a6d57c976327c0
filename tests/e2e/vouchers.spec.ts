import { expect, staffState, test, unique } from './utils.ts'
import { approvedMonthly, dueLine, payLine } from './aid-fixtures.ts'

// The disbursement voucher (docs/product.md#vouchers) through the real server and route table:
// finance downloads a paid transfer's voucher from the batch's page and from the case's
// instalments, and the batch's vouchers as one PDF; an officer without the finance role may not.
test.use({ storageState: staffState('finance') })

test('finance downloads a paid transfer\'s voucher as a PDF that is not kept by the browser; an officer is refused', async ({ page, pageAs }, testInfo) => {
	test.setTimeout(120_000)
	const marker = unique()
	const family = await approvedMonthly({ officer: (await pageAs('case_officer')).request, admin: (await pageAs('admin')).request, approver: (await pageAs('approver')).request }, { name: `أم سالم ${marker}`, amount: 1500.25, months: 2 })
	const line = await dueLine(page.request, family.reference)
	expect(line, 'the first month is due').not.toBe('')
	const batchUrl = await payLine(page.request, line, `VC${marker}`.slice(0, 30))

	await page.goto(batchUrl)
	const one = page.getByRole('link', { name: `سند الصرف (PDF) لـ${family.name}` })
	await expect(one).toHaveAttribute('href', `${batchUrl}/vouchers/${line}`)
	await expect(page.getByRole('link', { name: /سندات الصرف \(سند واحد\) — PDF/ })).toHaveAttribute('href', `${batchUrl}/vouchers`)
	for (const width of [375, 1280]) {
		await page.setViewportSize({ width, height: 900 })
		await page.locator('#vouchers').scrollIntoViewIfNeeded()
		await page.screenshot({ path: testInfo.outputPath(`batch-${width}.png`) })
	}

	for (const url of [`${batchUrl}/vouchers/${line}`, `${batchUrl}/vouchers`]) {
		const response = await page.request.get(url)
		expect(response.status(), url).toBe(200)
		expect(response.headers()['content-type']).toBe('application/pdf')
		expect(response.headers()['cache-control']).toContain('no-store')
		expect(response.headers()['content-disposition']).toMatch(/^attachment; filename="ataa-vouchers?-[\w-]+\.pdf"$/)
		const body = await response.body()
		expect(body.subarray(0, 5).toString('latin1')).toBe('%PDF-')
		expect(body.toString('latin1')).not.toMatch(/\/JavaScript|\/OpenAction|\/Launch|\/EmbeddedFile/)
	}

	// The case's instalments link it too, for finance.
	await page.goto(`/admin/cases/${family.reference}`)
	await expect(page.getByRole('link', { name: 'سند الصرف للقسط 1' })).toHaveAttribute('href', `${batchUrl}/vouchers/${line}`)

	// The printed case file ends with the signature boxes (an HTML page the browser prints).
	await page.goto(`/admin/cases/${family.reference}/print`)
	const signatures = page.locator('section[aria-labelledby="report-signatures"]')
	await expect(signatures.getByRole('heading', { name: 'التوقيعات' })).toBeVisible()
	await expect(signatures).toContainText('الباحث الاجتماعي')
	for (const width of [375, 1280]) {
		await page.setViewportSize({ width, height: 900 })
		await signatures.scrollIntoViewIfNeeded()
		await page.screenshot({ path: testInfo.outputPath(`print-${width}.png`) })
		// Nothing wider than the screen: the aid ledger's seven columns scroll within their own region.
		expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
	}

	// An officer without the finance role: refused, as the route table says; and no link on the case for them.
	const officer = await pageAs('case_officer')
	expect((await officer.request.get(`${batchUrl}/vouchers/${line}`, { maxRedirects: 0 })).status()).toBe(403)
	await officer.goto(`/admin/cases/${family.reference}`)
	await expect(officer.getByRole('link', { name: 'سند الصرف للقسط 1' })).toHaveCount(0)
	// The second month, not yet paid, has no voucher.
	expect((await page.request.get(`${batchUrl}/vouchers/${Number(line) + 1}`)).status()).toBe(404)
})
