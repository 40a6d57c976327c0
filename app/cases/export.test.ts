import { expect, test } from 'vitest'
import { exportColumns } from './export.server.ts'

test('one column per answer of the programme, after the case columns', () => {
	const headers = exportColumns(['needy-families']).map((column) => column.header)
	expect(headers.slice(0, 3)).toEqual(['رقم الطلب', 'نوع الطلب', 'الحالة'])
	expect(headers).toContain('البيانات الأساسية - الاسم الرباعي')
	expect(headers).toContain('أفراد الأسرة - فرد: الاسم')
	expect(headers).toContain('تاريخ الإرسال (هجري)')
	expect(new Set(headers).size).toBe(headers.length)
})
