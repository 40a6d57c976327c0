import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { randomBytes } from 'node:crypto'
import { data, Form, Link } from 'react-router'
import type { Route } from './+types/case-edit'
import { requireRole } from '#app/auth/user-context.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { correctSection } from '#app/cases/case-decisions.server.ts'
import { findCaseByReference, loadSavedState } from '#app/cases/case-store.server.ts'
import { normaliseReference } from '#app/cases/tokens.server.ts'
import { areaRoles } from '#app/db/roles.ts'
import { collectionOf, fieldsBesideCollection, type SectionDef } from '#app/forms/definition.ts'
import { describeSection } from '#app/forms/describe.ts'
import { SectionInputs, type Fieldset } from '#app/forms/field-inputs.tsx'
import { formDefaults, rowDefaults } from '#app/forms/form-values.ts'
import { findSection } from '#app/forms/journey.ts'
import { findDefinition } from '#app/forms/registry.ts'
import { tooFewToRemove, tooManyRows } from '#app/text/messages.ts'
import { rowSchema, sectionSchema, type SectionAnswers } from '#app/forms/schema.ts'
import { flashContext, redirectWithFlash } from '#app/http/flash.server.ts'
import { ErrorList, FlashNotice, PageTitle, validationTiming } from '#app/components/forms.tsx'
import { SectionForm } from '#app/routes/apply/+section-form.tsx'
import { CollectionRows } from '#app/routes/apply/+collection-rows.tsx'
import type { AdminHandle } from './layout.tsx'
import { audited } from '#app/audit/audit-trail.server.ts'

// Staff correct a case's answers through the applicant's own section form (the old system's
// «edit» link); the history keeps each changed field before and after.

export const handle: AdminHandle = {
	breadcrumb: (loaderData) => {
		const { reference, sectionTitle } = loaderData as { reference: string; sectionTitle: string }
		return [{ to: `/admin/cases/${reference}`, label: reference }, { label: `تصحيح ${sectionTitle}` }]
	},
}

export const middleware = [audited({ read: 'case.view', write: 'case.correct' })]

const correctable = new WeakMap<SectionDef, SectionDef>()
/**
 * The section as staff correct it: without its new-password fields. A registration's password
 * opened the institution's account when it was sent and lives there now (the account's own,
 * app/accounts/institution-accounts.server.ts); the hash in the answers is kept as it is.
 */
function withoutPasswords(section: SectionDef): SectionDef {
	if (!section.fields.some((field) => field.kind === 'newPassword')) return section
	if (!correctable.has(section)) correctable.set(section, { ...section, fields: section.fields.filter((field) => field.kind !== 'newPassword') })
	return correctable.get(section)!
}

/** The stored password hashes of a section, put back beside the corrected answers. */
function savedPasswords(section: SectionDef, saved: SectionAnswers | undefined): SectionAnswers {
	return Object.fromEntries(section.fields.filter((field) => field.kind === 'newPassword' && saved?.[field.name] !== undefined).map((field) => [field.name, saved![field.name]]))
}

