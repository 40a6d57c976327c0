import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { buffer } from 'node:stream/consumers'
import { and, asc, eq } from 'drizzle-orm'
import yauzl from 'yauzl'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createSession, sessionCookieName } from '#app/auth/session.server.ts'
import { attachments, auditLog, caseAid, caseEvents, caseSections, caseMessages } from '#app/db/schema.ts'
import { createUser } from '#app/domain/staff-users.server.ts'
import { seedDemoContent } from '#app/seed.server.ts'
import { getCaseFileStorage } from '#app/storage/file-storage.server.ts'
import { randomNationalId } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { runRoute } from '#tests/route.ts'
import { middleware } from '#app/routes/admin/layout.tsx'
import { action as exportAction, middleware as exportMiddleware } from '#app/routes/admin/subject-access-export.ts'
import { action as lookupAction, middleware as lookupMiddleware } from '#app/routes/admin/subject-access.tsx'
import { action as caseAction, loader as caseLoader, middleware as caseMiddleware } from '#app/routes/admin/case.tsx'
import { loader as printLoader, middleware as printMiddleware } from '#app/routes/admin/case-print.tsx'
import { insertClosedCase, type TestCase } from '#app/operations/retention-test-cases.ts'
import { PURGED_NAME, runRetention } from '#app/operations/retention-purge.server.ts'

// Subject access: the ZIP holds every section, event, aid row and file of the person's cases,
// byte for byte, and their purged cases' minimal records; only an admin gets it; it is audited.

// Applicants' files go where the app keeps them: a temp data directory for this file.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ataa-subject-access-'))
process.env.DATA_DIR = dataDir

const app = withAppDatabase()
const cookies: Record<'admin' | 'officer', string> = { admin: '', officer: '' }
const nationalId = randomNationalId()
let live: TestCase
let purged: TestCase
let other: TestCase

beforeAll(async () => {
	const db = app.handle.db
	// The printable report names the foundation.
	await seedDemoContent(db)
	for (const [role, email] of [
		['admin', 'sa-admin@example.org'],
		['officer', 'sa-officer@example.org'],
	] as const) {
		const user = await createUser(db, { name: role, email, mobile: '', roles: [role === 'admin' ? 'admin' : 'case_officer'], password: 'Subject-Access-123' })
		cookies[role] = `${sessionCookieName()}=${(await createSession(db, user.id)).token}`
	}
	const storage = getCaseFileStorage()
	live = await insertClosedCase(db, storage, { status: 1, closedAt: new Date(), nationalId, fileNames: ['هوية.pdf', 'هوية.pdf', '../../etc/passwd'] })
	purged = await insertClosedCase(db, storage, { status: 3, closedAt: new Date(Date.now() - 30 * 31 * 24 * 60 * 60 * 1000), nationalId })
	other = await insertClosedCase(db, storage, { status: 1, closedAt: new Date() })
	const report = await runRetention(db, storage, { months: 24, runBy: 'command' })
	expect(report.purged.map((item) => item.reference)).toEqual([purged.reference])
})
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

const post = (url: string, form: Record<string, string>, cookie: string) =>
	new Request(`http://localhost${url}`, { method: 'POST', headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) })

const download = (form: Record<string, string>, cookie = cookies.admin) => runRoute([...middleware, ...exportMiddleware], exportAction, { request: post('/admin/subject-access/export', form, cookie) })
const lookup = (form: Record<string, string>, cookie = cookies.admin) => runRoute([...middleware, ...lookupMiddleware], lookupAction, { request: post('/admin/subject-access', form, cookie) })

/** Every entry of a ZIP: name → bytes. */
async function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
	const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, file) => (error ? reject(error) : resolve(file))))
	const entries = new Map<string, Buffer>()
	await new Promise<void>((resolve, reject) => {
		zip.on('entry', (entry: yauzl.Entry) => {
			zip.openReadStream(entry, (error, stream) => {
				if (error) return reject(error)
				buffer(stream).then((content) => {
					entries.set(entry.fileName, content)
					zip.readEntry()
				}, reject)
			})
		})
		zip.on('end', resolve)
		zip.on('error', reject)
		zip.readEntry()
	})
	return entries
}

const parsed = (entries: Map<string, Buffer>, name: string) => JSON.parse(entries.get(name)!.toString('utf8')) as unknown

const masked = `******${nationalId.slice(-4)}`

