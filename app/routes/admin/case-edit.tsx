import { data } from 'react-router'
import type { Route } from './+types/case-edit'
import { requireRole } from '#app/auth/user-context.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { findCaseByReference, loadSavedState } from '#app/cases/case-store.server.ts'
import { findSection } from '#app/cases/journey.ts'
import { normaliseReference } from '#app/cases/tokens.server.ts'
import { areaRoles, hasRole, type UserRole } from '#app/db/roles.ts'
import { collectionOf } from '#app/forms/definition.ts'
import { formDefaults } from '#app/forms/form-values.ts'
import { findDefinition } from '#app/forms/registry.ts'
import { flashContext, notices, redirectWithFlash } from '#app/http/flash.server.ts'
import { SectionForm } from '#app/forms/section-form.tsx'
import { listView, RowsEditor } from '#app/forms/rows-editor.tsx'
import { withoutPasswords } from '#app/runner/corrections.ts'
import { runStep } from '#app/runner/steps.server.ts'
import type { AdminHandle } from './layout.tsx'
import { audited } from '#app/audit/audit-trail.server.ts'

// Staff correct a case's answers through the applicant's own step forms (the old system's «edit»
// link), run by the same runner (app/runner/steps.server.ts); the history keeps each changed field
// before and after.

export const handle: AdminHandle = {
	breadcrumb: (loaderData) => {
		const { reference, sectionTitle } = loaderData as { reference: string; sectionTitle: string }
		return [{ to: `/admin/cases/${reference}`, label: reference }, { label: `تصحيح ${sectionTitle}` }]
	},
}

export const middleware = [audited({ read: 'case.view', write: 'case.correct' })]

async function openSection(params: { reference: string; section: string }, user: { roles: readonly UserRole[] }) {
	const db = await getDb()
	const reference = normaliseReference(params.reference)
	const row = reference ? await findCaseByReference(db, reference) : undefined
	const definition = row ? findDefinition(row.type) : undefined
	const section = definition ? findSection(definition, params.section) : undefined
	if (!row || !definition || !section || !row.submittedAt || (row.deletedAt && !hasRole(user, 'admin'))) throw data('الصفحة غير موجودة', { status: 404 })
	if (row.deletedAt) throw data('الطلب محذوف؛ استعده أولاً', { status: 409 })
	// Retention destroyed its answers (app/operations/retention-purge.server.ts): nothing may be written back.
	if (row.purgedAt) throw data('أُتلفت بيانات هذا الطلب وفق مدة الاحتفاظ، فلا يمكن تصحيحها', { status: 409 })
	return { db, row, definition, section, state: await loadSavedState(db, row.id) }
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
	const user = requireRole(context, areaRoles.cases)
	const { row, definition, section, state } = await openSection(params, user)
	const saved = state.answers[section.key]
	return {
		// «تغيير» on a row: ?row=<key> fills the row form with its answers.
		list: collectionOf(section) ? listView(section, saved, new URL(request.url).searchParams.get('row')) : null,
		notice: context.get(flashContext),
		reference: row.reference,
		type: definition.type,
		sectionKey: section.key,
		sectionTitle: section.title,
		saved: saved ?? null,
		idOverridden: row.idChecksumOverride,
	}
}

export async function action({ params, request, context }: Route.ActionArgs) {
	const user = requireRole(context, areaRoles.cases)
	const run = await openSection(params, user)
	const outcome = await runStep(run, await request.formData(), { kind: 'staff', user })
	const here = `/admin/cases/${run.row.reference}/edit/${run.section.key}`
	switch (outcome.kind) {
		case 'saved':
			// A list's page stays open for the next row; a section's correction goes back to the case.
			return redirectWithFlash(collectionOf(run.section) ? here : `/admin/cases/${run.row.reference}`, outcome.changed ? notices.updated : { tone: 'success', message: 'لم تتغير أي بيانات' })
		case 'invalid':
			return data({ result: outcome.result, form: outcome.form, refused: null }, { status: outcome.status })
		case 'row':
			return redirectWithFlash(`${here}#rows`, notices.updated)
		case 'refused':
			return data({ result: undefined, form: undefined, refused: outcome.message }, { status: 409 })
		case 'file-removed':
		case 'page-changed':
			throw new Error('staff corrections do not change files here')
	}
}

export default function CaseEdit({ loaderData, actionData }: Route.ComponentProps) {
	const definition = findDefinition(loaderData.type)!
	const section = findSection(definition, loaderData.sectionKey)!
	const reply = actionData?.result && actionData.form ? { result: actionData.result, form: actionData.form } : undefined
	if (loaderData.list) {
		return (
			<RowsEditor
				section={section}
				view={loaderData.list}
				reply={reply}
				notice={loaderData.notice}
				refused={actionData?.refused}
				allowIdChecksumFailure={loaderData.idOverridden}
				backTo={`/admin/cases/${loaderData.reference}`}
				backLabel="العودة إلى الطلب"
				title={`تصحيح ${section.title} - ${loaderData.reference}`}
				continueLabel="حفظ التصحيح"
				continueAlways={false}
				className="mx-auto max-w-2xl"
				header={<h1 className="mt-2 text-2xl font-bold text-brand-900">تصحيح {section.title}</h1>}
			/>
		)
	}
	return (
		<SectionForm
			section={withoutPasswords(section)}
			formTitle={`${definition.title} — ${loaderData.reference}`}
			stepLabel="تصحيح بيانات الطلب"
			defaults={formDefaults(section, loaderData.saved ?? undefined)}
			lastResult={reply?.result}
			backTo={`/admin/cases/${loaderData.reference}`}
			submitLabel="حفظ التصحيح"
			idOverridden={loaderData.idOverridden}
		/>
	)
}
