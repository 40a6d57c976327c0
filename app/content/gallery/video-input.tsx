import { useState, type ChangeEvent } from 'react'
import type { FileField } from '#app/content/definition.ts'
import type { DocumentData } from '#app/documents/documents-library.server.ts'
import { ErrorList } from '#app/components/forms.tsx'
import { formatFileSize } from '#app/text/format.ts'
import { notVideo, videoTooLarge, videoUploadFailed } from '#app/content/gallery/video-messages.ts'
import { sendWithProgress } from '#app/utils/send-with-progress.ts'
import { EMPTY_FILE } from '#app/storage/upload-messages.ts'

/** The content editor's messages for a video field's refusals (its fileErrors). */
export const videoErrors = {
	'too-large': 'حجم الفيديو أكبر من المسموح. اختر ملفاً أصغر.',
	'not-video': notVideo,
	empty: EMPTY_FILE,
} as const

/** Where a content type's video is sent ahead of its form (app/routes/admin/video-upload.ts). */
export const videoUploadPath = (type: string) => `/admin/content/${type}/video-upload`

interface Sent {
	id: string
	name: string
	size: number
	/** A poster frame's image id, when the server could make one. */
	poster: string | null
}

/**
 * A video field. Without JavaScript the file goes with the form, like any file field. With it, the
 * file is sent ahead as soon as it is chosen, with a progress bar, and only its id goes with the
 * form (the hidden field the editor already keeps uploads in): a large video is sent once, and
 * the staff member sees how far it has got.
 */
export function VideoInput({
	type,
	field,
	id,
	errors,
	current,
	uploaded,
	maxBytes,
	hasPoster,
}: {
	type: string
	field: Extract<FileField, { kind: 'video' }>
	id: string
	errors?: string[]
	current: DocumentData | null | undefined
	uploaded?: string
	maxBytes: number
	hasPoster: boolean
}) {
	const [progress, setProgress] = useState<number | null>(null)
	const [sent, setSent] = useState<Sent | null>(null)
	const [clientError, setClientError] = useState<string | null>(null)
	const shownErrors = clientError ? [clientError] : errors
	const errorId = shownErrors?.length ? `${id}-error` : undefined
	const keptId = sent?.id ?? uploaded

	function onChange(event: ChangeEvent<HTMLInputElement>) {
		const input = event.currentTarget
		const file = input.files?.[0]
		if (!file) return
		setSent(null)
		// The server refuses it anyway; saying so now saves sending hundreds of megabytes for nothing.
		if (file.size > maxBytes) {
			setClientError(videoTooLarge(maxBytes))
			input.value = ''
			return
		}
		setClientError(null)
		setProgress(0)
		const body = new FormData()
		body.append('video', file)
		void sendWithProgress<Sent & { error: string }>(videoUploadPath(type), body, setProgress).then(({ status, json: reply }) => {
			setProgress(null)
			// Sent already, or refused: either way the form must not send the file a second time.
			input.value = ''
			if (status === 200 && reply.id) setSent({ id: reply.id, name: reply.name ?? file.name, size: reply.size ?? file.size, poster: reply.poster ?? null })
			else setClientError(reply.error === 'too-large' ? videoTooLarge(maxBytes) : reply.error && Object.hasOwn(videoErrors, reply.error) ? videoErrors[reply.error as keyof typeof videoErrors] : videoUploadFailed)
		})
	}

	return (
		<div>
			<label htmlFor={id} className="block font-semibold">
				{field.label}
			</label>
			<p id={`${id}-hint`} className="text-sm text-stone-600">
				{field.hint ? `${field.hint} ` : ''}
				{current || keptId ? 'اختر ملفاً جديداً لاستبدال الحالي، أو اتركه كما هو. ' : ''}
				حتى {formatFileSize(maxBytes)}.
			</p>
			<ErrorList id={errorId} errors={shownErrors} />
			{current ? (
				<p className="mt-2">
					<a href={current.href} className="font-semibold text-brand-700 underline">
						<bdi>{current.name}</bdi>
					</a>{' '}
					<span className="text-sm text-stone-600">({formatFileSize(current.size)})</span>
				</p>
			) : null}
			{sent ? (
				<p className="mt-2 text-sm font-semibold text-brand-800" role="status">
					تم رفع الفيديو <bdi>{sent.name}</bdi> ({formatFileSize(sent.size)}) وسيُحفظ مع البيانات.
				</p>
			) : uploaded && uploaded !== current?.id ? (
				<p className="mt-2 text-sm font-semibold text-brand-800">تم رفع الفيديو وسيُحفظ مع البيانات.</p>
			) : null}
			{keptId ? <input type="hidden" name={field.name} value={keptId} /> : null}
			{field.poster && sent?.poster && !hasPoster ? <input type="hidden" name={`${field.poster}-frame`} value={sent.poster} /> : null}
			<input
				id={id}
				name={`${field.name}-upload`}
				type="file"
				accept="video/mp4,video/webm,video/quicktime,.mp4,.webm,.mov"
				onChange={onChange}
				aria-invalid={errorId ? true : undefined}
				aria-describedby={[`${id}-hint`, errorId].filter(Boolean).join(' ')}
				className="mt-2 block w-full text-sm file:me-3 file:min-h-11 file:rounded-lg file:border-0 file:bg-brand-100 file:px-4 file:font-semibold file:text-brand-900"
			/>
			{progress !== null ? (
				<div className="mt-2">
					<progress max={100} value={progress} className="h-2 w-full" aria-label="تقدم رفع الفيديو">
						{progress}%
					</progress>
					<p className="text-sm text-stone-700" aria-live="polite">
						جارٍ رفع الفيديو: {progress}%
					</p>
				</div>
			) : null}
			{(current || keptId) && !field.required ? (
				<div className="mt-2 flex min-h-11 items-center gap-3">
					<input id={`${id}-remove`} name={`${field.name}-remove`} type="checkbox" className="size-5 shrink-0 accent-brand-700" />
					<label htmlFor={`${id}-remove`}>إزالة الفيديو الحالي</label>
				</div>
			) : null}
		</div>
	)
}
