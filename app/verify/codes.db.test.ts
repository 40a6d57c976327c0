import { eq } from 'drizzle-orm'
import { afterAll, beforeEach, expect, test } from 'vitest'
import { startCase } from '#app/cases/case-store.server.ts'
import { caseEvents, cases, verificationCodes } from '#app/db/schema.ts'
import { needyFamilies } from '#app/forms/definitions/needy-families.ts'
import { smsDriver, type SmsResult } from '#app/notify/sms.server.ts'
import { basicAnswers, randomNationalId } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { setSmsDriver } from '#app/notify/notifier.server.ts'
import { confirmCaseCode, sendCaseCode } from './case-verification.server.ts'
import { checkCode, CODE_LIFETIME_MS, codeLimits, sendCode } from './codes.server.ts'
import { isRemembered, rememberCase } from './remembered.server.ts'

// Codes sent by SMS (docs/security.md#verified-mobile), against the database: what is stored, what
// a guesser, a replay and a flood get.

const app = withAppDatabase()
const db = () => app.handle.db

/** What the phone received, newest last; `answer` decides what the provider says. */
const inbox: { to: string; text: string }[] = []
let answer: SmsResult = { ok: true, provider: 'fake' }
setSmsDriver(
	smsDriver('unifonic', async (to, text) => {
		if (answer.ok) inbox.push({ to, text })
		return answer
	}),
)
afterAll(() => setSmsDriver(undefined))
beforeEach(() => {
	answer = { ok: true, provider: 'fake' }
})

const lastCode = () => /رمز التحقق: (\d{6})/.exec(inbox.at(-1)!.text)![1]!
let mobiles = 0
/** A mobile no other test sends to (the limits count per mobile). */
const freshMobile = () => `+9665${String(10_000_000 + (Date.now() % 1_000_000) * 10 + mobiles++).slice(-8)}`
const subject = () => crypto.randomUUID()

test('a code is sent to the mobile, kept only as its HMAC, opens once, and a replay opens nothing', async () => {
	const mobile = freshMobile()
	const target = { purpose: 'case' as const, subject: subject(), mobile, nationalId: randomNationalId() }
	const sent = await sendCode(db(), target)
	expect(sent).toMatchObject({ ok: true, logged: false })
	expect(inbox.at(-1)!.to).toBe(mobile)
	const code = lastCode()
	expect(inbox.at(-1)!.text).toContain('مؤسسة عطاء الخيرية')
	const [row] = await db().select().from(verificationCodes).where(eq(verificationCodes.subject, target.subject))
	expect(JSON.stringify(row)).not.toContain(code)
	expect(row!.codeHash).toMatch(/^[0-9a-f]{64}$/)
	// Typed with Arabic digits and a space, as a phone's keyboard may give it.
	const arabic = code.replace(/\d/g, (d) => String.fromCharCode(0x0660 + Number(d)))
	expect(await checkCode(db(), 'case', target.subject, `${arabic.slice(0, 3)} ${arabic.slice(3)}`)).toEqual({ ok: true, mobile })
	expect(await checkCode(db(), 'case', target.subject, code)).toEqual({ ok: false, reason: 'expired' })
	// Another thing's subject is not opened by it either.
	expect(await checkCode(db(), 'lookup', target.subject, code)).toEqual({ ok: false, reason: 'expired' })
})

test('five wrong tries lock the code: the right one after them opens nothing', async () => {
	const target = { purpose: 'case' as const, subject: subject(), mobile: freshMobile(), nationalId: '' }
	await sendCode(db(), target)
	const code = lastCode()
	const wrong = code === '000000' ? '111111' : '000000'
	const answers = []
	for (let i = 0; i < 5; i++) answers.push(await checkCode(db(), 'case', target.subject, wrong))
	expect(answers.map((checked) => (checked.ok ? 'ok' : checked.reason === 'wrong' ? checked.left : checked.reason))).toEqual([4, 3, 2, 1, 'locked'])
	expect(await checkCode(db(), 'case', target.subject, code)).toEqual({ ok: false, reason: 'locked' })
	expect(await checkCode(db(), 'case', target.subject, 'abc')).toEqual({ ok: false, reason: 'malformed' })
})

