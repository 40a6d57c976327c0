// The case view's home visits and their photos through the real server (issue 37, §2.9 and §2.10):
// a planned visit is settled once the case no longer waits for it, so the view offers no action on a
// visit that cannot happen; and the visit's photos show as thumbnails, the full photo a link away,
// both behind the case's own authorization.
import sharp from 'sharp'
import { expect, test, type APIRequestContext } from '@playwright/test'
import { recordStudyAs, submitCaseAsStaff } from '../case-fixtures.ts'
import { staffState } from '../utils.ts'

test.describe.configure({ mode: 'default' })

let officer: APIRequestContext
let editor: APIRequestContext
let visitor: APIRequestContext

test.beforeAll(async ({ playwright }, testInfo) => {
	const baseURL = testInfo.project.use.baseURL!
	const context = (storageState?: string) => playwright.request.newContext({ baseURL, storageState, extraHTTPHeaders: { Origin: baseURL } })
	;[officer, editor, visitor] = await Promise.all([context(staffState('case_officer')), context(staffState('content_editor')), context()])
})

test.afterAll(async () => {
	await Promise.all([officer, editor, visitor].map((context) => context?.dispose()))
})

const form = (fields: Record<string, string>) => ({ headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, data: new URLSearchParams(fields).toString(), maxRedirects: 0 })
const tomorrow = () => new Date(Date.now() + 27 * 3600_000).toISOString().slice(0, 10)

/** Plans a visit for tomorrow with the first researcher the case page offers; the case page after it. */
async function planVisit(caseUrl: string): Promise<string> {
	const page = await (await officer.get(caseUrl)).text()
	const researcher = /<select[^>]*name="visitor"[^>]*>[\s\S]*?<option value="(\d+)"/.exec(page)?.[1]
	expect(researcher, 'a researcher to visit').toBeTruthy()
	expect((await officer.post(caseUrl, form({ intent: 'visit', visitOn: tomorrow(), visitAt: '10:00', visitor: researcher! }))).status()).toBe(302)
	const planned = await (await officer.get(caseUrl)).text()
	expect(planned).toContain('إلغاء الموعد')
	return /name="visitId" value="(\d+)"/.exec(planned)![1]!
}

test('a visit planned for tomorrow is done once the study is recorded today, and cancelled when the case is closed before one: the case view offers no action on either', async () => {
	const studied = await submitCaseAsStaff(officer)
	const studiedUrl = `/admin/cases/${studied.reference}`
	await planVisit(studiedUrl)
	// The study is recorded on a day before the one planned: the researcher came early.
	await recordStudyAs(officer, studied.reference)
	const afterStudy = await (await officer.get(studiedUrl)).text()
	expect(afterStudy).not.toContain('إلغاء الموعد')
	expect(afterStudy).toContain('لا موعد زيارة قائم.')

	const closed = await submitCaseAsStaff(officer)
	const closedUrl = `/admin/cases/${closed.reference}`
	const visitId = await planVisit(closedUrl)
	expect((await officer.post(closedUrl, form({ intent: 'status', to: '6', note: 'انتقلت الأسرة إلى مدينة أخرى' }))).status()).toBe(302)
	const afterClosing = await (await officer.get(closedUrl)).text()
	expect(afterClosing).not.toContain('إلغاء الموعد')
	expect(afterClosing).toContain('لا موعد زيارة قائم.')
	// Nor does the form still take it.
	const late = await officer.post(closedUrl, form({ intent: 'cancel-visit', visitId }))
	expect(late.status()).toBe(409)
	expect(await late.text()).toContain('لم يعد هذا الموعد قائماً')
})

test("the case view shows a visit's photos as small thumbnails; the full photo is its link, for staff who handle cases only", async () => {
	const submitted = await submitCaseAsStaff(officer)
	const caseUrl = `/admin/cases/${submitted.reference}`
	await recordStudyAs(officer, submitted.reference)
	// A camera's photo: 1600 pixels of detail, some hundreds of kilobytes.
	const noise = Buffer.from(Array.from({ length: 400 * 300 * 3 }, (_, i) => (i * 7919) % 251))
	const photo = await sharp(noise, { raw: { width: 400, height: 300, channels: 3 } })
		.resize(1600, 1200, { kernel: 'nearest' })
		.blur(0.6)
		.jpeg({ quality: 90 })
		.toBuffer()
	const uploaded = await officer.post(`${caseUrl}/study/photos`, { multipart: { photos: { name: 'house.jpg', mimeType: 'image/jpeg', buffer: photo } }, maxRedirects: 0 })
	expect(uploaded.status()).toBe(302)

	const page = await (await officer.get(caseUrl)).text()
	const tile = /<a href="([^"]+\/files\/[0-9a-f-]{36}\?inline=1)"[^>]*>\s*<img src="([^"]+)"[^>]*alt="صورة الزيارة 1"/.exec(page)
	expect(tile, 'the visit photo tile on the case view').toBeTruthy()
	const [, full, thumbnail] = tile!
	expect(thumbnail!.replace(/&amp;/g, '&')).toMatch(/\/files\/[0-9a-f-]{36}\?size=thumbnail$/)

	const small = await officer.get(thumbnail!.replace(/&amp;/g, '&'))
	expect(small.status()).toBe(200)
	expect(small.headers()['content-type']).toBe('image/webp')
	const thumbnailBytes = (await small.body()).length
	const fullPhoto = await officer.get(full!.replace(/&amp;/g, '&'))
	expect(fullPhoto.status()).toBe(200)
	const fullBytes = (await fullPhoto.body()).length
	expect(thumbnailBytes, `thumbnail ${thumbnailBytes} bytes, photo ${fullBytes}`).toBeLessThan(40_000)
	expect(thumbnailBytes * 5).toBeLessThan(fullBytes)
	expect((await sharp(await small.body()).metadata()).width).toBe(320)

	// Neither is reachable by staff who do not handle cases, nor by a visitor.
	for (const path of [thumbnail!, full!].map((href) => href.replace(/&amp;/g, '&'))) {
		expect((await editor.get(path, { maxRedirects: 0 })).status(), `a content editor: ${path}`).toBe(403)
		expect([302, 303], `a visitor: ${path}`).toContain((await visitor.get(path, { maxRedirects: 0 })).status())
	}
})
