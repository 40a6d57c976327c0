// A batch's bank file (docs/product.md#payment, docs/decisions/017-bank-files-kept-as-sent.md): made
// from the batch's pinned lines only, never from the applicant's answers; and, once the batch is
// marked sent, kept as those exact bytes with their SHA-256, in every layout and format, so that a
// download of a sent batch gives what the bank received, for ever.
import { createHash } from 'node:crypto'
import { and, asc, eq } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { foundationInfo, paymentBatchFiles } from '#app/db/schema.ts'
import { aidKindLabel } from '#app/cases/aid.ts'
import { todayInRiyadh } from '#app/text/format.ts'
import { bankLayouts, type BankLayout, type TransferBatch, type TransferLine } from './bank-layouts/index.ts'
import { transferCsv, transferXlsx } from './transfer-file.server.ts'

export type FileFormat = 'csv' | 'xlsx'
export const fileFormats: readonly FileFormat[] = ['csv', 'xlsx']

/** What a batch file is made of: the batch's account and its lines as pinned. */
export interface BatchForFile {
	batch: { id: number; debitAccount: string | null }
	lines: readonly { lineId: number; reference: string; caseReference: string; name: string; iban: string; bankCode: string; amount: number; aidKind: string; status: string }[]
}

/** The lines the bank is told: all but those taken out before the file was sent. */
function transferLines(found: BatchForFile): TransferLine[] {
	return found.lines
		.filter((line) => line.status !== 'withdrawn')
		.map((line) => ({ lineId: line.lineId, paymentReference: line.reference, caseReference: line.caseReference, name: line.name, iban: line.iban, bankCode: line.bankCode, amount: line.amount, purpose: aidKindLabel(line.aidKind) }))
}

async function transferBatch(db: Database, found: BatchForFile, lines: readonly TransferLine[], valueDate: string): Promise<TransferBatch> {
	// The foundation's details as staff keep them (none before the seed ran: the bank's file says less, it still is made).
	const [foundation] = await db.select({ name: foundationInfo.name, location: foundationInfo.location }).from(foundationInfo)
	const total = lines.reduce((sum, line) => sum + Math.round(line.amount * 100), 0) / 100
	return { id: found.batch.id, debitAccount: found.batch.debitAccount ?? '', valueDate, total, count: lines.length, orderingParty: foundation?.name ?? '', orderingAddress: foundation?.location ?? '' }
}

/** A batch's file in one layout and format, made now from its pinned lines, for the value date given. */
export async function makeBatchFile(db: Database, found: BatchForFile, layout: BankLayout, format: FileFormat, valueDate: string): Promise<Uint8Array> {
	const lines = transferLines(found)
	const batch = await transferBatch(db, found, lines, valueDate)
	return format === 'csv' ? new TextEncoder().encode(transferCsv(layout, lines, batch)) : new Uint8Array(await transferXlsx(layout, lines, batch))
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/** Keeps the batch's file in every layout and format, valued on the day it was sent, in the caller's transaction. */
export async function keepBatchFiles(tx: Database, found: BatchForFile, sentOn: string, actorId: number): Promise<void> {
	for (const layout of bankLayouts) {
		for (const format of fileFormats) {
			const bytes = await makeBatchFile(tx, found, layout, format, sentOn)
			await tx.insert(paymentBatchFiles).values({ batchId: found.batch.id, layout: layout.key, format, bytes, sha256: sha256(bytes), keptBy: actorId })
		}
	}
}

export interface KeptFile {
	layout: string
	format: FileFormat
	sha256: string
	keptAt: Date
}

/** The files kept when the batch was sent (none before, or for a batch sent before files were kept). */
export async function keptFiles(db: Database, batchId: number): Promise<KeptFile[]> {
	return db
		.select({ layout: paymentBatchFiles.layout, format: paymentBatchFiles.format, sha256: paymentBatchFiles.sha256, keptAt: paymentBatchFiles.keptAt })
		.from(paymentBatchFiles)
		.where(eq(paymentBatchFiles.batchId, batchId))
		.orderBy(asc(paymentBatchFiles.id))
}

/**
 * The file a download gives: a sent batch's kept bytes as they are; an open batch's (or one sent
 * before files were kept) made from its pinned lines, valued today.
 */
export async function batchFile(db: Database, found: BatchForFile, layout: BankLayout, format: FileFormat): Promise<{ bytes: Uint8Array; kept: boolean }> {
	const [kept] = await db
		.select({ bytes: paymentBatchFiles.bytes })
		.from(paymentBatchFiles)
		.where(and(eq(paymentBatchFiles.batchId, found.batch.id), eq(paymentBatchFiles.layout, layout.key), eq(paymentBatchFiles.format, format)))
	if (kept) return { bytes: new Uint8Array(kept.bytes), kept: true }
	return { bytes: await makeBatchFile(db, found, layout, format, todayInRiyadh()), kept: false }
}
