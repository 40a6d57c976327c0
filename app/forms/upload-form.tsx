import { useState, type FormEvent } from 'react'
import { useRevalidator } from 'react-router'
import { Honeypot } from '#app/components/forms.tsx'
import { fileTooLarge, pdfUploadHint } from '#app/text/messages.ts'
import { sendWithProgress } from '#app/utils/send-with-progress.ts'
import { formatFileSize } from '#app/text/format.ts'
import { countOf, files } from '#app/text/arabic-count.ts'
import { uploadInputId, type FileKind } from '#app/forms/definition.ts'
import { contentRefusalMessages } from '#app/storage/upload-messages.ts'

export const FILE_ADDED = 'تم إضافة الملف بنجاح'

/** Why an upload was refused; the upload route sends one back to the page as a one-time notice. */
const uploadErrorMessages = {
	'not-pdf': 'الملف ليس PDF. اختر ملفاً بصيغة PDF.',
	'not-accepted': 'الملف ليس PDF ولا صورة. اختر ملف PDF أو صورة بصيغة JPEG أو PNG أو WebP.',
	'unreadable-photo': 'تعذرت قراءة الصورة. التقطها من جديد أو اختر صورة بصيغة JPEG.',
	'no-file': 'الرجاء اختيار ملف.',
	'bad-request': 'لم يكتمل رفع الملف. حاول مرة أخرى.',
	'bad-slot': 'نوع المرفق غير معروف.',
	'locked-slot': 'لا يمكن تعديل هذا المرفق: لم تطلب المؤسسة تعديله.',
	...contentRefusalMessages,
} as const

/** The limits on a case's files (SLOT_MAX_FILES, CASE_MAX_FILES, CASE_MAX_MB; AttachmentLimits on the server). */
interface FileLimits {
	perSlot: number
	perCase: number
	caseBytes: number
}

/** A full slot or case, in words that name the limit and say what to do. */
const limitMessages = {
	'slot-full': (limits: FileLimits) => `لا يتسع هذا المرفق لأكثر من ${countOf(limits.perSlot, files)}. احذف منه ملفاً لم يعد لازماً ثم ارفع الملف الجديد.`,
	'case-full': (limits: FileLimits) => `لا يتسع الطلب لأكثر من ${countOf(limits.perCase, files)}. احذف ملفاً لم يعد لازماً ثم ارفع الملف الجديد.`,
	'case-too-large': (limits: FileLimits) => `لا تتسع ملفات الطلب مجتمعةً لأكثر من ${formatFileSize(limits.caseBytes)}. احذف ملفاً لم يعد لازماً أو اختر ملفاً أصغر.`,
} as const

export type UploadError = 'too-large' | keyof typeof uploadErrorMessages | keyof typeof limitMessages

/** An upload refusal in words; «too large» names the limit (`maxBytes`, UPLOAD_MAX_MB in bytes), a full slot or case its `limits`. */
export function uploadErrorMessage(error: UploadError, maxBytes: number, limits?: FileLimits): string {
	if (error === 'too-large') return fileTooLarge(maxBytes)
	if (error in limitMessages) return limits ? limitMessages[error as keyof typeof limitMessages](limits) : uploadErrorMessages['bad-request']
	return uploadErrorMessages[error as keyof typeof uploadErrorMessages]
}

/**
 * The `accept` attribute of a slot's file input. Photos are asked for as JPEG, PNG or WebP: a phone
 * then converts its own HEIC photos to JPEG as it sends them.
 */
export function acceptAttribute(kinds: readonly FileKind[]): string {
	return kinds.map((kind) => (kind === 'pdf' ? 'application/pdf,.pdf' : 'image/jpeg,image/png,image/webp')).join(',')
}

