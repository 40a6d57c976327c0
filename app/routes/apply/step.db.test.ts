import { createElement, type ComponentType } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub, RouterContextProvider } from 'react-router'
import { describe, expect, test } from 'vitest'
import { addAttachment, saveSection, startCase } from '#app/cases/case-store.server.ts'
import { needyFamilies } from '#app/forms/definitions/needy-families.ts'
import { basicAnswers, randomNationalId, sectionAnswers } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import Step, { action, loader } from './step.tsx'
import { saveConsent } from '#app/privacy/consent-store.server.ts'

// The files step as the applicant sees it after pressing «حفظ ومتابعة»: the real action, then the
// real page rendered with what it answered.

const app = withAppDatabase()

/** A case with every section but the files one saved, and no required file yet. */
async function caseAtFilesStep() {
	const { row, token } = await startCase(app.handle.db, needyFamilies, basicAnswers(randomNationalId()))
	await saveConsent(app.handle.db, row.id, 'given')
	const { files: _, ...others } = sectionAnswers
	for (const [key, value] of Object.entries(others)) await saveSection(app.handle.db, needyFamilies, row, key, value)
	return { row, token }
}

const headers = { 'x-ataa-client-ip': '203.0.113.20' }
const args = (request: Request, token: string) => ({ request, params: { token, step: 'files' }, context: new RouterContextProvider() })

async function render(token: string, submit?: Record<string, string>) {
	const url = `http://localhost/apply/r/${token}/files`
	let actionData: unknown
	if (submit) {
		const reply = await action(args(new Request(url, { method: 'POST', body: new URLSearchParams(submit), headers }), token) as unknown as Parameters<typeof action>[0])
		actionData = (reply as unknown as { data: unknown }).data
	}
	const loaderData = await loader(args(new Request(url, { headers }), token) as unknown as Parameters<typeof loader>[0])
	const Stub = createRoutesStub([{ id: 'step', path: '/apply/r/:token/:step', Component: Step as unknown as ComponentType }])
	const html = renderToString(createElement(Stub, { initialEntries: [`/apply/r/${token}/files`], hydrationData: { loaderData: { step: loaderData }, actionData: actionData ? { step: actionData } : undefined } }))
	// React's text separators are not something anyone sees.
	return html.replaceAll('<!-- -->', '')
}

/** The <input …> tag with this id. */
const inputTag = (html: string, id: string) => new RegExp(`<input id="${id}"[^>]*>`).exec(html)?.[0] ?? ''

const summaryOf = (html: string) => /<div[^>]*role="alert"[^>]*aria-labelledby="error-summary-title"[^>]*>([\s\S]*?)<\/div>/.exec(html)?.[1] ?? ''

describe('the files step', () => {
	test('a missing required file in the error summary links to its upload control, like every other error', async () => {
		const { token } = await caseAtFilesStep()
		const html = await render(token, { PatientMassage: 'نرجو النظر في حالتنا.' })
		const summary = summaryOf(html)
		expect(summary).toMatch(/<a href="#upload-identity"[^>]*>الرجاء إرفاق صورة الهوية أو الإقامة<\/a>/)
		expect(summary).toMatch(/<a href="#upload-family_report"[^>]*>الرجاء إرفاق سجل الأسرة<\/a>/)
		// The targets are the slots' file inputs, which say what is wrong beside them too.
		expect(inputTag(html, 'upload-identity')).toMatch(/ type="file" .*aria-invalid="true"/)
		expect(inputTag(html, 'upload-family_report')).toMatch(/ type="file" .*aria-invalid="true"/)
		expect(html).toContain('<p id="upload-identity-error" role="alert" class="text-sm font-semibold text-red-800"><span class="sr-only">خطأ: </span>الرجاء إرفاق صورة الهوية أو الإقامة</p>')
	})

	test('uploaded files show their size in decimal kilobytes, and each upload control states the limit', async () => {
		const { row, token } = await caseAtFilesStep()
		await addAttachment(app.handle.db, needyFamilies, row, { slot: 'identity', originalName: 'هوية.pdf', contentType: 'application/pdf', size: 52_163, sha256: 'ab'.repeat(32), storageKey: 'cd'.repeat(32) })
		const html = await render(token)
		expect(html).toContain('<bdi>52 كيلوبايت</bdi>')
		expect(html).toContain('صورة أو ملف PDF (JPEG أو PNG أو WebP أو HEIC)، حتى 10 ميغابايت')
	})
})
