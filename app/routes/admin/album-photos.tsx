import fsp from 'node:fs/promises'
import { data, Form, Link } from 'react-router'
import type { Route } from './+types/album-photos'
import { requireRole } from '#app/auth/user-context.server.ts'
import { deleteEntry, getEntry, InvalidContentError, saveEntry } from '#app/content/store.server.ts'
import { albumPhotosPath, albums, photos } from '#app/content/types.ts'
import { getDb } from '#app/db/database.server.ts'
import { areaRoles } from '#app/db/roles.ts'
import { addedMessage, addPhotos, albumPhotos, countAlbumPhotos, findAlbum, photoUpload } from '#app/content/gallery/albums.server.ts'
import { MAX_PHOTOS_AT_ONCE, PHOTOS_INPUT, PhotoUploadForm, photoMessages } from '#app/content/gallery/photo-upload-form.tsx'
import { ResponsiveImage } from '#app/images/responsive-image.tsx'
import { getFileStorage } from '#app/storage/file-storage.server.ts'
import { declaredTooLarge, receiveMultipleUploads } from '#app/storage/upload-stream.server.ts'
import { BAD_FILE_NAME } from '#app/storage/upload-messages.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { flashContext, flashCookie, redirectWithFlash, type Flash } from '#app/http/flash.server.ts'
import { pageParam, paginate } from '#app/utils/pagination.ts'
import { Field, FlashNotice, PageTitle } from '#app/components/forms.tsx'
import { Paginator } from '#app/components/paginator.tsx'
import type { AdminHandle } from './layout.tsx'
import { audited } from '#app/audit/audit-trail.server.ts'

// An album's photos, 8 a page (docs/product.md#business-constants): several uploaded at once,
// captions, the cover, delete after a confirmation. Every control is a plain form, so it works
// without JavaScript; with it the upload shows a progress bar.

export const handle: AdminHandle = {
	breadcrumb: (data) => [{ to: '/admin/content/albums', label: albums.plural }, { label: `صور الألبوم: ${(data as { title: string }).title}` }],
}

export const middleware = [audited({ read: false, write: { byIntent: { caption: 'content.update', cover: 'content.update', delete: 'content.delete' }, otherwise: 'content.upload' } })]

async function open(params: { id: string }, context: Route.LoaderArgs['context']) {
	const user = requireRole(context, areaRoles.content)
	const db = await getDb()
	const album = await findAlbum(db, params.id)
	if (!album) throw data(null, { status: 404 })
	return { user, db, album }
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
	const { db, album } = await open(params, context)
	const pagination = paginate({ total: await countAlbumPhotos(db, album.id), perPage: photos.perPage, page: pageParam(request) })
	const shown = await albumPhotos(db, album.id, { offset: pagination.offset, limit: photos.perPage })
	const deleting = new URL(request.url).searchParams.get('delete')
	return {
		id: album.id,
		title: album.data.title,
		slug: album.data.slug,
		// Without a chosen cover the site shows the album's first photo, wherever this page starts.
		cover: album.data.cover || (await albumPhotos(db, album.id, { offset: 0, limit: 1 }))[0]?.id,
		pagination,
		maxBytes: getEnv().uploadMaxBytes,
		notice: context.get(flashContext),
		deleting: shown.some((photo) => photo.id === deleting) ? deleting : null,
		photos: shown.map((photo) => ({ id: photo.id, caption: photo.data.caption, image: photo.images.image })),
	}
}

