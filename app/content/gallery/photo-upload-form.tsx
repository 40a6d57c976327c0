import { useState, type FormEvent } from 'react'
import { useRevalidator } from 'react-router'
import { formatFileSize } from '#app/text/format.ts'
import { countOf, photos } from '#app/text/arabic-count.ts'
import { sendWithProgress } from '#app/utils/send-with-progress.ts'

export const PHOTOS_INPUT = 'photos'
/** At most this many photos in one go. */
export const MAX_PHOTOS_AT_ONCE = 20

export const photoMessages = {
	noFile: 'الرجاء اختيار صورة واحدة على الأقل.',
	tooMany: `يمكن رفع ${countOf(MAX_PHOTOS_AT_ONCE, photos)} في المرة الواحدة على الأكثر.`,
	broken: 'لم يكتمل رفع الصور. حاول مرة أخرى.',
	tooLarge: (maxBytes: number) => `حجم الصورة أكبر من المسموح (${formatFileSize(maxBytes)}).`,
}

/**
 * Several photos at once into an album. Without JavaScript a plain multipart POST that redirects
 * back with what was added and what was refused; with it the same request goes through
 * XMLHttpRequest, so a progress bar can show, then the list reloads with that notice.
 */
export function PhotoUploadForm({ maxBytes }: { maxBytes: number }) {
	const revalidator = useRevalidator()
	const [progress, setProgress] = useState<number | null>(null)
	const [error, setError] = useState<string | null>(null)

	function onSubmit(event: FormEvent<HTMLFormElement>) {
		const form = event.currentTarget
		const files = [...((form.elements.namedItem(PHOTOS_INPUT) as HTMLInputElement).files ?? [])]
		event.preventDefault()
		if (files.length === 0) return setError(photoMessages.noFile)
		if (files.length > MAX_PHOTOS_AT_ONCE) return setError(photoMessages.tooMany)
		// The server refuses them anyway; saying so now saves sending them for nothing.
		const large = files.filter((file) => file.size > maxBytes)
		if (large.length) return setError(`${large.map((file) => `«${file.name}»`).join('، ')}: ${photoMessages.tooLarge(maxBytes)}`)
		setError(null)
		setProgress(0)
		void sendWithProgress(form.action, new FormData(form), setProgress).then(({ status }) => {
			setProgress(null)
			if (status >= 500 || status === 0) return setError(photoMessages.broken)
			// The outcome (added, refused and why) comes back as the page's notice.
			form.reset()
			void revalidator.revalidate()
		})
	}

	return (
		<form method="post" encType="multipart/form-data" onSubmit={onSubmit} className="space-y-3 rounded-xl border border-stone-200 bg-white p-5">
			<label htmlFor="photos-input" className="block font-semibold">
				إضافة صور إلى الألبوم
			</label>
			<p id="photos-hint" className="text-sm text-stone-600">
				اختر صورة أو أكثر (حتى {countOf(MAX_PHOTOS_AT_ONCE, photos)} في المرة): JPEG أو PNG أو WebP أو HEIC، حتى {formatFileSize(maxBytes)} للصورة.
			</p>
			{error ? (
				<p id="photos-error" role="alert" className="text-sm font-semibold text-red-800">
					<span className="sr-only">خطأ: </span>
					{error}
				</p>
			) : null}
			<input
				id="photos-input"
				name={PHOTOS_INPUT}
				type="file"
				multiple
				accept="image/jpeg,image/png,image/webp,image/heic,image/heif,.heic,.heif"
				aria-invalid={error ? true : undefined}
				aria-describedby={error ? 'photos-hint photos-error' : 'photos-hint'}
				className="block w-full text-sm file:me-3 file:min-h-11 file:rounded-lg file:border-0 file:bg-brand-100 file:px-4 file:font-semibold file:text-brand-900"
			/>
			{progress !== null ? (
				<div>
					<progress max={100} value={progress} className="h-2 w-full" aria-label="تقدم رفع الصور">
						{progress}%
					</progress>
					<p className="text-sm text-stone-700" aria-live="polite">
						جارٍ رفع الصور: {progress}%
					</p>
				</div>
			) : null}
			<button type="submit" className="btn-primary" disabled={progress !== null}>
				رفع الصور
			</button>
		</form>
	)
}
