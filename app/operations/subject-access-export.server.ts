import { PassThrough, type Readable } from 'node:stream'
import { and, asc, eq, inArray, isNull, notLike, or } from 'drizzle-orm'
import { PAGE_SLOT_PREFIX } from '#app/cases/document-pages.ts'
import { ZipFile } from 'yazl'
import type { Database } from '#app/db/client.server.ts'
import { attachments, caseAid, caseEvents, caseMessages, cases, caseSections, caseStudies, users } from '#app/db/schema.ts'
import { describeStudy } from '#app/cases/studies.server.ts'
import { aidKindLabel } from '#app/cases/aid.ts'
import { describeEvent } from '#app/cases/history.ts'
import { staffStatusName } from '#app/cases/case-statuses.ts'
import { describeSection } from '#app/forms/describe.ts'
import { findDefinition } from '#app/forms/registry.ts'
import type { FileStorage } from '#app/storage/file-storage.server.ts'
import { formatDateTime } from '#app/text/format.ts'
import { purgedNationalId } from '#app/operations/retention-purge.server.ts'

// Subject access (docs/operations.md#subject-access-requests): everything the foundation holds about
// one national ID, as one ZIP an admin hands to the person. Built as it is sent: the case rows are
// read one case at a time and each file is opened only when the ZIP reaches it.

type CaseRow = typeof cases.$inferSelect

/** The person's cases: by their national ID, and the minimal records retention left (by its fingerprint). */
export async function casesHeld(db: Database, nationalId: string): Promise<CaseRow[]> {
	if (!nationalId) return []
	return db
		.select()
		.from(cases)
		.where(or(eq(cases.nationalId, nationalId), eq(cases.nationalId, await purgedNationalId(db, nationalId))))
		.orderBy(asc(cases.createdAt), asc(cases.reference))
}

export interface HeldSummary {
	cases: number
	purged: number
	files: number
	byType: { type: string; title: string; count: number }[]
}

export async function summariseHeld(db: Database, rows: readonly CaseRow[]): Promise<HeldSummary> {
	// The files the ZIP holds (subjectAccessZip): one the applicant removed is listed there, not held.
	const files = rows.length
		? await db
				.select({ id: attachments.id })
				.from(attachments)
				.where(and(inArray(attachments.caseId, rows.map((row) => row.id)), isNull(attachments.deletedAt), notLike(attachments.slot, `${PAGE_SLOT_PREFIX}%`)))
		: []
	const byType = new Map<string, number>()
	for (const row of rows) byType.set(row.type, (byType.get(row.type) ?? 0) + 1)
	return {
		cases: rows.length,
		purged: rows.filter((row) => row.purgedAt).length,
		files: files.length,
		byType: [...byType].map(([type, count]) => ({ type, title: findDefinition(type)?.title ?? type, count })),
	}
}

/** «******1234»: enough for the audit trail to tell requests apart, not the number itself. */
export const maskNationalId = (nationalId: string) => `${'*'.repeat(Math.max(0, nationalId.length - 4))}${nationalId.slice(-4)}`

