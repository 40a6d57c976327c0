import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link } from 'react-router'
import type { Route } from './+types/content-editor'
import { getDb } from '#app/db/database.server.ts'
import type { Database } from '#app/db/client.server.ts'
import { requireRole } from '#app/auth/user-context.server.ts'
import { fileFields, type FileField } from '#app/content/definition.ts'
import { deleteDocument, findDocument, storeDocument, type DocumentData } from '#app/documents/documents-library.server.ts'
import { withMedia } from '#app/content/public.server.ts'
import { contentSchema } from '#app/content/schema.ts'
import { getEntry, getSingleton, InvalidContentError, saveEntry, type ContentEntry } from '#app/content/store.server.ts'
import { KEPT_UPLOAD_MS } from '#app/content/media-sweep.server.ts'
import { contentAdminPath, contentCrumbs, findContentType } from '#app/content/types.ts'
import { areaRoles } from '#app/db/roles.ts'
import { deleteImage, findImage, imageUpload, InvalidImageError, processImage } from '#app/images/pipeline.server.ts'
import { ResponsiveImage, type ImageData } from '#app/images/responsive-image.tsx'
import { getFileStorage } from '#app/storage/file-storage.server.ts'
import { declaredTooLarge, pdfUpload, receiveUploads } from '#app/storage/upload-stream.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { flashContext, redirectWithFlash } from '#app/http/flash.server.ts'
import { formatFileSize, todayInRiyadh } from '#app/text/format.ts'
import { sanitizeRichText } from '#app/utils/sanitize-html.server.ts'
import { ErrorList, ErrorSummary, Field, FlashNotice, PageTitle, SelectField, TextareaField, useSubmitCount, validationTiming } from '#app/components/forms.tsx'
import { RichTextEditor } from '#app/components/rich-text-editor.tsx'
import { applyPosterFrames, videoFrame, videoUpload } from '#app/content/gallery/video.server.ts'
import { VideoInput, videoErrors } from '#app/content/gallery/video-input.tsx'
import { fieldMaxBytes, tooLargeMessage, tooLargeReply, withFieldLimits } from '#app/content/upload-limits.server.ts'
import { filteredListPath, filterValue } from '#app/content/list-filter.ts'
import type { AdminHandle } from './layout.tsx'
import { BAD_FILE_NAME, contentRefusalMessages, EMPTY_FILE } from '#app/storage/upload-messages.ts'
import { describeError, logger } from '#app/utils/log.server.ts'
import { audited, noteAudit } from '#app/audit/audit-trail.server.ts'

// One screen and one action for every content type: add, edit, and the singletons' only entry.

export const handle: AdminHandle = {
	breadcrumb: (data) => {
		const { typeName, isNew } = data as { typeName: string; isNew: boolean }
		const type = findContentType(typeName)
		if (type?.kind === 'singleton') return [{ label: type.singular }]
		return [...contentCrumbs(typeName), { label: isNew ? `إضافة ${type?.singular ?? ''}` : `تعديل ${type?.singular ?? ''}` }]
	},
}

// One screen adds and edits; adding says so (content.create).
export const middleware = [audited({ read: false, write: 'content.update', screenActions: ['content.create'] })]

const fileErrors = {
	image: {
		'too-large': 'حجم الصورة أكبر من المسموح. اختر صورة أصغر.',
		'not-image': 'الملف ليس صورة. اختر صورة JPEG أو PNG أو WebP.',
		unreadable: 'تعذرت قراءة الصورة. اختر صورة أخرى.',
		'too-small': 'الصورة صغيرة جداً.',
		empty: EMPTY_FILE,
	},
	document: {
		'too-large': 'حجم الملف أكبر من المسموح. اختر ملفاً أصغر.',
		'not-pdf': 'الملف ليس PDF. اختر ملفاً بصيغة PDF.',
		...contentRefusalMessages,
	},
	video: videoErrors,
} as const
const brokenUpload = 'لم يكتمل رفع الملف. حاول مرة أخرى.'

