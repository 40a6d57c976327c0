import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { buffer } from 'node:stream/consumers'
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { changeStatus } from '#app/cases/status-changes.server.ts'
import { findAttachment, listAttachments, loadSavedState, type CaseRow } from '#app/cases/case-store.server.ts'
import { aidInstalments, attachments, caseEvents, cases } from '#app/db/schema.ts'
import { createUser, type PublicUser } from '#app/domain/staff-users.server.ts'
import { decide } from '#app/aid/decisions.server.ts'
import { listFunds, setBudget } from '#app/aid/funds.server.ts'
import { recordDelivery } from '#app/aid/payments.server.ts'
import { runRetention } from '#app/operations/retention-purge.server.ts'
import { getCaseFileStorage, getFileStorage } from '#app/storage/file-storage.server.ts'
import type { PartResult } from '#app/storage/upload-stream.server.ts'
import { todayInRiyadh } from '#app/text/format.ts'
import { studied, submittedCase } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { stagedFile } from '#tests/storage.ts'
import { MAX_VISIT_PHOTOS, receiptSlot, VISIT_PHOTO_SLOT } from './staff-files.ts'
import { addVisitPhotos, listStaffFiles, removeVisitPhoto, storeStaffFile } from './staff-files.server.ts'

// The files staff keep on a case (docs/product.md#the-social-study, #payment): a visit's photos and
// a delivery's receipt, kept like the applicant's files but never among them.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ataa-staff-files-'))
process.env.DATA_DIR = dataDir

const app = withAppDatabase()
const db = () => app.handle.db
let researcher: PublicUser
let approver: PublicUser
let finance: PublicUser

beforeAll(async () => {
	const user = (name: string, roles: PublicUser['roles']) => createUser(db(), { name, email: `staff-files-${roles.join('-')}@example.org`, mobile: '', roles, password: 'Staff-Files-Test-1234' })
	researcher = await user('الباحثة', ['case_officer'])
	approver = await user('عضو اللجنة', ['approver'])
	finance = await user('المسؤولة المالية', ['finance'])
	await setBudget(db(), { programme: 'needy-families', year: Number(todayInRiyadh().slice(0, 4)), fundId: null, allocated: 1_000_000 }, researcher)
})
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

/** A phone's photo: 60 × 40 stored sideways (EXIF orientation 6), with the phone's make in its metadata. */
const phonePhoto = () =>
	sharp({ create: { width: 60, height: 40, channels: 3, background: '#808080' } })
		.jpeg()
		.withExif({ IFD0: { Make: 'ThePhoneMaker', Model: 'Cheap-1' } })
		.withMetadata({ orientation: 6 })
		.toBuffer()

const staged = (bytes: Uint8Array, name: string) => ({ ...stagedFile(getCaseFileStorage(), bytes, name), mime: 'image/jpeg' })
const part = async (bytes: Uint8Array, name: string): Promise<PartResult> => ({ ok: true, file: staged(bytes, name) })

/** A receipt photographed, kept in storage as the payments screen keeps it before the delivery is recorded. */
async function receiptPhoto() {
	const kept = await storeStaffFile(staged(await phonePhoto(), 'receipt.jpg'))
	if (!kept.ok) throw new Error('the receipt photo was refused')
	return kept.stored
}

const filesUnder = (dir: string) => fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length

const readKept = async (key: string) => buffer(await getCaseFileStorage().read(key))

test('a visit\'s photos are kept upright, without the phone\'s metadata, encrypted, and never among the applicant\'s files', async () => {
	const row = await submittedCase(db())
	const outcome = await addVisitPhotos(db(), row.id, [await part(await phonePhoto(), 'IMG_1.jpg'), { ok: false, error: 'not-photo', originalName: 'notes.pdf' }], researcher)
	expect(outcome).toEqual({ added: 1, refused: [{ name: 'notes.pdf', error: 'not-photo' }] })

	const [photo] = await listStaffFiles(db(), row.id)
	expect(photo).toMatchObject({ slot: VISIT_PHOTO_SLOT, originalName: 'IMG_1.webp', contentType: 'image/webp' })
	const kept = await readKept(photo!.storageKey)
	const seen = await sharp(kept).metadata()
	// Turned upright, and nothing of the phone's EXIF kept.
	expect([seen.format, seen.width, seen.height, seen.exif, seen.orientation]).toEqual(['webp', 40, 60, undefined, undefined])
	// At rest, the bytes are not the picture's.
	const raw = await buffer(await getFileStorage().read(photo!.storageKey))
	expect(raw.includes(Buffer.from('WEBP'))).toBe(false)

	// The applicant's pages, counts and file links never see it.
	expect((await listAttachments(db(), row.id)).map((file) => file.slot)).toEqual(['identity', 'family_report'])
	expect(await findAttachment(db(), row.id, photo!.id)).toBeUndefined()
	expect((await findAttachment(db(), row.id, photo!.id, { staffFiles: true }))?.id).toBe(photo!.id)
	expect((await loadSavedState(db(), row.id)).fileCounts).toEqual({ identity: 1, family_report: 1 })
	// The history says who added it.
	const events = await db().select().from(caseEvents).where(eq(caseEvents.caseId, row.id))
	expect(events.filter((event) => event.kind === 'file_added' && event.actorId !== null).map((event) => [event.actorId, event.data])).toEqual([[researcher.id, { slot: VISIT_PHOTO_SLOT, name: 'IMG_1.webp' }]])

	// Removed: gone from storage, the row kept for the history.
	expect(await removeVisitPhoto(db(), row.id, photo!.id, researcher)).toBe(true)
	expect(await listStaffFiles(db(), row.id)).toEqual([])
	await expect(readKept(photo!.storageKey)).rejects.toThrow()
	expect(await removeVisitPhoto(db(), row.id, photo!.id, researcher)).toBe(false)
	expect(await removeVisitPhoto(db(), row.id, 'not-a-uuid', researcher)).toBe(false)
})

