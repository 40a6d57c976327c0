import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form } from 'react-router'
import type { Route } from './+types/contact'
import { getDb } from '#app/db/database.server.ts'
import { addressCheck, countHits, type IpLimited } from '#app/http/ip-limit.server.ts'
import type { RateLimitRule } from '#app/http/rate-limit.server.ts'
import { actionHeaders } from '#app/utils/action-headers.ts'
import { contactSchema } from '#app/domain/contact-schema.ts'
import { markEmailed, storeInquiry } from '#app/domain/contact-messages.server.ts'
import { contactChannels, type ContactChannel } from '#app/domain/foundation-details.ts'
import { getFoundationInfo } from '#app/domain/foundation-details.server.ts'
import { getNotifier } from '#app/notify/notifier.server.ts'
import { flashContext, redirectWithFlash, type Flash } from '#app/http/flash.server.ts'
import { ErrorSummary, Field, Honeypot, isHoneypotFilled, FlashNotice, PageTitle, TextareaField, TOO_MANY_TRIES, useSubmitCount, validationTiming } from '#app/components/forms.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { describeError, logger } from '#app/utils/log.server.ts'

/**
 * Messages per sender (e-mail and mobile) where the abuse is; per address only a ceiling that an
 * office or a carrier's shared address does not reach (docs/security.md#rate-limits).
 */
export const contactLimits = {
	address: { bucket: 'contact:ip', limit: 100, windowSeconds: 60 * 60 },
	email: { bucket: 'contact:email', limit: 5, windowSeconds: 60 * 60 },
	mobile: { bucket: 'contact:mobile', limit: 5, windowSeconds: 60 * 60 },
} satisfies Record<string, RateLimitRule>

/** A refusal for too many messages says when to come back (Retry-After), on the page as in the answer. */
export const headers = actionHeaders

const sent: Flash = { tone: 'success', message: 'تم إرسال الرسالة بنجاح' }

export async function loader({ context }: Route.LoaderArgs) {
	const { name, location, email, phone, phone2, mapUrl } = await getFoundationInfo(await getDb())
	return { name, location, email, phone, phone2, mapUrl, notice: context.get(flashContext) }
}

export async function action({ request }: Route.ActionArgs) {
	const formData = await request.formData()
	const submission = parseWithZod(formData, { schema: contactSchema })
	const db = await getDb()
	// Refused in the form, with what was typed kept and when to try again.
	const refuse = (limited: IpLimited) => data({ result: submission.reply({ formErrors: [limited.message] }), limited: true }, { status: 429, headers: limited.headers })
	const ceiling = await countHits(db, [addressCheck(request, contactLimits.address)])
	if (ceiling) return refuse(ceiling)
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	// A bot filled the hidden field: answer as if sent, store nothing.
	if (isHoneypotFilled(formData)) return redirectWithFlash('/contact', sent)
	const { UserName: name, Email: email, Mobile: mobile, Subject: subject, InquiryText: message } = submission.value
	const bySender = await countHits(db, [
		{ rule: contactLimits.email, key: email.toLowerCase(), reason: 'رسائل كثيرة من هذا البريد الإلكتروني في الساعة الأخيرة.' },
		{ rule: contactLimits.mobile, key: mobile, reason: 'رسائل كثيرة من رقم الجوال هذا في الساعة الأخيرة.' },
	])
	if (bySender) return refuse(bySender)
	try {
		const inquiry = await storeInquiry(db, { name, email, mobile, subject, message })
		const foundation = await getFoundationInfo(db)
		if (await getNotifier().sendInquiry({ to: foundation.email, name, email, mobile, subject, message })) await markEmailed(db, inquiry.id)
	} catch (error) {
		logger.error({ error: describeError(error) }, 'contact: could not store the message')
		return data({ result: submission.reply({ formErrors: ['حدث خطأ'] }) }, { status: 500 })
	}
	return redirectWithFlash('/contact#contact-form', sent)
}