/** The file input of a file field; the field's own name carries the id of the file kept so far. */
const uploadName = (field: FileField) => `${field.name}-upload`

async function open(params: { type: string; id?: string }, context: Route.LoaderArgs['context']) {
	const user = requireRole(context, areaRoles.content)
	const type = findContentType(params.type)
	if (!type) throw data(null, { status: 404 })
	const db = await getDb()
	let entry: ContentEntry | undefined
	if (type.kind === 'singleton') entry = await getSingleton(db, type)
	else if (params.id) {
		entry = await getEntry(db, type, params.id)
		if (!entry) throw data(null, { status: 404 })
	}
	return { type, db, entry, user }
}

export async function loader({ params, context, request }: Route.LoaderArgs) {
	const { type, db, entry } = await open(params, context)
	const [shown] = entry ? await withMedia(db, type, [entry]) : []
	return {
		typeName: type.type,
		isNew: !entry,
		// A new dated entry (news) starts on today's date, which is what it usually is.
		// A new entry added from a filtered list (a document from its category's tab) starts in that category.
		data: shown?.data ?? { ...(type.dateField ? { [type.dateField]: todayInRiyadh() } : {}), ...(type.filterField ? { [type.filterField]: filterValue(type, new URL(request.url)) } : {}) },
		images: shown?.images ?? {},
		documents: shown?.documents ?? {},
		videoMaxBytes: getEnv().videoMaxBytes,
		notice: context.get(flashContext),
	}
}

