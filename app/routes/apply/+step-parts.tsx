import type { ReactNode } from 'react'
import { Form, Link } from 'react-router'
import { ErrorSummary, FlashNotice, PageTitle, Honeypot } from '#app/components/forms.tsx'
import { AnswerLines } from '#app/forms/answer-lines.tsx'
import { slotAccepts, uploadInputId, type ApplicationDef, type SectionDef } from '#app/forms/definition.ts'
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
	base,
	notice,
	maxBytes,
	editableSlots,
	errors,
}: {
	section: SectionDef
	files: StepFile[]
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
	return (
		<div id="files" className="mt-6 space-y-4">
			<FlashNotice notice={notice?.tone === 'error' && !notice.field ? notice : null} live />
			{section.files!.map((slot) => {
				const inSlot = files.filter((file) => file.slot === slot.slot)
				const editable = editableSlots.includes(slot.slot)
				// Sent back as incomplete: a slot not asked about and left empty has nothing to show.
				if (!editable && inSlot.length === 0) return null
				return (
					<section key={slot.slot} aria-labelledby={`slot-${slot.slot}`} className="rounded-xl border border-stone-300 bg-white p-4">
						<h2 id={`slot-${slot.slot}`} className="font-bold">
							{slot.label} {slot.required ? <span className="text-sm font-normal text-red-800">(مطلوب)</span> : <span className="text-sm font-normal text-stone-600">(اختياري)</span>}
						</h2>
						{slot.hint ? <p className="text-sm text-stone-600">{slot.hint}</p> : null}
						<FlashNotice notice={added === slot.slot ? notice : null} live className="mt-2" />
						{inSlot.length ? (
							<ul className="mt-2 divide-y divide-stone-200">
								{inSlot.map((file) => (
									<li key={file.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
										<span>
											<bdi className="font-semibold">{file.name}</bdi> — <bdi>{file.type}</bdi>، <bdi>{formatFileSize(file.size)}</bdi>، <bdi className="whitespace-nowrap">{file.date}</bdi>
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
						{editable && (slot.multiple || inSlot.length === 0) ? (
							<UploadForm
								action={`${base}/files/upload`}
								slot={slot.slot}
								label={slot.label}
								kinds={slotAccepts(slot)}
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

