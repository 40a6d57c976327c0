import type { ReactNode } from 'react'
import { Form, Link } from 'react-router'
import { ErrorSummary, FlashNotice, PageTitle, Honeypot } from '#app/components/forms.tsx'
import { AnswerLines } from '#app/forms/answer-lines.tsx'
import { SLOT_KINDS, uploadInputId, type ApplicationDef, type SectionDef } from '#app/forms/definition.ts'
import { isDocumentSlot, PHOTO_TIP } from '#app/cases/document-pages.ts'
import { countOf, pages as pageNoun } from '#app/text/arabic-count.ts'
import { useEffect } from 'react'
import { useRevalidator } from 'react-router'
import type { Described } from '#app/forms/describe.ts'
import type { SubmissionResult } from '@conform-to/react'
import { UploadForm } from '#app/forms/upload-form.tsx'
import { formatFileSize } from '#app/text/format.ts'
import type { Flash } from '#app/http/flash.server.ts'

// The parts of an application step's page (step.tsx) beyond its form: the file slots, the
// association guide, and the page of a step sent back for some of its files only.

export interface StepFile {
	id: string
	slot: string
	name: string
	type: string
	size: number
	date: string
	href: string
	/** A PDF's pages, when known (a document made of pages always says). */
	pages: number | null
}

/** A page of a document being made (app/cases/document-pages.ts), in the applicant's order. */
export interface StepPage {
	id: string
	slot: string
	name: string
	kind: 'photo' | 'pdf'
	/** 1 for a photo; a PDF's pages. */
	pages: number
	status: 'ready' | 'processing' | 'failed'
	/** The thumbnail of a photo's page. */
	href: string
	size: number
}

/** The guidance manual staff uploaded for associations, to download before filling the step. */
export function GuideLink({ guide }: { guide: { href: string; size: number } | null }) {
	if (!guide) return null
	return (
		<p className="mt-3">
			<a href={guide.href} download className="link">
				تنزيل الدليل الإرشادي لطلب دعم الجمعيات (PDF، <bdi>{formatFileSize(guide.size)}</bdi>)
			</a>
		</p>
	)
}

/** A step sent back as incomplete for some of its files only: the files to change, and its answers as sent. */
export function FilesOnlyStep({
	section,
	definition,
	loaderData,
	lastResult,
	action,
	guide,
	files,
}: {
	section: SectionDef
	definition: ApplicationDef
	loaderData: { backTo: string; stepLabel: string; answers: Described[] }
	lastResult?: SubmissionResult<string[]>
	action?: string
	guide: ReactNode
	files: ReactNode
}) {
	const errors = Object.entries(lastResult?.error ?? {})
	return (
		<div className="mx-auto max-w-2xl px-4 py-6">
			<PageTitle title={`${section.title} - ${definition.title}`} error={errors.length > 0} />
			<Link to={loaderData.backTo} className="link inline-flex min-h-11 items-center">
				<span aria-hidden="true">→</span>&nbsp;رجوع
			</Link>
			{errors.length ? <ErrorSummary items={errors.flatMap(([fieldId, messages]) => (messages ?? []).map((message) => ({ message, fieldId })))} /> : null}
			<p className="mt-2 text-sm font-semibold text-stone-600">
				{definition.title} — {loaderData.stepLabel}
			</p>
			<h1 className="mt-1 text-2xl font-bold text-brand-900">{section.title}</h1>
			<p className="mt-2 text-stone-700">طلبت المؤسسة تعديل بعض المرفقات فقط في هذه الخطوة؛ بقية البيانات كما أرسلتها.</p>
			{guide}
			{files}
			{loaderData.answers.length ? (
				<div className="mt-6 rounded-xl border border-stone-200 bg-white p-4">
					<h2 className="font-bold">بياناتك في هذه الخطوة (لا تحتاج تعديلاً)</h2>
					<AnswerLines lines={loaderData.answers.flatMap((item) => (item.kind === 'line' ? [item.line] : []))} className="mt-2 space-y-1 text-sm" />
				</div>
			) : null}
			<Form method="post" action={action} className="mt-6">
				<Honeypot />
				<input type="hidden" name="intent" value="continue" />
				<button type="submit" className="btn-primary w-full sm:w-auto">
					متابعة
				</button>
			</Form>
		</div>
	)
}

