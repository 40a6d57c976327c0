// Spreadsheets staff download (docs/security.md#escaping, issue 37 §1.7): a city typed as a formula,
// after a `;` too («الرياض;=1+1» is two cells to Excel in a `;` locale), comes out as text in the
// case export (CSV, every cell quoted, and XLSX) and in the reports' XLSX grouped by city. Through the
// real server; the escaping itself: app/utils/spreadsheet-cells.test.ts.
import ExcelJS from 'exceljs'
import { parse } from 'csv-parse/sync'
import { expect, test, type APIRequestContext } from '@playwright/test'
import { submitCaseAsStaff, type SubmittedCase } from '../case-fixtures.ts'
import { staffState, unique } from '../utils.ts'

test.describe.configure({ mode: 'default' })

let admin: APIRequestContext
let applicant: SubmittedCase
const marker = unique()
const city = `=SUM(1+1);=1+1 ${marker}`
const escaped = `'=SUM(1+1);'=1+1 ${marker}`

test.beforeAll(async ({ playwright, baseURL }) => {
	test.setTimeout(120_000)
	admin = await playwright.request.newContext({ baseURL, storageState: staffState('admin') })
	applicant = await submitCaseAsStaff(admin, { name: `سعاد ${marker} الشمري`, city })
})
test.afterAll(async () => {
	await admin.dispose()
})

/** The first sheet of a workbook as rows of cell values. */
async function sheetRows(body: Buffer): Promise<unknown[][]> {
	const workbook = new ExcelJS.Workbook()
	await workbook.xlsx.load(body as unknown as ArrayBuffer)
	const rows: unknown[][] = []
	workbook.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)))
	return rows
}

test('the case export: every CSV cell quoted, a formula after a separator escaped, and the same in XLSX', async () => {
	const csv = await admin.get(`/admin/cases/export/csv?q=${applicant.reference}`)
	expect(csv.status()).toBe(200)
	const text = (await csv.body()).toString('utf8').replace(/^\uFEFF/, '')
	const [headers, row, ...rest] = parse(text) as string[][]
	expect(rest).toEqual([])
	expect(headers![row!.indexOf(escaped)]).toMatch(/البيانات الأساسية - المدينة$/)
	// Quoted: no reader splits it at the `;`; and split anyway, no part starts a formula.
	expect(text).toContain(`"${escaped}"`)
	expect(text).not.toMatch(/(^|[,;\t\r\n])[ "]*[=+@]/)
	// Every cell of every line is in quotes (a multi-line cell's lines are inside one).
	expect(text.trim()).toMatch(/^"(?:[^"]|"")*"(?:[,\r\n]+"(?:[^"]|"")*")*$/)

	const xlsx = await admin.get(`/admin/cases/export/xlsx?q=${applicant.reference}`)
	expect(xlsx.status()).toBe(200)
	const [sheetHeaders, sheetRow] = await sheetRows(await xlsx.body())
	expect(sheetHeaders![sheetRow!.indexOf(escaped)]).toMatch(/البيانات الأساسية - المدينة$/)
})

test('the reports XLSX grouped by city escapes a city as every export does', async () => {
	const year = new Date(Date.now() + 3 * 3_600_000).getUTCFullYear()
	const response = await admin.get(`/admin/reports/export?year=${year}&by=city`)
	expect(response.status()).toBe(200)
	const labels = (await sheetRows(await response.body())).map((row) => row[0])
	expect(labels).toContain(escaped)
	expect(labels.filter((label) => typeof label === 'string' && /^[=+\-@]/.test(label))).toEqual([])
})
