import { randomBytes } from 'node:crypto'
import { RouterContextProvider } from 'react-router'
import { beforeAll, describe, expect, test } from 'vitest'
import { staffContext } from '#app/auth/user-context.server.ts'
import { newCasesPerWeek } from '#app/cases/case-statistics.server.ts'
import { cases, users, type UserRole } from '#app/db/schema.ts'
import { needyFamilies } from '#app/forms/definitions/needy-families.ts'
import { publicColumns, type PublicUser } from '#app/domain/staff-users.server.ts'
import { todayInRiyadh } from '#app/text/format.ts'
import { randomNationalId } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { loader } from './dashboard.tsx'

const app = withAppDatabase()

const DAY = 86_400_000
const now = new Date()
const ago = (days: number) => new Date(now.getTime() - days * DAY)

let officer: PublicUser
let admin: PublicUser
let editor: PublicUser

async function addUser(name: string, role: UserRole): Promise<PublicUser> {
	const [user] = await app.handle.db
		.insert(users)
		.values({ name, email: `${role}-${randomBytes(4).toString('hex')}@example.org`, roles: [role], passwordHash: 'not-a-hash' })
		.returning(publicColumns)
	return user!
}

interface Seed {
	reference: string
	status: number
	submittedAt: Date | null
	statusChangedAt: Date
	assignedTo?: number
	type?: string
	deletedAt?: Date
}

const seeded: Seed[] = []

async function addCase(seed: Seed) {
	seeded.push(seed)
	await app.handle.db.insert(cases).values({
		type: seed.type ?? 'needy-families',
		reference: seed.reference,
		applicantName: `مستفيد ${seed.reference}`,
		nationalId: randomNationalId(),
		mobile: '+966551234567',
		resumeTokenHash: randomBytes(16).toString('hex'),
		status: seed.status,
		submittedAt: seed.submittedAt,
		statusChangedAt: seed.statusChangedAt,
		assignedTo: seed.assignedTo ?? null,
		deletedAt: seed.deletedAt ?? null,
	})
}

async function dashboardFor(user: PublicUser) {
	const context = new RouterContextProvider()
	context.set(staffContext, user)
	return loader({ request: new Request('http://localhost/admin'), params: {}, context } as unknown as Parameters<typeof loader>[0])
}

beforeAll(async () => {
	officer = await addUser('سارة الباحثة', 'case_officer')
	admin = await addUser('مدير النظام', 'admin')
	editor = await addUser('محرر المحتوى', 'content_editor')
	// Open cases (new, studied, incomplete), by how long they have waited.
	await addCase({ reference: 'DASH-000C', status: 1, submittedAt: ago(100), statusChangedAt: ago(100), assignedTo: admin.id })
	await addCase({ reference: 'DASH-000K', status: 2, submittedAt: ago(50), statusChangedAt: ago(50), assignedTo: officer.id })
	await addCase({ reference: 'DASH-000B', status: 1, submittedAt: ago(20), statusChangedAt: ago(20) })
	await addCase({ reference: 'DASH-000D', status: 2, submittedAt: ago(40), statusChangedAt: ago(10), assignedTo: officer.id })
	await addCase({ reference: 'DASH-000E', status: 4, submittedAt: ago(30), statusChangedAt: ago(5) })
	await addCase({ reference: 'DASH-000J', status: 1, submittedAt: ago(3), statusChangedAt: ago(3) })
	await addCase({ reference: 'DASH-000A', status: 1, submittedAt: now, statusChangedAt: ago(0.5), assignedTo: officer.id })
	// Closed ones waited longer still, but nobody needs to act on them.
	await addCase({ reference: 'DASH-000F', status: 3, submittedAt: ago(60), statusChangedAt: ago(200), assignedTo: officer.id })
	await addCase({ reference: 'DASH-000G', status: 6, submittedAt: ago(70), statusChangedAt: ago(300) })
	// Deleted cases and drafts count nowhere.
	await addCase({ reference: 'DASH-000H', status: 1, submittedAt: ago(2), statusChangedAt: ago(400), deletedAt: ago(1), assignedTo: officer.id })
	await addCase({ reference: 'DASH-000I', status: 1, submittedAt: null, statusChangedAt: ago(500), assignedTo: officer.id })
	// A programme no longer offered, long ago, around a week's end in Riyadh (UTC+3).
	await addCase({ reference: 'DASH-OLD1', type: 'old-programme', status: 3, submittedAt: new Date('2020-01-03T20:30:00Z'), statusChangedAt: new Date('2020-01-03T20:30:00Z') })
	await addCase({ reference: 'DASH-OLD2', type: 'old-programme', status: 3, submittedAt: new Date('2020-01-03T21:30:00Z'), statusChangedAt: new Date('2020-01-03T21:30:00Z') })
})

function addDays(day: string, days: number): string {
	return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10)
}

