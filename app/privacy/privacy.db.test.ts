import { RouterContextProvider } from 'react-router'
import { and, eq, isNull } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { attachments, caseEvents, caseSections, cases, privacyNotices } from '#app/db/schema.ts'
import { addAttachment, findCaseByReference, IncompleteCaseError, loadSavedState, saveSection, startCase, submitCase } from '#app/cases/case-store.server.ts'
import { needyFamilies } from '#app/forms/definitions/needy-families.ts'
import { medicalCase } from '#app/forms/definitions/medical-case.ts'
import { basicAnswers, randomNationalId, sectionAnswers, attachmentRow } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { seedDemoContent } from '#app/seed.server.ts'
import { currentNotice, EmptyNoticeError, ensureDefaultNotice, listNotices, publishNotice } from './notice.server.ts'
import { ConsentLockedError, saveConsent } from '#app/privacy/consent-store.server.ts'
import { describeConsent } from '#app/privacy/consent-rules.ts'
import { action as consentAction, loader as consentLoader } from '#app/routes/apply/consent.tsx'
import { loader as privacyLoader } from '#app/routes/public/privacy.tsx'

// The privacy notice's versions and the consent step's record (docs/product.md#privacy-and-consent).

const app = withAppDatabase()
const staff = async () => {
	const [user] = await app.handle.db.execute<{ id: number }>(`insert into users (name, email, password_hash, roles) values ('محررة المحتوى', 'editor-${randomNationalId()}@example.org', 'x', '{content_editor}') returning id`).then((result) => result.rows)
	return { id: user!.id, name: 'محررة المحتوى' }
}

describe('the privacy notice', () => {
	test('the first start writes one default notice, complete under the PDPL; starting again adds nothing', async () => {
		await ensureDefaultNotice(app.handle.db)
		await ensureDefaultNotice(app.handle.db)
		const all = await app.handle.db.select().from(privacyNotices)
		expect(all).toHaveLength(1)
		const body = all[0]!.body
		for (const words of ['الجهة المسؤولة عن بياناتك', 'البيانات الصحية', 'الحساب البنكي', 'بموافقتك الصريحة', 'لا نبيع بياناتك', 'داخل المملكة العربية السعودية', '24 شهراً', 'تحصل على نسخة منها', 'تصحيح', 'إتلاف', 'تسحب موافقتك', 'خلال 30 يوماً', 'الهيئة السعودية للبيانات والذكاء الاصطناعي']) {
			expect(body).toContain(words)
		}
		expect(body).toContain('<a href="/contact" rel="noopener noreferrer">')
	})

	test('each publication is a new version, sanitised, and the newest is the one /privacy shows', async () => {
		await seedDemoContent(app.handle.db, { cases: false })
		await ensureDefaultNotice(app.handle.db)
		const editor = await staff()
		const before = (await currentNotice(app.handle.db))!
		const published = await publishNotice(app.handle.db, '<h2>تحديث</h2><p onclick="x()">نص جديد<script>alert(1)</script></p>', editor)
		expect(published.version).toBe(before.version + 1)
		expect(published.body).toBe('<h2>تحديث</h2><p>نص جديد</p>')
		expect(published).toMatchObject({ publishedBy: editor.id, publishedByName: 'محررة المحتوى' })
		expect((await currentNotice(app.handle.db))!.version).toBe(published.version)
		const versions = await listNotices(app.handle.db)
		expect(versions.map((version) => version.version)).toEqual([published.version, before.version])
		await expect(publishNotice(app.handle.db, '<p> </p><script>x</script>', editor)).rejects.toBeInstanceOf(EmptyNoticeError)
		expect((await listNotices(app.handle.db)).length).toBe(versions.length)

		const page = await privacyLoader()
		expect(page.notice).toMatchObject({ version: published.version, body: '<h2>تحديث</h2><p>نص جديد</p>' })
	})
})