/** The hint beside an upload: «ملف PDF، حتى 10 ميغابايت», or with photos «ملف PDF أو صورة، حتى …». */
export function uploadHint(kinds: readonly FileKind[], maxBytes: number): string {
	if (!kinds.includes('photo')) return pdfUploadHint(maxBytes)
	return `${kinds.includes('pdf') ? 'ملف PDF أو صورة' : 'صورة'} (JPEG أو PNG أو WebP)، حتى ${formatFileSize(maxBytes)}`
}

/**
 * One file slot's upload. Without JavaScript it is a plain multipart POST that redirects back;
 * with it, the same request goes through XMLHttpRequest so a progress bar can show.
 */
export function UploadForm({
	action,
	slot,
	label,
	error,
	maxBytes,
	kinds = ['pdf'],
}: {
	action: string
	slot: string
	label: string
	error?: string
	maxBytes: number
	/** What the slot takes (app/forms/definition.ts `slotAccepts`). */
	kinds?: readonly FileKind[]
}) {
	const revalidator = useRevalidator()
	const [progress, setProgress] = useState<number | null>(null)
	const [clientError, setClientError] = useState<string | null>(null)
	const inputId = uploadInputId(slot)
	const message = clientError ?? error

	function onSubmit(event: FormEvent<HTMLFormElement>) {
		const form = event.currentTarget
		const file = (form.elements.namedItem('file') as HTMLInputElement).files?.[0]
		event.preventDefault()
		if (!file) {
			setClientError(uploadErrorMessages['no-file'])
			return
		}
		// The server refuses it anyway; saying so now saves sending megabytes for nothing.
		if (file.size > maxBytes) {
			setClientError(fileTooLarge(maxBytes))
			form.reset()
			return
		}
		setClientError(null)
		setProgress(0)
		void sendWithProgress<{ error: UploadError; message?: string }>(action, new FormData(form), setProgress).then(({ status, json }) => {
			setProgress(null)
			const code = json.error ?? (status === 200 ? undefined : 'bad-request')
			// Kept or refused, the file leaves the input: a refused one is not waiting to be sent.
			form.reset()
			// The server's own words when it sent them (a full slot names its limit), else the code's.
			if (code) setClientError(json.message ?? (code === 'too-large' || code in uploadErrorMessages ? uploadErrorMessage(code, maxBytes) : uploadErrorMessages['bad-request']))
			else void revalidator.revalidate()
		})
	}

	return (
		<form method="post" action={action} encType="multipart/form-data" onSubmit={onSubmit} className="mt-3 space-y-2">
			<input type="hidden" name="slot" value={slot} />
			<Honeypot />
			<label htmlFor={inputId} className="block text-sm font-semibold">
				{kinds.includes('photo') ? (kinds.includes('pdf') ? 'اختر ملف PDF أو صورة' : 'اختر صورة') : 'اختر ملف PDF'}: {label}
			</label>
			<p id={`${inputId}-hint`} className="text-sm text-stone-600">
				{uploadHint(kinds, maxBytes)}. اختر الملف ثم اضغط «رفع الملف» قبل «حفظ ومتابعة».
			</p>
			{message ? (
				<p id={`${inputId}-error`} role="alert" className="text-sm font-semibold text-red-800">
					<span className="sr-only">خطأ: </span>
					{message}
				</p>
			) : null}
			<input
				id={inputId}
				name="file"
				type="file"
				accept={acceptAttribute(kinds)}
				aria-invalid={message ? true : undefined}
				aria-describedby={message ? `${inputId}-hint ${inputId}-error` : `${inputId}-hint`}
				className="block w-full text-sm file:me-3 file:min-h-11 file:rounded-lg file:border-0 file:bg-brand-100 file:px-4 file:font-semibold file:text-brand-900"
			/>
			{progress !== null ? (
				<progress max={100} value={progress} className="h-2 w-full" aria-label={`رفع ${label}`}>
					{progress}%
				</progress>
			) : null}
			<button type="submit" className="btn-secondary min-h-10 px-4 text-sm" disabled={progress !== null}>
				رفع الملف
			</button>
		</form>
	)
}
