import { eq } from 'drizzle-orm'
import { afterAll, expect, test } from 'vitest'
import { startCase } from '#app/cases/case-store.server.ts'
import { caseMessages, cases } from '#app/db/schema.ts'
import { needyFamilies } from '#app/forms/definitions/needy-families.ts'
import { setSmsDriver } from '#app/notify/notifier.server.ts'
import { smsDriver } from '#app/notify/sms.server.ts'
import { runReminders } from '#app/operations/reminders.server.ts'
import { basicAnswers, randomNationalId } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { proveMobile, removeUnprovenDrafts } from './case-verification.server.ts'

// With codes on (docs/security.md#verified-mobile): a draft whose mobile no code proved is never
// reminded, and goes 48 hours after it was started; a proven one stays and is reminded.
process.env.APPLICANT_VERIFICATION = 'on'

const app = withAppDatabase()
const db = () => app.handle.db
const texts: string[] = []
setSmsDriver(
	smsDriver('unifonic', async (to) => {
		texts.push(to)
		return { ok: true, provider: 'fake' }
	}),
)
afterAll(() => setSmsDriver(undefined))

const HOUR = 60 * 60 * 1000
const exists = async (id: string) => (await db().select({ id: cases.id }).from(cases).where(eq(cases.id, id))).length === 1

test('a draft no code proved is not reminded and goes after 48 hours; a proven draft is reminded and stays', async () => {
	const { row: unproven } = await startCase(db(), needyFamilies, basicAnswers(randomNationalId(), '0551230001'), { duplicates: 'none' })
	const { row: proven } = await startCase(db(), needyFamilies, basicAnswers(randomNationalId(), '0551230002'), { duplicates: 'none' })
	await proveMobile(db(), proven)

	const twoDays = new Date(proven.createdAt.getTime() + 48 * HOUR + 1)
	expect(await runReminders(db(), twoDays)).toMatchObject({ drafts: 1 })
	expect(texts).toEqual([proven.mobile])
	expect(await db().select().from(caseMessages).where(eq(caseMessages.caseId, unproven.id))).toEqual([])

	expect(await removeUnprovenDrafts(db(), new Date(unproven.createdAt.getTime() + 47 * HOUR))).toBe(0)
	expect(await exists(unproven.id)).toBe(true)
	expect(await removeUnprovenDrafts(db(), new Date(unproven.createdAt.getTime() + 49 * HOUR))).toBe(1)
	expect(await exists(unproven.id)).toBe(false)
	expect(await exists(proven.id)).toBe(true)
})