describe('consent', () => {
	const headers = { 'x-ataa-client-ip': '203.0.113.31' }
	const post = (token: string, consent: string, query = '') =>
		consentAction({ request: new Request(`http://localhost/apply/r/${token}/consent${query}`, { method: 'POST', body: new URLSearchParams({ consent }), headers }), params: { token }, context: new RouterContextProvider() } as never)
	const get = (token: string) => consentLoader({ request: new Request(`http://localhost/apply/r/${token}/consent`, { headers }), params: { token }, context: new RouterContextProvider() } as never)
	const location = async (promise: Promise<unknown>) => {
		const result = await promise.catch((thrown: unknown) => thrown)
		return (result as Response).headers.get('Location')
	}

	test('the step names what it asks for; agreeing records the time and the notice version, then the bank details follow', async () => {
		await ensureDefaultNotice(app.handle.db)
		const { row, token } = await startCase(app.handle.db, needyFamilies, basicAnswers(randomNationalId()))
		// Before answering, the bank step is not open: it sends the applicant to the consent step.
		await expect(loadSavedState(app.handle.db, row.id)).resolves.toMatchObject({ consent: null })
		const page = await get(token)
		expect(page).toMatchObject({ heading: 'الموافقة على البيانات المالية', items: ['البيانات البنكية', 'كشف حساب بنكي'], answer: null, kept: '24 شهراً' })
		// No choice: the page says so, and nothing is recorded.
		expect(await post(token, '')).toMatchObject({ init: { status: 400 }, data: { error: 'اختر «أوافق» أو «لا أوافق» للمتابعة.' } })
		await expect(loadSavedState(app.handle.db, row.id)).resolves.toMatchObject({ consent: null })
		expect(await location(post(token, 'given'))).toBe(`/apply/r/${token}/bank`)
		const saved = (await findCaseByReference(app.handle.db, row.reference))!
		const version = (await currentNotice(app.handle.db))!.version
		expect(saved).toMatchObject({ consent: 'given', consentNoticeVersion: version })
		expect(saved.consentAt).toBeInstanceOf(Date)
		expect(describeConsent(saved)).toContain(`(إشعار الخصوصية، الإصدار ${version})`)
		const events = await app.handle.db.select().from(caseEvents).where(eq(caseEvents.caseId, row.id))
		expect(events.at(-1)).toMatchObject({ kind: 'section_saved', data: { section: 'consent', consent: 'given', noticeVersion: version } })
	})

	test('declined: the bank section and the bank statement are not sent, the case is; then the answer is locked', async () => {
		const { row, token } = await startCase(app.handle.db, needyFamilies, basicAnswers(randomNationalId()))
		// Without an answer the case cannot be sent, even with every section filled in.
		for (const [key, value] of Object.entries(sectionAnswers)) await saveSection(app.handle.db, needyFamilies, row, key, value)
		for (const slot of ['identity', 'family_report', 'bank_statement']) await addAttachment(app.handle.db, needyFamilies, row, attachmentRow(slot))
		await expect(submitCase(app.handle.db, needyFamilies, row)).rejects.toBeInstanceOf(IncompleteCaseError)
		// Agreed first, then changed to «لا أوافق» (from the check page, which it returns to).
		await post(token, 'given')
		expect(await location(post(token, 'declined', '?return=check'))).toBe(`/apply/r/${token}/check`)
		const sent = await submitCase(app.handle.db, needyFamilies, (await findCaseByReference(app.handle.db, row.reference))!)
		expect(sent).toMatchObject({ consent: 'declined', status: 1 })
		expect(describeConsent(sent)).toBe('لم يوافق: لم تُجمع هذه البيانات')
		const sections = await app.handle.db.select({ section: caseSections.section }).from(caseSections).where(eq(caseSections.caseId, row.id))
		expect(sections.map((section) => section.section)).not.toContain('bank')
		const files = await app.handle.db.select({ slot: attachments.slot }).from(attachments).where(and(eq(attachments.caseId, row.id), isNull(attachments.deletedAt)))
		expect(files.map((file) => file.slot).sort()).toEqual(['family_report', 'identity'])
		await expect(saveConsent(app.handle.db, row.id, 'given')).rejects.toBeInstanceOf(ConsentLockedError)
		// The consent page of a sent case leads back to the case.
		expect(await location(get(token))).toBe(`/apply/r/${token}`)
	})

	test('the medical case, declined: no health section nor medical report is asked, and the case still sends', async () => {
		const { row, token } = await startCase(app.handle.db, medicalCase, basicAnswers(randomNationalId()))
		expect(await location(post(token, 'declined'))).toBe(`/apply/r/${token}/financial`)
		expect((await get(token)).heading).toBe('الموافقة على البيانات الصحية والمالية')
		const state = await loadSavedState(app.handle.db, row.id)
		expect(state.consent).toBe('declined')
	})

	test('a case sent before the consent step existed is shown as such, and keeps its bank details', async () => {
		const { row } = await startCase(app.handle.db, needyFamilies, basicAnswers(randomNationalId()))
		await app.handle.db.update(cases).set({ submittedAt: new Date(), status: 1 }).where(eq(cases.id, row.id))
		const legacy = (await findCaseByReference(app.handle.db, row.reference))!
		expect(describeConsent(legacy)).toBe('سُجّل قبل طلب الموافقة')
		expect((await loadSavedState(app.handle.db, row.id)).consent).toBe('given')
	})
})
