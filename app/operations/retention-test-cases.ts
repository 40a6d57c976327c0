import { randomBytes } from 'node:crypto'
import type { Database } from '#app/db/client.server.ts'
import { attachments, caseAid, caseEvents, cases, caseSections } from '#app/db/schema.ts'
import { Status } from '#app/cases/case-statuses.ts'
import { newReference } from '#app/cases/tokens.server.ts'
import type { FileStorage } from '#app/storage/file-storage.server.ts'
import { basicAnswers, randomNationalId, sectionAnswers } from '#tests/fixtures/needy-families.ts'
import { stagedFile } from '#tests/storage.ts'

// Sent needy-families cases written straight into the tables, for the retention and subject access
// tests: every section answered, two stored files with real bytes, an aid row, a staff note.

export interface TestCase {
	id: string
	reference: string
	type: string
	nationalId: string
	applicantName: string
	mobile: string
	submittedAt: Date
	resumeTokenHash: string
	keys: string[]
	files: { name: string; bytes: Buffer }[]
	sections: string[]
}

let counter = 0

export async function insertClosedCase(db: Database, storage: FileStorage, options: { status: number; closedAt: Date; nationalId?: string; deleted?: boolean; draft?: boolean; fileNames?: string[] }): Promise<TestCase> {
	const nationalId = options.nationalId ?? randomNationalId()
	const mobile = `+9665${String(10_000_000 + counter++).padStart(8, '0')}`
	const answers = { basic: basicAnswers(nationalId, `0${mobile.slice(4)}`), ...sectionAnswers }
	const submittedAt = new Date(options.closedAt.getTime() - 30 * 24 * 60 * 60 * 1000)
	const [row] = await db
		.insert(cases)
		.values({
			type: 'needy-families',
			reference: newReference(),
			status: options.status,
			applicantName: answers.basic.Full_Name,
			nationalId,
			mobile,
			email: 'family@example.org',
			resumeTokenHash: randomBytes(32).toString('hex'),
			createdAt: submittedAt,
			submittedAt: options.draft ? null : submittedAt,
			statusChangedAt: options.closedAt,
			deletedAt: options.deleted ? options.closedAt : null,
			consent: 'given',
			consentAt: submittedAt,
		})
		.returning()
	const id = row!.id
	for (const [section, value] of Object.entries(answers)) await db.insert(caseSections).values({ caseId: id, section, answers: value })
	const names = options.fileNames ?? ['هوية.pdf', 'سجل الأسرة.pdf']
	const files = names.map((name, index) => ({ name, bytes: Buffer.from(`%PDF-1.4 ${index} ${'x'.repeat(index * 13)} ${randomBytes(4).toString('hex')}`) }))
	const keys: string[] = []
	for (const [index, file] of files.entries()) {
		const staged = stagedFile(storage, file.bytes, file.name)
		const key = await storage.adopt(staged.tempPath)
		keys.push(key)
		await db.insert(attachments).values({ caseId: id, slot: index ? 'family_report' : 'identity', originalName: file.name, contentType: 'application/pdf', size: file.bytes.length, sha256: staged.sha256, storageKey: key })
	}
	await db.insert(caseAid).values({ caseId: id, amount: 1500, kind: 'cash', givenOn: '2024-01-10', note: 'سُلّم لعبدالله القحطاني' })
	await db.insert(caseEvents).values([
		{ caseId: id, kind: 'submitted', at: submittedAt, data: {} },
		{ caseId: id, kind: 'file_added', at: submittedAt, data: { slot: 'identity', name: names[0] } },
		{ caseId: id, kind: 'internal_note', note: 'زوجته نورة مريضة', data: {} },
		{ caseId: id, kind: 'status_changed', note: 'دُرست الحالة', at: options.closedAt, data: { from: Status.Studied, to: options.status } },
	])
	return { id, reference: row!.reference, type: row!.type, nationalId, applicantName: row!.applicantName, mobile, submittedAt, resumeTokenHash: row!.resumeTokenHash, keys, files, sections: Object.keys(answers).sort() }
}
