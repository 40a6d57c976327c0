import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import type { ReactNode } from 'react'
import { Form, useSearchParams } from 'react-router'
import { ErrorSummary, Field, Honeypot, PageTitle, TOO_MANY_TRIES } from '#app/components/forms.tsx'
import type { NameField, SignInReply } from './+sign-in.server.ts'

// The one sign-in page behind both doors, staff (/login) and institutions (/account/login); its
// action is +sign-in.server.ts. It ships no JavaScript: the form posts and answers as plain HTML.

/** The sign-in page: its header, the refusal's summary (focused as the page loads), the form, and what follows it. */
export function SignInPage({
	id,
	title,
	header,
	nameField,
	nameLabel,
	nameType,
	reply,
	children,
}: {
	id: string
	title: string
	header: ReactNode
	nameField: NameField
	nameLabel: string
	nameType: 'email' | 'text'
	reply: SignInReply | undefined
	children?: ReactNode
}) {
	const [searchParams] = useSearchParams()
	const [form, fields] = useForm<Record<NameField, string> & { password: string; redirectTo?: string }>({ id, lastResult: reply?.result, constraint: undefined })
	const summary = [
		...(form.errors ?? []).map((message) => ({ message })),
		...(fields[nameField].errors ?? []).map((message) => ({ message, fieldId: fields[nameField].id })),
		...(fields.password.errors ?? []).map((message) => ({ message, fieldId: fields.password.id })),
	]
	// The server's answer to a refused form: the summary at the top, focused as the page loads (GOV.UK).
	const failed = reply?.result.status === 'error' && summary.length > 0
	return (
		<>
			<PageTitle title={title} error={failed} />
			{header}
			<div className="mx-auto max-w-md space-y-6 px-4 py-10">
				{failed ? <ErrorSummary items={summary} title={reply.limited ? TOO_MANY_TRIES : undefined} autoFocus /> : null}
				<Form method="post" {...getFormProps(form)} noValidate className="space-y-5 rounded-xl border border-stone-200 bg-white p-6 shadow-sm">
					<input type="hidden" name="redirectTo" value={searchParams.get('redirectTo') ?? ''} />
					<Honeypot />
					<Field
						label={nameLabel}
						errors={fields[nameField].errors}
						inputProps={{ ...getInputProps(fields[nameField], { type: nameType }), autoComplete: 'username', dir: 'ltr', spellCheck: false, autoCapitalize: 'none' }}
					/>
					<Field label="كلمة المرور" errors={fields.password.errors} inputProps={{ ...getInputProps(fields.password, { type: 'password' }), autoComplete: 'current-password', dir: 'ltr' }} />
					<button type="submit" className="btn-primary w-full">
						تسجيل الدخول
					</button>
				</Form>
				{children}
			</div>
		</>
	)
}
