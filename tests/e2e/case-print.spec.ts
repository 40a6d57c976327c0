import { randomNationalId } from '#tests/fixtures/needy-families.ts'
import { submitCaseAsStaff } from './case-fixtures.ts'
import { expect, staffState, test, unique } from './utils.ts'

// The printed report at A4 width (app/routes/admin/case-print.tsx, the print rules in app/app.css):
// a table narrower than its columns wraps between words, never inside one («العم/ر»).

test.use({ storageState: staffState('case_officer') })

/** A4 portrait less the 14 mm margins of @page, in CSS pixels. */
const A4_PRINTABLE_WIDTH = Math.floor(((210 - 2 * 14) / 25.4) * 96)

test('the family table at A4 width breaks no word across two lines', async ({ page }) => {
	// A family member with every column answered, as a real family's table has.
	const submitted = await submitCaseAsStaff(page.request, { name: `خالد ${unique()}`, submit: false })
	const base = `/apply/r/${submitted.token}`
	const member = { intent: 'add-row', FamilyName: 'عبدالرحمن خالد', RelationShip: 'son', Identify_Id: randomNationalId(), Age: '12', Gander: 'male', Level_Edu: 'primary', Social_Status: 'single', Health_Status: 'chronic' }
	for (const [path, form] of [[`${base}/family`, member], [`${base}/family`, { intent: 'next' }], [`${base}/check`, { acknowledge: 'on' }]] as const) {
		const response = await page.request.post(path, { form })
		expect(response.status(), path).toBeLessThan(400)
	}
	await page.setViewportSize({ width: A4_PRINTABLE_WIDTH, height: 1100 })
	await page.emulateMedia({ media: 'print' })
	await page.goto(`/admin/cases/${submitted.reference}/print`)
	const family = page.getByRole('region', { name: 'أفراد الأسرة' }).locator('table').filter({ hasText: 'العمر' })
	await expect(family).toContainText('العمر')
	// Every word of the table's cells: the number of lines its text runs over.
	const split = await family.evaluate((table) => {
		const broken: string[] = []
		const walker = document.createTreeWalker(table, NodeFilter.SHOW_TEXT)
		for (let node = walker.nextNode(); node; node = walker.nextNode()) {
			const text = node.textContent ?? ''
			for (const match of text.matchAll(/\S+/g)) {
				const range = document.createRange()
				range.setStart(node, match.index)
				range.setEnd(node, match.index + match[0].length)
				const lines = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)))
				if (lines.size > 1) broken.push(match[0])
			}
		}
		return broken
	})
	expect(split).toEqual([])
	const table = await family.boundingBox()
	expect(table!.width).toBeLessThanOrEqual(A4_PRINTABLE_WIDTH)
	await page.screenshot({ path: test.info().outputPath('print-a4.png'), fullPage: true })
})