/** A file name safe in any ZIP reader: no folders, no control characters, not empty, not too long. */
export function safeFileName(name: string): string {
	const cleaned = (name.split(/[\\/]/).pop() ?? '')
		.normalize('NFC')
		// Control characters, and what Windows refuses in a name.
		.replace(/[\p{Cc}:*?"<>|]/gu, '_')
		.replace(/^[.\s]+|[.\s]+$/g, '')
	const dot = cleaned.lastIndexOf('.')
	const [stem, extension] = dot > 0 && cleaned.length - dot <= 10 ? [cleaned.slice(0, dot), cleaned.slice(dot)] : [cleaned, '']
	return `${stem.slice(0, 100) || 'ملف'}${extension}`
}

/** `name`, or «name (2).ext», «name (3).ext»… when the folder already has it. */
export function uniqueName(name: string, taken: Set<string>): string {
	let candidate = name
	for (let n = 2; taken.has(candidate.toLowerCase()); n++) {
		const dot = name.lastIndexOf('.')
		candidate = dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`
	}
	taken.add(candidate.toLowerCase())
	return candidate
}

const iso = (value: Date | null) => (value ? value.toISOString() : null)
const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, '\t')}\n`, 'utf8')

const readme = (nationalId: string, rows: readonly CaseRow[], at: Date) =>
	[
		'نسخة البيانات الشخصية المحفوظة لدى مؤسسة عطاء الخيرية',
		'',
		`رقم الهوية: ${nationalId}`,
		`تاريخ إعداد النسخة: ${formatDateTime(at)} (بتوقيت الرياض)`,
		`عدد الطلبات: ${rows.length}`,
		'',
		'أُعدّت هذه النسخة استجابةً لطلب الاطلاع على البيانات الشخصية وفق نظام حماية البيانات الشخصية.',
		'في هذا الملف مجلد لكل طلب باسم رقمه، وفي كل مجلد:',
		'- case.json: بيانات الطلب الأساسية: البرنامج، والحالة، والتواريخ، والاسم، ورقم الهوية، والجوال، والبريد، والموافقة على معالجة البيانات.',
		'- sections.json: إجابات كل قسم من أقسام الطلب كما حُفظت (answers)، ومعها أسماء الحقول وقيمها بالعربية (described).',
		'- history.json: سجل الطلب: كل إجراء وتاريخه ومن قام به. الملاحظات الداخلية التي كتبها موظفو المؤسسة مُعلَّمة بـ internal: true.',
		'- aid.json: الدعم المقدم على الطلب: التاريخ، والمبلغ بالريال، والنوع، والملاحظة.',
		'- studies.json: دراسات الطلب التي سجلها باحثو المؤسسة: الزيارة أو الدراسة المكتبية، وما رُئي، والتوصية.',
		'- messages.json: الرسائل النصية ورسائل البريد الإلكتروني التي أرسلتها المؤسسة إليك بشأن الطلب، ونصها، وهل وصلت.',
		'- files.json: قائمة المرفقات، وفي مجلد files نسخة من كل مرفق باسمه الأصلي.',
		'',
		'الطلب الذي أُتلفت بياناته بعد انتهاء مدة الاحتفاظ لا يبقى منه إلا سجل مختصر: رقمه، والبرنامج، والتواريخ، والحالة، والدعم المقدم.',
		'التواريخ في ملفات JSON بالتوقيت العالمي المنسق (UTC).',
		'',
	].join('\r\n')

async function caseFiles(db: Database, row: CaseRow) {
	const [sections, files, events, aid, studies, messages] = await Promise.all([
		db.select().from(caseSections).where(eq(caseSections.caseId, row.id)).orderBy(asc(caseSections.section)),
		// The documents, not the pages they were made of (app/cases/document-pages.ts): those are not kept.
		db
			.select()
			.from(attachments)
			.where(and(eq(attachments.caseId, row.id), notLike(attachments.slot, `${PAGE_SLOT_PREFIX}%`)))
			.orderBy(asc(attachments.createdAt), asc(attachments.id)),
		db
			.select({ at: caseEvents.at, kind: caseEvents.kind, note: caseEvents.note, data: caseEvents.data, actorName: users.name })
			.from(caseEvents)
			.leftJoin(users, eq(users.id, caseEvents.actorId))
			.where(eq(caseEvents.caseId, row.id))
			.orderBy(asc(caseEvents.at), asc(caseEvents.id)),
		db.select().from(caseAid).where(eq(caseAid.caseId, row.id)).orderBy(asc(caseAid.givenOn), asc(caseAid.id)),
		db
			.select({ study: caseStudies, authorName: users.name })
			.from(caseStudies)
			.leftJoin(users, eq(users.id, caseStudies.authorId))
			.where(eq(caseStudies.caseId, row.id))
			.orderBy(asc(caseStudies.createdAt), asc(caseStudies.id)),
		db.select().from(caseMessages).where(eq(caseMessages.caseId, row.id)).orderBy(asc(caseMessages.createdAt)),
	])
	return { sections, files, events, aid, studies, messages }
}

export interface SubjectAccessZip {
	stream: Readable
	cases: number
	files: number
}

/**
 * The ZIP for `nationalId`'s cases `rows` (casesHeld). Attachments are read through `storage`
 * (decrypted) one at a time, as the ZIP is written: never all in memory.
 */
export async function subjectAccessZip(db: Database, storage: FileStorage, nationalId: string, rows: readonly CaseRow[], at = new Date()): Promise<SubjectAccessZip> {
	const zip = new ZipFile()
	const out = new PassThrough()
	zip.outputStream.on('error', (error) => out.destroy(error)).pipe(out)
	zip.on('error', (error: Error) => out.destroy(error))
	const mtime = at
	zip.addBuffer(Buffer.from(`\ufeff${readme(nationalId, rows, at)}`, 'utf8'), 'اقرأني.txt', { mtime })
	let fileCount = 0
	for (const row of rows) {
		const definition = findDefinition(row.type)
		const folder = row.reference
		const { sections, files, events, aid, studies, messages } = await caseFiles(db, row)
		const purged = row.purgedAt !== null
		zip.addBuffer(
			json({
				reference: row.reference,
				programme: definition?.title ?? row.type,
				type: row.type,
				status: row.status,
				statusName: row.submittedAt ? staffStatusName(row.status) : 'مسودة لم تُرسل',
				applicantName: purged ? null : row.applicantName,
				nationalId: purged ? null : row.nationalId,
				mobile: purged ? null : row.mobile,
				email: purged ? null : row.email,
				createdAt: iso(row.createdAt),
				submittedAt: iso(row.submittedAt),
				statusChangedAt: iso(row.statusChangedAt),
				paperIntake: row.paperIntake,
				consent: row.consent,
				consentAt: iso(row.consentAt),
				consentNoticeVersion: row.consentNoticeVersion,
				deletedAt: iso(row.deletedAt),
				purgedAt: iso(row.purgedAt),
				...(purged ? { purgedNote: 'أُتلفت بيانات هذا الطلب الشخصية ومرفقاته بعد انتهاء مدة الاحتفاظ؛ بقي منه هذا السجل المختصر.' } : {}),
			}),
			`${folder}/case.json`,
			{ mtime },
		)
		zip.addBuffer(
			json(
				sections.map((section) => {
					const sectionDef = definition?.sections.find((candidate) => candidate.key === section.section)
					return {
						section: section.section,
						title: sectionDef?.title ?? section.section,
						updatedAt: iso(section.updatedAt),
						answers: section.answers,
						described: sectionDef ? describeSection(sectionDef, section.answers as Record<string, never>) : [],
					}
				}),
			),
			`${folder}/sections.json`,
			{ mtime },
		)
		zip.addBuffer(
			json(
				events.map((event) => ({
					at: iso(event.at),
					kind: event.kind,
					description: describeEvent({ kind: event.kind, note: event.note, data: (event.data ?? {}) as Record<string, unknown> }, definition),
					by: event.actorName ?? (event.kind === 'created' || event.kind === 'submitted' || event.kind.startsWith('file_') || event.kind === 'section_saved' ? 'المتقدم' : 'النظام'),
					internal: event.kind === 'internal_note',
					note: event.note,
					data: event.data,
				})),
			),
			`${folder}/history.json`,
			{ mtime },
		)
		// What the foundation sent them about the case, by SMS and e-mail, and whether it arrived.
		zip.addBuffer(
			json(messages.map((message) => ({ at: iso(message.createdAt), event: message.event, channel: message.channel, to: message.recipient, subject: message.subject, text: message.body, status: message.status, sentAt: iso(message.sentAt) }))),
			`${folder}/messages.json`,
			{ mtime },
		)
		zip.addBuffer(
			json(studies.map(({ study, authorName }) => ({ at: iso(study.createdAt), described: describeStudy({ ...study, authorName }), recorded: { ...study, authorId: undefined } }))),
			`${folder}/studies.json`,
			{ mtime },
		)
		zip.addBuffer(
			json(aid.map((entry) => ({ givenOn: entry.givenOn, amount: entry.amount, kind: entry.kind, kindLabel: aidKindLabel(entry.kind), note: entry.note, recordedAt: iso(entry.createdAt) }))),
			`${folder}/aid.json`,
			{ mtime },
		)
		const taken = new Set<string>()
		const listed = files.map((file) => {
			const slot = definition?.sections.flatMap((section) => section.files ?? []).find((candidate) => candidate.slot === file.slot)
			// A file the applicant removed before sending is listed; its bytes are not kept for them.
			const name = file.deletedAt ? null : uniqueName(safeFileName(file.originalName), taken)
			return { file, entry: { name: name ? `files/${name}` : null, originalName: file.originalName, slot: file.slot, slotLabel: slot?.label ?? file.slot, contentType: file.contentType, pages: file.pages, size: file.size, sha256: file.sha256, uploadedAt: iso(file.createdAt), removedAt: iso(file.deletedAt) } }
		})
		zip.addBuffer(json(listed.map((item) => item.entry)), `${folder}/files.json`, { mtime })
		for (const { file, entry } of listed) {
			if (!entry.name) continue
			fileCount++
			zip.addReadStreamLazy(`${folder}/${entry.name}`, { mtime: file.createdAt }, (callback) => {
				storage.read(file.storageKey).then(
					(stream) => callback(null, stream),
					(error: unknown) => callback(error as Error, undefined as never),
				)
			})
		}
	}
	zip.end()
	return { stream: out, cases: rows.length, files: fileCount }
}