export default function Contact({ loaderData: info, actionData }: Route.ComponentProps) {
	const rows: (Omit<ContactChannel, 'href'> & { href?: string })[] = [{ label: 'العنوان', value: info.location }, ...contactChannels(info)]
	return (
		<>
			<PageHeader title="تواصل معنا" lead={`يسعدنا تواصلكم مع ${info.name} عبر القنوات التالية أو نموذج التواصل.`} />
			<div className="mx-auto grid max-w-7xl gap-8 px-4 py-8 lg:grid-cols-2">
				<div className="space-y-6">
					<dl className="grid gap-4 sm:grid-cols-2">
						{rows.map((row) => (
							<div key={row.label} className="rounded-xl border border-stone-200 bg-white p-5">
								<dt className="text-sm text-stone-600">{row.label}</dt>
								<dd className="mt-1 font-semibold">
									{row.href ? (
										<a href={row.href} className="link" dir={row.ltr ? 'ltr' : undefined}>
											{row.value}
										</a>
									) : (
										row.value
									)}
								</dd>
							</div>
						))}
					</dl>
					{info.mapUrl ? (
						// Nothing from the map's host loads until the visitor opens it (a closed <details> renders no frame).
						<details className="group rounded-xl border border-stone-200 bg-white">
							<summary className="flex min-h-24 items-center justify-center gap-2 rounded-xl bg-brand-50 p-6 font-semibold text-brand-800">
								<svg viewBox="0 0 24 24" className="size-6" aria-hidden="true">
									<path d="M12 21s-7-6.2-7-11.5A7 7 0 0 1 19 9.5C19 14.8 12 21 12 21Zm0-9a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5Z" fill="currentColor" />
								</svg>
								عرض موقعنا على الخريطة
							</summary>
							<iframe src={info.mapUrl} title="موقع المؤسسة على الخريطة" loading="lazy" referrerPolicy="no-referrer" className="h-80 w-full rounded-b-xl border-0" />
						</details>
					) : null}
				</div>
				{/* A new key after each message sent, so the form starts empty again. */}
				<ContactForm key={info.notice?.issued ?? 'form'} notice={actionData ? null : info.notice} lastResult={actionData?.result} limited={actionData !== undefined && 'limited' in actionData} />
			</div>
		</>
	)
}

function ContactForm({ notice, lastResult, limited }: { notice: Flash | null; lastResult?: SubmissionResult<string[]>; limited: boolean }) {
	const [form, fields] = useForm({
		id: 'contact',
		lastResult,
		...validationTiming,
		onValidate: ({ formData }) => parseWithZod(formData, { schema: contactSchema }),
	})
	const [submitCount, countSubmit] = useSubmitCount()
	const order = ['UserName', 'Email', 'Mobile', 'Subject', 'InquiryText'] as const
	const summary = [
		...(form.errors ?? []).map((message) => ({ message })),
		...order.flatMap((key) => (fields[key].errors ?? []).map((message) => ({ message, fieldId: fields[key].id }))),
	]
	const failed = submitCount > 0 || lastResult?.status === 'error'
	return (
		<section id="contact-form" aria-labelledby="contact-form-title" className="rounded-xl border border-stone-200 bg-white p-5">
			<PageTitle title="تواصل معنا" error={failed && summary.length > 0} />
			<h2 id="contact-form-title" className="text-xl font-bold text-brand-900">
				نموذج التواصل
			</h2>
			<div className="mt-4">
				<FlashNotice notice={notice} />
				{failed ? <ErrorSummary key={submitCount} items={summary} title={limited ? TOO_MANY_TRIES : undefined} /> : null}
			</div>
			<Form method="post" {...getFormProps(form)} onSubmitCapture={countSubmit} noValidate className="space-y-5">
				<Honeypot />
				<Field label="الاسم" errors={fields.UserName.errors} inputProps={{ ...getInputProps(fields.UserName, { type: 'text' }), autoComplete: 'name' }} />
				<Field label="البريد الإلكتروني" errors={fields.Email.errors} inputProps={{ ...getInputProps(fields.Email, { type: 'email' }), autoComplete: 'email', dir: 'ltr' }} />
				<Field
					label="رقم الجوال"
					hint="10 أرقام تبدأ بـ 05"
					errors={fields.Mobile.errors}
					inputProps={{ ...getInputProps(fields.Mobile, { type: 'tel' }), autoComplete: 'tel', inputMode: 'numeric', dir: 'ltr' }}
				/>
				<Field label="الموضوع" errors={fields.Subject.errors} inputProps={getInputProps(fields.Subject, { type: 'text' })} />
				<TextareaField label="الرسالة" errors={fields.InquiryText.errors} textareaProps={{ ...getTextareaProps(fields.InquiryText), rows: 6 }} />
				<button type="submit" className="btn-primary">
					إرسال
				</button>
			</Form>
		</section>
	)
}
