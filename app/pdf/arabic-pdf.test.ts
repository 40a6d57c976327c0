import { execFileSync } from 'node:child_process'
import { PDFDocument } from 'pdf-lib'
import { beforeAll, describe, expect, test } from 'vitest'
import { inspectPdf } from '#app/storage/pdf-active-content.server.ts'
import { renderArabicPdf, type PdfBlock } from './arabic-pdf.server.ts'
import { loadArabicText, ltr, measureText, visualRuns, wrapText } from './arabic-text.server.ts'

beforeAll(async () => {
	await loadArabicText()
})

const style = { size: 10.5, weight: 'regular' } as const
const drawn = (text: string) => visualRuns(text).map((run) => `${run.rtl ? 'R' : 'L'}:${run.text}`)

describe('a line is cut into runs drawn left to right', () => {
	test('Arabic words come right to left, each word whole in logical order for the shaper', () => {
		expect(drawn('سند صرف')).toEqual(['R:صرف', 'R: ', 'R:سند'])
	})

	test('an IBAN, a number and Latin words stay left to right inside Arabic text', () => {
		expect(drawn('الآيبان SA03 8000 0000 6080 1016 7519 للأسرة')).toEqual(['R:للأسرة', 'R: ', 'L:SA03 8000 0000 6080 1016 7519', 'R: ', 'R:الآيبان'])
		expect(drawn('مبلغ 1,500.25 ريال')).toEqual(['R:ريال', 'R: ', 'L:1,500.25', 'R: ', 'R:مبلغ'])
	})

	test('brackets in right-to-left text are mirrored, so they open on the right', () => {
		// Drawn left to right: «(» (the closing one, mirrored), the word, then «) » (the opening one and the space before it).
		expect(drawn('مرجع (دفعة)')).toEqual(['R:(', 'R:دفعة', 'R: )', 'R:مرجع'])
	})

	test('ltr() keeps «2026-000123» in its order after Arabic words, and its isolates are not drawn', () => {
		expect(drawn('سند رقم 2026-000123').slice(0, 3)).toEqual(['L:000123', 'R:-', 'L:2026'])
		expect(drawn(`سند رقم ${ltr('2026-000123')}`)).toEqual(['L:2026-000123', 'R: ', 'R:رقم', 'R: ', 'R:سند'])
	})
})

test('text is wrapped at spaces to the width given, and a word too long is cut', () => {
	const text = 'ألف وخمسمائة ريال سعودي وخمس وعشرون هللة فقط لا غير'
	const lines = wrapText(text, 120, style)
	expect(lines.length).toBeGreaterThan(1)
	expect(lines.join(' ')).toBe(text)
	for (const line of lines) expect(measureText(line, style)).toBeLessThanOrEqual(120)
	expect(wrapText('A'.repeat(80), 100, style).join('')).toBe('A'.repeat(80))
	expect(wrapText('سطر أول\nسطر ثان', 500, style)).toEqual(['سطر أول', 'سطر ثان'])
})

const sample: PdfBlock[] = [
	{ kind: 'title', text: `سند صرف رقم ${ltr('2026-000001')}` },
	{ kind: 'fields', rows: [{ label: 'المستفيد', value: 'فاطمة محمد' }, { label: 'رقم الآيبان', value: 'SA03 8000 0000 6080 1016 7519' }] },
	{ kind: 'heading', text: 'البنود' },
	{ kind: 'table', columns: [{ header: 'الحالة', width: 2 }, { header: 'المبلغ', width: 1, align: 'end' }], rows: Array.from({ length: 90 }, (_, i) => [`C-${i}`, `${i},00`]) },
	{ kind: 'paragraph', text: 'نص عربي مع <script>alert(1)</script> لا يفعل شيئاً' },
	{ kind: 'signatures', signers: [{ role: 'المُعِدّ', name: 'سارة' }, { role: 'المالية' }, { role: 'المعتمِد' }, { role: 'الباحث' }] },
	{ kind: 'page-break' },
	{ kind: 'paragraph', text: 'صفحة أخيرة' },
]

/** The PDF's bytes without its streams' data (page contents and font files, compressed): its objects' dictionaries. */
const dictionaries = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1').replace(/stream\r?\n[\s\S]*?endstream/g, 'stream endstream')

test('a document is an A4 PDF of as many pages as its blocks take, titled, with nothing that acts', async () => {
	const bytes = await renderArabicPdf({ title: 'سند صرف', header: 'مؤسسة عطاء الخيرية', blocks: sample })
	expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-')
	const read = await PDFDocument.load(bytes)
	expect(read.getTitle()).toBe('سند صرف')
	// The 90 rows of the table run over four pages (their header drawn again on each), the second
	// row of signature boxes does not fit under the table's end, and the page break adds one more.
	expect(read.getPageCount()).toBe(6)
	expect((await PDFDocument.load(await renderArabicPdf({ title: 't', header: 'h', blocks: sample.slice(0, 3) }))).getPageCount()).toBe(1)
	for (const page of read.getPages()) expect([Math.round(page.getWidth()), Math.round(page.getHeight())]).toEqual([595, 842])
	const text = dictionaries(bytes)
	for (const name of ['/JavaScript', '/JS', '/OpenAction', '/AA', '/Launch', '/EmbeddedFile', '/AcroForm', '/URI', '/ObjStm']) expect(text).not.toContain(name)
	// pdf-lib gives each page an empty list of annotations: no link, no form field.
	expect(text).not.toMatch(/\/Annots\s*\[\s*[^\]\s]/)
	expect(inspectPdf(bytes).ok).toBe(true)
	// Only the glyphs drawn are embedded: the four fonts together are far smaller than their files (125 KB).
	expect(bytes.byteLength).toBeLessThan(80_000)
})

test('the same document makes the same pages, and a reader draws them (pdftoppm, when installed)', async () => {
	const spec = { title: 'محضر', header: 'مؤسسة عطاء الخيرية', blocks: sample.slice(0, 3) }
	const [first, second] = [await renderArabicPdf(spec), await renderArabicPdf(spec)]
	expect((await PDFDocument.load(first)).getPageCount()).toBe((await PDFDocument.load(second)).getPageCount())
	let installed = true
	try {
		execFileSync('pdftoppm', ['-v'], { stdio: 'ignore' })
	} catch {
		installed = false
	}
	if (!installed) return
	const png = execFileSync('pdftoppm', ['-png', '-r', '30', '-f', '1', '-l', '1', '-'], { input: first })
	expect(png.subarray(1, 4).toString('latin1')).toBe('PNG')
})
