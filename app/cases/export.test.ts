import { expect, test } from 'vitest'
import { exportColumns, safeCell } from './export.server.ts'

test('text that looks like a formula is exported as text', () => {
	expect(safeCell('=HYPERLINK("http://evil.example","x")')).toBe(`'=HYPERLINK("http://evil.example","x")`)
	for (const value of ['+966', '-1', '@SUM(A1)', '\t=1']) expect(safeCell(value).startsWith("'")).toBe(true)
	expect(safeCell('عبدالله')).toBe('عبدالله')
	expect(safeCell('—')).toBe('—')
})

test('one column per answer of the programme, after the case columns', () => {
	const headers = exportColumns(['needy-families']).map((column) => column.header)
	expect(headers.slice(0, 3)).toEqual(['رقم الطلب', 'نوع الطلب', 'الحالة'])
	expect(headers).toContain('البيانات الأساسية - الاسم الرباعي')
	expect(headers).toContain('أفراد الأسرة - فرد: الاسم')
	expect(headers).toContain('تاريخ الإرسال (هجري)')
	expect(new Set(headers).size).toBe(headers.length)
})
