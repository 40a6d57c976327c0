import { useState, type FormEvent } from 'react'
import { useRevalidator } from 'react-router'
import { Honeypot } from '#app/components/forms.tsx'
import { fileTooLarge, pdfUploadHint } from '#app/text/messages.ts'
import { sendWithProgress } from '#app/utils/send-with-progress.ts'
import { formatFileSize } from '#app/text/format.ts'
import { countOf, files, pages } from '#app/text/arabic-count.ts'
import { uploadInputId, type FileKind } from '#app/forms/definition.ts'
import { contentRefusalMessages } from '#app/storage/upload-messages.ts'
import { useHydrated } from '#app/utils/use-hydrated.ts'
import { shrinkPhoto } from './shrink-photo.ts'

export const FILE_ADDED = 'تمت إضافة الملف بنجاح'

/** Why an upload was refused; the upload route sends one back to the page as a one-time notice. */
const uploadErrorMessages = {
	'not-accepted': 'الملف ليس صورة ولا PDF. صوّر المستند بالكاميرا، أو اختر صورة (JPEG أو PNG أو WebP أو HEIC) أو ملف PDF.',
	'unreadable-photo': 'تعذرت قراءة الصورة. التقطها من جديد أو اختر صورة أخرى.',
	'too-many-pixels': 'أبعاد الصورة أكبر مما يُقبل (أكثر من 40 مليون نقطة). التقطها بكاميرا الجوال من جديد أو اختر صورة أصغر.',
	'heic-unreadable': 'تعذرت قراءة صورة HEIC هذه. التقط الصورة من جديد من هذه الصفحة، أو اختر في إعدادات الكاميرا «الأكثر توافقاً» (JPEG).',
	'pdf-locked': 'ملف PDF محمي بكلمة مرور. أرسل نسخة غير محمية، أو صوّر صفحاته بالكاميرا.',
	'pdf-unreadable': 'تعذرت قراءة ملف PDF. أرسل نسخة أخرى، أو صوّر صفحاته بالكاميرا.',
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
	/** DOCUMENT_MAX_PAGES. */
	documentPages: number
}

