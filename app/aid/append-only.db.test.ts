import { eq, sql } from 'drizzle-orm'
import { beforeAll, expect, test } from 'vitest'
import type { Database } from '#app/db/client.server.ts'
import { caseAid, ledgerEntries } from '#app/db/schema.ts'
import { postTransfers } from './ledger.server.ts'
import { asRetentionPurge } from '#app/operations/retention-purge.server.ts'
import { submittedCase } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'

// The money tables (the aid ledger, case_aid, and the money ledger, ledger_entries) are append-only (docs/decisions/018-append-only-ledger.md): the database itself
// refuses to change or remove a written row, on PGlite and PostgreSQL alike; retention alone may
// blank a row's free text, and delete a row written more than 10 years ago.

const app = withAppDatabase()
const db = () => app.handle.db
let caseId: string

beforeAll(async () => {
	caseId = (await submittedCase(db())).id
})

/** Refused by the trigger: the driver's error, wrapped by Drizzle's, says the table is append-only. */
const refused = async (work: Promise<unknown>) => {
	const error: unknown = await work.then(
		() => undefined,
		(thrown: unknown) => thrown,
	)
	expect(String((error as { cause?: unknown } | undefined)?.cause ?? error)).toMatch(/append-only/)
}
const given = async (values: Partial<typeof caseAid.$inferInsert> = {}) => (await db().insert(caseAid).values({ caseId, amount: 500, kind: 'cash', givenOn: '2026-01-10', note: 'سلّمها أحمد', ...values }).returning())[0]!
const rowOf = async (id: number) => (await db().select().from(caseAid).where(eq(caseAid.id, id)))[0]

test('a row of the aid ledger cannot be updated, deleted or truncated', async () => {
	const row = await given()
	await refused(db().update(caseAid).set({ amount: 1 }).where(eq(caseAid.id, row.id)))
	await refused(db().update(caseAid).set({ note: '' }).where(eq(caseAid.id, row.id)))
	await refused(db().delete(caseAid).where(eq(caseAid.id, row.id)))
	await refused(db().execute(sql`truncate case_aid`))
	expect(await rowOf(row.id)).toEqual(row)
})

test('only a reversing row is negative, and a row is reversed once', async () => {
	const row = await given()
	await expect(given({ amount: -500 })).rejects.toThrow()
	await expect(given({ amount: 500, correctsId: row.id })).rejects.toThrow()
	await given({ amount: -500, correctsId: row.id })
	await expect(given({ amount: -500, correctsId: row.id })).rejects.toThrow()
})

test('retention may blank a row\'s note and delete a row older than 10 years; nothing else, and only while it says so', async () => {
	const recent = await given()
	const old = await given({ createdAt: new Date(Date.now() - 10 * 366 * 86_400_000), givenOn: '2015-01-01' })
	const inRetention = (work: (tx: Database) => Promise<unknown>) => db().transaction((tx) => asRetentionPurge(tx, () => work(tx)))
	// The note blanked, nothing else.
	await inRetention((tx) => tx.update(caseAid).set({ note: '' }).where(eq(caseAid.id, recent.id)))
	expect(await rowOf(recent.id)).toEqual({ ...recent, note: '' })
	await refused(inRetention((tx) => tx.update(caseAid).set({ note: '', amount: 1 }).where(eq(caseAid.id, recent.id))))
	await refused(inRetention((tx) => tx.update(caseAid).set({ note: 'غير ذلك' }).where(eq(caseAid.id, recent.id))))
	// A row of this year stays; one written more than 10 years ago may go.
	await refused(inRetention((tx) => tx.delete(caseAid).where(eq(caseAid.id, recent.id))))
	await inRetention((tx) => tx.delete(caseAid).where(eq(caseAid.id, old.id)))
	expect(await rowOf(old.id)).toBeUndefined()
	// The setting ends with the work: the same transaction refuses afterwards.
	const older = await given({ createdAt: new Date(Date.now() - 11 * 366 * 86_400_000) })
	await refused(
		db().transaction(async (tx) => {
			await asRetentionPurge(tx, async () => undefined)
			await tx.delete(caseAid).where(eq(caseAid.id, older.id))
		}),
	)
	await refused(db().delete(caseAid).where(eq(caseAid.id, older.id)))
})

test('an entry of the money ledger cannot be updated, deleted or truncated; retention may blank its reason and delete one older than 10 years', async () => {
	const entry = await db().transaction(async (tx) => (await postTransfers(tx, [{ debitAccount: 'fund:1', creditAccount: `family:${caseId}`, amount: 300, phase: 'pending', caseId, reason: 'محضر 3' }], { id: null }))[0]!)
	const entryOf = async (id: number) => (await db().select().from(ledgerEntries).where(eq(ledgerEntries.id, id)))[0]
	await refused(db().update(ledgerEntries).set({ amount: 1 }).where(eq(ledgerEntries.id, entry.id)))
	await refused(db().update(ledgerEntries).set({ reason: '' }).where(eq(ledgerEntries.id, entry.id)))
	await refused(db().delete(ledgerEntries).where(eq(ledgerEntries.id, entry.id)))
	await refused(db().execute(sql`truncate ledger_entries`))
	const inRetention = (work: (tx: Database) => Promise<unknown>) => db().transaction((tx) => asRetentionPurge(tx, () => work(tx)))
	await inRetention((tx) => tx.update(ledgerEntries).set({ reason: '' }).where(eq(ledgerEntries.id, entry.id)))
	expect(await entryOf(entry.id)).toEqual({ ...entry, reason: '' })
	await refused(inRetention((tx) => tx.update(ledgerEntries).set({ reason: '', amount: 5 }).where(eq(ledgerEntries.id, entry.id))))
	await refused(inRetention((tx) => tx.delete(ledgerEntries).where(eq(ledgerEntries.id, entry.id))))
	const [old] = await db()
		.insert(ledgerEntries)
		.values({ transactionId: entry.transactionId, debitAccount: 'fund:1', creditAccount: `family:${caseId}`, amount: 300, phase: 'pending', valueDate: '2015-01-01', createdAt: new Date(Date.now() - 11 * 366 * 86_400_000) })
		.returning()
	await refused(db().delete(ledgerEntries).where(eq(ledgerEntries.id, old!.id)))
	await inRetention((tx) => tx.delete(ledgerEntries).where(eq(ledgerEntries.id, old!.id)))
	expect(await entryOf(old!.id)).toBeUndefined()
})