export async function action({ params, request, context }: Route.ActionArgs) {
	const { user, db, album } = await open(params, context)
	const back = albumPhotosPath(album.id)
	if (request.headers.get('content-type')?.startsWith('multipart/form-data')) return upload(request, album.id, user.id, back)
	const form = await request.formData()
	const photo = await getEntry(db, photos, String(form.get('photo') ?? ''), { where: { album: album.id } })
	if (!photo) throw data(null, { status: 404 })
	const page = String(form.get('page') ?? '1')
	const returnTo = `${back}?page=${encodeURIComponent(page)}`
	switch (form.get('intent')) {
		case 'caption': {
			const caption = String(form.get('caption') ?? '')
			try {
				await saveEntry(db, photos, photo.id, { ...photo.data, caption }, user.id)
			} catch (error) {
				// Too long (a form posted without the page's maxlength): said beside the field, what was typed kept.
				if (!(error instanceof InvalidContentError)) throw error
				return data({ caption: { photo: photo.id, value: caption, message: error.issues.map((issue) => issue.message).join(' ') } }, { status: 400 })
			}
			return redirectWithFlash(returnTo, { tone: 'success', message: photos.messages.updated })
		}
		case 'cover':
			await saveEntry(db, albums, album.id, { ...album.data, cover: photo.id }, user.id)
			return redirectWithFlash(returnTo, { tone: 'success', message: 'تم اختيار صورة الغلاف' })
		case 'delete':
			await deleteEntry(db, photos, photo.id, user.id)
			// A deleted cover leaves the album on its first photo again.
			if (album.data.cover === photo.id) await saveEntry(db, albums, album.id, { ...album.data, cover: '' }, user.id)
			return redirectWithFlash(returnTo, { tone: 'success', message: photos.messages.deleted })
		default:
			throw data(null, { status: 400 })
	}
}

/** Several photos at once: each kept or refused on its own; the outcome is the page's notice. */
async function upload(request: Request, albumId: string, userId: number, back: string) {
	const maxBytes = getEnv().uploadMaxBytes
	const wantsJson = request.headers.get('accept')?.includes('application/json')
	const reply = async (notice: Flash, status = 200, headers: Record<string, string> = {}) =>
		wantsJson ? data({ notice }, { status, headers: { ...headers, 'Set-Cookie': await flashCookie(notice) } }) : redirectWithFlash(back, notice, headers)
	// Said from the Content-Length, before the body is read; the connection closes, as the body stays unread.
	if (declaredTooLarge(request, maxBytes, MAX_PHOTOS_AT_ONCE)) return reply({ tone: 'error', message: photoMessages.tooLarge(maxBytes) }, 413, { Connection: 'close' })
	const db = await getDb()
	// One file more than allowed is read, so that too many is said instead of silently dropped.
	// A request that does not say its size (chunked: no browser's form) is not read past a file too large.
	const stopWhenTooLarge = !request.headers.has('content-length')
	const received = await receiveMultipleUploads(request, getFileStorage(), { maxFileBytes: maxBytes, maxFields: 5, stopWhenTooLarge }, PHOTOS_INPUT, photoUpload, MAX_PHOTOS_AT_ONCE + 1)
	if (!received.ok && received.error === 'too-large') return reply({ tone: 'error', message: photoMessages.tooLarge(maxBytes) }, 413, { Connection: 'close' })
	if (!received.ok) return reply({ tone: 'error', message: received.error === 'bad-name' ? BAD_FILE_NAME : photoMessages.broken }, 400)
	if (received.files.length === 0) return reply({ tone: 'error', message: photoMessages.noFile }, 400)
	if (received.files.length > MAX_PHOTOS_AT_ONCE) {
		await Promise.all(received.files.map((file) => (file.ok ? fsp.rm(file.file.tempPath, { force: true }) : undefined)))
		return reply({ tone: 'error', message: photoMessages.tooMany }, 400)
	}
	const outcome = await addPhotos(db, getFileStorage(), albumId, received.files, userId)
	// Nothing added is a refusal (400) to a client that reads the status; the notice says why for each file.
	return reply({ tone: outcome.refused.length ? 'error' : 'success', message: addedMessage(outcome) }, outcome.added === 0 ? 400 : 200)
}

