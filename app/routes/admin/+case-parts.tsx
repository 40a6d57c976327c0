// The case view's parts (app/routes/admin/case.tsx): its panels, the answers and files of a section,
// the notes, and the fields of a decision.
import { useState } from 'react'
import { Form, Link } from 'react-router'
import { countOf, pages } from '#app/text/arabic-count.ts'
import { quotedStatus, Status } from '#app/cases/case-statuses.ts'
import type { Route } from './+types/case'
import { ErrorList, Field, SelectField, TextareaField } from '#app/components/forms.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import { AnswerLines } from '#app/forms/answer-lines.tsx'
import { Totals } from '#app/forms/collection-rows.tsx'
import { zakatCategoryText } from '#app/cases/zakat.ts'

/** A refused decision's errors, by field ('' for the form's own). */
export type ActionErrors = Record<string, string[] | null | undefined>

export function Panel({ title, id, children, className = '' }: { title: string; id: string; children: React.ReactNode; className?: string }) {
	return (
		<section aria-labelledby={id} className={`rounded-xl border border-stone-200 bg-white p-4 ${className}`}>
			<h2 id={id} className="text-lg font-bold text-brand-900">
				{title}
			</h2>
			{children}
		</section>
	)
}

type LoaderData = Route.ComponentProps['loaderData']

export function Answers({ answers }: { answers: LoaderData['sections'][number]['answers'] }) {
	const lines = answers.flatMap((item) => (item.kind === 'line' && item.line.value ? [item.line] : []))
	const groups = answers.flatMap((item) => (item.kind === 'group' ? [item.group] : []))
	return (
		<>
			{lines.length ? <AnswerLines lines={lines} className="mt-2 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2" /> : null}
			{groups.map((group) =>
				group.rows.length ? (
					<div key={group.label} className="mt-3">
						<DataTable
							variant="plain"
							label={`جدول ${group.label}`}
							caption={`${group.label} (${group.rows.length})`}
							captionVisible
							headings={['#', ...group.rows[0]!.map((line) => line.label)]}
							headCellClassName="p-2 text-start whitespace-nowrap"
						>
							{group.rows.map((row, index) => (
								<tr key={index} className="border-t border-stone-200">
									<td className="p-2">{index + 1}</td>
									{row.map((line) => (
										<td key={line.label} className="p-2">
											<bdi>{line.value || '—'}</bdi>
										</td>
									))}
								</tr>
							))}
						</DataTable>
						<Totals totals={group.totals} />
					</div>
				) : (
					<p key={group.label} className="mt-2 text-stone-700">
						{group.label}: لا يوجد
					</p>
				),
			)}
		</>
	)
}

/**
 * A file's preview is fetched only when «معاينة» is opened: a closed frame or picture in the page
 * would still be loaded with it (Chromium loads hidden frames at once), which made the first load
 * slow. Without JavaScript, «معاينة» offers the file to open in the browser's own viewer.
 */
export function FilePreview({ file }: { file: LoaderData['sections'][number]['files'][number]['files'][number] }) {
	const [open, setOpen] = useState(false)
	const inline = `${file.href}?inline=1`
	return (
		<details onToggle={(event) => setOpen(event.currentTarget.open)}>
			<summary className="link inline-flex min-h-11 cursor-pointer items-center">
				معاينة<span className="sr-only"> {file.name}</span>
			</summary>
			{!open ? (
				<a href={inline} target="_blank" rel="noopener" className="link inline-flex min-h-11 items-center">
					فتح {file.photo ? 'الصورة' : 'الملف'} في صفحة جديدة<span className="sr-only"> {file.name}</span>
				</a>
			) : file.photo ? (
				<img src={inline} alt={`صورة مرفقة: ${file.name}`} className="mt-2 max-h-[70vh] w-auto rounded border border-stone-300" />
			) : (
				<iframe src={inline} title={`معاينة ${file.name}`} className="mt-2 h-[70vh] w-full rounded border border-stone-300" />
			)}
		</details>
	)
}

export function Files({ slots }: { slots: LoaderData['sections'][number]['files'] }) {
	return (
		<div className="mt-3 space-y-3">
			<h3 className="font-bold">المرفقات</h3>
			{slots.map((slot) => (
				<div key={slot.slot}>
					<p className="text-sm font-semibold text-stone-700">{slot.label}</p>
					{slot.files.length ? (
						<ul className="mt-1 space-y-2">
							{slot.files.map((file) => (
								<li key={file.id} className="rounded-lg border border-stone-200 p-2 text-sm">
									<p>
										<bdi className="font-semibold">{file.name}</bdi> — {file.photo ? 'صورة' : file.pages ? `PDF من ${countOf(file.pages, pages)}` : 'PDF'}، <bdi>{file.size}</bdi>، <bdi>{file.date}</bdi>
									</p>
									<p className="mt-1 flex flex-wrap gap-3">
										<a href={file.href} className="link inline-flex min-h-11 items-center">
											تنزيل<span className="sr-only"> {file.name}</span>
										</a>
									</p>
									<FilePreview file={file} />
								</li>
							))}
						</ul>
					) : (
						<p className="text-sm text-stone-600">لا يوجد</p>
					)}
				</div>
			))}
		</div>
	)
}

