import { RouterContextProvider } from 'react-router'
import { expect, test } from 'vitest'
import { startCase } from '#app/cases/case-store.server.ts'
import { medicalCase } from '#app/forms/definitions/medical-case.ts'
import { needyFamilies } from '#app/forms/definitions/needy-families.ts'
import { stepLabel } from '#app/cases/journey.ts'
import { saveConsent } from '#app/privacy/consent-store.server.ts'
import { basicAnswers, randomNationalId } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { loader } from './overview.tsx'

// The overview's map of steps never changes under the applicant (issue 24 part 5.11): before consent,
// after it and after a refusal it lists the same steps as the step pages count («من 8»).

const app = withAppDatabase()

async function sections(token: string) {
	const request = new Request(`http://localhost/apply/r/${token}`, { headers: { 'x-ataa-client-ip': '203.0.113.21' } })
	const data = await loader({ request, params: { token }, context: new RouterContextProvider() } as unknown as Parameters<typeof loader>[0])
	return data.sections
}

test('before consent the bank step is on the map, not reachable yet; declined, it stays there as not asked', async () => {
	const { row, token } = await startCase(app.handle.db, needyFamilies, basicAnswers(randomNationalId()))
	const before = await sections(token)
	const titles = before.map((section) => section.title)
	// The steps the pages count, plus the check page.
	expect(titles).toHaveLength(Number(/من (\d+)/.exec(stepLabel(needyFamilies, 'basic', {}))![1]) + 1)
	expect(stepLabel(needyFamilies, 'basic', {})).toBe('الخطوة 1 من 8')
	const bank = before.find((section) => section.title === 'البيانات البنكية')!
	expect(bank).toMatchObject({ open: false, done: false, skipped: false })

	await saveConsent(app.handle.db, row.id, 'declined')
	const declined = await sections(token)
	expect(declined.map((section) => section.title)).toEqual(titles)
	expect(declined.find((section) => section.title === 'البيانات البنكية')).toMatchObject({ open: false, done: false, skipped: true })

	await saveConsent(app.handle.db, row.id, 'given')
	const given = await sections(token)
	expect(given.map((section) => section.title)).toEqual(titles)
	expect(given.find((section) => section.title === 'البيانات البنكية')).toMatchObject({ skipped: false })
})

test('the medical case shows its bank and health steps before consent: 11 steps', async () => {
	const { token } = await startCase(app.handle.db, medicalCase, basicAnswers(randomNationalId()))
	const titles = (await sections(token)).map((section) => section.title)
	expect(stepLabel(medicalCase, 'basic', {})).toBe('الخطوة 1 من 11')
	expect(titles).toHaveLength(12)
	expect(titles).toContain('البيانات البنكية')
	expect(titles).toContain('الحالة الصحية للمريض')
})
