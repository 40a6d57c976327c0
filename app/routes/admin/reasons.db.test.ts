import { eq } from 'drizzle-orm'
import { listReasons } from '#app/cases/reasons.server.ts'
import { beforeAll, expect, test } from 'vitest'
import { createSession, sessionCookieName } from '#app/auth/session.server.ts'
import { caseStudies, auditLog } from '#app/db/schema.ts'
import { createUser, type PublicUser } from '#app/domain/staff-users.server.ts'
import { middleware as adminMiddleware } from '#app/routes/admin/layout.tsx'
import { studyForm, submittedCase } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { runRoute } from '#tests/route.ts'
import { action, loader, middleware } from './reasons.tsx'
import { action as studyAction, loader as studyLoader, middleware as studyMiddleware } from './case-study.tsx'

// The reasons staff keep, through the real admin middleware: an admin adds, renames and retires
// one; the study form offers what is in use; a study keeps the words it was recorded with.

const app = withAppDatabase()
const db = () => app.handle.db
const cookies: Record<string, string> = {}
let admin: PublicUser

beforeAll(async () => {
	admin = await createUser(db(), { name: 'مديرة', email: `reasons-admin-${Date.now()}@example.org`, mobile: '', roles: ['admin'], password: 'Reasons-Admin-1234' })
	const officer = await createUser(db(), { name: 'باحث', email: `reasons-officer-${Date.now()}@example.org`, mobile: '', roles: ['case_officer'], password: 'Reasons-Officer-1234' })
	cookies.admin = `${sessionCookieName()}=${(await createSession(db(), admin.id)).token}`
	cookies.officer = `${sessionCookieName()}=${(await createSession(db(), officer.id)).token}`
})

const request = (path: string, who: string, body?: Record<string, string>) =>
	new Request(`http://localhost${path}`, body ? { method: 'POST', body: new URLSearchParams(body), headers: { Cookie: cookies[who]!, 'Content-Type': 'application/x-www-form-urlencoded' } } : { headers: { Cookie: cookies[who]! } })
const change = (body: Record<string, string>, who = 'admin') => runRoute([...adminMiddleware, ...middleware], action, { request: request('/admin/reasons', who, { kind: 'study-reject', ...body }) }) as Promise<Response & { init: { status: number } }>
const list = () => runRoute([...adminMiddleware, ...middleware], loader, { request: request('/admin/reasons', 'admin') })
const studyPage = (reference: string) => runRoute([...adminMiddleware, ...studyMiddleware], studyLoader, { request: request(`/admin/cases/${reference}/study`, 'officer'), params: { reference } })

test('an admin adds a reason, it is offered on the study form; renamed, the study recorded before keeps its words; retired, it is offered no more', async () => {
	expect((await list()).lists[0]!.reasons.map((reason) => reason.label)).toContain('دخل المتقدم يكفي حاجته')
	expect((await change({ intent: 'add', label: 'الأسرة انتقلت إلى مدينة أخرى' })).status).toBe(302)
	const added = (await list()).lists[0]!.reasons.find((reason) => reason.label === 'الأسرة انتقلت إلى مدينة أخرى')!
	expect(added.active).toBe(true)

	const row = await submittedCase(db())
	expect((await studyPage(row.reference)).reasons).toContainEqual({ value: String(added.id), label: added.label })
	const recorded = await runRoute([...adminMiddleware, ...studyMiddleware], studyAction, { request: request(`/admin/cases/${row.reference}/study`, 'officer', studyForm({ recommendation: 'reject', rejectReason: String(added.id) })), params: { reference: row.reference } })
	expect((recorded as Response).status).toBe(302)

	await change({ intent: 'rename', id: String(added.id), label: 'انتقلت الأسرة خارج منطقة الخدمة' })
	await change({ intent: 'retire', id: String(added.id) })
	expect((await list()).lists[0]!.reasons.find((reason) => reason.id === added.id)).toMatchObject({ label: 'انتقلت الأسرة خارج منطقة الخدمة', active: false })
	expect((await studyPage(row.reference)).reasons.map((reason) => reason.value)).not.toContain(String(added.id))
	const [study] = await db().select().from(caseStudies).where(eq(caseStudies.caseId, row.id))
	expect(study!.rejectReason).toBe('الأسرة انتقلت إلى مدينة أخرى')

	// A retired reason posted by hand is refused on the study form.
	const refused = (await runRoute([...adminMiddleware, ...studyMiddleware], studyAction, {
		request: request(`/admin/cases/${row.reference}/study`, 'officer', studyForm({ recommendation: 'reject', rejectReason: String(added.id) })),
		params: { reference: row.reference },
	})) as unknown as { init: { status: number }; data: { result: { error: Record<string, string[]> } } }
	expect(refused.init.status).toBe(400)
	expect(refused.data.result.error.rejectReason).toEqual(['الرجاء اختيار سبب عدم الدعم من القائمة'])

	const trail = await db().select().from(auditLog).where(eq(auditLog.actorId, admin.id))
	expect(trail.filter((entry) => entry.action === 'reasons.change').map((entry) => (entry.data as { intent: string }).intent)).toEqual(['add', 'rename', 'retire'])
})

