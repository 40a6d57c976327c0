import { eq } from 'drizzle-orm'
import { beforeAll, expect, test } from 'vitest'
import { createSession, sessionCookieName } from '#app/auth/session.server.ts'
import { getReminderSettings } from '#app/operations/reminders.server.ts'
import { auditLog, reminderSettings } from '#app/db/schema.ts'
import { createUser, type PublicUser } from '#app/domain/staff-users.server.ts'
import { middleware as adminMiddleware } from '#app/routes/admin/layout.tsx'
import { withAppDatabase } from '#tests/db.ts'
import { runRoute } from '#tests/route.ts'
import { action, loader, middleware } from './intake.tsx'

// The «التذكيرات» section of /admin/intake, through the real admin middleware: an admin saves the
// reminder days and the closing of unanswered incomplete cases; a refused form says why, in Arabic,
// and keeps what was typed; each save is in the audit trail.

const app = withAppDatabase()
const db = () => app.handle.db
const cookies: Record<string, string> = {}
let admin: PublicUser

beforeAll(async () => {
	admin = await createUser(db(), { name: 'مديرة', email: `intake-reminders-${Date.now()}@example.org`, mobile: '', roles: ['admin'], password: 'Intake-Reminders-1234' })
	const officer = await createUser(db(), { name: 'باحث', email: `intake-reminders-officer-${Date.now()}@example.org`, mobile: '', roles: ['case_officer'], password: 'Intake-Officer-1234' })
	cookies.admin = `${sessionCookieName()}=${(await createSession(db(), admin.id)).token}`
	cookies.officer = `${sessionCookieName()}=${(await createSession(db(), officer.id)).token}`
})

const request = (who: string, body?: Record<string, string>) =>
	new Request(
		'http://localhost/admin/intake',
		body ? { method: 'POST', body: new URLSearchParams(body), headers: { Cookie: cookies[who]!, 'Content-Type': 'application/x-www-form-urlencoded' } } : { headers: { Cookie: cookies[who]! } },
	)
type Refused = { init: { status: number }; data: { type: string; result: { error?: Record<string, string[]>; initialValue?: Record<string, string> } } }
const save = (body: Record<string, string>, who = 'admin') =>
	runRoute([...adminMiddleware, ...middleware], action, { request: request(who, { intent: 'reminders', ...body }) }) as unknown as Promise<Response & Refused>
const page = () => runRoute([...adminMiddleware, ...middleware], loader, { request: request('admin') })

const days = { incompleteFirstDays: '3', incompleteSecondDays: '7', draftDays: '2' }

test('the page shows the defaults until an admin saves others: 3 and 7 days, drafts after 2, no closing', async () => {
	expect((await page()).reminders).toEqual({
		settings: { incompleteFirstDays: 3, incompleteSecondDays: 7, incompleteCloseDays: null, draftDays: 2 },
		summary: 'يُذكَّر المتقدم بطلبه غير المكتمل مرتين: بعد 3 أيام وبعد 7 أيام من إعادته إليه، وبطلبه الذي لم يرسله بعد يومين من بدئه، ولا يُغلق الطلب غير المكتمل تلقائياً.',
	})
})

test('a refused form says why beside each field and keeps what was typed', async () => {
	const backwards = await save({ ...days, incompleteFirstDays: '8', incompleteSecondDays: '5' })
	expect(backwards.init.status).toBe(400)
	expect(backwards.data.type).toBe('reminders')
	expect(backwards.data.result.error).toEqual({ incompleteSecondDays: ['يأتي التذكير الثاني بعد الأول: الرجاء كتابة عدد أكبر من 8'] })
	expect(backwards.data.result.initialValue).toMatchObject({ incompleteFirstDays: '8', incompleteSecondDays: '5' })

	const broken = await save({ incompleteFirstDays: '2.5', incompleteSecondDays: '', draftDays: 'ثلاثة' })
	expect(broken.data.result.error).toEqual({
		incompleteFirstDays: ['الرجاء كتابة عدد صحيح من الأيام، بلا كسور'],
		incompleteSecondDays: ['الرجاء كتابة بعد كم يوماً يأتي التذكير الثاني'],
		draftDays: ['الرجاء كتابة بعد كم يوماً يأتي التذكير بالطلب الذي لم يُرسل'],
	})

	const noCloseDays = await save({ ...days, closeEnabled: 'on' })
	expect(noCloseDays.data.result.error).toEqual({ incompleteCloseDays: ['الرجاء كتابة بعد كم يوماً يُغلق الطلب'] })
	const closeTooSoon = await save({ ...days, closeEnabled: 'on', incompleteCloseDays: '7' })
	expect(closeTooSoon.data.result.error).toEqual({ incompleteCloseDays: ['يُغلق الطلب بعد التذكير الثاني: الرجاء كتابة عدد أكبر من 7'] })
	expect((await save({ ...days, incompleteFirstDays: '0', draftDays: '400' })).data.result.error).toEqual({ incompleteFirstDays: ['أقصر مدة يوم واحد'], draftDays: ['أطول مدة 365 يوماً'] })

	expect(await db().select().from(reminderSettings)).toEqual([])
})

test('an admin saves the days and turns closing on, then off; each save is audited', async () => {
	const saved = await save({ incompleteFirstDays: '4', incompleteSecondDays: '9', draftDays: '3', closeEnabled: 'on', incompleteCloseDays: '21' })
	expect(saved.status).toBe(302)
	expect(await getReminderSettings(db())).toEqual({ incompleteFirstDays: 4, incompleteSecondDays: 9, incompleteCloseDays: 21, draftDays: 3 })
	expect((await db().select({ updatedBy: reminderSettings.updatedBy }).from(reminderSettings))[0]!.updatedBy).toBe(admin.id)
	expect((await page()).reminders.summary).toContain('ويُغلق الطلب غير المكتمل تلقائياً بعد 21 يوماً إن لم يستكمله المتقدم')

	// Unticked, closing is off whatever days are left in its field.
	expect((await save({ ...days, incompleteCloseDays: '30' })).status).toBe(302)
	expect((await getReminderSettings(db())).incompleteCloseDays).toBeNull()

	const trail = await db().select().from(auditLog).where(eq(auditLog.action, 'reminders.change'))
	expect(trail.map((entry) => [entry.actorId, (entry.data as { incompleteCloseDays: number | null }).incompleteCloseDays])).toEqual([
		[admin.id, 21],
		[admin.id, null],
	])
})

test('a case officer may not change the reminders', async () => {
	await expect(save(days, 'officer')).rejects.toMatchObject({ status: 403 })
})