export async function action({ params, context, request }: Route.ActionArgs) {
	const { type, db, entry, user } = await open(params, context)
	const files = fileFields(type)
	const errors: Record<string, string[]> = {}
	// The file ids this try ends with, per field: a new upload, or one kept from an earlier failed try.
	const uploaded: Record<string, string> = {}
	// Poster frames taken from a new video (ffmpeg), per image field: used only when it ends up empty.
	const frames: Record<string, string | null> = {}
	let fields: Record<string, string>
	if (files.length) {
		const storage = getFileStorage()
		// Each file keeps its own limit (a PDF DOCUMENT_MAX_MB, a video VIDEO_MAX_MB, a picture
		// UPLOAD_MAX_MB); a request saying it holds more than all of them is refused unread, on its
		// largest field (the video, else the PDF).
		const limits = files.map(fieldMaxBytes)
		const largest = files[limits.indexOf(Math.max(...limits))]!
		if (
			declaredTooLarge(
				request,
				limits.reduce((sum, bytes) => sum + bytes, 0),
			)
		)
			return tooLargeReply(largest)
		const video = files.find((field) => field.kind === 'video')
		const kinds = Object.fromEntries(files.map((field) => [uploadName(field), field.kind === 'image' ? imageUpload : field.kind === 'video' ? videoUpload : pdfUpload]))
		// A form with a video is not read to its end once a file passes its limit (a video may be
		// hundreds of megabytes), nor is a request that does not say its size (chunked: no browser's form).
		const stopWhenTooLarge = Boolean(video) || !request.headers.has('content-length')
		const upload = await receiveUploads(request, storage, { maxFileBytes: Math.max(...limits), stopWhenTooLarge }, withFieldLimits(kinds, files, uploadName))
		fields = upload.fields
		if (!upload.ok && upload.error === 'too-large') return tooLargeReply(files.find((field) => uploadName(field) === upload.part) ?? largest)
		if (!upload.ok) errors[files[0]!.name] = [upload.error === 'bad-name' ? BAD_FILE_NAME : brokenUpload]
		else
			for (const field of files) {
				const part = upload.parts[uploadName(field)]
				if (!part) continue
				if (!part.ok) {
					errors[field.name] = [part.error === 'too-large' ? tooLargeMessage(field) : ((fileErrors[field.kind] as Record<string, string>)[part.error] ?? brokenUpload)]
					continue
				}
				if (field.kind === 'video' && field.poster) frames[field.poster] = await videoFrame(part.file.tempPath)
				if (field.kind === 'document' || field.kind === 'video') {
					uploaded[field.name] = (await storeDocument(db, storage, part.file, user.id)).id
					continue
				}
				try {
					uploaded[field.name] = (await processImage(db, storage, { tempPath: part.file.tempPath, originalName: part.file.originalName, alt: '', createdBy: user.id })).id
				} catch (error) {
					if (!(error instanceof InvalidImageError)) throw error
					errors[field.name] = [fileErrors.image[error.reason]]
				}
			}
		// A file uploaded on an earlier, failed try comes back in a hidden field. It must be this
		// person's own recent upload: replacing a file deletes the old one, so an id borrowed from
		// another entry would take that entry's file with it.
		for (const field of files) {
			const kept = fields[field.name]
			if (uploaded[field.name] || !kept) continue
			const row = field.kind === 'image' ? await findImage(db, kept) : await findDocument(db, kept)
			if (row && row.createdBy === user.id && Date.now() - row.createdAt.getTime() < KEPT_UPLOAD_MS) uploaded[field.name] = kept
		}
		await applyPosterFrames(db, storage, { frames, fields, uploaded, stored: (entry?.data ?? {}) as Record<string, unknown>, userId: user.id })
	} else {
		fields = Object.fromEntries([...(await request.formData()).entries()].map(([key, value]) => [key, String(value)]))
	}
	const formData = new FormData()
	for (const [key, value] of Object.entries(fields)) formData.append(key, value)
	const stored = (entry?.data ?? {}) as Record<string, unknown>
	for (const field of files) {
		const current = typeof stored[field.name] === 'string' ? (stored[field.name] as string) : undefined
		const removed = !field.required && fields[`${field.name}-remove`] === 'on'
		const id = uploaded[field.name] ?? (removed ? undefined : current)
		formData.set(field.name, id ?? '')
		if (field.required && !id && !errors[field.name]) errors[field.name] = [field.kind === 'image' ? (type.messages.imageRequired ?? 'الرجاء اختيار صورة') : `الرجاء اختيار ${field.label}`]
	}
	if (type.oneOf && type.oneOf.fields.every((name) => !String(formData.get(name) ?? '').trim()) && !errors[type.oneOf.fields[0]!]) errors[type.oneOf.fields[0]!] = [type.oneOf.message]
	const submission = parseWithZod(formData, { schema: contentSchema(type) })
	if (submission.status !== 'success' || Object.keys(errors).length) {
		return data({ result: submission.reply({ fieldErrors: errors }), uploaded }, { status: 400 })
	}
	const values: Record<string, unknown> = { ...submission.value }
	for (const field of files) if (!values[field.name]) delete values[field.name]
	for (const field of type.fields) if (field.kind === 'richtext') values[field.name] = sanitizeRichText(String(values[field.name] ?? ''))
	try {
		// The signed-in member is the author of what they add (news: «publishBy»); saveEntry keeps it on later edits.
		const saved = await saveEntry(db, type, entry?.id ?? null, values, user.id, user.name)
		noteAudit(context, { action: entry ? 'content.update' : 'content.create', data: { type: type.type, id: saved.id } })
	} catch (error) {
		if (!(error instanceof InvalidContentError)) throw error
		const fieldErrors = Object.fromEntries(error.issues.map((issue) => [String(issue.path[0] ?? ''), [issue.message]]))
		return data({ result: submission.reply({ fieldErrors }), uploaded }, { status: 400 })
	}
	await removeReplacedFiles(db, files, stored, values)
	const list = type.filterField ? filteredListPath(type, String(values[type.filterField] ?? '')) : contentAdminPath(type)
	return redirectWithFlash(list, { tone: 'success', message: entry ? type.messages.updated : type.messages.added })
}

/**
 * A picture or PDF that was replaced or removed is deleted: nothing points to it any more (each
 * upload is its own id). A failure here is logged, not shown: the entry itself is saved.
 */
