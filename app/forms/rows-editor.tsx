import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import type { ReactNode } from 'react'
import { Form, Link } from 'react-router'
import { ErrorSummary, FlashNotice, Honeypot, PageTitle, useSubmitCount, validationTiming } from '#app/components/forms.tsx'
import type { Flash } from '#app/http/flash.server.ts'
import { CollectionRows } from './collection-rows.tsx'
import { collectionOf, fieldsBesideCollection, type SectionDef } from './definition.ts'
import { describeSection, type Described } from './describe.ts'
import { SectionInputs, summaryItems, type Fieldset } from './field-inputs.tsx'
import { formDefaults, rowDefaults } from './form-values.ts'
import { besideListSchema, rowSchema, type SectionAnswers } from './schema.ts'

// A step holding a repeatable list (family members, referrers, projects, budget lines): its rows
// with their change and delete buttons, the form that adds or changes one row, and the fields
// beside the list. One editor for the applicant's step and the staff correction; what is posted
// is run by app/runner/steps.server.ts.

type Row = Record<string, unknown> & { _key?: string }

/** What the editor needs from the saved answers: the rows described, their keys, and the row being changed (?row=<key>). */
export function listView(section: SectionDef, saved: SectionAnswers | undefined, changingKey: string | null) {
	const collection = collectionOf(section)!
	const rows = (saved?.[collection.name] ?? []) as Row[]
	const index = rows.findIndex((item) => item._key && item._key === changingKey)
	return {
		rows: describeSection(section, saved),
		rowKeys: rows.map((item) => item._key ?? ''),
		changing: index === -1 ? null : { index, key: rows[index]!._key!, values: rows[index]! },
		saved: saved ?? null,
	}
}

export type ListView = ReturnType<typeof listView>

/** The last post's reply, and which of the editor's forms it belongs to. */
export interface ListReply {
	form: 'section' | 'row' | 'next'
	result: SubmissionResult<string[]>
}

/** Keyed by the rows, so the add form starts empty again once a row is added or removed. */
export function RowsEditor(props: Parameters<typeof ListForms>[0]) {
	return <ListForms key={props.view.rowKeys.join(',')} {...props} />
}

function ListForms({
	section,
	view,
	reply,
	notice,
	refused,
	allowIdChecksumFailure = false,
	query = '',
	header,
	backTo,
	backLabel,
	title,
	continueLabel,
	continueAlways,
	className,
}: {
	section: SectionDef
	view: ListView
	reply?: ListReply
	notice: Flash | null
	/** Why the last change was refused (a row deleted in another tab), when the page says it itself. */
	refused?: string | null
	allowIdChecksumFailure?: boolean
	/** Kept on every form's address and link (?return=check). */
	query?: string
	/** Above the list: the step's label, its heading and description. */
	header: ReactNode
	backTo: string
	backLabel: string
	/** The page's title (the tab). */
	title: string
	continueLabel: string
	/** The applicant's «حفظ ومتابعة» is there even with no fields beside the list; staff only save those fields. */
	continueAlways: boolean
	className: string
}) {
	const collection = collectionOf(section)!
	const beside = fieldsBesideCollection(section)
	const changing = view.changing
	const schema = rowSchema(collection.fields, { allowIdChecksumFailure })
	const [form, fields] = useForm({
		id: changing ? `change-${changing.key}` : `row-${section.key}`,
		lastResult: reply?.form === 'row' ? reply.result : undefined,
		defaultValue: rowDefaults(collection.fields, changing?.values) as Record<string, string>,
		...validationTiming,
		onValidate: ({ formData }) => parseWithZod(formData, { schema }),
	})
	const besideSchema = besideListSchema(section, { allowIdChecksumFailure })
	const [besideForm, besideFields] = useForm<Record<string, unknown>>({
		id: `section-${section.key}`,
		lastResult: reply?.form === 'section' ? reply.result : undefined,
		defaultValue: formDefaults({ ...section, fields: beside }, view.saved ?? undefined) as Record<string, string>,
		...validationTiming,
		onValidate: ({ formData }) => parseWithZod(formData, { schema: besideSchema }),
	})
	const [submitCount, countSubmit] = useSubmitCount()
	const fieldset = fields as unknown as Fieldset
	const besideFieldset = besideFields as unknown as Fieldset
	const nextErrors = reply?.form === 'next' ? (reply.result.error?.[''] ?? []) : []
	// «Add at least one»: the link leads to the add form's first field.
	const firstField = collection.fields[0] ? fieldset[collection.fields[0].name]?.id : undefined
	const summary = [...nextErrors.map((message) => ({ message, fieldId: firstField })), ...summaryItems(collection.fields, fieldset, form.errors), ...summaryItems(beside, besideFieldset, besideForm.errors)]
	const failed = submitCount > 0 || reply?.result.status === 'error'
	const group = view.rows.find((item): item is Extract<Described, { kind: 'group' }> => item.kind === 'group')
	const rows = group ? group.group.rows : []
	const changeHref = (key: string) => `?${new URLSearchParams({ ...Object.fromEntries(new URLSearchParams(query)), row: key })}#row-form`
	return (
		<div className={className}>
			<PageTitle title={title} error={(failed && summary.length > 0) || Boolean(refused)} />
			<Link to={backTo} className="link inline-flex min-h-11 items-center">
				<span aria-hidden="true">→</span>&nbsp;{backLabel}
			</Link>
			{failed ? <ErrorSummary key={submitCount} items={summary} /> : null}
			{header}

			<div id="rows" className="mt-6">
				<FlashNotice notice={notice} live className="mb-3" />
				{refused ? (
					<p role="alert" className="mb-3 rounded-lg border-s-4 border-red-700 bg-red-50 p-4 font-semibold text-red-900">
						{refused}
					</p>
				) : null}
				<CollectionRows
					label={collection.label}
					itemLabel={collection.itemLabel}
					rows={rows}
					rowKeys={view.rowKeys}
					emptyText={collection.emptyText}
					totals={group ? group.group.totals : []}
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

			{beside.length || continueAlways ? (
				<Form method="post" action={query || undefined} {...(beside.length ? getFormProps(besideForm) : {})} onSubmitCapture={countSubmit} noValidate className="mt-6 space-y-6">
					<Honeypot />
					<input type="hidden" name="intent" value="next" />
					{beside.length ? <SectionInputs fields={beside} fieldset={besideFieldset} /> : null}
					<button type="submit" className="btn-primary w-full sm:w-auto">
						{continueLabel}
					</button>
				</Form>
			) : null}
		</div>
	)
}