test('the committee\'s reasons are a list of their own, the words an applicant reads; an unknown list is refused', async () => {
	const page = await list()
	expect(page.lists.map((item) => item.kind)).toEqual(['study-reject', 'decision-reject', 'aid-hold', 'zakat-category'])
	// Why a monthly aid is held or stopped, as the family reads it (docs/product.md#monthly-aid-over-time).
	expect(page.lists[2]!.reasons.map((reason) => reason.label)).toContain('انتقال الأسرة إلى خارج منطقة خدمة المؤسسة')
	expect(page.lists[1]!.reasons.map((reason) => reason.label)).toContain('لا تنطبق على الطلب شروط البرنامج')
	expect((await change({ kind: 'decision-reject', intent: 'add', label: 'تجاوزت الأسرة الحد الأعلى للدعم هذا العام' })).status).toBe(302)
	expect((await list()).lists[1]!.reasons.map((reason) => reason.label)).toContain('تجاوزت الأسرة الحد الأعلى للدعم هذا العام')
	expect((await list()).lists[0]!.reasons.map((reason) => reason.label)).not.toContain('تجاوزت الأسرة الحد الأعلى للدعم هذا العام')
	const unknown = (await change({ kind: 'other', intent: 'add', label: 'سبب في قائمة غير معروفة' })) as unknown as { init: { status: number }; data: { errors: string[] } }
	expect(unknown.init.status).toBe(400)
	expect(unknown.data.errors).toEqual(['القائمة غير معروفة'])
})

test('the zakat categories are a list admins keep: the four from the start, one added, renamed and retired, never deleted', async () => {
	const categories = async () => (await list()).lists.find((item) => item.kind === 'zakat-category')!.reasons
	expect((await categories()).map((category) => category.label)).toEqual(['الفقراء', 'المساكين', 'الغارمين', 'ابن السبيل'])
	expect((await change({ kind: 'zakat-category', intent: 'add', label: 'في سبيل الله' })).status).toBe(302)
	const added = (await categories()).find((category) => category.label === 'في سبيل الله')!
	expect((await change({ kind: 'zakat-category', intent: 'rename', id: String(added.id), label: 'في سبيل الله (طلبة العلم)' })).status).toBe(302)
	expect((await change({ kind: 'zakat-category', intent: 'retire', id: String(added.id) })).status).toBe(302)
	// Retired: still listed for the admin (to bring back), no longer offered to a study.
	expect((await categories()).find((category) => category.id === added.id)).toMatchObject({ label: 'في سبيل الله (طلبة العلم)', active: false })
	expect((await listReasons(db(), 'zakat-category')).map((category) => category.label)).not.toContain('في سبيل الله (طلبة العلم)')
})

test('a case officer may not change the list, and an empty reason is refused', async () => {
	await expect(change({ intent: 'add', label: 'سبب من غير مدير' }, 'officer')).rejects.toMatchObject({ status: 403 })
	const empty = (await change({ intent: 'add', label: '  ' })) as unknown as { init: { status: number }; data: { errors: string[] } }
	expect(empty.init.status).toBe(400)
	expect(empty.data.errors).toEqual(['الرجاء كتابة السبب'])
})

test('the last reason in use cannot be retired: «عدم الدعم» always has a reason to give', async () => {
	const inUse = (await list()).lists[0]!.reasons.filter((reason) => reason.active)
	for (const reason of inUse.slice(0, -1)) expect((await change({ intent: 'retire', id: String(reason.id) })).status).toBe(302)
	const last = (await change({ intent: 'retire', id: String(inUse.at(-1)!.id) })) as unknown as { init: { status: number }; data: { errors: string[] } }
	expect(last.init.status).toBe(409)
	expect(last.data.errors).toEqual(['لا يُوقف آخر سبب مستخدم: أضف سبباً آخر أولاً'])
	expect((await list()).lists[0]!.reasons.filter((reason) => reason.active)).toHaveLength(1)
	for (const reason of inUse.slice(0, -1)) await change({ intent: 'restore', id: String(reason.id) })
})
