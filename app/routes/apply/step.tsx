import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, redirect } from 'react-router'
import type { Route } from './+types/step'
import {
	addRow,
	canEditSection,
	canEditSlot,
	canOpenStep,
	CaseLockedError,
	DuplicateApplicantError,
	isEditable,
	listAttachments,
	removeAttachment,
	removeRow,
	changeRow,
	RowGoneError,
	saveSection,
	TooManyRowsError,
} from '#app/cases/case-store.server.ts'
import { loadApplication, OVERRIDE_NOTE_MISSING, readIdChecksumOverride, limitVisitor, getCaseStaff } from './+applicant.server.ts'
import { sealPasswords, secretFields, commonPasswordErrors } from '#app/runner/answers.server.ts'
import { accountNameErrors, prefillFor } from '#app/runner/institution.server.ts'
import { publicLimits } from '#app/http/ip-limit.server.ts'
import { getCaseFileStorage } from '#app/storage/file-storage.server.ts'
import { collectionOf, fieldsBesideCollection, slotAccepts, type ApplicationDef, type SectionDef } from '#app/forms/definition.ts'
import { AnswerLines } from '#app/forms/answer-lines.tsx'
import { describeSection } from '#app/forms/describe.ts'
import { SectionInputs, summaryItems, type Fieldset } from '#app/forms/field-inputs.tsx'
import { formDefaults, rowDefaults } from '#app/forms/form-values.ts'
import { canVisit, findSection, nextStep, previousStep, resumeStep, stepLabel, CHECK_STEP, CONSENT_STEP, type SavedState } from '#app/forms/journey.ts'
import { offeredSlots } from '#app/forms/conditions.ts'
import { canAnswerConsent } from '#app/privacy/consent-rules.ts'
import { findDefinition } from '#app/forms/registry.ts'
import { besideListSchema, isPasswordHash, rowSchema, sectionSchema } from '#app/forms/schema.ts'
import { requiredFile, tooFewRows, tooManyRows } from '#app/text/messages.ts'
import { formatDate, formatFileSize } from '#app/text/format.ts'
import { getEnv } from '#app/utils/env.server.ts'
import type { Database } from '#app/db/client.server.ts'
import { getSingleton } from '#app/content/store.server.ts'
import { withMedia } from '#app/content/public.server.ts'
import { associationGuide } from '#app/content/types.ts'
import { flashContext, notices, redirectWithFlash, type Flash } from '#app/http/flash.server.ts'
import { ErrorSummary, FlashNotice, Honeypot, isHoneypotFilled, PageTitle, useSubmitCount, validationTiming } from '#app/components/forms.tsx'
import { SectionForm, SectionLinks } from './+section-form.tsx'
import { UploadForm, uploadInputId } from './+upload-form.tsx'
import { CollectionRows } from './+collection-rows.tsx'

export const handle = { hydrate: true }

async function openStep(params: { token: string; step: string }) {
	const application = await loadApplication(params.token)
	const { definition, row, state, completed } = application
	const base = `/apply/r/${params.token}`
	if (!isEditable(row)) throw redirect(base)
	const found = findSection(definition, params.step)
	if (!found) throw data(null, { status: 404 })
	if (!canVisit(definition, found.key, completed, state.answers, state.consent)) throw redirect(`${base}/${resumeStep(definition, completed, state.answers, state.consent)}`)
	// Without consent, a health or bank file slot of a mixed section is not offered (app/forms/conditions.ts).
	const section = found.files ? { ...found, files: offeredSlots(found, state.consent) } : found
	// A case sent back as incomplete opens only what staff asked the applicant to change.
	if (!canOpenStep(row, definition, section.key)) throw redirect(base)
	return { ...application, section, base }
}

/** The step after this one that the applicant may change, else the check page. */
function forwardFrom(definition: ApplicationDef, row: Parameters<typeof canOpenStep>[0], step: string, answers: SavedState['answers'], consent: SavedState['consent']): string {
	const opens = (key: string) => (key === CONSENT_STEP ? canAnswerConsent(row) : canOpenStep(row, definition, key))
	let next = nextStep(definition, step, answers, consent)
	while (next !== CHECK_STEP && !opens(next)) next = nextStep(definition, next, answers, consent)
	return next
}

