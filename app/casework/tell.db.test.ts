import { afterAll, beforeAll, expect, test } from 'vitest'
import { createUser, type PublicUser } from '#app/domain/staff-users.server.ts'
import { createTestDatabase } from '#tests/db.ts'
import { submittedCase } from '#tests/fixtures/needy-families.ts'
import type { DatabaseHandle } from '#app/db/client.server.ts'
import { setSmsDriver } from '#app/notify/notifier.server.ts'
import { listCaseMessages } from '#app/notify/outbox.server.ts'
import type { Notice } from '#app/notify/case-notices.server.ts'
import { Status } from '#app/cases/case-statuses.ts'
import { tellApplicants, TELL_AT_ONCE } from './tell.server.ts'

// The one fan-out of staff actions (docs/architecture.md#casework): every notice becomes the
// applicant's message once, whatever its kind, and no more go to the gateway at once than TELL_AT_ONCE.

let handle: DatabaseHandle
let officer: PublicUser
let sending = 0
let mostAtOnce = 0
const texts: { to: string; text: string }[] = []

beforeAll(async () => {
	handle = await createTestDatabase()
	officer = await createUser(handle.db, { name: 'باحثة', email: `tell-${Date.now()}@example.org`, mobile: '', roles: ['case_officer'], password: 'Tell-Officer-1234' })
	setSmsDriver({
		async deliver(to, text) {
			sending += 1
			mostAtOnce = Math.max(mostAtOnce, sending)
			await new Promise((resolve) => setTimeout(resolve, 5))
			sending -= 1
			texts.push({ to, text })
			return { ok: true, provider: 'fake', ref: `sms-${texts.length}` }
		},
	})
})
afterAll(async () => {
	setSmsDriver(undefined)
	await handle.close()
})

test('each notice is told once, by its own words, a few at a time', async () => {
	const rows = await Promise.all(Array.from({ length: 12 }, () => submittedCase(handle.db)))
	const kinds: Notice[] = [
		{ kind: 'status', caseId: '', to: Status.Incomplete, message: 'أرفق صك الإعالة' },
		{ kind: 'status', caseId: '', to: Status.New, message: 'نرجو الاتصال بنا', messageOnly: true },
		{ kind: 'visit', caseId: '', visitOn: '2026-12-01', visitAt: '10:30' },
		{ kind: 'payment-made', caseId: '', amount: 1500, on: '2026-11-29' },
		{ kind: 'payment-bounced', caseId: '', reason: 'الحساب مغلق' },
	]
	const notices = rows.map((row, index) => ({ ...kinds[index % kinds.length]!, caseId: row.id }))
	await tellApplicants(handle.db, notices, officer)

	expect(mostAtOnce).toBeGreaterThan(1)
	expect(mostAtOnce).toBeLessThanOrEqual(TELL_AT_ONCE)
	const events = { status: 'status:4', visit: 'visit-scheduled', 'payment-made': 'payment-made', 'payment-bounced': 'payment-bounced' }
	for (const [index, row] of rows.entries()) {
		const notice = notices[index]!
		const sent = await listCaseMessages(handle.db, row.id)
		// One SMS each (no e-mail given), of the notice's event; a message alone is the applicant's message.
		expect(sent.map((message) => [message.channel, message.event, message.status])).toEqual([['sms', notice.kind === 'status' && notice.messageOnly ? 'applicant-message' : events[notice.kind], 'sent']])
		expect(texts.filter((text) => text.to === row.mobile)).toHaveLength(1)
	}
	expect(texts.find((text) => text.to === rows[3]!.mobile)!.text).toContain('1,500')
	expect(texts.find((text) => text.to === rows[4]!.mobile)!.text).toContain('الحساب مغلق')
})

test('nothing to tell sends nothing', async () => {
	const before = texts.length
	await tellApplicants(handle.db, [], officer)
	expect(texts).toHaveLength(before)
})
