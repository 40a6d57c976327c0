import { getCollectionProps, getInputProps, getSelectProps, getTextareaProps, type FieldMetadata } from '@conform-to/react'
import { ChoiceGroup, Field, SelectField, TextareaField, type SummaryItem } from '#app/components/forms.tsx'
import { formatDate, todayInRiyadh } from '#app/text/format.ts'
import { bare } from '#app/text/messages.ts'
import { calendarFieldName, calendarOf, calendarOptions, parseCalendarDate } from './calendar-date.ts'
import { useHydrated } from '#app/utils/use-hydrated.ts'
import { isAsked } from './conditions.ts'
import type { FieldDef, RowFieldDef } from './definition.ts'

// Renders a definition's fields with Conform's metadata: labels, hints, errors and ARIA wiring
// come from the shared form components.

// Conform's metadata is keyed by name at run time; the definitions are data, so it is untyped here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Meta = FieldMetadata<any, any, string[]>
export type Fieldset = Record<string, Meta>
type ListMeta = FieldMetadata<Record<string, unknown>[], Record<string, unknown>, string[]>
const rowsOf = (meta: Meta) => (meta as unknown as ListMeta).getFieldList()

const numeric = {
	inputMode: 'decimal' as const,
	dir: 'ltr' as const,
	autoComplete: 'off',
}

export function FieldInput({ field, meta, fieldset }: { field: RowFieldDef; meta: Meta; fieldset: Fieldset }) {
	const errors = meta.errors
	switch (field.kind) {
		case 'text': {
			const ltr = field.format !== undefined
			const type = field.format === 'email' ? 'email' : field.format === 'mobile' ? 'tel' : 'text'
			return (
				<Field
					label={field.label}
					hint={field.hint}
					errors={errors}
					inputProps={{
						...getInputProps(meta, { type }),
						...(ltr ? { dir: 'ltr' } : {}),
						...(field.format === 'nationalId' || field.format === 'mobile' || field.format === 'licence' ? { inputMode: 'numeric' } : {}),
						autoComplete: field.autoComplete ?? 'off',
						spellCheck: ltr ? false : undefined,
					}}
				/>
			)
		}
		case 'money':
			return <Field label={`${field.label} (ريال)`} hint={field.hint} errors={errors} inputProps={{ ...getInputProps(meta, { type: 'text' }), ...numeric }} />
		case 'number':
		case 'age':
			return (
				<Field
					label={field.label}
					hint={field.hint}
					errors={errors}
					inputProps={{
						...getInputProps(meta, { type: 'text' }),
						...numeric,
						inputMode: 'numeric',
					}}
				/>
			)
		case 'newPassword': {
			// Never filled from what was saved: only a hash is kept, and a blank keeps it (schema.ts).
			const confirm = fieldset[`${field.name}Confirm`]
			const passwordProps = {
				dir: 'ltr' as const,
				autoComplete: 'new-password',
				spellCheck: false,
				defaultValue: undefined,
			}
			return (
				<div className="space-y-6">
					<Field
						label={field.label}
						hint={field.hint}
						errors={errors}
						inputProps={{
							...getInputProps(meta, { type: 'password' }),
							...passwordProps,
						}}
					/>
					{confirm ? (
						<Field
							label={field.confirmLabel}
							errors={confirm.errors}
							inputProps={{
								...getInputProps(confirm, { type: 'password' }),
								...passwordProps,
							}}
						/>
					) : null}
				</div>
			)
		}
		case 'date':
			if (field.hijri) return <CalendarDateInput field={field} meta={meta} calendar={fieldset[calendarFieldName(field.name)]!} />
			// The picker stops at today for a date of the past; the schema is what refuses a later one.
			return (
				<Field
					label={field.label}
					hint={field.hint}
					errors={errors}
					inputProps={{
						...getInputProps(meta, { type: 'date' }),
						max: field.past ? todayInRiyadh() : undefined,
					}}
				/>
			)
		case 'textarea':
			return (
				<TextareaField
					label={field.label}
					hint={field.hint}
					errors={errors}
					textareaProps={{
						...getTextareaProps(meta),
						maxLength: field.maxLength,
					}}
				/>
			)
		case 'select': {
			// Only a required select may start on a default (definition.ts); every other one starts on «اختر».
			const options = field.default === undefined ? [{ value: '', label: 'اختر' }, ...field.options] : field.options
			return <SelectField label={field.label} errors={errors} selectProps={getSelectProps(meta)} options={options} />
		}
		case 'radio':
			return (
				<ChoiceGroup
					legend={field.label}
					hint={field.hint}
					errors={errors}
					errorId={meta.errorId}
					inline
					choices={getCollectionProps(meta, {
						type: 'radio',
						options: field.options.map((o) => o.value),
					}).map((props, index) => ({
						props,
						label: field.options[index]!.label,
					}))}
				/>
			)
		case 'checkbox':
			return (
				<div className="flex min-h-11 items-center gap-3">
					<input {...getInputProps(meta, { type: 'checkbox' })} className="size-5 accent-brand-700" />
					<label htmlFor={meta.id}>{field.label}</label>
				</div>
			)
		case 'checkboxes': {
			const values = [...field.options.map((o) => o.value), ...(field.other ? ['other'] : [])]
			const labels = [...field.options.map((o) => o.label), ...(field.other ? [field.other.label] : [])]
			const other = fieldset[`${field.name}Other`]
			return (
				<ChoiceGroup
					legend={field.label}
					hint={field.hint}
					errors={errors}
					errorId={meta.errorId}
					choices={getCollectionProps(meta, {
						type: 'checkbox',
						options: values,
					}).map((props, index) => ({ props, label: labels[index]! }))}
				>
					{field.other && other ? <Field className="mt-3 ms-8" label={`${field.other.label}: اذكرها`} errors={other.errors} inputProps={getInputProps(other, { type: 'text' })} /> : null}
				</ChoiceGroup>
			)
		}
	}
}

