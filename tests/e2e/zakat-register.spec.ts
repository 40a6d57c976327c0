import ExcelJS from 'exceljs'
import { expect, expectNoAxeViolations, staffState, test, unique } from './utils.ts'
import { submitCaseAsStaff } from './case-fixtures.ts'
import { dueLine, payLine, today } from './aid-fixtures.ts'
import { hijriOfIsoDay } from '#app/text/hijri.ts'
import { confirmReceiptAs, recordReceiptAs } from './receipt-steps.ts'

// Zakat kept by its rules (docs/product.md#zakat), through the real server: the researcher records
// the family's zakat category in the study, a member of the committee approves from a zakat fund
// (the category shown, and stored with the approval), finance pays it, and the zakat register lists
// the family with its category on screen and in its workbook.
test.use({ storageState: staffState('case_officer') })

test('a study\'s zakat category goes with the approval from a zakat fund to the payment, and the zakat register lists the family with it, on screen and as XLSX', async ({ page, pageAs }) => {
	test.setTimeout(150_000)
	const marker = unique()
	const name = `أم فهد ${marker}`
	const family = await submitCaseAsStaff(page.request, { name })

	// The researcher records the study in the browser, the category and its reason with it.
	await page.goto(`/admin/cases/${family.reference}/study`)
	await page.getByLabel('من قابلتم').fill('الأم وبناتها')
	await page.getByLabel('خلاصة الدراسة').fill('ديون متراكمة على الأسرة بعد وفاة العائل')
	await page.getByLabel('مصرف الزكاة').selectOption({ label: 'الغارمين' })
	await page.getByLabel('سبب استحقاق الزكاة من هذا المصرف (مع اختيار مصرف)').fill('دين إيجار متأخر ثابت بعقد')
	await page.getByRole('radio', { name: 'دعم الحالة' }).check()
	await page.getByLabel('نوع المساعدة').selectOption({ label: 'دعم نقدي' })
	await page.getByLabel('المبلغ بالريال').fill('1750')
	await page.getByRole('radio', { name: 'مرة واحدة' }).check()
	await page.getByRole('button', { name: 'حفظ الدراسة' }).click()
	await expect(page.getByRole('status')).toContainText('تم تسجيل الدراسة')
	await expect(page.locator('main')).toContainText('مصرف الزكاة: الغارمين — دين إيجار متأخر ثابت بعقد')
	expect((await page.request.post(`/admin/cases/${family.reference}`, { form: { intent: 'status', to: '2', note: 'زار الباحث الأسرة' }, maxRedirects: 0 })).status()).toBe(302)

	// An admin adds a zakat fund and the programme's budget.
	const admin = (await pageAs('admin')).request
	const fundName = `زكاة الغارمين ${marker}`
	expect((await admin.post('/admin/funds', { form: { intent: 'add-fund', name: fundName, zakat: 'on' }, maxRedirects: 0 })).status()).toBe(302)
	expect((await admin.post('/admin/funds', { form: { intent: 'budget', programme: 'needy-families', year: today().slice(0, 4), fund: 'all', allocated: '999999999' }, maxRedirects: 0 })).status()).toBe(302)

	// The fund receives the zakat first (docs/product.md#money-in): finance records it, an admin confirms it.
	const receipt = await recordReceiptAs(await pageAs('finance'), `${fundName} (زكاة)`, '5000')
	await confirmReceiptAs(await pageAs('admin'), receipt)

	// The committee's member sees the category beside the zakat fund, and approves from it.
	const approver = await pageAs('approver')
	await approver.goto(`/admin/cases/${family.reference}`)
	await expect(approver.locator('main')).toContainText('حددت الدراسة مصرف الزكاة: الغارمين')
	await approver.locator('summary', { hasText: 'اعتماد الدعم' }).click()
	await approver.getByLabel('الصندوق', { exact: true }).selectOption({ label: `${fundName} (زكاة)` })
	await approver.getByRole('button', { name: 'اعتماد الدعم' }).click()
	await expect(approver.getByRole('status')).toBeVisible()

	// Finance pays it in a batch, with the bank's reference.
	const finance = await pageAs('finance')
	const line = await dueLine(finance.request, family.reference)
	expect(line, 'the approved transfer is due').not.toBe('')
	const bankReference = `FT${marker}`.slice(0, 30)
	await payLine(finance.request, line, bankReference)

	// The register of this Gregorian year lists it: the family, its ID, the category, the amount, the fund, the reference.
	const year = today().slice(0, 4)
	await finance.goto(`/admin/zakat?period=gregorian-${year}`)
	await expect(finance.getByRole('heading', { level: 1 })).toHaveText('سجل الزكاة')
	const row = finance.getByRole('row').filter({ hasText: name })
	await expect(row).toHaveCount(1)
	for (const text of [family.nationalId, family.reference, 'الغارمين', '1,750', fundName, bankReference]) await expect(row).toContainText(text)
	await expectNoAxeViolations(finance)
	for (const width of [375, 1280]) {
		await finance.setViewportSize({ width, height: 900 })
		await finance.screenshot({ path: test.info().outputPath(`zakat-register-${width}.png`), fullPage: true })
	}

	// The workbook of this Hijri year, from the page's own link: the same row.
	const hijri = hijriOfIsoDay(today()).year
	await finance.goto(`/admin/zakat?period=hijri-${hijri}`)
	const href = await finance.getByRole('link', { name: `تنزيل سجل ${hijri}هـ (XLSX)` }).getAttribute('href')
	const download = await finance.request.get(href!)
	expect(download.status()).toBe(200)
	expect(download.headers()['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
	const workbook = new ExcelJS.Workbook()
	await workbook.xlsx.load((await download.body()) as unknown as ArrayBuffer)
	const sheet = workbook.worksheets[0]!
	const cells = sheet.getSheetValues().find((values) => Array.isArray(values) && values.includes(name)) as unknown[] | undefined
	expect(cells, 'the family is in the workbook').toBeDefined()
	expect(cells).toEqual(expect.arrayContaining([name, family.nationalId, family.reference, 'الغارمين', 1750, fundName, bankReference]))

	// A case officer may not read the register.
	expect((await page.request.get(`/admin/zakat?period=hijri-${hijri}`, { maxRedirects: 0 })).status()).toBe(403)
})