export function FilesList({
	section,
	files,
	pages,
	base,
	notice,
	maxBytes,
	editableSlots,
	errors,
}: {
	section: SectionDef
	files: StepFile[]
	pages: StepPage[]
	base: string
	notice: Flash | null
	maxBytes: number
	/** The slots the applicant may change (all of them, unless staff reopened only some). */
	editableSlots: readonly string[]
	/** The failed submit's errors: a missing required file is keyed by its input's id. */
	errors?: Record<string, string[] | null>
}) {
	const failed: Record<string, string> = notice?.tone === 'error' && notice.field ? { [notice.field]: notice.message } : {}
	const added = notice?.tone === 'success' ? notice.field : undefined
	// With JavaScript, a page still being made ready is looked at again every two seconds.
	const revalidator = useRevalidator()
	// A photo being cleaned, or pages whose document is not made yet.
	const processing = pages.some((page) => page.status === 'processing' || (page.status === 'ready' && !files.some((file) => file.slot === page.slot)))
	useEffect(() => {
		if (!processing) return
		const timer = setInterval(() => {
			if (revalidator.state === 'idle') void revalidator.revalidate()
		}, 2000)
		return () => clearInterval(timer)
	}, [processing, revalidator])
	return (
		<div id="files" className="mt-6 space-y-4">
			<FlashNotice notice={notice?.tone === 'error' && !notice.field ? notice : null} live />
			{section.files!.map((slot) => {
				const inSlot = files.filter((file) => file.slot === slot.slot)
				const slotPages = pages.filter((page) => page.slot === slot.slot)
				const editable = editableSlots.includes(slot.slot)
				const document = isDocumentSlot(slot)
				// Sent back as incomplete: a slot not asked about and left empty has nothing to show.
				if (!editable && inSlot.length === 0) return null
				return (
					<section key={slot.slot} id={`slot-${slot.slot}`} aria-labelledby={`slot-${slot.slot}-title`} className="scroll-mt-4 rounded-xl border border-stone-300 bg-white p-4">
						<h2 id={`slot-${slot.slot}-title`} className="font-bold">
							{slot.label} {slot.required ? <span className="text-sm font-normal text-red-800">(مطلوب)</span> : <span className="text-sm font-normal text-stone-600">(اختياري)</span>}
						</h2>
						{slot.hint ? <p className="text-sm text-stone-600">{slot.hint}</p> : null}
						{document && editable ? <p className="mt-1 text-sm text-stone-600">{PHOTO_TIP}</p> : null}
						<FlashNotice notice={added === slot.slot ? notice : null} live className="mt-2" />
						{document && slotPages.length ? (
							<DocumentPages slotLabel={slot.label} pages={slotPages} document={inSlot[0]} editable={editable} />
						) : inSlot.length ? (
							<ul className="mt-2 divide-y divide-stone-200">
								{inSlot.map((file) => (
									<li key={file.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
										<span>
											<bdi className="font-semibold">{file.name}</bdi> — <bdi>{file.type}</bdi>
											{file.pages ? <> من {countOf(file.pages, pageNoun)}</> : null}، <bdi>{formatFileSize(file.size)}</bdi>، <bdi>{file.date}</bdi>
										</span>
										<span className="flex gap-2">
											<a href={`${file.href}?inline=1`} target="_blank" rel="noopener" className="link inline-flex min-h-11 items-center px-2">
												عرض<span className="sr-only"> {file.name}، يفتح في نافذة جديدة</span>
											</a>
											{editable ? (
												<Form method="post">
													<input type="hidden" name="intent" value="delete-file" />
													<input type="hidden" name="fileId" value={file.id} />
													<button type="submit" className="link inline-flex min-h-11 items-center px-2 text-red-800">
														حذف<span className="sr-only"> {file.name}</span>
													</button>
												</Form>
											) : null}
										</span>
									</li>
								))}
							</ul>
						) : null}
						{editable && (document || slot.multiple || inSlot.length === 0) ? (
							<UploadForm
								action={`${base}/files/upload`}
								slot={slot.slot}
								label={slot.label}
								kinds={SLOT_KINDS}
								asPages={document}
								error={failed[slot.slot] ?? errors?.[uploadInputId(slot.slot)]?.[0]}
								maxBytes={maxBytes}
							/>
						) : null}
					</section>
				)
			})}
		</div>
	)
}

/**
 * A document's pages as numbered thumbnails, each with «تقديم», «تأخير» and «حذف» (plain forms: they
 * work without JavaScript), and the PDF made of them once every page is ready.
 */
function DocumentPages({ slotLabel, pages, document, editable }: { slotLabel: string; pages: StepPage[]; document: StepFile | undefined; editable: boolean }) {
	// Each item's first page number: a PDF given as pages takes as many numbers as it has pages.
	const starts = pages.map((_, index) => 1 + pages.slice(0, index).reduce((sum, page) => sum + page.pages, 0))
	const numbered = pages.map((page, index) => {
		const from = starts[index]!
		return { page, label: page.pages > 1 ? `الصفحات ${from}–${from + page.pages - 1}` : `الصفحة ${from}` }
	})
	const waiting = pages.some((page) => page.status === 'processing') || (!document && pages.some((page) => page.status === 'ready'))
	return (
		<div className="mt-3">
			<ol className="grid grid-cols-2 gap-3 sm:grid-cols-3" aria-label={`صفحات ${slotLabel}`}>
				{numbered.map(({ page, label }, index) => (
					<li key={page.id} className="rounded-lg border border-stone-300 p-2">
						<p className="text-sm font-semibold">{label}</p>
						<div className="mt-1 flex aspect-[3/4] items-center justify-center overflow-hidden rounded bg-stone-100 text-center text-sm text-stone-700">
							{page.status === 'ready' && page.kind === 'photo' ? (
								<img src={page.href} alt={`${label} من ${slotLabel}`} className="max-h-full max-w-full object-contain" loading="lazy" />
							) : page.status === 'processing' ? (
								<span>جارٍ تجهيز الصفحة…</span>
							) : page.status === 'failed' ? (
								<span className="p-1 font-semibold text-red-800">تعذرت قراءة هذه الصورة. احذفها وأضفها من جديد.</span>
							) : (
								<span className="p-1 [overflow-wrap:anywhere]">
									<bdi className="font-semibold">{page.name}</bdi>
									<br />
									{`ملف PDF من ${countOf(page.pages, pageNoun)}، `}
									<bdi>{formatFileSize(page.size)}</bdi>
								</span>
							)}
						</div>
						{editable ? (
							<div className="mt-1 grid grid-cols-3 items-center">
								<PageButton page={page} intent="move-page" to="earlier" disabled={index === 0} label="تقديم" spoken={`تقديم ${label}`} />
								<PageButton page={page} intent="move-page" to="later" disabled={index === pages.length - 1} label="تأخير" spoken={`تأخير ${label}`} />
								<PageButton page={page} intent="delete-page" label="حذف" spoken={`حذف ${label}`} danger />
							</div>
						) : null}
					</li>
				))}
			</ol>
			<p className="mt-2 text-sm text-stone-700" aria-live="polite">
				{waiting ? (
					<>جارٍ تجهيز الصفحات؛ يظهر المستند حين تجهز كلها. إن لم تتغير خلال لحظات فحدّث الصفحة.</>
				) : document ? (
					<>
						{'المستند: '}
						<a href={`${document.href}?inline=1`} target="_blank" rel="noopener" className="link inline-flex min-h-11 items-center">
							{`عرض ${slotLabel}: ملف PDF من ${countOf(document.pages ?? 1, pageNoun)}`}
							<span className="sr-only">، يفتح في نافذة جديدة</span>
						</a>{' '}
						(<bdi>{formatFileSize(document.size)}</bdi>)
					</>
				) : null}
			</p>
		</div>
	)
}

function PageButton({ page, intent, to, disabled, label, spoken, danger }: { page: StepPage; intent: 'move-page' | 'delete-page'; to?: 'earlier' | 'later'; disabled?: boolean; label: string; spoken: string; danger?: boolean }) {
	if (disabled) return <span />
	return (
		<Form method="post" preventScrollReset className="flex justify-center">
			<input type="hidden" name="intent" value={intent} />
			<input type="hidden" name="pageId" value={page.id} />
			{to ? <input type="hidden" name="to" value={to} /> : null}
			<button type="submit" aria-label={spoken} className={`inline-flex min-h-11 min-w-11 items-center justify-center rounded px-1 text-sm underline ${danger ? 'text-red-800' : 'text-brand-800'}`}>
				{label}
			</button>
		</Form>
	)
}
