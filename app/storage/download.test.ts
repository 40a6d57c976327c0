import { describe, expect, test } from 'vitest'
import { byteRange, storedFileHeaders } from './download.server.ts'

test.each([
	[null, 1000, null],
	['bytes=0-', 1000, { start: 0, end: 999 }],
	['bytes=100-199', 1000, { start: 100, end: 199 }],
	['bytes=900-5000', 1000, { start: 900, end: 999 }],
	['bytes=-100', 1000, { start: 900, end: 999 }],
	['bytes=-5000', 1000, { start: 0, end: 999 }],
	['bytes=1000-', 1000, 'unsatisfiable'],
	['bytes=200-100', 1000, 'unsatisfiable'],
	['bytes=-0', 1000, 'unsatisfiable'],
	['bytes=0-', 0, 'unsatisfiable'],
	// Several ranges, other units and nonsense: the whole file.
	['bytes=0-1,5-6', 1000, null],
	['items=0-1', 1000, null],
	['bytes=-', 1000, null],
])('Range %s of %i bytes → %o', (header, size, expected) => {
	expect(byteRange(header, size)).toEqual(expected)
})

describe('storedFileHeaders', () => {
	const csp = "sandbox; default-src 'none'; frame-ancestors 'none'"

	test('a PDF: its type, the sandbox policy, and a name that keeps its Arabic', () => {
		expect(storedFileHeaders({ originalName: 'هوية الأب.pdf', contentType: 'application/pdf' }, 'attachment')).toEqual({
			'Content-Type': 'application/pdf',
			'Content-Disposition': `attachment; filename="document.pdf"; filename*=UTF-8''${encodeURIComponent('هوية الأب.pdf')}`,
			'Content-Security-Policy': csp,
		})
	})

	test('framed by our own pages only when asked (the case view preview)', () => {
		expect(storedFileHeaders({ originalName: 'a.pdf', contentType: 'application/pdf' }, 'inline', 'self')['Content-Security-Policy']).toBe("sandbox; default-src 'none'; frame-ancestors 'self'")
		expect(storedFileHeaders({ originalName: 'a.pdf', contentType: 'application/pdf' }, 'inline', 'self')['Content-Disposition']).toMatch(/^inline; /)
	})

	test.each(['text/html', 'image/svg+xml', 'application/xhtml+xml', 'text/xml', 'application/javascript', '', 'application/x-msdownload'])('a row of type %j goes out as bytes to download, never shown', (contentType) => {
		const headers = storedFileHeaders({ originalName: 'x.html', contentType }, 'inline')
		expect(headers['Content-Type']).toBe('application/octet-stream')
		expect(headers['Content-Disposition']).toMatch(/^attachment; filename="file\.bin"; /)
	})

	test('the name sent is cleaned again (a row from before the check) and fully encoded', () => {
		const disposition = storedFileHeaders({ originalName: "../ملف\u202Efdp.exe\u0085's (1)*.pdf\r\nX-Injected: 1", contentType: 'application/pdf' }, 'attachment')['Content-Disposition']
		expect(disposition).toBe(`attachment; filename="document.pdf"; filename*=UTF-8''${encodeURIComponent('ملفfdp.exe')}%27s%20%281%29%2A.pdfX-Injected%3A%201.pdf`)
		expect(disposition).toMatch(/^[\x20-\x7e]+$/)
	})

	test('the name a file is saved under always ends as its bytes are', () => {
		const savedAs = (originalName: string, contentType: string) => decodeURIComponent(/filename\*=UTF-8''(.*)$/.exec(storedFileHeaders({ originalName, contentType }, 'attachment')['Content-Disposition']!)![1]!)
		expect(savedAs('كشف حساب.pdf.exe', 'application/pdf')).toBe('كشف حساب.pdf.exe.pdf')
		expect(savedAs('تقرير.PDF', 'application/pdf')).toBe('تقرير.PDF')
		expect(savedAs('صورة.jpeg', 'image/jpeg')).toBe('صورة.jpeg')
		expect(savedAs('صورة.jpg.html', 'image/jpeg')).toBe('صورة.jpg.html.jpg')
		expect(savedAs('مقطع', 'video/mp4')).toBe('مقطع.mp4')
	})
})
