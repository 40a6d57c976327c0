import { countOf, messages } from '#app/text/arabic-count.ts'

/** The contact messages' line on /admin/inquiries: «الرسائل: 3 رسائل، لم تُقرأ منها رسالتان.», never «1 رسالة». */
export function inquiryCounts(total: number, unread: number, searched: boolean): string {
	const all = `${searched ? 'الرسائل المطابقة' : 'الرسائل'}: ${countOf(total, messages)}`
	if (total === 0) return `${all}.`
	return unread === 0 ? `${all}، قُرئت كلها.` : `${all}، لم تُقرأ منها ${countOf(unread, messages)}.`
}