async function removeReplacedFiles(db: Database, files: FileField[], before: Record<string, unknown>, after: Record<string, unknown>) {
	const storage = getFileStorage()
	for (const field of files) {
		const old = before[field.name]
		if (typeof old !== 'string' || old === after[field.name]) continue
		try {
			await (field.kind === 'image' ? deleteImage(db, storage, old) : deleteDocument(db, storage, old))
		} catch (error) {
			logger.error({ error: describeError(error) }, `Could not delete the replaced ${field.kind} ${old}`)
		}
	}
}

export default function ContentEditor({ loaderData, actionData }: Route.ComponentProps) {
	const type = findContentType(loaderData.typeName)!
	const [form, fields] = useForm<Record<string, unknown>>({
		id: `content-${type.type}`,
		lastResult: actionData?.result,
		defaultValue: Object.fromEntries(
			Object.entries(loaderData.data).map(([key, value]) => [key, value === undefined || value === null ? '' : typeof value === 'boolean' ? (value ? 'on' : '') : String(value)]),
		) as Record<string, string>,
		...validationTiming,
		onValidate: ({ formData }) => parseWithZod(formData, { schema: contentSchema(type).partial() }),
	})
	const [submitCount, countSubmit] = useSubmitCount()
	const summary = type.fields.flatMap((field) => (fields[field.name]?.errors ?? []).map((message) => ({ message, fieldId: fields[field.name]!.id })))
	const failed = submitCount > 0 || actionData?.result.status === 'error'
	const title = type.kind === 'singleton' ? type.singular : loaderData.isNew ? `إضافة ${type.singular}` : `تعديل ${type.singular}`
	const multipart = fileFields(type).length > 0
	return (
		<>
			<PageTitle title={title} error={failed && summary.length > 0} />
			<h1 className="text-2xl font-bold text-brand-900">{title}</h1>
			<div className="mt-6 max-w-3xl">
				<FlashNotice notice={loaderData.notice} />
				{failed ? <ErrorSummary key={submitCount} items={summary} /> : null}
				<Form
					method="post"
					encType={multipart ? 'multipart/form-data' : undefined}
					{...getFormProps(form)}
					onSubmitCapture={countSubmit}
					noValidate
					className="space-y-5 rounded-xl border border-stone-200 bg-white p-6"
				>
					{type.fields.map((field) => {
						const meta = fields[field.name]!
						if (field.adminHidden) return <input key={field.name} type="hidden" name={meta.name} defaultValue={String(loaderData.data[field.name] ?? '')} />
						switch (field.kind) {
							case 'text':
								return <Field key={field.name} label={field.label} hint={field.hint} errors={meta.errors} inputProps={getInputProps(meta, { type: 'text' })} />
							case 'number':
								return <Field key={field.name} label={field.label} hint={field.hint} errors={meta.errors} inputProps={{ ...getInputProps(meta, { type: 'text' }), inputMode: 'numeric', dir: 'ltr' }} />
							case 'url':
								return <Field key={field.name} label={field.label} hint={field.hint} errors={meta.errors} inputProps={{ ...getInputProps(meta, { type: 'url' }), dir: 'ltr' }} />
							case 'date':
								return <Field key={field.name} label={field.label} hint={field.hint} errors={meta.errors} inputProps={getInputProps(meta, { type: 'date' })} />
							case 'boolean':
								return (
									<div key={field.name} className="flex min-h-11 items-center gap-3">
										<input {...getInputProps(meta, { type: 'checkbox' })} defaultChecked={loaderData.data[field.name] === true} className="size-5 shrink-0 accent-brand-700" />
										<label htmlFor={meta.id} className="font-semibold">
											{field.label}
										</label>
									</div>
								)
							case 'select':
								return <SelectField key={field.name} label={field.label} errors={meta.errors} selectProps={getSelectProps(meta)} options={field.options} />
							case 'textarea':
								return <TextareaField key={field.name} label={field.label} hint={field.hint} errors={meta.errors} textareaProps={{ ...getTextareaProps(meta), rows: field.rows }} />
							case 'richtext':
								return (
									<RichTextEditor key={field.name} id={meta.id} name={meta.name} label={field.label} hint={field.hint} defaultValue={String(loaderData.data[field.name] ?? '')} errors={meta.errors} />
								)
							case 'image':
							case 'document':
								return (
									<FileInput
										key={field.name}
										field={field}
										id={meta.id}
										errors={meta.errors}
										current={field.kind === 'image' ? loaderData.images[field.name] : loaderData.documents[field.name]}
										uploaded={actionData?.uploaded[field.name]}
									/>
								)
							case 'video':
								return (
									<VideoInput
										key={field.name}
										type={type.type}
										field={field}
										id={meta.id}
										errors={meta.errors}
										current={loaderData.documents[field.name]}
										uploaded={actionData?.uploaded[field.name]}
										maxBytes={loaderData.videoMaxBytes}
										hasPoster={Boolean(field.poster && loaderData.images[field.poster])}
									/>
								)
						}
					})}
					<div className="flex flex-wrap gap-3">
						<button type="submit" className="btn-primary">
							حفظ
						</button>
						{type.kind === 'collection' ? (
							<Link to={`/admin/content/${type.type}`} className="btn-secondary">
								إلغاء
							</Link>
						) : null}
					</div>
				</Form>
			</div>
		</>
	)
}