test('tries sent at once are each counted: ten together get no more than five answers', async () => {
	const target = { purpose: 'lookup' as const, subject: subject(), mobile: freshMobile(), nationalId: '' }
	await sendCode(db(), target)
	const code = lastCode()
	const guesses = Array.from({ length: 10 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'))
	const answers = await Promise.all(guesses.map((guess) => checkCode(db(), 'lookup', target.subject, guess)))
	expect(answers.filter((checked) => !checked.ok && checked.reason === 'wrong')).toHaveLength(4)
	const [row] = await db().select().from(verificationCodes).where(eq(verificationCodes.subject, target.subject))
	expect(row!.tries).toBe(5)
})

test('a new code replaces the one before; a code lives ten minutes; a second within a minute is refused', async () => {
	const target = { purpose: 'case' as const, subject: subject(), mobile: freshMobile(), nationalId: '' }
	const start = new Date()
	await sendCode(db(), target, start)
	const first = lastCode()
	expect(await sendCode(db(), target, new Date(start.getTime() + 30_000))).toMatchObject({ ok: false, reason: 'too-soon', seconds: 30 })
	await sendCode(db(), target, new Date(start.getTime() + 61_000))
	const second = lastCode()
	// The first code is just a wrong one now (and costs a try).
	if (first !== second) expect(await checkCode(db(), 'case', target.subject, first, new Date(start.getTime() + 62_000))).toMatchObject({ ok: false, reason: 'wrong' })
	expect(await checkCode(db(), 'case', target.subject, second, new Date(start.getTime() + 61_000 + CODE_LIFETIME_MS + 1000))).toEqual({ ok: false, reason: 'expired' })
})

test('codes sent are limited per mobile and per national ID, whatever the address or the thing asked for', async () => {
	const mobile = freshMobile()
	const results = []
	for (let i = 0; i <= codeLimits.perMobileHour.limit; i++) results.push(await sendCode(db(), { purpose: 'lookup', subject: subject(), mobile, nationalId: '' }))
	expect(results.slice(0, -1).every((sent) => sent.ok)).toBe(true)
	expect(results.at(-1)).toMatchObject({ ok: false, reason: 'limited' })
	expect((results.at(-1) as { message: string }).message).toContain('رقم الجوال هذا')
	const nationalId = randomNationalId()
	const byId = []
	for (let i = 0; i <= codeLimits.perIdHour.limit; i++) byId.push(await sendCode(db(), { purpose: 'lookup', subject: subject(), mobile: freshMobile(), nationalId }))
	expect(byId.at(-1)).toMatchObject({ ok: false, reason: 'limited' })
	expect((byId.at(-1) as { message: string }).message).toContain('لهذا الرقم')
})

test('a code the provider did not take is not kept, and does not hold the next try back', async () => {
	const target = { purpose: 'case' as const, subject: subject(), mobile: freshMobile(), nationalId: '' }
	answer = { ok: false, provider: 'fake', reason: 'HTTP 500', retry: true }
	expect(await sendCode(db(), target)).toEqual({ ok: false, reason: 'not-sent' })
	expect(await db().select().from(verificationCodes).where(eq(verificationCodes.subject, target.subject))).toHaveLength(0)
	answer = { ok: true, provider: 'fake' }
	expect(await sendCode(db(), target)).toMatchObject({ ok: true })
})

test('the first right code proves the case’s mobile once; a browser remembered before a new mobile is forgotten', async () => {
	const { row } = await startCase(db(), needyFamilies, basicAnswers(randomNationalId(), `05${freshMobile().slice(-8)}`))
	expect(row.mobileVerifiedAt).toBeNull()
	await sendCaseCode(db(), row, '192.0.2.1')
	expect(await confirmCaseCode(db(), row, lastCode())).toEqual({ ok: true, first: true })
	const [proven] = await db().select().from(cases).where(eq(cases.id, row.id))
	expect(proven!.mobileVerifiedHow).toBe('code')
	expect((await db().select().from(caseEvents).where(eq(caseEvents.caseId, row.id))).map((event) => event.kind)).toContain('mobile_verified')
	// A second browser: another code, not the first proof again.
	await sendCaseCode(db(), row, '192.0.2.1').catch(() => undefined)
	const cookie = await rememberCase(db(), new Request('http://x/'), row.id)
	const browser = new Request('http://x/', { headers: { Cookie: cookie.split(';')[0]! } })
	expect(await isRemembered(db(), browser, proven!)).toBe(true)
	expect(await isRemembered(db(), new Request('http://x/'), proven!)).toBe(false)
	// Staff changed the mobile: the browser remembered for the old one must prove the new one.
	expect(await isRemembered(db(), browser, { id: row.id, mobileVerifiedAt: null })).toBe(false)
	expect(await isRemembered(db(), browser, { id: row.id, mobileVerifiedAt: new Date(Date.now() + 5000) })).toBe(false)
	// Thirty days on, it is asked again.
	expect(await isRemembered(db(), browser, proven!, Date.now() + 31 * 86_400_000)).toBe(false)
})
