import fs from 'node:fs'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { eq, inArray } from 'drizzle-orm'
import type { DatabaseHandle } from '#app/db/client.server.ts'
import { attachments, auditLog, caseAid, caseEvents, caseMessages, cases, caseSections, retentionRegister } from '#app/db/schema.ts'
import { createTestDatabase } from '#tests/db.ts'
import { temporaryStorage } from '#tests/storage.ts'
import { insertClosedCase } from '#app/operations/retention-test-cases.ts'
import { countDue, PURGED_NAME, purgedNationalId, runRetention } from '#app/operations/retention-purge.server.ts'

// Retention destroys what it should and nothing else: closed cases (3, 6) past RETENTION_MONTHS.

let handle: DatabaseHandle
const files = temporaryStorage('retention')
const now = new Date('2026-06-01T09:00:00Z')
const monthsAgo = (months: number) => new Date(Date.UTC(2026, 5 - months, 1, 9))

beforeAll(async () => {
	handle = await createTestDatabase()
})
afterAll(async () => {
	await handle.close()
	files.remove()
})

const closedCase = (status: number, closedAt: Date, options: { deleted?: boolean } = {}) => insertClosedCase(handle.db, files.storage, { status, closedAt, ...options })

const exists = (key: string) => fs.existsSync(`${files.dir}/files/${key.slice(0, 2)}/${key.slice(2, 4)}/${key}`)