const fileInputStyles = 'mt-2 block w-full text-sm file:me-3 file:min-h-11 file:rounded-lg file:border-0 file:bg-brand-100 file:px-4 file:font-semibold file:text-brand-900'

/** An image or PDF field: what is there now, a file input to replace it, and (when optional) a way to remove it. */
function FileInput({ field, id, errors, current, uploaded }: { field: FileField; id: string; errors?: string[]; current: ImageData | DocumentData | null | undefined; uploaded?: string }) {
	const isImage = field.kind === 'image'
	const errorId = errors?.length ? `${id}-error` : undefined
	const hasFile = Boolean(current || uploaded)
	return (
		<div>
			<label htmlFor={id} className="block font-semibold">
				{field.label}
			</label>
			<p id={`${id}-hint`} className="text-sm text-stone-600">
				{field.hint ? `${field.hint} ` : ''}
				{hasFile ? (isImage ? 'اختر صورة جديدة لاستبدال الحالية، أو اتركها كما هي.' : 'اختر ملفاً جديداً لاستبدال الحالي، أو اتركه كما هو.') : isImage ? 'صورة JPEG أو PNG أو WebP.' : 'ملف PDF.'}
			</p>
			<ErrorList id={errorId} errors={errors} />
			{current && 'variants' in current ? <ResponsiveImage image={current} sizes="160px" className="mt-2 h-40 w-auto rounded-lg object-cover" /> : null}
			{current && 'href' in current ? (
				<p className="mt-2">
					<a href={current.href} className="font-semibold text-brand-700 underline" download>
						<bdi>{current.name}</bdi>
					</a>{' '}
					<span className="text-sm text-stone-600">({formatFileSize(current.size)})</span>
				</p>
			) : null}
			{uploaded && uploaded !== current?.id ? <p className="mt-2 text-sm font-semibold text-brand-800">{isImage ? 'تم رفع الصورة' : 'تم رفع الملف'} وسيُحفظ مع البيانات.</p> : null}
			{uploaded ? <input type="hidden" name={field.name} value={uploaded} /> : null}
			<input
				id={id}
				name={`${field.name}-upload`}
				type="file"
				accept={isImage ? 'image/jpeg,image/png,image/webp,image/avif,image/gif' : 'application/pdf,.pdf'}
				aria-invalid={errorId ? true : undefined}
				aria-describedby={[`${id}-hint`, errorId].filter(Boolean).join(' ')}
				className={fileInputStyles}
			/>
			{hasFile && !field.required ? (
				<div className="mt-2 flex min-h-11 items-center gap-3">
					<input id={`${id}-remove`} name={`${field.name}-remove`} type="checkbox" className="size-5 shrink-0 accent-brand-700" />
					<label htmlFor={`${id}-remove`}>{isImage ? 'إزالة الصورة الحالية' : 'إزالة الملف الحالي'}</label>
				</div>
			) : null}
		</div>
	)
}
