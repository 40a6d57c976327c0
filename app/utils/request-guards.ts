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
