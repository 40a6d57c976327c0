import { describe, expect, test } from 'vitest'
import { changeStatus } from '#app/cases/status-changes.server.ts'
import { startCase } from '#app/cases/case-store.server.ts'
import { createUser } from '#app/domain/staff-users.server.ts'
import { needyFamilies } from '#app/forms/definitions/needy-families.ts'
import { basicAnswers, submittedCase } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { action } from './status.tsx'

// What the lookup (/apply/status) finds and says: the cases of an ID staff accepted against its
// checksum, and only the staff messages that still apply.

const app = withAppDatabase()
let ip = 0

async function lookup(nationalId: string, mobile: string) {
	const body = new URLSearchParams({ nationalId, mobile, intent: 'lookup' })
	const request = new Request('http://localhost/apply/status', { method: 'POST', body, headers: { 'x-ataa-client-ip': `198.51.100.${++ip}` } })
	return (await action({ request, params: {}, context: {} } as Parameters<typeof action>[0])) as unknown
}

const officer = () => createUser(app.handle.db, { name: 'باحثة الاستعلام', email: `lookup-${Date.now()}@example.org`, mobile: '', password: 'Lookup-Pass-1234', roles: ['case_officer'], active: true })

describe('the lookup', () => {
	test('finds a case whose national ID staff accepted though it fails the checksum', async () => {
		const staff = await officer()
		// 1000000000 has the right shape, but its check digit is wrong.
		const failing = '1000000000'
		await startCase(app.handle.db, needyFamilies, basicAnswers(failing, '0557654321'), { override: { actorId: staff.id, note: 'الهوية الأصلية اطلعنا عليها' } })
		expect(await lookup(failing, '0557654321')).toMatchObject({ cases: [{ name: 'عبدالله محمد سعد القحطاني' }] })
		// Mistyped (no case under it): still told the ID is wrong, and a wrong shape is refused as before.
		expect(await lookup('1000000001', '0557654321')).toMatchObject({ data: { result: { error: { nationalId: ['رقم الهوية غير صحيح، تأكد من كتابته كما في البطاقة'] } } }, init: { status: 400 } })
		expect(await lookup('123', '0557654321')).toMatchObject({ data: { result: { error: { nationalId: ['رقم الهوية يجب أن يكون 10 أرقام ويبدأ بـ 1 أو 2'] } } }, init: { status: 400 } })
	})

	test('a stopped or closed case no longer shows the request to complete it; a message sent with the change does', async () => {
		const staff = await officer()
		const row = await submittedCase(app.handle.db)
		const reopened = { sections: ['family'], slots: [] }
		await changeStatus(app.handle.db, row.id, { to: 4, note: 'نقص', message: 'الرجاء إرفاق تقرير طبي حديث', reopened }, staff)
		const mobile = `05${row.mobile.slice(5)}`
		expect(await lookup(row.nationalId, mobile)).toMatchObject({ cases: [{ status: { name: 'غير مكتمل' }, message: 'الرجاء إرفاق تقرير طبي حديث' }] })
		await changeStatus(app.handle.db, row.id, { to: 5, note: 'لم يستكمل' }, staff)
		expect(await lookup(row.nationalId, mobile)).toMatchObject({ cases: [{ status: { name: 'تم إيقاف الدعم' }, message: null }] })
		await changeStatus(app.handle.db, row.id, { to: 6, note: 'أرشفة', message: 'أُغلق طلبك لعدم الاستكمال' }, staff)
		expect(await lookup(row.nationalId, mobile)).toMatchObject({ cases: [{ status: { name: 'مغلق' }, message: 'أُغلق طلبك لعدم الاستكمال' }] })
	})
})