describe('retention', () => {
	test('purges closed cases past the period, keeps the minimal record, and touches nothing else', async () => {
		const db = handle.db
		const provided = await closedCase(3, monthsAgo(25))
		const archivedDeleted = await closedCase(6, monthsAgo(30), { deleted: true })
		const stopped = await closedCase(5, monthsAgo(30))
		const recent = await closedCase(3, monthsAgo(23))
		const draft = await insertClosedCase(db, files.storage, { status: 3, closedAt: monthsAgo(40), draft: true })

		for (const closed of [provided, recent]) await db.insert(caseMessages).values({ caseId: closed.id, event: 'status:3', channel: 'sms', recipient: '+966551234567', body: 'تم تقديم الدعم', status: 'sent' })
		expect(await countDue(db, { months: 24, now })).toBe(2)
		const dry = await runRetention(db, files.storage, { months: 24, now, runBy: 'command', dryRun: true })
		expect(dry.due.map((item) => item.reference).sort()).toEqual([provided.reference, archivedDeleted.reference].sort())
		expect(await db.select().from(retentionRegister)).toEqual([])
		expect(provided.keys.every(exists)).toBe(true)

		const report = await runRetention(db, files.storage, { months: 24, now, runBy: 'command' })
		expect(report.purged.map((item) => item.reference).sort()).toEqual([provided.reference, archivedDeleted.reference].sort())
		const first = report.purged.find((item) => item.reference === provided.reference)!
		expect(first).toMatchObject({ files: 2, bytes: provided.files.reduce((sum, file) => sum + file.bytes.length, 0), orphans: [] })
		expect(first.sections).toEqual(provided.sections)
		expect(first.sections.length).toBeGreaterThan(5)

		// The purged: no sections, no attachment rows, no stored files; the personal columns blanked.
		for (const purged of [provided, archivedDeleted]) {
			expect(await db.select().from(caseSections).where(eq(caseSections.caseId, purged.id))).toEqual([])
			expect(await db.select().from(attachments).where(eq(attachments.caseId, purged.id))).toEqual([])
			expect(await db.select().from(caseMessages).where(eq(caseMessages.caseId, purged.id))).toEqual([])
			expect(purged.keys.some(exists)).toBe(false)
			const [row] = await db.select().from(cases).where(eq(cases.id, purged.id))
			expect(row).toMatchObject({ applicantName: PURGED_NAME, mobile: '', email: '', reference: purged.reference, type: purged.type, purgedAt: now, submittedAt: purged.submittedAt })
			expect(row!.nationalId).toBe(await purgedNationalId(db, purged.nationalId))
			expect(row!.nationalId).not.toContain(purged.nationalId)
			expect(row!.resumeTokenHash).not.toBe(purged.resumeTokenHash)
			// The aid given stays, without its free text; the history keeps kinds, dates and statuses, not words.
			const aid = await db.select().from(caseAid).where(eq(caseAid.caseId, purged.id))
			expect(aid.map(({ amount, kind, givenOn, note }) => ({ amount, kind, givenOn, note }))).toEqual([{ amount: 1500, kind: 'cash', givenOn: '2024-01-10', note: '' }])
			const events = await db.select().from(caseEvents).where(eq(caseEvents.caseId, purged.id))
			expect(events).toHaveLength(4)
			expect(events.every((event) => event.note === '')).toBe(true)
			expect(events.find((event) => event.kind === 'status_changed')!.data).toEqual({ from: 2, to: purged === provided ? 3 : 6 })
			expect(events.find((event) => event.kind === 'file_added')!.data).toEqual({ slot: 'identity' })
		}
		expect((await db.select({ deletedAt: cases.deletedAt }).from(cases).where(eq(cases.id, archivedDeleted.id)))[0]!.deletedAt).not.toBeNull()

		// Untouched: support stopped, closed too recently, a draft.
		for (const kept of [stopped, recent]) {
			const [row] = await db.select().from(cases).where(eq(cases.id, kept.id))
			expect(row).toMatchObject({ applicantName: kept.applicantName, nationalId: kept.nationalId, mobile: kept.mobile, purgedAt: null })
			expect((await db.select().from(caseSections).where(eq(caseSections.caseId, kept.id))).length).toBeGreaterThan(5)
			if (kept === recent) expect(await db.select().from(caseMessages).where(eq(caseMessages.caseId, kept.id))).toHaveLength(1)
			expect(await db.select().from(attachments).where(eq(attachments.caseId, kept.id))).toHaveLength(2)
			expect(kept.keys.every(exists)).toBe(true)
			expect((await db.select().from(caseAid).where(eq(caseAid.caseId, kept.id)))[0]!.note).toBe('سُلّم لعبدالله القحطاني')
		}
		expect((await db.select().from(cases).where(eq(cases.id, draft.id)))[0]!.purgedAt).toBeNull()
		expect((await db.select().from(caseSections).where(eq(caseSections.caseId, draft.id))).length).toBeGreaterThan(0)

		// The register and the audit trail: one row and one entry per purged case.
		const register = await db.select().from(retentionRegister)
		expect(register).toHaveLength(2)
		expect(register.find((row) => row.caseReference === provided.reference)).toMatchObject({ caseId: provided.id, caseType: 'needy-families', outcome: 3, closedAt: monthsAgo(25), purgedAt: now, files: 2, bytes: first.bytes, runBy: 'command', sections: first.sections })
		const audit = await db.select().from(auditLog).where(inArray(auditLog.caseReference, [provided.reference, archivedDeleted.reference]))
		expect(audit.map((entry) => ({ action: entry.action, actorId: entry.actorId, path: entry.path }))).toEqual([
			{ action: 'retention.purge', actorId: null, path: '' },
			{ action: 'retention.purge', actorId: null, path: '' },
		])
		expect(audit.find((entry) => entry.caseReference === provided.reference)!.data).toEqual({ sections: first.sections.length, files: 2, bytes: first.bytes, by: 'command' })

		// A second run finds nothing new.
		const again = await runRetention(db, files.storage, { months: 24, now, runBy: 'timer' })
		expect(again.purged).toEqual([])
		expect(await db.select().from(retentionRegister)).toHaveLength(2)
		// The register keeps its rows.
		await expect(db.delete(retentionRegister)).rejects.toThrow()
	})

	test('two runs at once purge each case once', async () => {
		const db = handle.db
		const one = await closedCase(3, monthsAgo(26))
		const two = await closedCase(6, monthsAgo(27))
		const [a, b] = await Promise.all([
			runRetention(db, files.storage, { months: 24, now, runBy: 'timer' }),
			runRetention(db, files.storage, { months: 24, now, runBy: 'command' }),
		])
		expect([...a.purged, ...b.purged].map((item) => item.reference).sort()).toEqual([one.reference, two.reference].sort())
		const register = await db.select().from(retentionRegister).where(inArray(retentionRegister.caseReference, [one.reference, two.reference]))
		expect(register).toHaveLength(2)
	})
})
