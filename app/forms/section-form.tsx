import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useState, type FormEvent, type ReactNode } from 'react'
import { Form, Link } from 'react-router'
import { ErrorSummary, Honeypot, PageTitle, TextareaField, useSubmitCount, validationTiming } from '#app/components/forms.tsx'
import { uploadInputId, type SectionDef } from '#app/forms/definition.ts'
import { SectionInputs, summaryItems, type Fieldset } from '#app/forms/field-inputs.tsx'
import { sectionSchema } from '#app/forms/schema.ts'

interface SectionFormProps {
	section: SectionDef
	/** «الخطوة 2 من 7» */
	stepLabel: string
	formTitle: string
	defaults: Record<string, unknown>
	lastResult?: SubmissionResult<string[]> | null
	backTo: string
	submitLabel?: string
	/** Shown above the fields, under the section's links (e.g. a notice or the file slots). */
	intro?: ReactNode
	/** Where the form posts (a query such as ?return=check); the current page by default. */
	action?: string
	/** A staff member is signed in: offer to accept a national ID that fails the checksum. */
	staff?: boolean
	/** Staff already accepted this case's national ID despite its checksum. */
	idOverridden?: boolean
	/** A password of this section is already set: left blank, it is kept. */
	passwordSet?: boolean
	/** The error summary's title, when the refusal is not about what was typed (e.g. too many tries). */
	errorTitle?: string
}

/** A step's links under its description (`SectionDef.links`), e.g. a template to print. */
export function SectionLinks({ section }: { section: SectionDef }) {
	return section.links?.map((link) => (
		<p key={link.to} className="mt-3">
			<Link to={link.to} className="link" target={link.newTab ? '_blank' : undefined}>
				{link.label}
				{link.newTab ? ' (يفتح في صفحة جديدة)' : null}
			</Link>
		</p>
	))
}

/** One step of an application: the GOV.UK question page, driven by the section's definition. */
export function SectionForm({
	section,
	stepLabel,
	formTitle,
	defaults,
	lastResult,
	backTo,
	submitLabel = 'حفظ ومتابعة',
	intro,
	action,
	staff = false,
	idOverridden = false,
	passwordSet = false,
	errorTitle,
}: SectionFormProps) {
	const canOverride = staff && section.fields.some((field) => field.kind === 'text' && field.format === 'nationalId')
	const [form, fields] = useForm<Record<string, unknown>>({
		id: `section-${section.key}`,
		lastResult,
		// Conform types defaults as strings; rows and checkbox lists are arrays, which it handles at run time.
		defaultValue: defaults as Record<string, string>,
		...validationTiming,
		onValidate: ({ formData }) =>
			parseWithZod(formData, {
				schema: sectionSchema(section, {
					allowIdChecksumFailure: idOverridden || (canOverride && formData.get('overrideIdChecksum') === 'on'),
					passwordSet,
				}),
			}),
	})
	const [submitCount, countSubmit] = useSubmitCount()
	const [pending, setPending] = useState<string | null>(null)
	// With JavaScript: a file chosen in a slot but not sent with «رفع الملف» would be lost by going on.
	function holdForPendingUpload(event: FormEvent<HTMLFormElement>) {
		const input = pendingUpload()
		setPending(input ? pendingUploadMessage(input, submitLabel) : null)
		if (!input) return countSubmit(event)
		event.preventDefault()
		event.stopPropagation()
		input.focus()
	}
	const fieldset = fields as unknown as Fieldset
	const overrideErrors = lastResult?.error?.overrideNote
	// A missing required file links to its slot's file input (the slots come first on the page).
	const fileErrors = (section.files ?? []).flatMap((slot) =>
		(lastResult?.error?.[uploadInputId(slot.slot)] ?? []).map((message) => ({
			message,
			fieldId: uploadInputId(slot.slot),
		})),
	)
	const summary = [
		...fileErrors,
		...summaryItems(section.fields, fieldset, form.errors),
		...(overrideErrors ?? []).map((message) => ({
			message,
			fieldId: 'overrideNote',
		})),
	]
	const failed = submitCount > 0 || lastResult?.status === 'error'
	return (
		<div className="mx-auto max-w-2xl px-4 py-6">
			<PageTitle title={`${section.title} - ${formTitle}`} error={failed && summary.length > 0} />
			<Link to={backTo} className="link inline-flex min-h-11 items-center">
				<span aria-hidden="true">→</span>&nbsp;رجوع
			</Link>
			{failed ? <ErrorSummary key={submitCount} items={summary} title={errorTitle} /> : null}
			<p className="mt-2 text-sm font-semibold text-stone-600">
				{formTitle} — {stepLabel}
			</p>
			<h1 className="mt-1 text-2xl font-bold text-brand-900">{section.title}</h1>
			{section.description ? <p className="mt-2 text-stone-700">{section.description}</p> : null}
			<SectionLinks section={section} />
			{intro}
			<Form method="post" action={action} {...getFormProps(form)} onSubmitCapture={holdForPendingUpload} noValidate className="mt-6 space-y-6">
				<Honeypot />
				<SectionInputs fields={section.fields} fieldset={fieldset} />
				{canOverride ? (
					<fieldset className="space-y-3 rounded-xl border-2 border-dashed border-gold-500 p-4">
						<legend className="px-2 font-semibold text-gold-700">للموظفين فقط</legend>
						<div className="flex items-start gap-3">
							<input id="overrideIdChecksum" name="overrideIdChecksum" type="checkbox" className="mt-1 size-5 shrink-0 accent-brand-700" />
							<label htmlFor="overrideIdChecksum">قبول رقم الهوية رغم عدم اجتيازه التحقق (بعد التأكد من البطاقة الأصلية)</label>
						</div>
						<TextareaField
							label="سبب القبول"
							errors={overrideErrors}
							textareaProps={{
								name: 'overrideNote',
								id: 'overrideNote',
								rows: 2,
								maxLength: 500,
							}}
						/>
					</fieldset>
				) : null}
				{pending ? (
					<p role="alert" className="font-semibold text-red-800">
						<span className="sr-only">خطأ: </span>
						{pending}
					</p>
				) : null}
				<button type="submit" className="btn-primary w-full sm:w-auto">
					{submitLabel}
				</button>
			</Form>
		</div>
	)
}

/** A file input of an upload form on the page holding a file that was never sent. */
function pendingUpload(): HTMLInputElement | null {
	const inputs = document.querySelectorAll<HTMLInputElement>('form[enctype="multipart/form-data"] input[type="file"]')
	return [...inputs].find((input) => (input.files?.length ?? 0) > 0) ?? null
}

function pendingUploadMessage(input: HTMLInputElement, submitLabel: string): string {
	const label = input.labels?.[0]?.textContent?.split(':').slice(1).join(':').trim()
	return `اخترت الملف «${input.files?.[0]?.name ?? ''}»${label ? ` في «${label}»` : ''} ولم يُرفع بعد: اضغط «رفع الملف» تحته أولاً، ثم «${submitLabel}».`
}