async function openSection(params: { reference: string; section: string }, role: string) {
	const db = await getDb()
	const reference = normaliseReference(params.reference)
	const row = reference ? await findCaseByReference(db, reference) : undefined
	const definition = row ? findDefinition(row.type) : undefined
	const section = definition ? findSection(definition, params.section) : undefined
	if (!row || !definition || !section || !row.submittedAt || (row.deletedAt && role !== 'admin')) throw data('الصفحة غير موجودة', { status: 404 })
	if (row.deletedAt) throw data('الطلب محذوف؛ استعده أولاً', { status: 409 })
	// Retention destroyed its answers (app/operations/retention-purge.server.ts): nothing may be written back.
	if (row.purgedAt) throw data('أُتلفت بيانات هذا الطلب وفق مدة الاحتفاظ، فلا يمكن تصحيحها', { status: 409 })
	return { db, row, definition, section }
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
	const user = requireRole(context, areaRoles.cases)
	const { db, row, definition, section } = await openSection(params, user.role)
	const state = await loadSavedState(db, row.id)
	const collection = collectionOf(section)
	const savedRows = collection ? ((state.answers[section.key]?.[collection.name] ?? []) as Row[]) : []
	// «تغيير» on a row: ?row=<key> fills the row form with its answers.
	const changing = savedRows.findIndex((item) => item._key && item._key === new URL(request.url).searchParams.get('row'))
	return {
		changing: changing === -1 ? null : { index: changing, key: savedRows[changing]!._key!, values: savedRows[changing]! },
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
	const submission = parseWithZod(formData, { schema: sectionSchema(withoutPasswords(section), { allowIdChecksumFailure: row.idChecksumOverride }) })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	const result = await correctSection(db, definition, row, section.key, (saved: SectionAnswers | undefined) => ({ ...submission.value, ...savedPasswords(section, saved) }), user)
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
	const intent = formData.get('intent')
	const key = String(formData.get('rowKey') ?? '')
	if (intent === 'beside') {
		// The fields beside the list (a budget's notes): corrected as any section's fields are.
		const beside = fieldsBesideCollection(section)
		const submission = parseWithZod(formData, { schema: sectionSchema({ ...section, fields: beside }, { allowIdChecksumFailure: row.idChecksumOverride }) })
		if (submission.status !== 'success') return data({ result: submission.reply(), besideResult: true, rowError: null }, { status: 400 })
		const result = await correctSection(
			db,
			definition,
			row,
			section.key,
			(saved: SectionAnswers | undefined) => ({ ...saved, ...Object.fromEntries(beside.map((field) => [field.name, undefined])), ...submission.value }),
			user,
		)
		if (!result.ok) return data({ result: submission.reply({ formErrors: result.issues.map((issue) => issue.message) }), besideResult: true, rowError: null }, { status: 400 })
		return redirectWithFlash(here, { tone: 'success', message: result.changes.length ? 'تم تحديث بيانات بنجاح' : 'لم تتغير أي بيانات' })
	}
	if (intent === 'delete-row') {
		change = (rows) => rows.filter((candidate) => candidate._key !== key)
	} else if (intent === 'change-row') {
		const submission = parseWithZod(formData, { schema: rowSchema(collection.fields, { allowIdChecksumFailure: row.idChecksumOverride }) })
		if (submission.status !== 'success') return data({ result: submission.reply(), rowError: null }, { status: 400 })
		change = (rows) => {
			if (!rows.some((candidate) => candidate._key === key)) rowError = `لم يُحفظ التعديل: حُذف هذا ${collection.itemLabel} من القائمة.`
			return rows.map((candidate) => (candidate._key === key ? { ...submission.value, _key: key } : candidate))
		}
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
	if (rowError && result.ok) return data({ result: null, rowError }, { status: 409 })
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
			section={withoutPasswords(section)}
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
	const changing = loaderData.changing
	const [form, fields] = useForm({
		id: changing ? `staff-change-${changing.key}` : `staff-row-${section.key}`,
		lastResult: actionData && 'rowError' in actionData && !('besideResult' in actionData) ? actionData.result : undefined,
		defaultValue: rowDefaults(collection.fields, changing?.values) as Record<string, string>,
		...validationTiming,
		onValidate: ({ formData }) => parseWithZod(formData, { schema }),
	})
	const beside = fieldsBesideCollection(section)
	const besideSchema = sectionSchema({ ...section, fields: beside }, { allowIdChecksumFailure: loaderData.idOverridden })
	const [besideForm, besideFields] = useForm<Record<string, unknown>>({
		id: `staff-beside-${section.key}`,
		lastResult: actionData && 'besideResult' in actionData ? actionData.result : undefined,
		defaultValue: formDefaults({ ...section, fields: beside }, loaderData.saved ?? undefined) as Record<string, string>,
		...validationTiming,
		onValidate: ({ formData }) => parseWithZod(formData, { schema: besideSchema }),
	})
	const group = loaderData.rows.find((item) => item.kind === 'group')
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
					changeHref={(key) => `?${new URLSearchParams({ row: key })}#row-form`}
				/>
			</div>
			{changing || rows.length < collection.max ? (
				<Form method="post" {...getFormProps(form)} noValidate className="mt-6 scroll-mt-4 space-y-5 rounded-xl border border-brand-200 bg-brand-50 p-4">
					<span id="row-form" />
					<h2 className="text-lg font-bold text-brand-900">{changing ? `تغيير ${collection.itemLabel} ${changing.index + 1}` : `إضافة ${collection.itemLabel}`}</h2>
					<ErrorList errors={form.errors} />
					<input type="hidden" name="intent" value={changing ? 'change-row' : 'add-row'} />
					{changing ? <input type="hidden" name="rowKey" value={changing.key} /> : null}
					<SectionInputs fields={collection.fields} fieldset={fields as unknown as Fieldset} />
					<div className="flex flex-wrap items-center gap-4">
						<button type="submit" className="btn-secondary">
							{changing ? 'حفظ التغيير' : 'إضافة'}
						</button>
						{changing ? (
							<Link to="?#rows" className="link inline-flex min-h-11 items-center">
								إلغاء
							</Link>
						) : null}
					</div>
				</Form>
			) : null}
			{beside.length ? (
				<Form method="post" {...getFormProps(besideForm)} noValidate className="mt-6 space-y-6">
					<ErrorList errors={besideForm.errors} />
					<input type="hidden" name="intent" value="beside" />
					<SectionInputs fields={beside} fieldset={besideFields as unknown as Fieldset} />
					<button type="submit" className="btn-primary">
						حفظ التصحيح
					</button>
				</Form>
			) : null}
		</div>
	)
}