/** The guidance manual staff uploaded (/admin/content/association-guide/edit), or null. */
async function associationGuidePdf(db: Database) {
	const entry = await getSingleton(db, associationGuide)
	const [shown] = entry ? await withMedia(db, associationGuide, [entry]) : []
	return shown?.documents.pdf ?? null
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
	const { db, row, definition, state, section, base } = await openStep(params)
	const previous = previousStep(definition, section.key, state.answers, state.consent)
	const returnToCheck = new URL(request.url).searchParams.get('return') === CHECK_STEP
	const files = section.files
		? (await listAttachments(db, row.id)).map((file) => ({
				id: file.id,
				slot: file.slot,
				name: file.originalName,
				type: file.contentType === 'application/pdf' ? 'PDF' : 'صورة',
				size: file.size,
				date: formatDate(file.createdAt),
				href: `${base}/files/${file.id}`,
			}))
		: []
	const collection = collectionOf(section)
	const savedRows = collection
		? ((state.answers[section.key]?.[collection.name] ?? []) as ({
				_key?: string
			} & Record<string, unknown>)[])
		: []
	// «تغيير» on a row opens this page with ?row=<key>: the row's form filled in with its answers.
	const changing = savedRows.findIndex((item) => item._key && item._key === new URL(request.url).searchParams.get('row'))
	return {
		type: definition.type,
		sectionKey: section.key,
		base,
		// Before the consent step is answered, the steps are counted as the whole journey (as on the first page).
		stepLabel: stepLabel(definition, section.key, state.answers),
		slots: (section.files ?? []).map((slot) => slot.slot),
		backTo: returnToCheck ? `${base}/${CHECK_STEP}` : previous ? `${base}/${previous}` : base,
		returnToCheck,
		saved: state.answers[section.key] ?? null,
		prefilled: await prefillFor(db, definition, row, section.key, state.answers[section.key]),
		rows: collection ? describeSection(section, state.answers[section.key]) : [],
		rowKeys: savedRows.map((item) => item._key ?? ''),
		changing:
			changing === -1
				? null
				: {
						index: changing,
						key: savedRows[changing]!._key!,
						values: savedRows[changing]!,
					},
		passwordSet: Object.values(state.answers[section.key] ?? {}).some(isPasswordHash),
		files,
		guide: section.offersGuide ? await associationGuidePdf(db) : null,
		staff: Boolean(await getCaseStaff(request)),
		idOverridden: row.idChecksumOverride,
		fieldsEditable: canEditSection(row, section.key),
		editableSlots: (section.files ?? []).filter((slot) => canEditSlot(row, definition, slot.slot)).map((slot) => slot.slot),
		answers: describeSection(section, state.answers[section.key]),
		notice: context.get(flashContext),
		uploadMaxBytes: getEnv().uploadMaxBytes,
	}
}

