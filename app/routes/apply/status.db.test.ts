import { describe, expect, test } from 'vitest'
import { startCase } from '#app/cases/case-store.server.ts'
import { needyFamilies } from '#app/forms/definitions/needy-families.ts'
import { logNotifier, setNotifier } from '#app/notify/notifier.server.ts'
import { basicAnswers, randomNationalId } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { action } from './status.tsx'

const app = withAppDatabase()

function lookup(ip: string, nationalId: string) {
	const body = new URLSearchParams({ nationalId, mobile: '0551234567', intent: 'lookup' })
	const request = new Request('http://localhost/apply/status', { method: 'POST', body, headers: { 'x-ataa-client-ip': ip } })
	return action({ request, params: {}, context: {} } as Parameters<typeof action>[0])
}

describe('/apply/status', () => {
	test('after too many lookups from one address it says so and when to try again, keeping what was typed', async () => {
		const nationalId = randomNationalId()
		for (let i = 0; i < 10; i++) {
			const answer = await lookup('203.0.113.7', nationalId)
			expect(answer).toMatchObject({ cases: [] })
		}
		const limited = await lookup('203.0.113.7', nationalId)
		expect(limited).toMatchObject({ init: { status: 429 } })
		const { data: body, init } = limited as unknown as { data: { result: { error: Record<string, string[]>; initialValue: Record<string, string> } }; init: { headers: Record<string, string> } }
		expect(body.result.error['']).toEqual(['محاولات كثيرة من جهازك. حاول مرة أخرى بعد 10 دقائق.'])
		expect(body.result.initialValue).toMatchObject({ nationalId, mobile: '0551234567' })
		expect(Number(init.headers['Retry-After'])).toBeGreaterThan(540)
		// Another address is not held back.
		expect(await lookup('203.0.113.8', nationalId)).toMatchObject({ cases: [] })
	})

	test('the lookup offers to e-mail the link only when e-mail can be sent', async () => {
		const nationalId = randomNationalId()
		await startCase(app.handle.db, needyFamilies, { ...basicAnswers(nationalId), Email: 'family@example.org' })
		setNotifier(logNotifier)
		expect(await lookup('203.0.113.20', nationalId)).toMatchObject({ cases: [{ canSendLink: false }] })
		setNotifier({ ...logNotifier, emails: true })
		expect(await lookup('203.0.113.20', nationalId)).toMatchObject({ cases: [{ canSendLink: true, maskedEmail: 'f•••@e•••.org' }] })
		setNotifier(logNotifier)
	})
})
