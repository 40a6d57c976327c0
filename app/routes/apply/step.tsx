import { data, redirect } from 'react-router'
import type { Route } from './+types/step'
import { listAttachments } from '#app/cases/case-store.server.ts'
import { slotOfPage } from '#app/cases/document-pages.ts'
import { listPages, scheduleDocuments } from '#app/cases/document-pages.server.ts'
import { canEditSection, canEditSlot, CHECK_STEP, findSection, previousStep, stepAccess, stepLabel } from '#app/cases/journey.ts'
import { loadApplication, readIdChecksumOverride, limitVisitor, getCaseStaff } from './+applicant.server.ts'
import { runStep } from '#app/runner/steps.server.ts'
import { prefillFor } from '#app/runner/institution.server.ts'
import { publicLimits } from '#app/http/ip-limit.server.ts'
import { collectionOf } from '#app/forms/definition.ts'
import { describeSection } from '#app/forms/describe.ts'
import { formDefaults } from '#app/forms/form-values.ts'
import { offeredSlots } from '#app/forms/conditions.ts'
import { findDefinition } from '#app/forms/registry.ts'
import { isPasswordHash } from '#app/forms/schema.ts'
import { formatDate } from '#app/text/format.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { associationGuidePdf } from '#app/content/public.server.ts'
import { flashContext, notices, redirectWithFlash } from '#app/http/flash.server.ts'
import { isHoneypotFilled } from '#app/components/forms.tsx'
import { SectionForm, SectionLinks } from '#app/forms/section-form.tsx'
import { listView, RowsEditor } from '#app/forms/rows-editor.tsx'
import { FilesList, FilesOnlyStep, GuideLink } from './+step-parts.tsx'

// One step of an application on its private link. What is posted is run by app/runner/steps.server.ts;
// this route reads the request and turns the outcome into a redirect, a flash or the page again.

export const handle = { hydrate: true }

async function openStep(request: Request, params: { token: string; step: string }) {
	const application = await loadApplication(request, params.token)
	const { definition, row, state } = application
	const base = `/apply/r/${params.token}`
	const found = findSection(definition, params.step)
	if (!found) throw data(null, { status: 404 })
	const access = stepAccess(definition, row, state, found.key)
	if (!access.open) throw redirect(access.goTo ? `${base}/${access.goTo}` : base)
	// Without consent, a health or bank file slot of a mixed section is not offered (app/forms/conditions.ts).
	const section = found.files ? { ...found, files: offeredSlots(found, state.consent) } : found
	return { ...application, section, base }
}

const returnsToCheck = (request: Request) => new URL(request.url).searchParams.get('return') === CHECK_STEP

export async function loader({ params, request, context }: Route.LoaderArgs) {
	const { db, row, definition, state, section, base } = await openStep(request, params)
	const previous = previousStep(definition, section.key, state.answers, state.consent)
	// Pages given a moment ago: their turn is waited for a little (most are made in well under a
	// second), then the page shows what is still being made, and looks again with JavaScript.
	if (section.files) await Promise.race([scheduleDocuments(db, definition, row.id, []), new Promise((resolve) => setTimeout(resolve, 1500))])
	const files = section.files ? await listAttachments(db, row.id) : []
	const pages = section.files ? await listPages(db, row.id) : []
	const saved = state.answers[section.key]
	return {
		type: definition.type,
		sectionKey: section.key,
		base,
		// Before the consent step is answered, the steps are counted as the whole journey (as on the first page).
		stepLabel: stepLabel(definition, section.key, state.answers),
		slots: (section.files ?? []).map((slot) => slot.slot),
		backTo: returnsToCheck(request) ? `${base}/${CHECK_STEP}` : previous ? `${base}/${previous}` : base,
		returnToCheck: returnsToCheck(request),
		saved: saved ?? null,
		prefilled: await prefillFor(db, definition, row, section.key, saved),
		// «تغيير» on a row opens this page with ?row=<key>: the row's form filled in with its answers.
		list: collectionOf(section) ? listView(section, saved, new URL(request.url).searchParams.get('row')) : null,
		passwordSet: Object.values(saved ?? {}).some(isPasswordHash),
		files: files.map((file) => ({
			id: file.id,
			slot: file.slot,
			name: file.originalName,
			type: file.contentType === 'application/pdf' ? 'PDF' : 'صورة',
			size: file.size,
			date: formatDate(file.createdAt),
			href: `${base}/files/${file.id}`,
			pages: file.pages,
		})),
		pages: pages.map((page) => ({
			id: page.id,
			slot: slotOfPage(page.slot)!,
			name: page.originalName,
			kind: page.contentType === 'application/pdf' ? ('pdf' as const) : ('photo' as const),
			pages: page.pages ?? 1,
			status: page.status,
			href: `${base}/files/pages/${page.id}`,
			size: page.size,
		})),
		guide: section.offersGuide ? await associationGuidePdf(db) : null,
		staff: Boolean(await getCaseStaff(request)),
		idOverridden: row.idChecksumOverride,
		fieldsEditable: canEditSection(row, section.key),
		editableSlots: (section.files ?? []).filter((slot) => canEditSlot(row, definition, slot.slot)).map((slot) => slot.slot),
		answers: describeSection(section, saved),
		notice: context.get(flashContext),
		uploadMaxBytes: getEnv().uploadMaxBytes,
	}
}

