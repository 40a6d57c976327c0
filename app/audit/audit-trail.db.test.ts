import { eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { createSession, sessionCookieName } from '#app/auth/session.server.ts'
import type { CaseRow } from '#app/cases/case-store.server.ts'
import { auditLog } from '#app/db/schema.ts'
import { createUser, type PublicUser } from '#app/domain/staff-users.server.ts'
import { middleware as adminMiddleware } from '#app/routes/admin/layout.tsx'
import { action as caseAction, loader as caseLoader, middleware as caseMiddleware } from '#app/routes/admin/case.tsx'
import { loader as auditExport, middleware as auditExportMiddleware } from '#app/routes/admin/audit-export.ts'
import { studied, submittedCase } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { runRoute } from '#tests/route.ts'
import { auditCsv } from '#app/audit/audit-log.server.ts'
import { recordAudit } from '#app/audit/audit-trail.server.ts'

const app = withAppDatabase()
const db = () => app.handle.db
const staff = {} as Record<'officer' | 'editor' | 'admin', { user: PublicUser; cookie: string }>
let submitted: CaseRow

async function signedIn(name: string, role: PublicUser['roles'][number]) {
	const user = await createUser(db(), { name, email: `${role}-${Date.now()}@example.org`, mobile: '', roles: [role], password: 'Audit-Pass-1234' })
	return { user, cookie: `${sessionCookieName()}=${(await createSession(db(), user.id)).token}` }
}

const request = (path: string, cookie: string, init: RequestInit = {}) =>
	new Request(`http://localhost${path}`, { ...init, headers: { Cookie: cookie, 'x-ataa-client-ip': '203.0.113.9', ...(init.headers ?? {}) } })

const entriesOf = async (userId: number) => db().select().from(auditLog).where(eq(auditLog.actorId, userId)).orderBy(auditLog.id)

beforeAll(async () => {
	staff.officer = await signedIn('سارة العتيبي', 'case_officer')
	staff.editor = await signedIn('خالد السبيعي', 'content_editor')
	staff.admin = await signedIn('مدير النظام', 'admin')
	submitted = await submittedCase(db())
})

describe('the audit trail', () => {
	test('is append-only: the database refuses to change, delete or empty it', async () => {
		await recordAudit(db(), { actor: staff.admin.user, action: 'user.create', request: request('/admin/users/new', ''), data: { userId: 1 } })
		const [row] = await db()
			.select()
			.from(auditLog)
			.orderBy(sql`${auditLog.id} desc`)
			.limit(1)
		await expect(db().update(auditLog).set({ action: 'auth.sign-in' }).where(eq(auditLog.id, row!.id))).rejects.toThrow()
		await expect(db().delete(auditLog).where(eq(auditLog.id, row!.id))).rejects.toThrow()
		await expect(db().execute(sql`truncate audit_log`)).rejects.toThrow()
		const [after] = await db().select().from(auditLog).where(eq(auditLog.id, row!.id))
		expect(after).toEqual(row)
		expect(row).toMatchObject({ actorName: 'مدير النظام', action: 'user.create', path: '/admin/users/new', ip: '203.0.113.9' })
	})

	test('a case officer reading a case is recorded with the case and the address; a content editor is refused and recorded', async () => {
		const path = `/admin/cases/${submitted.reference}`
		const call = (cookie: string) => runRoute([...adminMiddleware, ...caseMiddleware], caseLoader, { request: request(path, cookie), params: { reference: submitted.reference } })
		await call(staff.officer.cookie)
		expect((await entriesOf(staff.officer.user.id)).map((row) => [row.action, row.caseReference, row.path, row.ip])).toEqual([['case.view', submitted.reference, path, '203.0.113.9']])

		await expect(call(staff.editor.cookie)).rejects.toMatchObject({ status: 403 })
		expect((await entriesOf(staff.editor.user.id)).map((row) => [row.action, row.caseReference, row.data])).toEqual([['access.denied', submitted.reference, { method: 'GET' }]])
	})

	test('a status change is recorded with its old and new status; a refused form records nothing', async () => {
		const path = `/admin/cases/${submitted.reference}`
		const post = (body: Record<string, string>) =>
			runRoute([...adminMiddleware, ...caseMiddleware], caseAction, {
				request: request(path, staff.admin.cookie, { method: 'POST', body: new URLSearchParams(body), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }),
				params: { reference: submitted.reference },
			})
		const before = (await entriesOf(staff.admin.user.id)).length
		await post({ intent: 'note', note: '' })
		expect(await entriesOf(staff.admin.user.id)).toHaveLength(before)
		await studied(db(), submitted, staff.admin.user)
		await post({ intent: 'status', to: '2', note: 'بدأت الدراسة' })
		const last = (await entriesOf(staff.admin.user.id)).at(-1)!
		expect(last).toMatchObject({ action: 'case.status', caseReference: submitted.reference, data: { intent: 'status', from: 1, to: 2 } })
	})

	test('the CSV export lists the filtered trail, refuses formulas, and is itself recorded', async () => {
		await recordAudit(db(), { actorName: '=HYPERLINK("http://evil.example")@x.org', action: 'auth.sign-in-failed', request: request('/login', ''), data: { reason: 'invalid' } })
		const csv = await new Response(auditCsv(db(), { action: 'auth.sign-in-failed' })).text()
		const lines = csv
			.replace(/^\uFEFF/, '')
			.trim()
			.split('\n')
		expect(lines[0]).toBe('"الرقم","الوقت (الرياض، UTC+3)","المستخدم","الإجراء","رقم الطلب","الصفحة","عنوان IP","التفاصيل"')
		expect(lines).toHaveLength(2)
		expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil.example"")@x.org","محاولة دخول فاشلة","","/login","203.0.113.9","السبب: بيانات غير صحيحة"`)

		const response = await runRoute([...adminMiddleware, ...auditExportMiddleware], auditExport, { request: request('/admin/audit/export?action=auth.sign-in-failed', staff.admin.cookie) })
		expect(response.headers.get('Content-Disposition')).toMatch(/^attachment; filename="audit-\d{4}-\d{2}-\d{2}\.csv"$/)
		expect((await entriesOf(staff.admin.user.id)).at(-1)).toMatchObject({ action: 'audit.export', data: { filter: 'action=auth.sign-in-failed', rows: 1 } })
		await expect(runRoute([...adminMiddleware, ...auditExportMiddleware], auditExport, { request: request('/admin/audit/export', staff.officer.cookie) })).rejects.toMatchObject({ status: 403 })
	})
})