export async function action({ params, request }: Route.ActionArgs) {
	const { db, row, definition, state, section, base } = await openStep(params)
	await limitVisitor(request, publicLimits.save)
	const formData = await request.formData()
	if (isHoneypotFilled(formData)) throw data('طلب غير صالح', { status: 400 })
	const intent = formData.get('intent')
	const returnToCheck = new URL(request.url).searchParams.get('return') === CHECK_STEP
	// Where «حفظ ومتابعة» leads, from the answers as they are once this step is saved (a later step may depend on them).
	const forwardWith = (answers: SavedState['answers']) => (returnToCheck ? `${base}/${CHECK_STEP}` : `${base}/${forwardFrom(definition, row, section.key, answers, state.consent)}`)
	const forward = forwardWith(state.answers)
	const collection = collectionOf(section)
	const saved = state.answers[section.key] ?? {}
	const here = `${base}/${section.key}${returnToCheck ? '?return=check' : ''}`

	if (collection && intent === 'add-row') {
		const submission = parseWithZod(formData, {
			schema: rowSchema(collection.fields),
		})
		if (submission.status !== 'success') return data({ result: submission.reply(), form: 'row' as const }, { status: 400 })
		try {
			await addRow(db, definition, row, section.key, submission.value, collection.max)
		} catch (error) {
			if (!(error instanceof TooManyRowsError)) throw error
			return data(
				{
					result: submission.reply({ formErrors: [tooManyRows(collection)] }),
					form: 'row' as const,
				},
				{ status: 400 },
			)
		}
		return redirectWithFlash(`${here}#rows`, notices.added)
	}
	if (collection && intent === 'change-row') {
		const submission = parseWithZod(formData, {
			schema: rowSchema(collection.fields),
		})
		if (submission.status !== 'success') return data({ result: submission.reply(), form: 'row' as const }, { status: 400 })
		try {
			await changeRow(db, definition, row, section.key, String(formData.get('rowKey') ?? ''), submission.value)
		} catch (error) {
			if (!(error instanceof RowGoneError)) throw error
			return redirectWithFlash(`${here}#rows`, {
				tone: 'error',
				message: `لم يُحفظ التعديل: حُذف هذا ${collection.itemLabel} من القائمة.`,
			})
		}
		return redirectWithFlash(`${here}#rows`, notices.updated)
	}
	if (collection && intent === 'delete-row') {
		await removeRow(db, definition, row, section.key, String(formData.get('rowKey') ?? ''))
		return redirectWithFlash(`${here}#rows`, notices.deleted)
	}
	if (collection) {
		const rows = (saved[collection.name] ?? []) as unknown[]
		if (fieldsBesideCollection(section).length) {
			// The fields beside the list are saved first, so nothing typed is lost when the list is short.
			const submission = parseWithZod(formData, { schema: besideListSchema(section) })
			if (submission.status !== 'success') return data({ result: submission.reply(), form: 'section' as const }, { status: 400 })
			const stored = await saveSection(db, definition, row, section.key, {
				...submission.value,
				[collection.name]: rows,
			})
			state.answers = { ...state.answers, [section.key]: stored }
		}
		if (rows.length < collection.min) {
			return data(
				{
					result: {
						status: 'error' as const,
						error: { '': [tooFewRows(collection)] },
					},
					form: 'next' as const,
				},
				{ status: 400 },
			)
		}
		return redirect(forwardWith(state.answers))
	}
	if (section.files && intent === 'delete-file') {
		let removed
		try {
			removed = await removeAttachment(db, definition, row, String(formData.get('fileId') ?? ''))
		} catch (error) {
			if (!(error instanceof CaseLockedError)) throw error
			return redirectWithFlash(`${base}/${section.key}#files`, {
				tone: 'error',
				message: 'لا يمكن حذف هذا المرفق: لم تطلب المؤسسة تعديله.',
			})
		}
		if (removed) await getCaseFileStorage().remove(removed.storageKey)
		return redirectWithFlash(`${base}/${section.key}#files`, {
			tone: 'success',
			message: 'تم حذف الملف',
			field: removed?.slot,
		})
	}
	const missing = (section.files ?? []).filter((slot) => slot.required && !(state.fileCounts[slot.slot] ?? 0))
	const missingFiles = () => Object.fromEntries(missing.map((slot) => [uploadInputId(slot.slot), [requiredFile(slot.label)]]))
	if (!canEditSection(row, section.key)) {
		// Only some of this step's files were asked for: its answers stay as they are.
		if (missing.length)
			return data(
				{
					result: { status: 'error' as const, error: missingFiles() },
					form: 'section' as const,
				},
				{ status: 400 },
			)
		return redirect(forward)
	}

	const override = await readIdChecksumOverride(request, formData)
	const passwordSet = Object.values(saved).some(isPasswordHash)
	const submission = parseWithZod(formData, {
		schema: sectionSchema(section, {
			allowIdChecksumFailure: row.idChecksumOverride || override !== null,
			passwordSet,
		}),
	})
	if (submission.status !== 'success' || override === 'no-note') {
		const reply =
			override === 'no-note'
				? submission.reply({
						hideFields: secretFields(section),
						fieldErrors: { overrideNote: [OVERRIDE_NOTE_MISSING] },
					})
				: submission.reply({ hideFields: secretFields(section) })
		return data({ result: reply, form: 'section' as const }, { status: 400 })
	}
	const common = commonPasswordErrors(section, submission.value)
	if (common) return data({ result: submission.reply({ hideFields: secretFields(section), fieldErrors: common }), form: 'section' as const }, { status: 400 })
	const taken = await accountNameErrors(db, definition, section.key, submission.value)
	if (taken) return data({ result: submission.reply({ hideFields: secretFields(section), fieldErrors: taken }), form: 'section' as const }, { status: 409 })
	try {
		const stored = await saveSection(db, definition, row, section.key, await sealPasswords(section, submission.value, saved), override ?? undefined)
		state.answers = { ...state.answers, [section.key]: stored }
	} catch (error) {
		if (!(error instanceof DuplicateApplicantError)) throw error
		return data(
			{
				result: submission.reply({ hideFields: secretFields(section), formErrors: ['المستفيد مسجل مسبقاً'] }),
				form: 'section' as const,
			},
			{ status: 409 },
		)
	}
	if (missing.length) {
		// Keyed by the slot's file input, so the error summary links each message to its upload control.
		return data(
			{
				result: submission.reply({ hideFields: secretFields(section), fieldErrors: missingFiles() }),
				form: 'section' as const,
			},
			{ status: 400 },
		)
	}
	return redirect(forwardWith(state.answers))
}