export default function AlbumPhotos({ loaderData, actionData }: Route.ComponentProps) {
	const { id, title, slug, cover, pagination, photos: list, deleting, notice } = loaderData
	const refusedCaption = actionData && 'caption' in actionData ? actionData.caption : undefined
	const pageField = <input type="hidden" name="page" value={pagination.page} />
	return (
		<>
			<PageTitle title={`صور الألبوم: ${title}`} />
			<div className="flex flex-wrap items-center justify-between gap-3">
				<h1 className="text-2xl font-bold text-brand-900">صور الألبوم: {title}</h1>
				<div className="flex flex-wrap gap-2">
					<Link to={`/gallery/${slug}`} className="btn-secondary">
						عرض في الموقع
					</Link>
					<Link to={`/admin/content/albums/${id}/edit`} className="btn-secondary">
						تعديل بيانات الألبوم
					</Link>
				</div>
			</div>
			<div className="mt-4">
				<FlashNotice notice={notice} />
			</div>
			<PhotoUploadForm maxBytes={loaderData.maxBytes} />
			{deleting ? (
				<section aria-labelledby="confirm-delete" className="mt-6 rounded-xl border-2 border-red-800 bg-red-50 p-5">
					<h2 id="confirm-delete" className="text-lg font-bold text-red-900">
						حذف الصورة
					</h2>
					<p className="mt-2">ستختفي الصورة من الألبوم في الموقع. هل أنت متأكد؟</p>
					<Form method="post" className="mt-4 flex flex-wrap gap-3">
						<input type="hidden" name="intent" value="delete" />
						<input type="hidden" name="photo" value={deleting} />
						{pageField}
						<button type="submit" className="btn bg-red-800 text-white hover:bg-red-900">
							نعم، احذف الصورة
						</button>
						<Link to={`?page=${pagination.page}`} className="btn-secondary">
							تراجع
						</Link>
					</Form>
				</section>
			) : null}
			{list.length === 0 ? (
				<p className="mt-6 rounded-xl bg-white p-5">لا توجد صور في هذا الألبوم بعد.</p>
			) : (
				<ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4" aria-label="صور الألبوم">
					{list.map((photo, index) => {
						const number = pagination.offset + index + 1
						return (
							<li key={photo.id} className={`rounded-xl border bg-white p-3 ${photo.id === deleting ? 'border-red-800' : 'border-stone-200'}`}>
								<div className="relative">
									{photo.image ? (
										<ResponsiveImage
											image={photo.image}
											alt={photo.caption || `الصورة ${number}`}
											sizes="(min-width: 1024px) 260px, (min-width: 640px) 50vw, 100vw"
											className="aspect-[4/3] w-full rounded-lg object-cover"
										/>
									) : null}
									{photo.id === cover ? <span className="absolute start-2 top-2 rounded-full bg-brand-800 px-3 py-1 text-sm font-semibold text-white">الغلاف</span> : null}
								</div>
								<Form method="post" className="mt-3 space-y-2">
									<input type="hidden" name="intent" value="caption" />
									<input type="hidden" name="photo" value={photo.id} />
									{pageField}
									<Field
										label={`وصف الصورة ${number}`}
										errors={refusedCaption?.photo === photo.id ? [refusedCaption.message] : undefined}
										inputProps={{ id: `caption-${photo.id}`, name: 'caption', type: 'text', maxLength: 200, defaultValue: refusedCaption?.photo === photo.id ? refusedCaption.value : photo.caption }}
										className="text-sm"
									/>
									<button type="submit" className="btn-secondary min-h-9 w-full px-3 py-1 text-sm">
										حفظ الوصف<span className="sr-only"> للصورة {number}</span>
									</button>
								</Form>
								<div className="mt-2 flex flex-wrap gap-2">
									{photo.id === cover ? null : (
										<Form method="post">
											<input type="hidden" name="intent" value="cover" />
											<input type="hidden" name="photo" value={photo.id} />
											{pageField}
											<button type="submit" className="btn-secondary min-h-9 px-3 py-1 text-sm">
												اجعلها الغلاف<span className="sr-only"> (الصورة {number})</span>
											</button>
										</Form>
									)}
									<Link to={`?page=${pagination.page}&delete=${photo.id}`} className="btn min-h-9 border border-red-800 px-3 py-1 text-sm text-red-800 hover:bg-red-50">
										حذف<span className="sr-only"> الصورة {number}</span>
									</Link>
								</div>
							</li>
						)
					})}
				</ul>
			)}
			<Paginator pagination={pagination} />
		</>
	)
}