describe('subject access', () => {
	test('the page says what is held for a national ID, and what is wrong with a mistyped one', async () => {
		const found = (await lookup({ nationalId: ` ${nationalId.slice(0, 5)} ${nationalId.slice(5)} ` })) as { summary: unknown }
		expect(found.summary).toEqual({ cases: 2, purged: 1, files: 3, byType: [{ type: 'needy-families', title: expect.any(String), count: 2 }] })
		const nothing = (await lookup({ nationalId: '1000000008' })) as { summary: { cases: number } }
		expect(nothing.summary.cases).toBe(0)
		const wrong = (await lookup({ nationalId: '12345' })) as { data: { errors: string[]; nationalId: string }; init: { status: number } }
		expect(wrong.init.status).toBe(400)
		expect(wrong.data).toEqual({ nationalId: '12345', errors: ['رقم الهوية يجب أن يكون 10 أرقام ويبدأ بـ 1 أو 2'], summary: null })
	})

	test('the ZIP holds every section, event, aid row and file, byte for byte; purged cases as their minimal record', async () => {
		const db = app.handle.db
		await db.insert(caseMessages).values({ caseId: live.id, event: 'status:4', channel: 'sms', recipient: live.mobile, body: 'طلبك غير مكتمل', status: 'sent', sentAt: new Date() })
		const response = (await download({ nationalId })) as Response
		expect(response.status).toBe(200)
		expect(response.headers.get('Content-Type')).toBe('application/zip')
		expect(response.headers.get('Content-Disposition')).toMatch(new RegExp(`^attachment; filename="subject-access-${nationalId.slice(-4)}-\\d{4}-\\d{2}-\\d{2}\\.zip"$`))
		const entries = await unzip(Buffer.from(await response.arrayBuffer()))
		expect(entries.get('اقرأني.txt')!.toString('utf8')).toContain(`رقم الهوية: ${nationalId}`)
		expect([...entries.keys()].some((name) => name.startsWith(other.reference))).toBe(false)

		// The live case: as stored.
		const folder = live.reference
		expect(parsed(entries, `${folder}/case.json`)).toMatchObject({ reference: live.reference, nationalId, applicantName: live.applicantName, mobile: live.mobile, consent: 'given', purgedAt: null })
		const sections = await db.select().from(caseSections).where(eq(caseSections.caseId, live.id)).orderBy(asc(caseSections.section))
		const zippedSections = parsed(entries, `${folder}/sections.json`) as { section: string; answers: unknown; described: unknown[] }[]
		expect(zippedSections.map(({ section, answers }) => ({ section, answers }))).toEqual(sections.map(({ section, answers }) => ({ section, answers })))
		expect(zippedSections.find((section) => section.section === 'basic')!.described.length).toBeGreaterThan(5)
		const events = await db.select().from(caseEvents).where(eq(caseEvents.caseId, live.id)).orderBy(asc(caseEvents.at), asc(caseEvents.id))
		expect(parsed(entries, `${folder}/messages.json`)).toMatchObject([{ event: 'status:4', channel: 'sms', to: live.mobile, text: 'طلبك غير مكتمل', status: 'sent' }])
		const history = parsed(entries, `${folder}/history.json`) as { kind: string; note: string; internal: boolean; data: unknown }[]
		expect(history.map(({ kind, note, data }) => ({ kind, note, data }))).toEqual(events.map(({ kind, note, data }) => ({ kind, note, data })))
		expect(history.filter((event) => event.internal).map((event) => event.note)).toEqual(['زوجته نورة مريضة'])
		const aid = await db.select().from(caseAid).where(eq(caseAid.caseId, live.id))
		expect(parsed(entries, `${folder}/aid.json`)).toEqual(
			aid.map((row) => ({ givenOn: row.givenOn, amount: row.amount, kind: row.kind, kindLabel: expect.any(String), note: row.note, recordedAt: row.createdAt.toISOString() })),
		)
		// Each file under its own name: the same name twice told apart, a path reduced to a name.
		const names = ['هوية.pdf', 'هوية (2).pdf', 'passwd']
		expect((parsed(entries, `${folder}/files.json`) as { name: string }[]).map((file) => file.name)).toEqual(names.map((name) => `files/${name}`))
		names.forEach((name, index) => expect(entries.get(`${folder}/files/${name}`)!.equals(live.files[index]!.bytes)).toBe(true))

		// The purged case: its minimal record and the aid given, nothing of the person.
		expect(parsed(entries, `${purged.reference}/case.json`)).toMatchObject({
			reference: purged.reference,
			status: 3,
			applicantName: null,
			nationalId: null,
			mobile: null,
			purgedAt: expect.any(String),
		})
		expect(parsed(entries, `${purged.reference}/sections.json`)).toEqual([])
		expect(parsed(entries, `${purged.reference}/files.json`)).toEqual([])
		expect(parsed(entries, `${purged.reference}/messages.json`)).toEqual([])
		expect(parsed(entries, `${purged.reference}/aid.json`)).toMatchObject([{ amount: 1500, kind: 'cash', note: '' }])
		expect(entries.get(`${purged.reference}/history.json`)!.toString('utf8')).not.toContain('نورة')

		const [entry] = await db.select().from(auditLog).where(eq(auditLog.action, 'subject-access.export')).orderBy(asc(auditLog.id))
		expect(entry).toMatchObject({ path: '/admin/subject-access/export', data: { nationalId: masked, cases: 2, files: 3 } })
		expect(JSON.stringify(await db.select().from(auditLog))).not.toContain(nationalId)
	})

	test('nothing held: back to the form with a notice, no ZIP; the attempt is in the audit trail', async () => {
		const response = (await download({ nationalId: '1000000008' })) as Response
		expect(response.status).toBe(302)
		expect(response.headers.get('Location')).toBe('/admin/subject-access')
		expect(response.headers.get('Content-Type')).not.toBe('application/zip')
		const entries = await app.handle.db.select().from(auditLog).where(eq(auditLog.action, 'subject-access.export')).orderBy(asc(auditLog.id))
		expect(entries.map((entry) => entry.data)).toEqual([expect.objectContaining({ nationalId: masked }), { nationalId: '******0008', cases: 0, files: 0 }])
	})

	test('a case officer is refused, and the refusal is in the audit trail', async () => {
		await expect(download({ nationalId }, cookies.officer)).rejects.toHaveProperty('status', 403)
		await expect(lookup({ nationalId }, cookies.officer)).rejects.toHaveProperty('status', 403)
		const denied = await app.handle.db
			.select()
			.from(auditLog)
			.where(and(eq(auditLog.action, 'access.denied'), eq(auditLog.path, '/admin/subject-access/export')))
		expect(denied).toHaveLength(1)
	})

	test('a purged case opens as its minimal record, with the notice, and refuses a message', async () => {
		const request = (method = 'GET', form?: Record<string, string>) =>
			new Request(`http://localhost/admin/cases/${purged.reference}`, {
				method,
				headers: { Cookie: cookies.admin, ...(form ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}) },
				body: form ? new URLSearchParams(form) : undefined,
			})
		const view = await runRoute([...middleware, ...caseMiddleware], caseLoader, { request: request(), params: { reference: purged.reference } })
		expect(view).toMatchObject({ reference: purged.reference, name: PURGED_NAME, nationalId: '', mobile: '', sections: [], purged: expect.any(String) })
		expect(view.ledger.map((entry) => entry.here)).toEqual([true])
		const refused = (await runRoute([...middleware, ...caseMiddleware], caseAction, {
			request: request('POST', { intent: 'message', message: 'مرحباً' }),
			params: { reference: purged.reference },
		})) as unknown as { init: { status: number } }
		expect(refused.init.status).toBe(409)
		const print = await runRoute(printMiddleware, printLoader, {
			request: new Request(`http://localhost/admin/cases/${purged.reference}/print`, { headers: { Cookie: cookies.admin } }),
			params: { reference: purged.reference },
		})
		expect(JSON.stringify(print)).toContain(PURGED_NAME)
	})

	test('the page counts the files the ZIP holds: a file the applicant removed is not counted', async () => {
		const db = app.handle.db
		const someone = randomNationalId()
		const held = await insertClosedCase(db, getCaseFileStorage(), { status: 1, closedAt: new Date(), nationalId: someone, fileNames: ['هوية.pdf', 'صك.pdf', 'قديم.pdf'] })
		await db.update(attachments).set({ deletedAt: new Date() }).where(and(eq(attachments.caseId, held.id), eq(attachments.originalName, 'قديم.pdf')))
		const found = (await lookup({ nationalId: someone })) as { summary: { files: number } }
		const entries = await unzip(Buffer.from(await ((await download({ nationalId: someone })) as Response).arrayBuffer()))
		const zipped = [...entries.keys()].filter((name) => name.startsWith(`${held.reference}/files/`))
		expect(zipped).toHaveLength(2)
		expect(found.summary.files).toBe(zipped.length)
	})
})
