import fs from 'node:fs/promises'
import { data, redirect } from 'react-router'
import type { Route } from './+types/upload'
import { addAttachment, isEditable } from '#app/cases/case-store.server.ts'
import { loadApplication } from './+applicant.server.ts'
import { limitByIp, publicLimits } from '#app/utils/ip-limit.server.ts'
import { getFileStorage } from '#app/storage/file-storage.server.ts'
import { receivePdfUpload } from '#app/storage/upload.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { flashCookie, redirectWithFlash } from '#app/utils/flash.server.ts'
import { FILE_ADDED, uploadErrorMessage, type UploadError } from './+upload-form.tsx'

/** Streams one PDF into the case's files (busboy, checked by its bytes, size-limited). */
export async function action({ params, request }: Route.ActionArgs) {
	const { db, row, definition } = await loadApplication(params.token)
	await limitByIp(request, publicLimits.save)
	const filesSection = definition.sections.find((section) => section.files)
	const base = `/apply/r/${params.token}`
	if (!filesSection || !isEditable(row)) throw redirect(base)
	const wantsJson = request.headers.get('Accept')?.includes('application/json')
	const maxFileBytes = getEnv().uploadMaxBytes
	// The page says «تم إضافة الملف بنجاح» (or why not) once, beside the slot. With JavaScript the
	// form shows an error itself; the success notice rides on the revalidation that lists the file.
	const reply = async (error: UploadError | null, slot: string) => {
		const notice = error ? { tone: 'error' as const, message: uploadErrorMessage(error, maxFileBytes), field: slot } : { tone: 'success' as const, message: FILE_ADDED, field: slot }
		if (!wantsJson) return redirectWithFlash(`${base}/${filesSection.key}#files`, notice)
		return data({ ok: error === null, error }, { status: error ? 400 : 200, headers: error ? undefined : { 'Set-Cookie': await flashCookie(notice) } })
	}

	const storage = getFileStorage()
	const result = await receivePdfUpload(request, storage, { maxFileBytes })
	const slotName = result.fields.slot ?? ''
	if (result.ok && result.file && result.fields.website) {
		// The honeypot was filled in: a bot, not a family. Keep nothing.
		await fs.rm(result.file.tempPath, { force: true })
		return reply('bad-request', slotName)
	}
	if (!result.ok) return reply(result.error, slotName)
	if (!result.file) return reply('no-file', slotName)
	const slot = filesSection.files!.find((candidate) => candidate.slot === slotName)
	if (!slot) {
		await fs.rm(result.file.tempPath, { force: true })
		return reply('bad-slot', slotName)
	}
	const key = await storage.adopt(result.file.tempPath)
	try {
		await addAttachment(db, row, {
			slot: slot.slot,
			originalName: result.file.originalName,
			contentType: result.file.mime,
			size: result.file.size,
			sha256: result.file.sha256,
			storageKey: key,
		})
	} catch (error) {
		await storage.remove(key)
		throw error
	}
	return reply(null, slot.slot)
}
