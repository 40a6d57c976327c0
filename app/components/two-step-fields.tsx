import type { ReactNode } from 'react'
import { Form } from 'react-router'
import { ErrorSummary, Field, TOO_MANY_TRIES } from '#app/components/forms.tsx'

// The screens of two-step sign-in (docs/security.md#two-step-sign-in), shared by the sign-in pages
// and the staff member's own account screen. Plain forms: they work without JavaScript.

export interface TwoStepError {
	message: string
	limited?: boolean
	/** The field the message is about, when not the app's code. */
	field?: string
}

const CODE_ID = 'two-step-code'

export const WRONG_SETUP_CODE = 'الرمز لا يطابق. تأكد من أن وقت جوالك مضبوط تلقائياً، ثم اكتب الرمز الظاهر الآن في التطبيق.'

function CodeField({ error, label = 'رمز التحقق', hint }: { error?: TwoStepError; label?: string; hint: string }) {
	return (
		<Field
			label={label}
			hint={hint}
			errors={error ? [error.message] : undefined}
			inputProps={{ id: CODE_ID, name: 'code', type: 'text', inputMode: 'numeric', autoComplete: 'one-time-code', dir: 'ltr', spellCheck: false, required: true, maxLength: 12 }}
		/>
	)
}

const summaryOf = (error: TwoStepError | undefined) =>
	error ? <ErrorSummary items={[{ message: error.message, fieldId: error.field ?? CODE_ID }]} title={error.limited ? TOO_MANY_TRIES : undefined} autoFocus /> : null

/** Setting up the authenticator app: its QR code, the key to type by hand, and a first code to prove it. */
export function TwoStepSetup({ qr, secret, grouped, error, redirectTo, children }: { qr: string; secret: string; grouped: string; error?: TwoStepError; redirectTo?: string; children?: ReactNode }) {
	return (
		<div className="space-y-5">
			{summaryOf(error)}
			{children}
			<ol className="list-decimal space-y-4 ps-6 leading-8">
				<li>ثبّت على جوالك تطبيقاً للمصادقة، مثل «Google Authenticator» أو «Microsoft Authenticator».</li>
				<li>
					<p>افتح التطبيق واختر إضافة حساب، ثم امسح هذا الرمز:</p>
					<img src={qr} alt="رمز QR لإضافة حسابك في عطاء إلى تطبيق المصادقة" width={200} height={200} className="my-3 rounded-lg border border-stone-200 bg-white p-2" />
					<details className="text-sm">
						<summary className="cursor-pointer text-brand-800 underline underline-offset-4">لا أستطيع مسح الرمز</summary>
						<p className="mt-2">اكتب هذا المفتاح في التطبيق بدلاً منه (النوع: حسب الوقت):</p>
						<p dir="ltr" className="mt-1 font-mono text-base tracking-wider select-all" data-testid="two-step-secret">
							{grouped}
						</p>
					</details>
				</li>
				<li>اكتب الرمز المكوّن من 6 أرقام الذي يظهر في التطبيق.</li>
			</ol>
			<Form method="post" noValidate className="space-y-5">
				<input type="hidden" name="intent" value="enable" />
				<input type="hidden" name="secret" value={secret} />
				{redirectTo !== undefined ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
				<CodeField error={error} hint="6 أرقام، تتغير كل 30 ثانية" />
				<button type="submit" className="btn-primary w-full">
					تفعيل التحقق بخطوتين
				</button>
			</Form>
		</div>
	)
}

/** The recovery codes, shown once: after setting up, or after asking for new ones. */
export function RecoveryCodes({ codes, children }: { codes: readonly string[]; children: ReactNode }) {
	return (
		<div className="space-y-4">
			<div role="status" className="rounded-lg border border-brand-200 bg-brand-50 p-4">
				<h2 className="text-lg font-bold text-brand-900">احفظ رموز الاسترداد الآن</h2>
				<p className="mt-2 leading-7">إن فقدت جوالك تدخل بأحد هذه الرموز بدلاً من رمز التطبيق، وكل رمز يُستعمل مرة واحدة. لن تظهر مرة أخرى: اطبعها أو اكتبها واحفظها في مكان آمن بعيداً عن جوالك.</p>
			</div>
			<ol dir="ltr" className="grid grid-cols-2 gap-2 rounded-lg border border-stone-200 bg-white p-4 font-mono text-base" data-testid="recovery-codes">
				{codes.map((code) => (
					<li key={code}>{code}</li>
				))}
			</ol>
			{children}
		</div>
	)
}

/** The second step of signing in: a code from the app, or (a phone lost) a recovery code. */
export function TwoStepCodeForm({ error, redirectTo, recovery }: { error?: TwoStepError; redirectTo: string; recovery?: boolean }) {
	return (
		<div className="space-y-5">
			{summaryOf(error)}
			<Form method="post" noValidate className="space-y-5">
				<input type="hidden" name="redirectTo" value={redirectTo} />
				<CodeField error={recovery ? undefined : error} hint="6 أرقام من تطبيق المصادقة على جوالك" />
				<button type="submit" className="btn-primary w-full">
					تحقق ودخول
				</button>
			</Form>
			{/* Letters and dashes: a field of its own, with the whole keyboard on a phone. */}
			<details open={recovery} className="rounded-lg border border-stone-200 p-4">
				<summary className="cursor-pointer font-semibold text-brand-800">فقدت جوالي: الدخول برمز استرداد</summary>
				<Form method="post" noValidate className="mt-4 space-y-4">
					<input type="hidden" name="redirectTo" value={redirectTo} />
					<Field
						label="رمز الاسترداد"
						hint="أحد الرموز العشرة التي حفظتها عند إعداد التطبيق، مثل abcd-efgh-…"
						errors={recovery && error ? [error.message] : undefined}
						inputProps={{ id: 'recovery-code', name: 'recoveryCode', type: 'text', autoComplete: 'off', autoCapitalize: 'none', dir: 'ltr', spellCheck: false, required: true, maxLength: 40 }}
					/>
					<button type="submit" className="btn-secondary w-full">
						الدخول برمز الاسترداد
					</button>
				</Form>
			</details>
		</div>
	)
}