describe('/admin dashboard', () => {
	test('counts every submitted, undeleted case by programme and status, each linked to its filtered list', async () => {
		const { cases: figures } = await dashboardFor(officer)
		expect(figures!.statuses.map((status) => status.name)).toEqual(['جديد', 'تمت الدراسة', 'تم تقديم الدعم', 'غير مكتمل', 'تم إيقاف الدعم', 'مغلق', 'معتمد بانتظار الصرف', 'مرفوض'])
		const programme = figures!.programmes.find((row) => row.type === 'needy-families')!
		expect(programme.cells.map((cell) => cell.count)).toEqual([4, 2, 1, 1, 0, 1, 0, 0])
		expect(programme.total).toBe(9)
		expect(programme.cells[0]!.to).toBe('/admin/cases?status=1&type=needy-families')
		expect(programme.cells[5]!.to).toBe('/admin/cases?status=6&type=needy-families')
		// Only the programmes in the registry have a row.
		expect(figures!.programmes.some((row) => row.type === 'old-programme')).toBe(false)
		expect(figures!.newWaiting[0]).toEqual({ label: 'طلبات جديدة بانتظار الدراسة', count: 4, to: '/admin/cases?status=1' })
	})

	test('new cases per week: twelve Saturdays, oldest first, this week last with the case sent today', async () => {
		const { cases: figures } = await dashboardFor(officer)
		const weeks = figures!.weeks
		expect(weeks).toHaveLength(12)
		for (const [index, week] of weeks.entries()) {
			expect(new Date(`${week.start}T12:00:00Z`).getUTCDay()).toBe(6)
			if (index) expect(week.start).toBe(addDays(weeks[index - 1]!.start, 7))
		}
		const today = todayInRiyadh(now)
		const last = weeks.at(-1)!
		expect(last.start <= today && today < addDays(last.start, 7)).toBe(true)
		// Each submitted, undeleted case in the week its Riyadh day falls in.
		const expected = weeks.map((week) => seeded.filter((seed) => seed.submittedAt && !seed.deletedAt && todayInRiyadh(seed.submittedAt) >= week.start && todayInRiyadh(seed.submittedAt) < addDays(week.start, 7)).length)
		expect(weeks.map((week) => week.count)).toEqual(expected)
		expect(last.count).toBeGreaterThanOrEqual(1)
		// A, J, B, E, D, K, F, G: C is older than twelve weeks, H deleted, I a draft.
		expect(expected.reduce((sum, count) => sum + count, 0)).toBe(8)
	})

	test('weeks run Saturday to Friday in Riyadh, whatever the date in UTC', async () => {
		const db = app.handle.db
		// Wednesday 8 January 2020: Friday 23:30 in Riyadh is the week before, Saturday 00:30 this one.
		expect(await newCasesPerWeek(db, 2, new Date('2020-01-08T12:00:00Z'))).toEqual([
			{ start: '2019-12-28', count: 1 },
			{ start: '2020-01-04', count: 1 },
		])
		// Friday 22:00 UTC is already Saturday 01:00 in Riyadh: a new week.
		expect((await newCasesPerWeek(db, 1, new Date('2020-01-03T22:00:00Z')))[0]!.start).toBe('2020-01-04')
		expect((await newCasesPerWeek(db, 1, new Date('2020-01-03T20:00:00Z')))[0]!.start).toBe('2019-12-28')
	})

	test('the five open cases that have waited longest, longest first', async () => {
		const { cases: figures } = await dashboardFor(officer)
		expect(figures!.waiting.map((row) => row.reference)).toEqual(['DASH-000C', 'DASH-000K', 'DASH-000B', 'DASH-000D', 'DASH-000E'])
		expect(figures!.waiting[0]).toEqual({
			reference: 'DASH-000C',
			name: 'مستفيد DASH-000C',
			programme: needyFamilies.title,
			status: { name: 'جديد', badge: 'bg-sky-100 text-sky-900' },
			waited: '100 يوم',
		})
		expect(figures!.waiting[1]!.waited).toBe('50 يوماً')
	})

	test('«my cases»: the open cases assigned to whoever is signed in', async () => {
		const mine = (await dashboardFor(officer)).cases!.mine
		expect(mine.map((row) => row.reference)).toEqual(['DASH-000K', 'DASH-000D', 'DASH-000A'])
		expect(mine.at(-1)!.waited).toBe('اليوم')
		expect((await dashboardFor(admin)).cases!.mine.map((row) => row.reference)).toEqual(['DASH-000C'])
		expect((await dashboardFor(await addUser('باحث جديد', 'case_officer'))).cases!.mine).toEqual([])
	})

	test('shortcut cards by role: case roles get the association list, their visits and paper intake; everyone their own account', async () => {
		const links = (data: Awaited<ReturnType<typeof dashboardFor>>) => data.cards.map((card) => card.to)
		expect(links(await dashboardFor(officer))).toEqual(['/admin/account', '/admin/cases', '/admin/associations', '/admin/visits', '/admin/cases/new'])
		expect(links(await dashboardFor(admin))).toEqual(expect.arrayContaining(['/admin/users', '/admin/audit', '/admin/account', '/admin/foundation', '/admin/cases', '/admin/associations', '/admin/cases/new', '/admin/intake']))
		expect(links(await dashboardFor(editor))).toContain('/admin/account')
		expect(links(await dashboardFor(editor))).not.toContain('/admin/cases')
		expect(links(await dashboardFor(editor))).not.toContain('/admin/visits')
	})

	test('a content editor gets only their cards: no case data at all', async () => {
		const data = await dashboardFor(editor)
		expect(data.cases).toBeNull()
		expect(Object.keys(data).sort()).toEqual(['cards', 'cases', 'name'])
		const text = JSON.stringify(data)
		expect(text).not.toContain('DASH-')
		expect(text).not.toContain('مستفيد')
		expect(text).not.toContain('/admin/associations')
		expect(data.cards.map((card) => card.to)).toContain('/admin/foundation')
	})
})
