import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { randomBytes } from 'node:crypto'
import { data, Form, Link } from 'react-router'
import type { Route } from './+types/case-edit'
import { requireRole } from '#app/auth/user-context.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { correctSection } from '#app/cases/case-admin.server.ts'
import { findCaseByReference, loadSavedState } from '#app/cases/case-store.server.ts'
import { normaliseReference } from '#app/cases/tokens.server.ts'
import { areaRoles } from '#app/domain/roles.ts'
import { collectionOf, type SectionDef } from '#app/forms/definition.ts'
import { describeSection } from '#app/forms/describe.ts'
import { SectionInputs, type Fieldset } from '#app/forms/field-inputs.tsx'
import { formDefaults, rowDefaults } from '#app/forms/form-values.ts'
import { findSection } from '#app/forms/journey.ts'
import { findDefinition } from '#app/forms/registry.ts'
import { tooFewToRemove, tooManyRows } from '#app/forms/messages.ts'
import { rowSchema, sectionSchema, type SectionAnswers } from '#app/forms/schema.ts'
import { flashContext, redirectWithFlash } from '#app/utils/flash.server.ts'
import { ErrorList, FlashNotice, PageTitle, validationTiming } from '#app/components/forms.tsx'
import { SectionForm } from '#app/routes/apply/+section-form.tsx'
import { CollectionRows } from '#app/routes/apply/+collection-rows.tsx'
import type { AdminHandle } from './layout.tsx'

// Staff correct a case's answers through the applicant's own section form (the old system's
// «edit» link); the history keeps each changed field before and after.

export const handle: AdminHandle = {
	breadcrumb: (loaderData) => {
		const { reference, sectionTitle } = loaderData as { reference: string; sectionTitle: string }
		return [{ to: `/admin/cases/${reference}`, label: reference }, { label: `تصحيح ${sectionTitle}` }]
	},
}

async function openSection(params: { reference: string; section: string }, role: string) {
	const db = await getDb()
	const reference = normaliseReference(params.reference)
	const row = reference ? await findCaseByReference(db, reference) : undefined
	const definition = row ? findDefinition(row.type) : undefined
	const section = definition ? findSection(definition, params.section) : undefined
	if (!row || !definition || !section || !row.submittedAt || (row.deletedAt && role !== 'admin')) throw data('الصفحة غير موجودة', { status: 404 })
	if (row.deletedAt) throw data('الطلب محذوف؛ استعده أولاً', { status: 409 })
	return { db, row, definition, section }
}

export async function loader({ params, context }: Route.LoaderArgs) {
	const user = requireRole(context, areaRoles.cases)
	const { db, row, definition, section } = await openSection(params, user.role)
	const state = await loadSavedState(db, row.id)
	const collection = collectionOf(section)
	return {
		notice: context.get(flashContext),
		rows: collection ? describeSection(section, state.answers[section.key]) : [],
		rowKeys: collection ? ((state.answers[section.key]?.[collection.name] ?? []) as { _key?: string }[]).map((item) => item._key ?? '') : [],
		reference: row.reference,
		type: definition.type,
		sectionKey: section.key,
		sectionTitle: section.title,
		saved: state.answers[section.key] ?? null,
		idOverridden: row.idChecksumOverride,
	}
}

export async function action({ params, request, context }: Route.ActionArgs) {
	const user = requireRole(context, areaRoles.cases)
	const { db, row, definition, section } = await openSection(params, user.role)
	const formData = await request.formData()
	const collection = collectionOf(section)
	if (collection) return correctRows(db, definition, row, section, formData, user)
	const submission = parseWithZod(formData, { schema: sectionSchema(section, { allowIdChecksumFailure: row.idChecksumOverride }) })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	const result = await correctSection(db, definition, row, section.key, submission.value, user)
	if (!result.ok) return data({ result: submission.reply({ formErrors: result.issues.map((issue) => issue.message) }) }, { status: 400 })
	return redirectWithFlash(`/admin/cases/${row.reference}`, result.changes.length ? { tone: 'success', message: 'تم تحديث بيانات بنجاح' } : { tone: 'success', message: 'لم تتغير أي بيانات' })
}

type Row = Record<string, unknown> & { _key?: string }

