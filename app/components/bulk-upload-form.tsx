import { useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router'
import { fileTooLarge } from '#app/text/messages.ts'
import { formatFileSize } from '#app/text/format.ts'
import { countOf, files as filesNoun } from '#app/text/arabic-count.ts'
import { sendWithProgress } from '#app/utils/send-with-progress.ts'

// «Upload several files at once» (docs/product.md#documents-library). Without JavaScript it is a
// plain multipart POST to the list, which answers with the list and its notice. With it, the same
// form goes through XMLHttpRequest to `jsonAction`, so a progress bar can show.

const BROKEN = 'لم يكتمل رفع الملفات. حاول مرة أخرى.'

export function BulkUploadForm({
	action,
	jsonAction,
	inputName,
	selectName,
	selectLabel,
	options,
	selected,
	maxBytes,
	maxFiles,
	error,
}: {
	action: string
	jsonAction: string
	inputName: string
	selectName: string
	selectLabel: string
	options: readonly { value: string; label: string }[]
	selected: string
	maxBytes: number
	maxFiles: number
	error?: string
}) {
	const navigate = useNavigate()
	const [progress, setProgress] = useState<number | null>(null)
	const [clientError, setClientError] = useState<string | null>(null)
	const message = clientError ?? error

	function onSubmit(event: FormEvent<HTMLFormElement>) {
		const form = event.currentTarget
		const files = [...((form.elements.namedItem(inputName) as HTMLInputElement).files ?? [])]
		event.preventDefault()
		// The server refuses these too; saying so now saves sending megabytes for nothing.
		const large = files.find((file) => file.size > maxBytes)
		const problem =
			files.length === 0
				? 'الرجاء اختيار ملف PDF واحد على الأقل.'
				: files.length > maxFiles
					? `يمكن رفع ${countOf(maxFiles, filesNoun)} على الأكثر في المرة الواحدة.`
					: large
						? `«${large.name}»: ${fileTooLarge(maxBytes)}`
						: null
		setClientError(problem)
		if (problem) return
		setProgress(0)
		void sendWithProgress<{ ok: boolean; message: string; to: string }>(jsonAction, new FormData(form), setProgress).then(({ json: reply }) => {
			setProgress(null)
			if (reply.ok && reply.to) {
				form.reset()
				// The notice rides on the list's next load, in a cookie the reply set.
				void navigate(reply.to)
			} else setClientError(reply.message ?? BROKEN)
		})
	}

	return (
		<section aria-labelledby="bulk-upload-heading" className="mt-6 rounded-xl border border-stone-200 bg-white p-5">
			<h2 id="bulk-upload-heading" className="text-lg font-bold text-brand-900">
				رفع عدة ملفات مرة واحدة
			</h2>
			<p id="bulk-upload-hint" className="mt-1 text-sm text-stone-700">
				ملفات PDF، حتى {formatFileSize(maxBytes)} للملف و{countOf(maxFiles, filesNoun)} في المرة. يصبح اسم كل ملف عنواناً له، ويمكن تعديله بعد الرفع.
			</p>
			<form method="post" action={action} encType="multipart/form-data" onSubmit={onSubmit} className="mt-3 grid gap-3 sm:grid-cols-[minmax(0,16rem)_minmax(0,1fr)_auto] sm:items-end">
				<div>
					<label htmlFor="bulk-category" className="block text-sm font-semibold">
						{selectLabel}
					</label>
					<select id="bulk-category" name={selectName} defaultValue={selected} required className="mt-1 min-h-11 w-full rounded-lg border border-stone-400 bg-white px-3">
						<option value="">اختر القسم</option>
						{options.map((option) => (
							<option key={option.value} value={option.value}>
								{option.label}
							</option>
						))}
					</select>
				</div>
				<div>
					<label htmlFor="bulk-files" className="block text-sm font-semibold">
						الملفات
					</label>
					<input
						id="bulk-files"
						name={inputName}
						type="file"
						multiple
						accept="application/pdf,.pdf"
						aria-invalid={message ? true : undefined}
						aria-describedby={message ? 'bulk-upload-hint bulk-upload-error' : 'bulk-upload-hint'}
						className="mt-1 block w-full text-sm file:me-3 file:min-h-11 file:rounded-lg file:border-0 file:bg-brand-100 file:px-4 file:font-semibold file:text-brand-900"
					/>
				</div>
				<button type="submit" className="btn-primary" disabled={progress !== null}>
					رفع الملفات
				</button>
				{message ? (
					<p id="bulk-upload-error" role="alert" className="text-sm font-semibold text-red-800 sm:col-span-3">
						<span className="sr-only">خطأ: </span>
						{message}
					</p>
				) : null}
				{progress !== null ? (
					<progress max={100} value={progress} className="h-2 w-full sm:col-span-3" aria-label="تقدم رفع الملفات">
						{progress}%
					</progress>
				) : null}
			</form>
		</section>
	)
}