export default function Step({ loaderData, actionData }: Route.ComponentProps) {
	const definition = findDefinition(loaderData.type)!
	const found = findSection(definition, loaderData.sectionKey)!
	// Only the file slots offered (a health or bank slot only with consent), as the loader says.
	const section = found.files ? { ...found, files: found.files.filter((slot) => loaderData.slots.includes(slot.slot)) } : found
	const action = loaderData.returnToCheck ? '?return=check' : undefined
	// Keyed by the rows, so the add form starts empty again once a row is added or removed.
	if (collectionOf(section)) return <CollectionStep key={loaderData.rowKeys.join(',')} section={section} formTitle={definition.title} loaderData={loaderData} actionData={actionData} />
	const guide = loaderData.guide ? (
		<p className="mt-3">
			<a href={loaderData.guide.href} download className="link">
				تنزيل الدليل الإرشادي لطلب دعم الجمعيات (PDF، <bdi>{formatFileSize(loaderData.guide.size)}</bdi>)
			</a>
		</p>
	) : null
	const files = section.files ? (
		<FilesList
			section={section}
			files={loaderData.files}
			base={loaderData.base}
			notice={loaderData.notice}
			maxBytes={loaderData.uploadMaxBytes}
			editableSlots={loaderData.editableSlots}
			errors={actionData?.form === 'section' ? actionData.result.error : undefined}
		/>
	) : null
	if (!loaderData.fieldsEditable) {
		const errors = actionData?.form === 'section' ? Object.entries(actionData.result.error ?? {}) : []
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
	return (
		<SectionForm
			key={section.key}
			section={section}
			formTitle={definition.title}
			stepLabel={loaderData.stepLabel}
			defaults={formDefaults(section, loaderData.saved ?? loaderData.prefilled ?? undefined)}
			lastResult={actionData?.form === 'section' ? actionData.result : undefined}
			backTo={loaderData.backTo}
			action={action}
			staff={loaderData.staff}
			idOverridden={loaderData.idOverridden}
			passwordSet={loaderData.passwordSet}
			intro={
				<>
					{guide}
					{files}
				</>
			}
		/>
	)
}

function FilesList({
	section,
	files,
	base,
	notice,
	maxBytes,
	editableSlots,
	errors,
}: {
	section: SectionDef
	files: Route.ComponentProps['loaderData']['files']
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

function CollectionStep({
	section,
	formTitle,
	loaderData,
	actionData,
}: {
	section: SectionDef
	formTitle: string
	loaderData: Route.ComponentProps['loaderData']
	actionData: Route.ComponentProps['actionData']
}) {
	const collection = collectionOf(section)!
	const beside = fieldsBesideCollection(section)
	const besideSection = { ...section, fields: beside }
	const changing = loaderData.changing
	const schema = rowSchema(collection.fields)
	const [form, fields] = useForm({
		id: changing ? `change-${changing.key}` : `row-${section.key}`,
		lastResult: actionData?.form === 'row' ? actionData.result : undefined,
		defaultValue: rowDefaults(collection.fields, changing?.values) as Record<string, string>,
		...validationTiming,
		onValidate: ({ formData }) => parseWithZod(formData, { schema }),
	})
	const besideSchema = sectionSchema(besideSection)
	const [besideForm, besideFields] = useForm<Record<string, unknown>>({
		id: `section-${section.key}`,
		lastResult: actionData?.form === 'section' ? actionData.result : undefined,
		defaultValue: formDefaults(besideSection, loaderData.saved ?? undefined) as Record<string, string>,
		...validationTiming,
		onValidate: ({ formData }) => parseWithZod(formData, { schema: besideSchema }),
	})
	const [submitCount, countSubmit] = useSubmitCount()
	const fieldset = fields as unknown as Fieldset
	const besideFieldset = besideFields as unknown as Fieldset
	const nextErrors = actionData?.form === 'next' ? (actionData.result.error?.[''] ?? []) : []
	// «Add at least one»: the link leads to the add form's first field.
	const firstField = collection.fields[0] ? fieldset[collection.fields[0].name]?.id : undefined
	const summary = [
		...nextErrors.map((message) => ({ message, fieldId: firstField })),
		...summaryItems(collection.fields, fieldset, form.errors),
		...summaryItems(beside, besideFieldset, besideForm.errors),
	]
	const failed = submitCount > 0 || actionData?.result.status === 'error'
	const group = loaderData.rows.find((item) => item.kind === 'group')
	const rows = group?.kind === 'group' ? group.group.rows : []
	const query = loaderData.returnToCheck ? '?return=check' : ''
	const changeHref = (key: string) => `?${new URLSearchParams({ ...(query ? { return: CHECK_STEP } : {}), row: key })}#row-form`
	return (
		<div className="mx-auto max-w-2xl px-4 py-6">
			<PageTitle title={`${section.title} - ${formTitle}`} error={failed && summary.length > 0} />
			<Link to={loaderData.backTo} className="link inline-flex min-h-11 items-center">
				<span aria-hidden="true">→</span>&nbsp;رجوع
			</Link>
			{failed ? <ErrorSummary key={submitCount} items={summary} /> : null}
			<p className="mt-2 text-sm font-semibold text-stone-600">
				{formTitle} — {loaderData.stepLabel}
			</p>
			<h1 className="mt-1 text-2xl font-bold text-brand-900">{section.title}</h1>
			{section.description ? <p className="mt-2 text-stone-700">{section.description}</p> : null}
			<SectionLinks section={section} />

			<div id="rows" className="mt-6">
				<FlashNotice notice={loaderData.notice} live className="mb-3" />
				<CollectionRows
					label={collection.label}
					itemLabel={collection.itemLabel}
					rows={rows}
					rowKeys={loaderData.rowKeys}
					emptyText={collection.emptyText}
					totals={group?.kind === 'group' ? group.group.totals : []}
					action={query || undefined}
					changeHref={changeHref}
				/>
			</div>

			{changing || rows.length < collection.max ? (
				<Form
					method="post"
					action={query || undefined}
					{...getFormProps(form)}
					onSubmitCapture={countSubmit}
					noValidate
					className="mt-6 scroll-mt-4 space-y-5 rounded-xl border border-brand-200 bg-brand-50 p-4"
				>
					<span id="row-form" />
					<h2 className="text-lg font-bold text-brand-900">{changing ? `تغيير ${collection.itemLabel} ${changing.index + 1}` : `إضافة ${collection.itemLabel}`}</h2>
					<Honeypot />
					<input type="hidden" name="intent" value={changing ? 'change-row' : 'add-row'} />
					{changing ? <input type="hidden" name="rowKey" value={changing.key} /> : null}
					<SectionInputs fields={collection.fields} fieldset={fieldset} />
					<div className="flex flex-wrap items-center gap-4">
						<button type="submit" className="btn-secondary">
							{changing ? 'حفظ التغيير' : 'إضافة'}
						</button>
						{changing ? (
							<Link to={`${query || '?'}#rows`} className="link inline-flex min-h-11 items-center">
								إلغاء
							</Link>
						) : null}
					</div>
				</Form>
			) : null}

			<Form method="post" action={query || undefined} {...(beside.length ? getFormProps(besideForm) : {})} onSubmitCapture={countSubmit} noValidate className="mt-6 space-y-6">
				<Honeypot />
				<input type="hidden" name="intent" value="next" />
				{beside.length ? <SectionInputs fields={beside} fieldset={besideFieldset} /> : null}
				<button type="submit" className="btn-primary w-full sm:w-auto">
					حفظ ومتابعة
				</button>
			</Form>
		</div>
	)
}
