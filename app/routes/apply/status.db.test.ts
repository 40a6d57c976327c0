import { describe, expect, test } from 'vitest'
import { startCase } from '#app/cases/case-store.server.ts'
import { needyFamilies } from '#app/forms/definitions/needy-families.ts'
import { logNotifier, setNotifier } from '#app/notify/notifier.server.ts'
import { basicAnswers, nationalIdFrom, randomNationalId } from '#tests/fixtures/needy-families.ts'
import { publicLimits } from '#app/http/ip-limit.server.ts'
import { hit } from '#app/http/rate-limit.server.ts'
import { withAppDatabase } from '#tests/db.ts'
import { action } from './status.tsx'

const app = withAppDatabase()

function lookup(ip: string, nationalId: string, mobile = '0551234567') {
	const body = new URLSearchParams({ nationalId, mobile, intent: 'lookup' })
	const request = new Request('http://localhost/apply/status', { method: 'POST', body, headers: { 'x-ataa-client-ip': ip } })
	return action({ request, params: {}, context: {} } as Parameters<typeof action>[0])
}

type Refused = { data: { result: { error: Record<string, string[]>; initialValue: Record<string, string> } }; init: { status: number; headers: Record<string, string> } }

describe('/apply/status', () => {
	test('many families behind one address look up their own cases, none is refused', async () => {
		for (let i = 0; i < 60; i++) {
			const answer = await lookup('203.0.113.7', nationalIdFrom(`2${String(i).padStart(8, '0')}`), `0561${String(i).padStart(6, '0')}`)
			expect(answer, `lookup ${i + 1}`).toMatchObject({ cases: [] })
		}
	})

	test('after 10 lookups for one national ID in an hour, from any address, the next says so and when to try again, keeping what was typed', async () => {
		const nationalId = randomNationalId()
		for (let i = 0; i < publicLimits.lookupPerId.limit; i++) expect(await lookup(`198.51.100.${i}`, nationalId, `0571${String(i).padStart(6, '0')}`)).toMatchObject({ cases: [] })
		const limited = (await lookup('198.51.100.200', nationalId, '0580000000')) as unknown as Refused
		expect(limited.init.status).toBe(429)
		expect(limited.data.result.error['']).toEqual(['استعلامات كثيرة بهذا الرقم في الساعة الأخيرة. حاول مرة أخرى بعد ساعة واحدة.'])
		expect(limited.data.result.initialValue).toMatchObject({ nationalId, mobile: '0580000000' })
		expect(Number(limited.init.headers['Retry-After'])).toBeGreaterThan(3500)
		// Another family on the same address is not held back.
		expect(await lookup('198.51.100.200', randomNationalId(), '0580000000')).toMatchObject({ cases: [] })
	})

	test('guessing national IDs for one mobile is stopped per mobile', async () => {
		for (let i = 0; i < publicLimits.lookupPerMobile.limit; i++) expect(await lookup('192.0.2.1', randomNationalId(), '0590000001')).toMatchObject({ cases: [] })
		const limited = (await lookup('192.0.2.2', randomNationalId(), '0590000001')) as unknown as Refused
		expect(limited.init.status).toBe(429)
		expect(limited.data.result.error['']).toEqual(['استعلامات كثيرة برقم الجوال هذا في الساعة الأخيرة. حاول مرة أخرى بعد ساعة واحدة.'])
	})

	test('one address has a ceiling, far above what a crowd of families needs', async () => {
		for (let i = 0; i < publicLimits.lookup.limit; i++) await hit(app.handle.db, publicLimits.lookup, '192.0.2.50')
		const limited = (await lookup('192.0.2.50', randomNationalId(), '0590000050')) as unknown as Refused
		expect(limited.init.status).toBe(429)
		expect(limited.data.result.error['']![0]).toMatch(/^محاولات كثيرة جداً من عنوان اتصالك بالإنترنت\. حاول مرة أخرى بعد/)
		expect(await lookup('192.0.2.51', randomNationalId(), '0590000051')).toMatchObject({ cases: [] })
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