/** A full slot or case, in words that name the limit and say what to do. */
const limitMessages = {
	'slot-full': (limits: FileLimits) => `لا يتسع هذا المرفق لأكثر من ${countOf(limits.perSlot, files)}. احذف منه ملفاً لم يعد لازماً ثم ارفع الملف الجديد.`,
	'case-full': (limits: FileLimits) => `لا يتسع الطلب لأكثر من ${countOf(limits.perCase, files)}. احذف ملفاً لم يعد لازماً ثم ارفع الملف الجديد.`,
	'too-many-pages': (limits: FileLimits) => `لا يتسع المستند الواحد لأكثر من ${countOf(limits.documentPages, pages)}. احذف صفحة لم تعد لازمة ثم أضف الجديدة.`,
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
 * The `accept` attribute of a file input. A picture is asked for as image/*: iOS Safari and Android
 * Chrome then offer the camera, the photo library and the files together (`capture` would offer
 * the camera alone), and iOS sends its HEIC photos as JPEG (docs/decisions/015-documents-from-photos.md).
 */
export function acceptAttribute(kinds: readonly FileKind[]): string {
	return kinds.map((kind) => (kind === 'pdf' ? 'application/pdf,.pdf' : 'image/*,.heic,.heif')).join(',')
}

/** The hint beside an upload: «ملف PDF، حتى 10 ميغابايت», or with photos «صورة أو ملف PDF، حتى …». */
export function uploadHint(kinds: readonly FileKind[], maxBytes: number): string {
	if (!kinds.includes('photo')) return pdfUploadHint(maxBytes)
	return `${kinds.includes('pdf') ? 'صورة أو ملف PDF' : 'صورة'} (JPEG أو PNG أو WebP أو HEIC)، حتى ${formatFileSize(maxBytes)}`
}

/**
 * One file slot's upload: a document's next pages (photos or a PDF), or a house's photos. Without
 * JavaScript it is a plain multipart POST of one file that redirects back. With it, several files
 * may be chosen at once; each photo is made smaller in the browser first (shrinkPhoto) and each
 * file goes through XMLHttpRequest so a progress bar can show. A refused file says why and the
 * others still go: nothing already added is lost.
 */
export function UploadForm({
	action,
	slot,
	label,
	error,
	maxBytes,
	kinds = ['photo', 'pdf'],
	asPages = false,
}: {
	action: string
	slot: string
	label: string
	error?: string
	maxBytes: number
	/** What the input offers. */
	kinds?: readonly FileKind[]
	/** A document's pages: the hint says how they are joined. */
	asPages?: boolean
}) {
	const revalidator = useRevalidator()
	const [progress, setProgress] = useState<{ percent: number; index: number; count: number } | null>(null)
	const [clientErrors, setClientErrors] = useState<string[]>([])
	// Several files at once only where each is sent on its own (JavaScript); a plain post sends one.
	const hydrated = useHydrated()
	const inputId = uploadInputId(slot)
	const messages = clientErrors.length ? clientErrors : error ? [error] : []

	async function send(form: HTMLFormElement, chosen: File[]) {
		const refused: string[] = []
		for (const [index, original] of chosen.entries()) {
			setProgress({ percent: 0, index, count: chosen.length })
			const file = await shrinkPhoto(original)
			const named = (message: string) => (chosen.length > 1 ? `${original.name}: ${message}` : message)
			// The server refuses it anyway; saying so now saves sending megabytes for nothing.
			if (file.size > maxBytes) {
				refused.push(named(fileTooLarge(maxBytes)))
				continue
			}
			const body = new FormData(form)
			body.set('file', file, file.name)
			const { status, json } = await sendWithProgress<{ error: UploadError; message?: string }>(action, body, (percent) => setProgress({ percent, index, count: chosen.length }))
			const code = json.error ?? (status === 200 ? undefined : 'bad-request')
			// The server's own words when it sent them (a full document names its limit), else the code's.
			if (code) refused.push(named(json.message ?? (code === 'too-large' || code in uploadErrorMessages ? uploadErrorMessage(code, maxBytes) : uploadErrorMessages['bad-request'])))
		}
		setProgress(null)
		// Kept or refused, the files leave the input: a refused one is not waiting to be sent.
		form.reset()
		setClientErrors(refused)
		if (refused.length < chosen.length) void revalidator.revalidate()
	}

	function onSubmit(event: FormEvent<HTMLFormElement>) {
		const form = event.currentTarget
		const chosen = [...((form.elements.namedItem('file') as HTMLInputElement).files ?? [])]
		event.preventDefault()
		if (chosen.length === 0) {
			setClientErrors([uploadErrorMessages['no-file']])
			return
		}
		void send(form, chosen)
	}

	const what = kinds.includes('photo') ? (kinds.includes('pdf') ? 'اختر ملف PDF أو صورة' : 'اختر صورة') : 'اختر ملف PDF'
	return (
		<form method="post" action={action} encType="multipart/form-data" onSubmit={onSubmit} className="mt-3 space-y-2">
			<input type="hidden" name="slot" value={slot} />
			<Honeypot />
			<label htmlFor={inputId} className="block text-sm font-semibold">
				{what}: {label}
			</label>
			<p id={`${inputId}-hint`} className="text-sm text-stone-600">
				{uploadHint(kinds, maxBytes)}. {asPages ? 'صوّر كل صفحة أو اخترها ثم اضغط «رفع الملف»؛ تُجمع الصفحات في ملف PDF واحد بالترتيب الذي تختاره.' : 'اختر الملف ثم اضغط «رفع الملف» قبل «حفظ ومتابعة».'}
			</p>
			{messages.length === 1 ? (
				<p id={`${inputId}-error`} role="alert" className="text-sm font-semibold text-red-800">
					<span className="sr-only">خطأ: </span>
					{messages[0]}
				</p>
			) : messages.length ? (
				// Several files refused in one sending: each with its name and why.
				<ul id={`${inputId}-error`} role="alert" className="text-sm font-semibold text-red-800">
					{messages.map((message) => (
						<li key={message}>
							<span className="sr-only">خطأ: </span>
							{message}
						</li>
					))}
				</ul>
			) : null}
			<input
				id={inputId}
				name="file"
				type="file"
				multiple={hydrated}
				accept={acceptAttribute(kinds)}
				aria-invalid={messages.length ? true : undefined}
				aria-describedby={messages.length ? `${inputId}-hint ${inputId}-error` : `${inputId}-hint`}
				className="block w-full text-sm file:me-3 file:min-h-11 file:rounded-lg file:border-0 file:bg-brand-100 file:px-4 file:font-semibold file:text-brand-900"
			/>
			{progress !== null ? (
				<div>
					<p className="text-sm text-stone-700" aria-live="polite">
						{progress.count > 1 ? `جارٍ إرسال الملف ${progress.index + 1} من ${progress.count}` : 'جارٍ الإرسال'}
					</p>
					<progress max={100} value={progress.percent} className="h-2 w-full" aria-label={`رفع ${label}`}>
						{progress.percent}%
					</progress>
				</div>
			) : null}
			<button type="submit" className="btn-secondary min-h-11 px-4 text-sm" disabled={progress !== null}>
				رفع الملف
			</button>
		</form>
	)
}
