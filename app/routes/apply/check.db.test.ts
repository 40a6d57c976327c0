import { RouterContextProvider } from 'react-router'
import { afterEach, expect, test } from 'vitest'
import { addAttachment, findCaseByReference, saveSection, startCase } from '#app/cases/case-store.server.ts'
import { seedDemoContent } from '#app/seed.server.ts'
import { needyFamilies } from '#app/forms/definitions/needy-families.ts'
import { logNotifier, setNotifier, type NewSubmissionMessage } from '#app/notify/notifier.server.ts'
import { basicAnswers, randomNationalId, sectionAnswers } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { publicOrigin } from '#app/utils/env.server.ts'
import { action } from './check.tsx'
import { saveConsent } from '#app/privacy/consent-store.server.ts'

// Sending the application: the foundation hears of it once, with a link to the case.

const app = withAppDatabase()
afterEach(() => setNotifier(logNotifier))

const file = (slot: string) => ({ slot, originalName: `${slot}.pdf`, contentType: 'application/pdf', size: 1234, sha256: 'ab'.repeat(32), storageKey: 'cd'.repeat(32) })

test('the foundation is e-mailed each new application, with a link to it in the back office', async () => {
	await seedDemoContent(app.handle.db, { cases: false })
	const { row, token } = await startCase(app.handle.db, needyFamilies, basicAnswers(randomNationalId()))
	await saveConsent(app.handle.db, row.id, 'given')
	for (const [key, value] of Object.entries(sectionAnswers)) await saveSection(app.handle.db, needyFamilies, row, key, value)
	for (const slot of ['identity', 'family_report']) await addAttachment(app.handle.db, needyFamilies, row, file(slot))
	const told: NewSubmissionMessage[] = []
	setNotifier({ ...logNotifier, sendNewSubmission: async (message) => (told.push(message), true) })

	const request = new Request(`https://ataa.example/apply/r/${token}/check`, { method: 'POST', body: new URLSearchParams({ acknowledge: 'on' }), headers: { 'x-ataa-client-ip': '203.0.113.30' } })
	const response = (await action({ request, params: { token }, context: new RouterContextProvider() } as unknown as Parameters<typeof action>[0])) as Response
	expect(response.status).toBe(302)
	expect(response.headers.get('Location')).toBe(`/apply/r/${token}/done`)
	expect((await findCaseByReference(app.handle.db, row.reference))?.status).toBe(1)
	expect(told).toEqual([
		{ to: 'info@ataa.org.sa', reference: row.reference, formTitle: needyFamilies.title, applicantName: 'عبدالله محمد سعد القحطاني', adminLink: `${publicOrigin()}/admin/cases/${row.reference}` },
	])
})
