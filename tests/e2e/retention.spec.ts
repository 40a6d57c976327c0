import yauzl from 'yauzl'
import { submitCaseAsStaff } from './case-fixtures.ts'
import { expect, expectNoAxeViolations, test } from './utils.ts'

// The retention register and subject access, as an admin uses them (docs/operations.md#retention,
// #subject-access-requests); a case officer is refused both.

/** The names of a ZIP's entries. */
function zipEntries(file: string): Promise<string[]> {
	return new Promise((resolve, reject) => {
		yauzl.open(file, { lazyEntries: false }, (error, zip) => {
			if (error) return reject(error)
			const names: string[] = []
			zip.on('entry', (entry: yauzl.Entry) => names.push(entry.fileName))
			zip.on('end', () => resolve(names))
			zip.on('error', reject)
		})
	})
}

test('an admin sees the retention register', async ({ pageAs }) => {
	const page = await pageAs('admin')
	await page.goto('/admin')
	await page.getByRole('link', { name: 'سجل الإتلاف' }).click()
	await expect(page.getByRole('heading', { level: 1, name: 'سجل الإتلاف (مدة الاحتفاظ)' })).toBeVisible()
	await expect(page.getByText('مدة الاحتفاظ', { exact: true })).toBeVisible()
	await expect(page.getByText('24 شهراً')).toBeVisible()
	await expect(page.getByText('طلبات حان إتلافها الآن')).toBeVisible()
	await expectNoAxeViolations(page)
})

test('an admin finds what is held for a national ID and downloads it as a ZIP', async ({ pageAs }) => {
	const page = await pageAs('admin')
	// Not sent: a draft's answers and files are held too, and the test needs no programme's whole journey.
	const submitted = await submitCaseAsStaff(page.request, { submit: false })
	await page.goto('/admin/subject-access')
	await expectNoAxeViolations(page)

	// A mistyped ID: said next to the field, what was typed kept.
	await page.getByLabel('رقم الهوية أو الإقامة').fill('12345')
	await page.getByRole('button', { name: 'بحث' }).click()
	await expect(page.getByText('رقم الهوية يجب أن يكون 10 أرقام ويبدأ بـ 1 أو 2')).toBeVisible()
	await expect(page.getByLabel('رقم الهوية أو الإقامة')).toHaveValue('12345')

	// Nobody's ID: nothing held, nothing to download.
	await page.getByLabel('رقم الهوية أو الإقامة').fill('1000000008')
	await page.getByRole('button', { name: 'بحث' }).click()
	await expect(page.getByText('لا توجد لدى المؤسسة أي بيانات لرقم الهوية هذا')).toBeVisible()
	await expect(page.getByRole('button', { name: 'تنزيل نسخة البيانات (ZIP)' })).toHaveCount(0)

	await page.getByLabel('رقم الهوية أو الإقامة').fill(submitted.nationalId)
	await page.getByRole('button', { name: 'بحث' }).click()
	await expect(page.getByText('المرفقات: 2')).toBeVisible()
	await expectNoAxeViolations(page)
	const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'تنزيل نسخة البيانات (ZIP)' }).click()])
	expect(download.suggestedFilename()).toMatch(new RegExp(`^subject-access-${submitted.nationalId.slice(-4)}-.*\\.zip$`))
	const names = await zipEntries(await download.path())
	expect(names).toEqual(
		expect.arrayContaining([
			'اقرأني.txt',
			`${submitted.reference}/case.json`,
			`${submitted.reference}/sections.json`,
			`${submitted.reference}/history.json`,
			`${submitted.reference}/aid.json`,
			`${submitted.reference}/files/هوية-المتقدم.pdf`,
			`${submitted.reference}/files/سجل-الأسرة.pdf`,
		]),
	)
})

test('a case officer is refused both screens', async ({ pageAs }) => {
	const page = await pageAs('case_officer')
	for (const path of ['/admin/retention', '/admin/subject-access']) {
		const response = await page.goto(path)
		expect(response?.status(), path).toBe(403)
	}
})
