import {
	useEffect,
	useId,
	useRef,
	useState,
	type FormEvent,
	type InputHTMLAttributes,
	type MouseEvent,
	type ReactNode,
	type SelectHTMLAttributes,
	type TextareaHTMLAttributes,
} from 'react'

export type ListOfErrors = readonly (string | null | undefined)[] | null | undefined

export function ErrorList({ id, errors }: { id?: string; errors?: ListOfErrors }) {
	const list = errors?.filter(Boolean)
	if (!list?.length) return null
	return (
		<ul id={id} className="mt-1 space-y-1">
			{list.map((error) => (
				<li key={error} className="text-sm font-semibold text-red-800">
					<span className="sr-only">خطأ: </span>
					{error}
				</li>
			))}
		</ul>
	)
}

/** Ids that tie a control to its hint and errors (aria-describedby, aria-invalid). */
function useFieldIds(givenId: string | undefined, hint: ReactNode, errors: ListOfErrors) {
	const fallbackId = useId()
	const id = givenId ?? fallbackId
	const hintId = hint ? `${id}-hint` : undefined
	const errorId = errors?.some(Boolean) ? `${id}-error` : undefined
	const control = {
		id,
		className: 'field-input mt-1',
		'aria-invalid': errorId ? true : undefined,
		'aria-describedby': [hintId, errorId].filter(Boolean).join(' ') || undefined,
	}
	return { id, hintId, errorId, control }
}

/** Label, hint and errors above a control (GOV.UK order: the error sits right above the input). */
function FieldFrame(props: { id: string; label: ReactNode; hint?: ReactNode; hintId?: string; errorId?: string; errors?: ListOfErrors; className?: string; children: ReactNode }) {
	return (
		<div className={props.className}>
			<label htmlFor={props.id} className="block font-semibold">
				{props.label}
			</label>
			{props.hint ? (
				<p id={props.hintId} className="text-sm text-stone-600">
					{props.hint}
				</p>
			) : null}
			<ErrorList id={props.errorId} errors={props.errors} />
			{props.children}
		</div>
	)
}

interface FieldProps {
	label: ReactNode
	hint?: ReactNode
	errors?: ListOfErrors
	inputProps: InputHTMLAttributes<HTMLInputElement> & { name: string }
	className?: string
}

/** A labelled input wired to its hint and errors (aria-invalid, aria-describedby). */
export function Field({ label, hint, errors, inputProps, className }: FieldProps) {
	const { id, hintId, errorId, control } = useFieldIds(inputProps.id, hint, errors)
	return (
		<FieldFrame id={id} label={label} hint={hint} hintId={hintId} errorId={errorId} errors={errors} className={className}>
			<input {...inputProps} {...control} className={inputProps.className ? `${control.className} ${inputProps.className}` : control.className} />
		</FieldFrame>
	)
}

interface SelectFieldProps {
	label: ReactNode
	errors?: ListOfErrors
	selectProps: SelectHTMLAttributes<HTMLSelectElement> & { name: string }
	options: readonly { value: string; label: string }[]
	className?: string
}

export function SelectField({ label, errors, selectProps, options, className }: SelectFieldProps) {
	const { id, errorId, control } = useFieldIds(selectProps.id, undefined, errors)
	return (
		<FieldFrame id={id} label={label} errorId={errorId} errors={errors} className={className}>
			<select {...selectProps} {...control}>
				{options.map((option) => (
					<option key={option.value} value={option.value}>
						{option.label}
					</option>
				))}
			</select>
		</FieldFrame>
	)
}

/** The error summary's title when the form was refused for too many tries, not for what was typed. */
export const TOO_MANY_TRIES = 'محاولات كثيرة'

export interface SummaryItem {
	/** The id of the field the message is about. */
	fieldId?: string
	message: string
}

/**
 * The GOV.UK error summary: at the top of a failed form, each message links to its field.
 * Give it `key={submitCount}` so each submit mounts it anew: it takes focus the first time it has
 * messages after a submit (with JavaScript), never while the user is typing. Without JavaScript it
 * is the first thing in the form on the reloaded page.
 */
