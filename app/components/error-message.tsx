import { isRouteErrorResponse } from 'react-router'
import { PageTitle, TOO_MANY_TRIES } from './forms.tsx'
import { BODY_TOO_LARGE, BODY_TOO_LARGE_TITLE, NOT_A_FORM } from '#app/utils/request-guards.ts'

/** The Arabic title and explanation of an error a visitor can reach. */
export function ErrorMessage({ error }: { error: unknown }) {
	let title = 'حدث خطأ'
	let text = 'حدث خطأ غير متوقع. حاول مرة أخرى بعد قليل.'
	if (isRouteErrorResponse(error)) {
		if (error.status === 404) {
			title = 'الصفحة غير موجودة'
			text = 'لم نجد الصفحة التي تبحث عنها. ربما نُقلت أو أن الرابط غير صحيح.'
		} else if (error.status === 403) {
			title = 'غير مسموح'
			text = typeof error.data === 'string' && error.data ? error.data : 'ليست لديك صلاحية لهذا الطلب.'
		} else if (error.status === 429) {
			title = TOO_MANY_TRIES
			text = typeof error.data === 'string' && error.data ? error.data : 'محاولات كثيرة من جهازك. حاول مرة أخرى بعد قليل.'
		} else if (error.status === 400) {
			title = 'طلب غير صالح'
			text = typeof error.data === 'string' && error.data ? error.data : 'لم نستطع قراءة هذا الطلب. ارجع إلى الصفحة السابقة وحاول مرة أخرى.'
		} else if (error.status === 405) {
			title = 'طلب غير مدعوم'
			text = 'لا تقبل هذه الصفحة هذا النوع من الطلبات.'
		} else if (error.status === 413) {
			title = BODY_TOO_LARGE_TITLE
			text = typeof error.data === 'string' && error.data ? error.data : BODY_TOO_LARGE
		} else if (error.status === 415) {
			title = 'طلب غير مدعوم'
			text = typeof error.data === 'string' && error.data ? error.data : NOT_A_FORM
		}
	}
	return (
		<>
			<PageTitle title={title} />
			<h1 className="text-2xl font-bold text-brand-900">{title}</h1>
			<p className="mt-3 text-stone-700">{text}</p>
		</>
	)
}