test('a picture that cannot be read is refused and leaves nothing; past the limit the rest are refused', async () => {
	const row = await submittedCase(db())
	const broken = await part(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]), 'broken.jpg')
	expect(await addVisitPhotos(db(), row.id, [broken], researcher)).toEqual({ added: 0, refused: [{ name: 'broken.jpg', error: 'unreadable-photo' }] })
	expect(await listStaffFiles(db(), row.id)).toEqual([])

	const photo = await phonePhoto()
	for (let sent = 0; sent < MAX_VISIT_PHOTOS; sent += 10) {
		const parts = await Promise.all(Array.from({ length: 10 }, (_, index) => part(photo, `p${sent + index}.jpg`)))
		expect((await addVisitPhotos(db(), row.id, parts, researcher)).added).toBe(10)
	}
	const over = await addVisitPhotos(db(), row.id, [await part(photo, 'one-more.jpg')], researcher)
	expect(over).toEqual({ added: 0, refused: [{ name: 'one-more.webp', error: 'too-many' }] })
	expect(await listStaffFiles(db(), row.id)).toHaveLength(MAX_VISIT_PHOTOS)
})

test('a deleted case takes no photos, and keeps nothing of them', async () => {
	const row = await submittedCase(db())
	await db().update(cases).set({ deletedAt: new Date() }).where(eq(cases.id, row.id))
	const sent = await part(await phonePhoto(), 'late.jpg')
	const before = filesUnder(dataDir)
	await expect(addVisitPhotos(db(), row.id, [sent], researcher)).rejects.toThrow('الطلب غير موجود أو محذوف')
	expect(await listStaffFiles(db(), row.id)).toEqual([])
	// The photo was stored while the case was read, then removed: one file fewer (the upload's temp file), none more.
	expect(filesUnder(dataDir)).toBe(before - 1)
})

async function approvedInKind(): Promise<CaseRow> {
	const row = await submittedCase(db())
	await studied(db(), row, researcher, { aidKind: 'food_basket', aidAmount: 400 })
	await changeStatus(db(), row.id, { to: 2, note: 'دُرست' }, researcher)
	const fundId = (await listFunds(db())).find((fund) => !fund.zakat)!.id
	await decide(db(), row.id, { outcome: 'approve', aidKind: 'food_basket', amount: 400, months: null, fundId, note: '' }, approver)
	return row
}

test('a delivery keeps its receipt with the financial record: retention destroys the visit\'s photos, not the receipt', async () => {
	const row = await approvedInKind()
	const [instalment] = await db().select().from(aidInstalments).where(eq(aidInstalments.caseId, row.id))
	await addVisitPhotos(db(), row.id, [await part(await phonePhoto(), 'house.jpg')], researcher)
	const stored = await receiptPhoto()

	// Refused (the approver may not record the delivery): the receipt kept in storage goes too.
	await expect(recordDelivery(db(), instalment!.id, { deliveredOn: todayInRiyadh(), deliveredBy: 'فريق التوزيع', receipt: 'R-1', receiptFile: stored }, approver)).rejects.toThrow()
	await expect(readKept(stored.storageKey)).rejects.toThrow()
	expect((await listStaffFiles(db(), row.id)).map((file) => file.slot)).toEqual([VISIT_PHOTO_SLOT])

	await recordDelivery(db(), instalment!.id, { deliveredOn: todayInRiyadh(), deliveredBy: 'فريق التوزيع', receipt: 'R-1', receiptFile: await receiptPhoto() }, finance)
	expect((await listStaffFiles(db(), row.id)).map((file) => file.slot)).toEqual([VISIT_PHOTO_SLOT, receiptSlot(instalment!.id)])

	const later = new Date(Date.now() + 3 * 365 * 86_400_000)
	const report = await runRetention(db(), getCaseFileStorage(), { months: 24, now: later, runBy: 'command' })
	expect(report.purged.map((item) => item.reference)).toContain(row.reference)
	const left = await db().select().from(attachments).where(eq(attachments.caseId, row.id))
	expect(left.map((file) => file.slot)).toEqual([receiptSlot(instalment!.id)])
	expect((await readKept(left[0]!.storageKey)).length).toBeGreaterThan(0)
})
