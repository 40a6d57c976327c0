import { RouterContextProvider } from 'react-router'
import { afterEach, expect, test } from 'vitest'
import { addAttachment, findCaseByReference, saveSection, startCase } from '#app/cases/case-store.server.ts'
import { seedDemoContent } from '#app/seed.server.ts'
import { needyFamilies } from '#app/forms/definitions/needy-families.ts'
import { eq } from 'drizzle-orm'
import { createNotifier, logNotifier, setNotifier } from '#app/notify/notifier.server.ts'
import { caseMessages } from '#app/db/schema.ts'
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
	const told: { to: unknown; subject: unknown; text: unknown }[] = []
	setNotifier(createNotifier({ mail: { from: 'no-reply@ataa.org.sa', transport: { sendMail: async ({ to, subject, text }) => told.push({ to, subject, text }) } } }))

	const request = new Request(`https://ataa.example/apply/r/${token}/check`, { method: 'POST', body: new URLSearchParams({ acknowledge: 'on' }), headers: { 'x-ataa-client-ip': '203.0.113.30' } })
	const response = (await action({ request, params: { token }, context: new RouterContextProvider() } as unknown as Parameters<typeof action>[0])) as Response
	expect(response.status).toBe(302)
	expect(response.headers.get('Location')).toBe(`/apply/r/${token}/done`)
	expect((await findCaseByReference(app.handle.db, row.reference))?.status).toBe(1)
	// Kept with the case's messages, and sent: the reference, the programme, the applicant and the case's link in the back office.
	const stored = await app.handle.db.select().from(caseMessages).where(eq(caseMessages.caseId, row.id))
	expect(stored).toEqual([expect.objectContaining({ event: 'new-submission', channel: 'email', recipient: 'info@ataa.org.sa', status: 'sent', subject: `طلب جديد رقم ${row.reference}: ${needyFamilies.title}` })])
	expect(stored[0]!.body).toContain('مقدم الطلب: عبدالله محمد سعد القحطاني')
	expect(stored[0]!.body).toContain(`${publicOrigin()}/admin/cases/${row.reference}`)
	expect(told).toEqual([{ to: 'info@ataa.org.sa', subject: stored[0]!.subject, text: stored[0]!.body }])
})
