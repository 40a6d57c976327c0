import type { SubmissionResult } from '@conform-to/react'
import { data } from 'react-router'
import { fileTooLarge } from '#app/text/messages.ts'
import type { UploadKind } from '#app/storage/upload-stream.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { videoTooLarge } from '#app/content/gallery/video-messages.ts'
import type { FileField } from './definition.ts'

// How large a file each content field takes (docs/product.md#documents-library).

/** The largest file a content field takes: a published PDF DOCUMENT_MAX_MB, a video VIDEO_MAX_MB, a picture UPLOAD_MAX_MB. */
export function fieldMaxBytes(field: FileField): number {
	const env = getEnv()
	return field.kind === 'document' ? env.documentMaxBytes : field.kind === 'video' ? env.videoMaxBytes : env.uploadMaxBytes
}

/** «too large», naming the field's limit. */
export function tooLargeMessage(field: FileField): string {
	return field.kind === 'video' ? videoTooLarge(fieldMaxBytes(field)) : fileTooLarge(fieldMaxBytes(field))
}

/** Each file input's kind with its field's own limit, for a request whose `maxFileBytes` is the largest of them. */
export function withFieldLimits<Kinds extends Record<string, UploadKind<string, string>>>(kinds: Kinds, files: readonly FileField[], inputName: (field: FileField) => string): Kinds {
	return Object.fromEntries(files.map((field) => [inputName(field), { ...kinds[inputName(field)]!, maxBytes: fieldMaxBytes(field) }])) as Kinds
}

/**
 * The editor's answer to a file too large for `field`, found before the body is read or while it
 * streams: 413 and the limit in words on that field. Nothing was kept; the connection closes since
 * the body was not read to its end.
 */
export function tooLargeReply(field: FileField) {
	const result: SubmissionResult<string[]> = { status: 'error', error: { [field.name]: [tooLargeMessage(field)] } }
	return data({ result, uploaded: {} as Record<string, string> }, { status: 413, headers: { Connection: 'close' } })
}
