// What the server takes before a route reads anything (docs/security.md#errors): the methods a page
// or a form sends, and form bodies. Anything else gets its proper status and an Arabic answer,
// never a 500 (a route's request.formData() throws on a JSON body) nor Express's English page.

/** A link or a form sends nothing else; server.mjs answers any other method 405. */
export const ALLOWED_METHODS: readonly string[] = ['GET', 'HEAD', 'POST']

/** The 405 page server.mjs sends itself: React Router cannot make a request of some methods (TRACE). */
export const METHOD_NOT_ALLOWED_PAGE = `<!DOCTYPE html>
<html lang="ar" dir="rtl"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>طلب غير مدعوم | مؤسسة عطاء الخيرية</title></head>
<body><main><h1>طلب غير مدعوم</h1><p>لا تقبل هذه الصفحة هذا النوع من الطلبات.</p><p><a href="/">العودة إلى الصفحة الرئيسية</a></p></main></body></html>
`

/** What a page's form sends (a file upload's too); the refusal of anything else (415). */
export const FORM_BODY = /^(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i
export const NOT_A_FORM = 'لم نستطع قراءة هذا الطلب: أرسل النموذج من صفحته في الموقع.'

/** A form larger than its page takes (app/http/body-limits.server.ts): what the 413 says. */
export const BODY_TOO_LARGE_TITLE = 'ما أُرسل أكبر من المسموح'
export const BODY_TOO_LARGE =
	'ما أرسلته أكبر مما تقبله هذه الصفحة، فلم يُحفظ منه شيء. ارجع إلى الصفحة السابقة بزر الرجوع في متصفحك تجد ما كتبته فيها، واختصر أطول ما فيه ثم أرسله مرة أخرى.'

/** The 413 page server.mjs sends itself, before React Router reads the body; `back` links to the form's page. */
export function bodyTooLargePage(back: string): string {
	// Only a path of this site, and nothing that would need escaping in the attribute.
	const href = /^\/(?![/\\])[\w\-./~%]*$/.test(back) ? back : '/'
	return `<!DOCTYPE html>
<html lang="ar" dir="rtl"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${BODY_TOO_LARGE_TITLE} | مؤسسة عطاء الخيرية</title></head>
<body><main><h1>${BODY_TOO_LARGE_TITLE}</h1><p>${BODY_TOO_LARGE}</p><p><a href="${href}">العودة إلى الصفحة</a> · <a href="/">الصفحة الرئيسية</a></p></main></body></html>
`
}