export function NotesList({ notes, empty }: { notes: LoaderData['history']; empty: string }) {
	if (!notes.length) return <p className="mt-2 text-sm text-stone-700">{empty}</p>
	return (
		<ul className="mt-2 space-y-2 text-sm">
			{notes.map((note) => (
				<li key={note.id} className="rounded-lg bg-stone-50 p-2">
					<p className="whitespace-pre-line">{note.note}</p>
					<p className="mt-1 text-xs text-stone-600">
						{note.actor} — {note.at}
					</p>
				</li>
			))}
		</ul>
	)
}

export function ReopenChoices({ choices, errors, idPrefix }: { choices: LoaderData['reopenChoices']; errors: ActionErrors; idPrefix: string }) {
	return (
		<fieldset className="space-y-2">
			<legend className="font-semibold">ما الذي يحتاج إلى استكمال؟</legend>
			<p className="text-sm text-stone-600">يفتح المتقدم هذه الأجزاء فقط، وتبقى بقية بياناته كما هي.</p>
			<ErrorList errors={errors.reopenSections} />
			<p className="text-sm font-semibold">أقسام البيانات</p>
			{choices.sections.map((section) => (
				<div key={section.key} className="flex min-h-9 items-center gap-3">
					<input id={`${idPrefix}-section-${section.key}`} type="checkbox" name="reopenSections" value={section.key} className="size-5 shrink-0 accent-brand-700" />
					<label htmlFor={`${idPrefix}-section-${section.key}`}>{section.title}</label>
				</div>
			))}
			<p className="text-sm font-semibold">المرفقات</p>
			{choices.slots.map((slot) => (
				<div key={slot.slot} className="flex min-h-9 items-center gap-3">
					<input id={`${idPrefix}-slot-${slot.slot}`} type="checkbox" name="reopenSlots" value={slot.slot} className="size-5 shrink-0 accent-brand-700" />
					<label htmlFor={`${idPrefix}-slot-${slot.slot}`}>{slot.label}</label>
				</div>
			))}
		</fieldset>
	)
}

/**
 * The officer's proposal of aid to the committee (app/aid/proposals.server.ts): on a studied case,
 * or more aid on one whose support was provided. Nothing is paid before the committee approves it.
 */
export function ProposalForm({ c, errors, typed, busy }: { c: Pick<LoaderData, 'aidKinds' | 'status'>; errors: ActionErrors; typed: (name: string) => string | undefined; busy: boolean }) {
	const more = c.status.id === Status.SupportProvided
	return (
		<Panel title={more ? 'اقتراح دعم إضافي على لجنة الصرف' : 'اقتراح دعم على لجنة الصرف'} id="propose">
			<p className="mt-1 text-sm text-stone-600">يذهب الاقتراح إلى قائمة «قرارات لجنة الصرف»، ويعتمده عضو آخر من اللجنة ويختار صندوقه، ثم يصرفه المسؤول المالي. لا يُسجَّل دعم قبل اعتماده.</p>
			<Form method="post" className="mt-2 space-y-3">
				<input type="hidden" name="intent" value="propose" />
				<ErrorList errors={errors['']} />
				<Field label="المبلغ بالريال" errors={errors.amount} inputProps={{ id: 'propose-amount', name: 'amount', inputMode: 'decimal', required: true, dir: 'ltr', defaultValue: typed('amount') }} />
				<SelectField
					label="نوع الدعم"
					errors={errors.aidKind}
					options={[{ value: '', label: 'اختر' }, ...c.aidKinds]}
					selectProps={{ id: 'propose-kind', name: 'aidKind', required: true, defaultValue: typed('aidKind') ?? '' }}
				/>
				<TextareaField label="سبب الاقتراح (للجنة)" errors={errors.note} textareaProps={{ id: 'propose-note', name: 'note', rows: 2, maxLength: 2000, defaultValue: typed('note') }} />
				<button type="submit" disabled={busy} className="btn-secondary">
					إرسال الاقتراح إلى لجنة الصرف
				</button>
			</Form>
		</Panel>
	)
}

