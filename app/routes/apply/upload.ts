import fs from 'node:fs/promises'
import { data, redirect } from 'react-router'
import type { Route } from './+types/upload'
import { addAttachment, isEditable } from '#app/cases/case-store.server.ts'
import { limitByIp, loadApplication, publicLimits } from '#app/cases/applicant.server.ts'
import { getFileStorage } from '#app/storage/file-storage.server.ts'
import { receivePdfUpload } from '#app/storage/upload.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import type { UploadError } from './+upload-form.tsx'

/** Streams one PDF into the case's files (busboy, checked by its bytes, size-limited). */
export async function action({ params, request }: Route.ActionArgs) {
	const { db, row, definition } = await loadApplication(params.token)
	await limitByIp(request, publicLimits.save)
	const filesSection = definition.sections.find((section) => section.files)
	const base = `/apply/r/${params.token}`
	if (!filesSection || !isEditable(row)) throw redirect(base)
	const wantsJson = request.headers.get('Accept')?.includes('application/json')
	const reply = (error: UploadError | null, slot: string) =>
		wantsJson
			? data({ ok: error === null, error }, { status: error ? 400 : 200 })
			: redirect(`${base}/${filesSection.key}?${new URLSearchParams(error ? { uploadError: error, slot } : { uploaded: slot })}#files`)

	const storage = getFileStorage()
	const result = await receivePdfUpload(request, storage, { maxFileBytes: getEnv().UPLOAD_MAX_MB * 1024 * 1024 })
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