export function ErrorSummary({
	items,
	title = 'يوجد خطأ في البيانات المدخلة',
	autoFocus = false,
}: {
	items: readonly SummaryItem[]
	title?: string
	/** For a page that ships no JavaScript: the browser focuses the summary when the page loads. */
	autoFocus?: boolean
}) {
	const ref = useRef<HTMLDivElement>(null)
	const focused = useRef(false)
	const hasItems = items.length > 0
	useEffect(() => {
		if (hasItems && !focused.current) {
			focused.current = true
			ref.current?.focus()
		}
	}, [hasItems])
	if (!items.length) return null
	return (
		<div
			ref={ref}
			tabIndex={-1}
			autoFocus={autoFocus}
			role="alert"
			aria-labelledby="error-summary-title"
			className="mb-6 rounded-lg border-s-4 border-red-700 bg-red-50 p-4 text-red-900"
		>
			<h2 id="error-summary-title" className="font-bold">
				{title}
			</h2>
			<ul className="mt-2 list-disc space-y-1 ps-5">
				{items.map((item) => (
					<li key={`${item.fieldId}-${item.message}`}>
						{item.fieldId ? (
							<a href={`#${item.fieldId}`} onClick={(event) => focusField(event, item.fieldId!)} className="font-semibold underline">
								{item.message}
							</a>
						) : (
							item.message
						)}
					</li>
				))}
			</ul>
		</div>
	)
}

/**
 * With JavaScript, a summary link focuses its field and brings the field's label or group into view
 * (GOV.UK), instead of following the hash: a new location would drop the errors the server sent.
 */
function focusField(event: MouseEvent<HTMLAnchorElement>, fieldId: string) {
	const field = document.getElementById(fieldId)
	if (!field) return
	event.preventDefault()
	const context =
		(field instanceof HTMLInputElement && field.type === 'file' ? field.closest('section') : null) ??
		field.closest('fieldset')?.querySelector('legend') ??
		document.querySelector(`label[for="${CSS.escape(fieldId)}"]`) ??
		field
	context.scrollIntoView({ block: 'start' })
	field.focus({ preventScroll: true })
}

/** A field bots fill and people never see; a filled one marks the request as spam. */
export function Honeypot() {
	return (
		<div className="hidden" aria-hidden="true">
			<label>
				لا تملأ هذا الحقل
				<input type="text" name="website" tabIndex={-1} autoComplete="off" defaultValue="" />
			</label>
		</div>
	)
}

export function isHoneypotFilled(formData: FormData): boolean {
	const value = formData.get('website')
	return typeof value === 'string' && value.length > 0
}

/** The page title, with «خطأ:» in front when the form on it failed (GOV.UK). */
/** The document's title; `description`, for a page without a PageHeader, its meta description. */
export function PageTitle({ title, error = false, description }: { title: string; error?: boolean; description?: string }) {
	return (
		<>
			<title>{`${error ? 'خطأ: ' : ''}${title} | مؤسسة عطاء الخيرية`}</title>
			{description ? <meta name="description" content={description} /> : null}
		</>
	)
}

const noticeTones = {
	success: 'rounded-lg border-s-4 border-brand-700 bg-brand-50 p-4 font-semibold text-brand-900',
	error: 'rounded-lg border-s-4 border-red-700 bg-red-50 p-4 font-semibold text-red-900',
} as const

/**
 * A one-time notice (app/http/flash.server.ts). With `live`, its region is there even when empty,
 * so a notice that arrives without a page load (a JavaScript upload, a revalidation) is announced.
 */
export function FlashNotice({ notice, live = false, className = 'mb-6' }: { notice: { tone: 'success' | 'error'; message: string } | null | undefined; live?: boolean; className?: string }) {
	if (!notice && !live) return null
	return (
		<div role="status" className={notice ? `${className} ${noticeTones[notice.tone]}` : undefined}>
			{notice?.message}
		</div>
	)
}

