// The study page's photos of the home visit (app/routes/admin/case-study-photos.ts takes them). With
// JavaScript they go through a fetcher, so the report being typed below is not reloaded away;
// without it, a plain form posts and the page comes back with the photos and the notice.
import { useEffect, useRef } from 'react'
import { useFetcher } from 'react-router'
import { FlashNotice } from '#app/components/forms.tsx'
import { acceptAttribute } from '#app/forms/upload-form.tsx'
import { countOf, photos as photosNoun } from '#app/text/arabic-count.ts'
import { formatFileSize } from '#app/text/format.ts'
import { VisitPhotos, type VisitPhoto } from './+case-parts.tsx'

export function VisitPhotosForm({ reference, photos, notice, maxPhotos, maxBytes }: { reference: string; photos: readonly VisitPhoto[]; notice: { tone: 'success' | 'error'; message: string } | null | undefined; maxPhotos: number; maxBytes: number }) {
	const upload = useFetcher()
	const removal = useFetcher()
	const form = useRef<HTMLFormElement>(null)
	const action = `/admin/cases/${reference}/study/photos`
	const busy = upload.state !== 'idle'
	// Once sent, the input is emptied for the next photos.
	useEffect(() => {
		if (upload.state === 'idle') form.current?.reset()
	}, [upload.state])
	const full = photos.length >= maxPhotos
	return (
		<section id="photos" aria-labelledby="photos-title" className="mt-6 space-y-3 rounded-xl border border-stone-200 bg-white p-4">
			<h2 id="photos-title" className="text-lg font-bold">
				صور الزيارة
			</h2>
			<p className="text-sm text-stone-700">
				للموظفين فقط؛ لا يراها المتقدم. تُحفظ مشفرة، ويُحذف منها الموقع وبيانات الجهاز. حتى {countOf(maxPhotos, photosNoun)} للطلب، وكل صورة حتى {formatFileSize(maxBytes)}.
			</p>
			<FlashNotice notice={notice} live className="" />
			<VisitPhotos
				photos={photos}
				remove={(photo, index) => (
					<removal.Form method="post" action={action}>
						<input type="hidden" name="intent" value="remove" />
						<input type="hidden" name="file" value={photo.id} />
						<button type="submit" disabled={removal.state !== 'idle'} className="link inline-flex min-h-11 items-center text-sm">
							حذف<span className="sr-only"> صورة الزيارة {index + 1}</span>
						</button>
					</removal.Form>
				)}
			/>
			{full ? (
				<p className="text-sm text-stone-700">بلغت صور الزيارة حدها. احذف صورة لم تعد لازمة لإضافة غيرها.</p>
			) : (
				<upload.Form ref={form} method="post" action={action} encType="multipart/form-data" className="flex flex-wrap items-end gap-3">
					<div>
						<label htmlFor="visit-photos" className="block font-semibold">
							أضف صوراً من الكاميرا أو المعرض
						</label>
						<input id="visit-photos" name="photos" type="file" multiple required accept={acceptAttribute(['photo'])} className="mt-1 block w-full text-sm" />
					</div>
					<button type="submit" disabled={busy} className="btn-secondary">
						{busy ? 'جارٍ رفع الصور…' : 'إضافة الصور'}
					</button>
				</upload.Form>
			)}
		</section>
	)
}