/** A repeatable list (family members): staff add or remove one row; each change is a correction. */
async function correctRows(
	db: Awaited<ReturnType<typeof getDb>>,
	definition: NonNullable<ReturnType<typeof findDefinition>>,
	row: NonNullable<Awaited<ReturnType<typeof findCaseByReference>>>,
	section: SectionDef,
	formData: FormData,
	user: { id: number },
) {
	const collection = collectionOf(section)!
	const here = `/admin/cases/${row.reference}/edit/${section.key}`
	let rowError: string | null = null
	let change: (rows: Row[]) => Row[]
	if (formData.get('intent') === 'delete-row') {
		const key = String(formData.get('rowKey') ?? '')
		change = (rows) => rows.filter((candidate) => candidate._key !== key)
	} else {
		const submission = parseWithZod(formData, { schema: rowSchema(collection.fields, { allowIdChecksumFailure: row.idChecksumOverride }) })
		if (submission.status !== 'success') return data({ result: submission.reply(), rowError: null }, { status: 400 })
		const added = { ...submission.value, _key: randomBytes(8).toString('hex') }
		change = (rows) => {
			if (rows.length >= collection.max) rowError = tooManyRows(collection)
			return [...rows, added]
		}
	}
	// The list is changed from what is saved at the moment of writing, under the case's lock.
	const result = await correctSection(
		db,
		definition,
		row,
		section.key,
		(saved: SectionAnswers | undefined) => ({ ...saved, [collection.name]: change(((saved?.[collection.name] ?? []) as Row[]).slice()) }),
		user,
	)
	if (!result.ok) {
		const tooFew = result.issues.some((issue) => issue.path[0] === collection.name && issue.path.length === 1)
		return data({ result: null, rowError: rowError ?? (tooFew ? tooFewToRemove(collection) : (result.issues[0]?.message ?? 'البيانات غير صالحة')) }, { status: 400 })
	}
	return redirectWithFlash(here, { tone: 'success', message: 'تم تحديث بيانات بنجاح' })
}

export default function CaseEdit({ loaderData, actionData }: Route.ComponentProps) {
	const definition = findDefinition(loaderData.type)!
	const section = findSection(definition, loaderData.sectionKey)!
	if (collectionOf(section)) return <RowsEdit key={loaderData.rowKeys.join(',')} section={section} loaderData={loaderData} actionData={actionData} />
	return (
		<SectionForm
			section={section}
			formTitle={`${definition.title} — ${loaderData.reference}`}
			stepLabel="تصحيح بيانات الطلب"
			defaults={formDefaults(section, loaderData.saved ?? undefined)}
			lastResult={actionData && 'result' in actionData ? (actionData.result ?? undefined) : undefined}
			backTo={`/admin/cases/${loaderData.reference}`}
			submitLabel="حفظ التصحيح"
			idOverridden={loaderData.idOverridden}
		/>
	)
}

function RowsEdit({ section, loaderData, actionData }: { section: SectionDef; loaderData: Route.ComponentProps['loaderData']; actionData: Route.ComponentProps['actionData'] }) {
	const collection = collectionOf(section)!
	const schema = rowSchema(collection.fields, { allowIdChecksumFailure: loaderData.idOverridden })
	const [form, fields] = useForm({
		id: `staff-row-${section.key}`,
		lastResult: actionData && 'rowError' in actionData ? actionData.result : undefined,
		defaultValue: rowDefaults(collection.fields) as Record<string, string>,
		...validationTiming,
		onValidate: ({ formData }) => parseWithZod(formData, { schema }),
	})
	const group = loaderData.rows[0]
	const rows = group?.kind === 'group' ? group.group.rows : []
	const rowError = actionData && 'rowError' in actionData ? actionData.rowError : null
	return (
		<div className="mx-auto max-w-2xl">
			<PageTitle title={`تصحيح ${section.title} - ${loaderData.reference}`} error={Boolean(actionData)} />
			<Link to={`/admin/cases/${loaderData.reference}`} className="link inline-flex min-h-11 items-center">
				<span aria-hidden="true">→</span>&nbsp;العودة إلى الطلب
			</Link>
			<h1 className="mt-2 text-2xl font-bold text-brand-900">تصحيح {section.title}</h1>
			<FlashNotice notice={loaderData.notice} live className="mt-4" />
			{rowError ? (
				<p role="alert" className="mt-4 rounded-lg border-s-4 border-red-700 bg-red-50 p-4 font-semibold text-red-900">
					{rowError}
				</p>
			) : null}
			<div className="mt-6">
				<CollectionRows
					label={collection.label}
					itemLabel={collection.itemLabel}
					rows={rows}
					rowKeys={loaderData.rowKeys}
					emptyText={collection.emptyText}
					totals={group?.kind === 'group' ? group.group.totals : []}
				/>
			</div>
			{rows.length < collection.max ? (
				<Form method="post" {...getFormProps(form)} noValidate className="mt-6 space-y-5 rounded-xl border border-brand-200 bg-brand-50 p-4">
					<h2 className="text-lg font-bold text-brand-900">إضافة {collection.itemLabel}</h2>
					<ErrorList errors={form.errors} />
					<input type="hidden" name="intent" value="add-row" />
					<SectionInputs fields={collection.fields} fieldset={fields as unknown as Fieldset} />
					<button type="submit" className="btn-secondary">
						إضافة
					</button>
				</Form>
			) : null}
		</div>
	)
}