/**
 * How many times the person submitted the form on this page (whether the browser's check or the
 * server stopped it). Conform validates while typing by submitting with its own intent button;
 * those submits are not counted.
 */
export function useSubmitCount() {
	const [count, setCount] = useState(0)
	const onSubmitCapture = (event: FormEvent<HTMLFormElement>) => {
		const submitter = (event.nativeEvent as SubmitEvent).submitter
		if (submitter?.getAttribute('name') !== '__intent__') setCount((n) => n + 1)
	}
	return [count, onSubmitCapture] as const
}

interface TextareaFieldProps {
	label: ReactNode
	hint?: ReactNode
	errors?: ListOfErrors
	textareaProps: TextareaHTMLAttributes<HTMLTextAreaElement> & { name: string }
	className?: string
}

export function TextareaField({ label, hint, errors, textareaProps, className }: TextareaFieldProps) {
	const { id, hintId, errorId, control } = useFieldIds(textareaProps.id, hint, errors)
	return (
		<FieldFrame id={id} label={label} hint={hint} hintId={hintId} errorId={errorId} errors={errors} className={className}>
			<textarea {...textareaProps} {...control} rows={textareaProps.rows ?? 5} />
		</FieldFrame>
	)
}

interface ChoiceGroupProps {
	legend: ReactNode
	hint?: ReactNode
	errors?: ListOfErrors
	errorId: string
	/** Each option's input props (from Conform's getCollectionProps) and label. */
	choices: readonly { props: InputHTMLAttributes<HTMLInputElement> & { id: string }; label: string }[]
	inline?: boolean
	children?: ReactNode
}

/** Radios or checkboxes in a fieldset whose legend is the question (GOV.UK). */
export function ChoiceGroup({ legend, hint, errors, errorId, choices, inline, children }: ChoiceGroupProps) {
	const hasErrors = errors?.some(Boolean)
	return (
		<fieldset aria-describedby={hasErrors ? errorId : undefined}>
			<legend className="font-semibold">{legend}</legend>
			{hint ? <p className="text-sm text-stone-600">{hint}</p> : null}
			<ErrorList id={errorId} errors={errors} />
			<div className={`mt-2 ${inline ? 'flex flex-wrap gap-x-6 gap-y-2' : 'space-y-2'}`}>
				{choices.map(({ props: { key: _key, ...props }, label }: { props: ChoiceGroupProps['choices'][number]['props'] & { key?: string }; label: ReactNode }) => (
					<div key={props.id} className="flex min-h-11 items-center gap-3">
						{/* Conform's props carry a React key, which may not be spread. */}
						<input {...props} className="size-5 shrink-0 accent-brand-700" />
						<label htmlFor={props.id}>{label}</label>
					</div>
				))}
			</div>
			{children}
		</fieldset>
	)
}

/**
 * When Conform checks a form in the browser: first on submit, then as the person corrects it.
 * Not on blur: an error appearing as focus leaves a field shifts the page under the finger that is
 * tapping «submit», and the tap misses the button.
 */
export const validationTiming = { shouldValidate: 'onSubmit', shouldRevalidate: 'onInput' } as const

/** A whole number typed in a settings form (the reminders' days, the SMS budgets): label, hint, errors and the input. */
export function WholeNumberField({ id, name, label, hint, value, errors, max, width = 'max-w-32' }: { id: string; name: string; label: string; hint?: string; value: string; errors?: ListOfErrors; max: number; width?: string }) {
	return (
		<div>
			<label htmlFor={id} className="block font-semibold">
				{label}
			</label>
			{hint ? (
				<p id={`${id}-hint`} className="text-sm text-stone-600">
					{hint}
				</p>
			) : null}
			<ErrorList id={`${id}-error`} errors={errors} />
			<input
				id={id}
				name={name}
				type="number"
				inputMode="numeric"
				min={1}
				max={max}
				step={1}
				defaultValue={value}
				aria-invalid={errors?.length ? true : undefined}
				aria-describedby={[hint ? `${id}-hint` : '', errors?.length ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined}
				className={`field-input mt-1 ${width}`}
			/>
		</div>
	)
}
