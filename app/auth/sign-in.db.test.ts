import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { sql } from 'drizzle-orm'
import type { DatabaseHandle } from '#app/db/client.server.ts'
import { createUser, findUserByEmail, setActive } from '#app/domain/staff-users.server.ts'
import { createTestDatabase } from '#tests/db.ts'
import { hit } from '#app/http/rate-limit.server.ts'
import { attemptSignIn, signInLimits } from './sign-in.server.ts'

let handle: DatabaseHandle
let userId: number

beforeAll(async () => {
	handle = await createTestDatabase()
	const user = await createUser(handle.db, {
		name: 'سارة العتيبي',
		email: 'Sara@Example.org',
		mobile: '+966551234567',
		roles: ['case_officer'],
		password: 'Correct-Horse-9',
	})
	userId = user.id
})
afterAll(() => handle.close())
beforeEach(async () => {
	await handle.db.execute(sql`delete from rate_limits`)
	await setActive(handle.db, userId, true)
})

describe('attemptSignIn', () => {
	test('the right e-mail (any letter case) and password sign in and record the time', async () => {
		const result = await attemptSignIn(handle.db, { email: ' SARA@example.org ', password: 'Correct-Horse-9', ip: '10.0.0.1' })
		expect(result.ok).toBe(true)
		const stored = await findUserByEmail(handle.db, 'sara@example.org')
		expect(stored?.lastSignInAt).toBeInstanceOf(Date)
	})

	test('a wrong password and an unknown e-mail fail the same way', async () => {
		const wrong = await attemptSignIn(handle.db, { email: 'sara@example.org', password: 'nope', ip: '10.0.0.2' })
		const unknown = await attemptSignIn(handle.db, { email: 'nobody@example.org', password: 'nope', ip: '10.0.0.2' })
		expect(wrong).toEqual({ ok: false, reason: 'invalid' })
		expect(unknown).toEqual({ ok: false, reason: 'invalid' })
	})

	test('an inactive user cannot sign in, even with the right password', async () => {
		await setActive(handle.db, userId, false)
		const result = await attemptSignIn(handle.db, { email: 'sara@example.org', password: 'Correct-Horse-9', ip: '10.0.0.3' })
		expect(result).toEqual({ ok: false, reason: 'invalid' })
	})

	test('after 5 failures for one e-mail, even the right password is refused for a while', async () => {
		for (let i = 0; i < signInLimits.email.limit; i++) {
			expect((await attemptSignIn(handle.db, { email: 'sara@example.org', password: `bad-${i}`, ip: `10.1.0.${i}` })).ok).toBe(false)
		}
		const result = await attemptSignIn(handle.db, { email: 'sara@example.org', password: 'Correct-Horse-9', ip: '10.1.1.1' })
		expect(result.ok).toBe(false)
		expect(result).toMatchObject({ reason: 'limited' })
		if (!result.ok && result.reason === 'limited') expect(result.retryAfter).toBeGreaterThan(0)
	})

	test('failures from one IP address across many e-mails are limited per IP', async () => {
		// The ceiling's first failures counted as a failure counts them (a slow password check each), the last one for real.
		for (let i = 0; i < signInLimits.ip.limit - 1; i++) await hit(handle.db, signInLimits.ip, '10.2.0.1')
		expect(await attemptSignIn(handle.db, { email: 'guess@example.org', password: 'x', ip: '10.2.0.1' })).toEqual({ ok: false, reason: 'invalid' })
		const result = await attemptSignIn(handle.db, { email: 'sara@example.org', password: 'Correct-Horse-9', ip: '10.2.0.1' })
		expect(result).toMatchObject({ ok: false, reason: 'limited' })
		const other = await attemptSignIn(handle.db, { email: 'sara@example.org', password: 'Correct-Horse-9', ip: '10.2.0.2' })
		expect(other.ok).toBe(true)
	})

	test('a crowd behind one address: 30 people mistyping their own passwords do not lock out the next one', async () => {
		// 30 failures counted as failures count them (a slow password check each), one more for real.
		for (let i = 0; i < 30; i++) await hit(handle.db, signInLimits.ip, '10.4.0.1')
		expect(await attemptSignIn(handle.db, { email: 'office@example.org', password: 'mistyped', ip: '10.4.0.1' })).toEqual({ ok: false, reason: 'invalid' })
		expect((await attemptSignIn(handle.db, { email: 'sara@example.org', password: 'Correct-Horse-9', ip: '10.4.0.1' })).ok).toBe(true)
	})

	test('a success clears the e-mail counter', async () => {
		for (let i = 0; i < signInLimits.email.limit - 1; i++) {
			await attemptSignIn(handle.db, { email: 'sara@example.org', password: 'bad', ip: '10.3.0.1' })
		}
		expect((await attemptSignIn(handle.db, { email: 'sara@example.org', password: 'Correct-Horse-9', ip: '10.3.0.1' })).ok).toBe(true)
		expect((await attemptSignIn(handle.db, { email: 'sara@example.org', password: 'bad', ip: '10.3.0.1' })).ok).toBe(false)
		expect((await attemptSignIn(handle.db, { email: 'sara@example.org', password: 'Correct-Horse-9', ip: '10.3.0.1' })).ok).toBe(true)
	})
})