/** The aid given to this applicant in every programme, with its total. */
export function AidLedger({ c }: { c: Pick<LoaderData, 'ledger' | 'ledgerTotal' | 'idLabel' | 'nationalId'> }) {
	return (
		<Panel title="الدعم المقدم لهذا المستفيد في كل البرامج" id="ledger">
			{c.ledger.length ? (
				<>
					<DataTable
						variant="plain"
						label="سجل الدعم"
						caption={`سجل الدعم ب${c.idLabel} ${c.nationalId}`}
						headings={['التاريخ', 'المبلغ', 'النوع', 'البرنامج', 'الطلب', 'ملاحظة']}
						headCellClassName="p-2 text-start whitespace-nowrap"
						className="mt-2"
					>
						{c.ledger.map((entry, index) => (
							<tr key={index} className="border-t border-stone-200">
								<td className="p-2">{entry.givenOn}</td>
								<td className="p-2 whitespace-nowrap">{entry.amount}</td>
								<td className="p-2">{entry.kind}</td>
								<td className="p-2">{entry.programme}</td>
								<td className="p-2" dir="ltr">
									{entry.here ? (
										entry.reference
									) : (
										<Link to={`/admin/cases/${entry.reference}`} className="link">
											{entry.reference}
										</Link>
									)}
								</td>
								<td className="p-2">{entry.note}</td>
							</tr>
						))}
					</DataTable>
					<p className="mt-2 font-semibold">المجموع: {c.ledgerTotal}</p>
				</>
			) : (
				<p className="mt-2 text-stone-700">
					لم يُسجَّل أي دعم ل{c.idLabel} {c.nationalId} من قبل.
				</p>
			)}
		</Panel>
	)
}

/** A visit's photo as the case view and the study page show it. */
export interface VisitPhoto {
	id: string
	name: string
	href: string
}

/**
 * A home visit's photos as small tiles, each opening the photo itself; `remove` adds a button under
 * each (the study page). Staff only: the applicant never sees them.
 */
export function VisitPhotos({ photos, remove }: { photos: readonly VisitPhoto[]; remove?: (photo: VisitPhoto, index: number) => React.ReactNode }) {
	if (!photos.length) return null
	return (
		<ul className="mt-3 grid grid-cols-3 gap-2 sm:grid-cols-4">
			{photos.map((photo, index) => (
				<li key={photo.id}>
					<a href={`${photo.href}?inline=1`} target="_blank" rel="noopener" className="block rounded border border-stone-300 focus-visible:outline-2">
						<img src={`${photo.href}?size=thumbnail`} alt={`صورة الزيارة ${index + 1}`} loading="lazy" decoding="async" className="aspect-square w-full rounded object-cover" />
					</a>
					{remove?.(photo, index)}
				</li>
			))}
		</ul>
	)
}

/** The case's social study (or desk study) and its recommendation, with the link to record or revise it. */
export function StudyPanel({ c }: { c: Pick<LoaderData, 'study' | 'studyHref' | 'studyTitle' | 'visitPhotos'> }) {
	const study = c.study
	return (
		<Panel title={c.studyTitle} id="study">
			{study ? (
				<>
					<p className="mt-1 text-sm text-stone-600">
						{study.kind} بتاريخ {study.on}
						{study.by ? ` — ${study.by}` : ''}
					</p>
					<p className="mt-2 font-bold">
						التوصية: {study.recommendation}
						{study.why ? ` — ${study.why}` : ''}
					</p>
					{study.aid ? <p className="mt-1">المساعدة المقترحة: {study.aid}</p> : null}
					<p className="mt-1 text-sm">
						{zakatCategoryText(study.zakatCategory)}
						{study.zakatReason ? ` — ${study.zakatReason}` : ''}
					</p>
					<dl className="mt-3 space-y-1 text-sm">
						{[
							...(study.metWith ? [{ label: 'من قوبل', value: study.metWith }] : []),
							...study.housing,
							...(study.needs ? [{ label: 'الاحتياجات كما رُئيت', value: study.needs }] : []),
							{ label: 'الخلاصة', value: study.summary },
							...(study.works ? [{ label: 'أعمال الترميم', value: study.works }] : []),
							...(study.quote ? [{ label: 'عرض السعر', value: study.quote }] : []),
							...(study.invoice ? [{ label: 'مبلغ الفاتورة', value: study.invoice }] : []),
						].map((line) => (
							<div key={line.label}>
								<dt className="inline font-semibold">{line.label}: </dt>
								<dd className="inline whitespace-pre-line">{line.value}</dd>
							</div>
						))}
					</dl>
				</>
			) : (
				<p className="mt-2 text-stone-700">لم تُسجَّل دراسة بعد. لا يُنقل الطلب إلى {quotedStatus(Status.Studied)} قبلها.</p>
			)}
			{c.visitPhotos.length ? (
				<>
					<h3 className="mt-3 font-bold">صور الزيارة ({c.visitPhotos.length})</h3>
					<VisitPhotos photos={c.visitPhotos} />
				</>
			) : null}
			{c.studyHref ? (
				<Link to={c.studyHref} className="btn-secondary mt-3">
					{study ? 'تحديث الدراسة' : 'تسجيل الدراسة'}
				</Link>
			) : null}
		</Panel>
	)
}