/**
 * A date typed in either calendar (a birth date as on the ID card): one box for day/month/year and
 * the calendar beside it, radios that work without JavaScript. Under them, the date read in both
 * calendars: drawn by the server from what was saved or sent, and as the applicant types once React runs.
 */
function CalendarDateInput({ field, meta, calendar }: { field: Extract<RowFieldDef, { kind: 'date' }>; meta: Meta; calendar: Meta }) {
	const chosen = calendarOf(calendar.value)
	const typed = typeof meta.value === 'string' ? meta.value.trim() : ''
	const read = typed ? parseCalendarDate(typed, chosen) : null
	const name = bare(field.label)
	return (
		<div className="space-y-3">
			<Field
				label={field.label}
				hint={field.hint ?? 'اليوم/الشهر/السنة كما في الهوية، مثل 14/06/1405 بالهجري أو 14/03/1985 بالميلادي'}
				errors={meta.errors}
				inputProps={{ ...getInputProps(meta, { type: 'text' }), dir: 'ltr', autoComplete: 'off', spellCheck: false, className: 'max-w-48' }}
			/>
			<ChoiceGroup
				legend={`تقويم ${name}`}
				errorId={calendar.errorId}
				inline
				choices={getCollectionProps(calendar, { type: 'radio', options: calendarOptions.map((option) => option.value) }).map((props, index) => ({ props, label: calendarOptions[index]!.label }))}
			/>
			{read?.ok ? (
				<output htmlFor={`${meta.id} ${calendar.id}`} className="block rounded-lg bg-stone-100 px-3 py-2 text-stone-800">
					{name} بالتقويمين: {formatDate(read.day)}
				</output>
			) : null}
		</div>
	)
}

/**
 * The current answers of a form, for the fields' conditions (`when`). Before hydration (and with
 * JavaScript off) every field is shown, each hint saying when it applies, and the server drops an
 * answer whose condition does not hold; once React runs, a field appears and disappears as the
 * applicant answers.
 */
function useAsked(fieldset: Fieldset): (field: FieldDef) => boolean {
	const hydrated = useHydrated()
	return (field) => {
		if (!hydrated) return true
		const values = new Proxy({}, { get: (_, name: string) => fieldset[name]?.value }) as Record<string, unknown>
		return isAsked(field, values)
	}
}

/** A section's fields; groups of fixed size are shown as that many numbered fieldsets. */
export function SectionInputs({ fields, fieldset }: { fields: readonly FieldDef[]; fieldset: Fieldset }) {
	const asked = useAsked(fieldset)
	return (
		<div className="space-y-6">
			{fields.map((field) => {
				const meta = fieldset[field.name]!
				if (!asked(field)) return null
				if (field.kind !== 'group') return <FieldInput key={field.name} field={field} meta={meta} fieldset={fieldset} />
				return (
					<div key={field.name} className="space-y-6">
						{meta.errors?.length ? (
							<p id={meta.errorId} className="font-semibold text-red-800">
								<span className="sr-only">خطأ: </span>
								{meta.errors.join('، ')}
							</p>
						) : null}
						{rowsOf(meta).map((row, index) => {
							const rowFieldset = row.getFieldset() as Fieldset
							return (
								<fieldset key={row.key} className="space-y-4 rounded-xl border border-stone-300 p-4">
									<legend className="px-2 text-lg font-bold text-brand-900">
										{field.itemLabel} {index + 1}
									</legend>
									<SectionInputs fields={field.fields} fieldset={rowFieldset} />
								</fieldset>
							)
						})}
					</div>
				)
			})}
		</div>
	)
}

/** The error summary's lines, in the order of the fields, each linking to its input. */
export function summaryItems(fields: readonly FieldDef[], fieldset: Fieldset, formErrors?: string[]): SummaryItem[] {
	const items: SummaryItem[] = (formErrors ?? []).map((message) => ({
		message,
	}))
	const targetOf = (field: RowFieldDef, meta: Meta) => (field.kind === 'radio' || field.kind === 'checkboxes' ? `${meta.id}-${field.options[0]!.value}` : meta.id)
	const add = (field: RowFieldDef, meta: Meta, set: Fieldset) => {
		for (const message of meta.errors ?? []) items.push({ fieldId: targetOf(field, meta), message })
		if (field.kind === 'checkboxes' && field.other) {
			const other = set[`${field.name}Other`]
			for (const message of other?.errors ?? []) items.push({ fieldId: other!.id, message })
		}
	}
	for (const field of fields) {
		const meta = fieldset[field.name]!
		if (field.kind !== 'group') {
			add(field, meta, fieldset)
			if (field.kind === 'newPassword') {
				const confirm = fieldset[`${field.name}Confirm`]
				for (const message of confirm?.errors ?? []) items.push({ fieldId: confirm!.id, message })
			}
			continue
		}
		for (const message of meta.errors ?? []) items.push({ message })
		rowsOf(meta).forEach((row, index) => {
			const rowFieldset = row.getFieldset() as Fieldset
			for (const sub of field.fields) {
				const subMeta = rowFieldset[sub.name]!
				for (const message of subMeta.errors ?? [])
					items.push({
						fieldId: targetOf(sub, subMeta),
						message: `${field.itemLabel} ${index + 1}: ${message}`,
					})
			}
		})
	}
	return items
}