export async function action({ params, request }: Route.ActionArgs) {
	const run = await openStep(request, params)
	await limitVisitor(request, publicLimits.save)
	const formData = await request.formData()
	if (isHoneypotFilled(formData)) throw data('طلب غير صالح', { status: 400 })
	const outcome = await runStep(run, formData, { kind: 'applicant', override: await readIdChecksumOverride(request, formData) })
	const here = `${run.base}/${run.section.key}`
	const rows = `${here}${returnsToCheck(request) ? `?return=${CHECK_STEP}` : ''}#rows`
	switch (outcome.kind) {
		case 'saved':
			return redirect(`${run.base}/${returnsToCheck(request) ? CHECK_STEP : outcome.next}`)
		case 'invalid':
			return data({ result: outcome.result, form: outcome.form }, { status: outcome.status })
		case 'row':
			return redirectWithFlash(rows, notices[outcome.done])
		case 'refused':
			return redirectWithFlash(outcome.at === 'rows' ? rows : `${here}#files`, { tone: 'error', message: outcome.message })
		case 'file-removed':
			return redirectWithFlash(`${here}#files`, { tone: 'success', message: 'تم حذف الملف', field: outcome.slot })
		case 'page-changed':
			return redirectWithFlash(`${here}#${outcome.slot ? `slot-${outcome.slot}` : 'files'}`, { tone: 'success', message: outcome.done === 'removed' ? 'تم حذف الصفحة' : 'تم نقل الصفحة', field: outcome.slot })
	}
}

export default function Step({ loaderData, actionData }: Route.ComponentProps) {
	const definition = findDefinition(loaderData.type)!
	const found = findSection(definition, loaderData.sectionKey)!
	// Only the file slots offered (a health or bank slot only with consent), as the loader says.
	const section = found.files ? { ...found, files: found.files.filter((slot) => loaderData.slots.includes(slot.slot)) } : found
	const action = loaderData.returnToCheck ? `?return=${CHECK_STEP}` : undefined
	if (loaderData.list) {
		return (
			<RowsEditor
				section={section}
				view={loaderData.list}
				reply={actionData}
				notice={loaderData.notice}
				allowIdChecksumFailure={loaderData.idOverridden}
				query={action}
				backTo={loaderData.backTo}
				backLabel="رجوع"
				title={`${section.title} - ${definition.title}`}
				continueLabel="حفظ ومتابعة"
				continueAlways
				className="mx-auto max-w-2xl px-4 py-6"
				header={
					<>
						<p className="mt-2 text-sm font-semibold text-stone-600">
							{definition.title} — {loaderData.stepLabel}
						</p>
						<h1 className="mt-1 text-2xl font-bold text-brand-900">{section.title}</h1>
						{section.description ? <p className="mt-2 text-stone-700">{section.description}</p> : null}
						<SectionLinks section={section} />
					</>
				}
			/>
		)
	}
	const lastResult = actionData?.form === 'section' ? actionData.result : undefined
	const guide = <GuideLink guide={loaderData.guide} />
	const files = section.files ? (
		<FilesList section={section} files={loaderData.files} pages={loaderData.pages} base={loaderData.base} notice={loaderData.notice} maxBytes={loaderData.uploadMaxBytes} editableSlots={loaderData.editableSlots} errors={lastResult?.error} />
	) : null
	if (!loaderData.fieldsEditable) return <FilesOnlyStep section={section} definition={definition} loaderData={loaderData} lastResult={lastResult} action={action} guide={guide} files={files} />
	return (
		<SectionForm
			key={section.key}
			section={section}
			formTitle={definition.title}
			stepLabel={loaderData.stepLabel}
			defaults={formDefaults(section, loaderData.saved ?? loaderData.prefilled ?? undefined)}
			lastResult={lastResult}
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
