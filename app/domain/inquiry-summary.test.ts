import { expect, test } from 'vitest'
import { inquiryCounts } from './inquiry-summary.ts'

test('the contact messages are counted in Arabic, never «1 رسالة، منها 1 غير مقروءة» (issue 24 §5.16)', () => {
	expect(inquiryCounts(1, 1, false)).toBe('الرسائل: رسالة واحدة، لم تُقرأ منها رسالة واحدة.')
	expect(inquiryCounts(2, 0, false)).toBe('الرسائل: رسالتان، قُرئت كلها.')
	expect(inquiryCounts(12, 3, true)).toBe('الرسائل المطابقة: 12 رسالةً، لم تُقرأ منها 3 رسائل.')
	expect(inquiryCounts(0, 0, true)).toBe('الرسائل المطابقة: لا رسائل.')
})
