import { Form } from 'react-router'
import { Field, Honeypot } from '#app/components/forms.tsx'

/**
 * The two forms of a code sent by SMS (docs/security.md#verified-mobile): type the code, or ask for
 * a new one. Plain forms: they work without JavaScript. `hidden` carries what the page needs again
 * (the lookup's national ID and mobile).
 */
export function CodeForm({
	mobile,
	sent,
	logged,
	error,
	hidden = {},
	sendLabel = 'أرسل رمز التحقق',
}: {
	/** Masked: «05•••••234». */
	mobile: string
	/** A code was sent and can still be used: ask for it. */
	sent: boolean
	/** No SMS provider here (a demo): the code is in the server's log. */
	logged: boolean
	error?: string | null
	hidden?: Record<string, string>
	sendLabel?: string
}) {
	const fields = Object.entries(hidden).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />)
	return (
		<div className="space-y-6">
			{logged ? (
				<p className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950">
					هذه نسخة تجريبية لم يُعدّ فيها مزوّد للرسائل النصية: لا تصل الرسائل إلى الجوال، والرمز مكتوب في سجل الخادم.
				</p>
			) : null}
			{sent ? (
				<Form method="post" className="space-y-4" aria-labelledby="code-label">
					<Honeypot />
					{fields}
					<input type="hidden" name="intent" value="check-code" />
					<Field
						label={
							<span id="code-label">
								رمز التحقق المرسل إلى الجوال <span dir="ltr">{mobile}</span>
							</span>
						}
						hint="الرمز 6 أرقام، وصلاحيته 10 دقائق."
						errors={error ? [error] : undefined}
						inputProps={{
							id: 'code',
							name: 'code',
							className: 'max-w-56 min-h-12 text-center text-xl tracking-[0.4em]',
							dir: 'ltr',
							inputMode: 'numeric',
							autoComplete: 'one-time-code',
							maxLength: 6,
							required: true,
						}}
					/>
					<button type="submit" className="btn-primary">
						تأكيد
					</button>
				</Form>
			) : error ? (
				<p role="alert" className="font-semibold text-red-800">
					{error}
				</p>
			) : null}
			<Form method="post">
				<Honeypot />
				{fields}
				<input type="hidden" name="intent" value="send-code" />
				<button type="submit" className={sent ? 'btn-secondary' : 'btn-primary'}>
					{sent ? 'لم يصلني الرمز: أرسل رمزاً جديداً' : sendLabel}
				</button>
			</Form>
		</div>
	)
}
