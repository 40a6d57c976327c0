import { submitCaseAsStaff } from './case-fixtures.ts'
import { expect, staffState, test } from './utils.ts'

// The applicant's own files behind the private link (app/routes/apply/file.ts): «عرض» shows a PDF
// or a picture in the browser, still sandboxed and never framed; without ?inline=1 it downloads.

test.use({ storageState: staffState('case_officer') })

test('«عرض» on the attachments step shows the applicant\'s PDF inline in a new tab; the plain link downloads it', async ({ page, pageAs }) => {
	const draft = await submitCaseAsStaff(page.request, { submit: false })
	const applicant = await pageAs('visitor')
	await applicant.goto(`/apply/r/${draft.token}/files`)
	// The identity given as one PDF: the document is that PDF.
	await expect(applicant.getByRole('region', { name: /صورة الهوية أو الإقامة/ }).getByRole('listitem').filter({ hasText: 'هوية-المتقدم.pdf' })).toBeVisible()
	const view = applicant.getByRole('link', { name: /^عرض صورة الهوية أو الإقامة: ملف PDF من صفحة واحدة/ })
	await expect(view).toHaveAttribute('target', '_blank')
	const href = (await view.getAttribute('href'))!
	expect(href).toMatch(/\/files\/[0-9a-f-]{36}\?inline=1$/)

	const shown = await applicant.request.get(href)
	expect(shown.status()).toBe(200)
	expect(shown.headers()['content-type']).toBe('application/pdf')
	expect(shown.headers()['content-disposition']).toMatch(/^inline; /)
	expect(shown.headers()['content-security-policy']).toBe("sandbox; default-src 'none'; frame-ancestors 'none'")
	expect(shown.headers()['x-content-type-options']).toBe('nosniff')
	expect(shown.headers()['cache-control']).toContain('no-store')

	const downloaded = await applicant.request.get(href.replace('?inline=1', ''))
	expect(downloaded.headers()['content-disposition']).toMatch(/^attachment; /)
	await applicant.context().close()
})
