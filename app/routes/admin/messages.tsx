import { useState } from 'react'
import { data, Form, Link, useNavigation } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/messages'
import { requireRole } from '#app/auth/user-context.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { areaRoles } from '#app/db/roles.ts'
import { flashContext, notices, redirectWithFlash } from '#app/http/flash.server.ts'
import { noteAudit, audited } from '#app/audit/audit-trail.server.ts'
import { ErrorSummary, Field, FlashNotice, PageTitle, TextareaField } from '#app/components/forms.tsx'
import { resetTemplate, rewordedTemplates, saveTemplate, templateOf } from '#app/notify/template-store.server.ts'
import { smsSegments } from '#app/notify/sms-segments.ts'
import { fieldsOf, messageEvent, messageEvents, placeholders, renderMessage, sampleValues, smsParts, templateProblems, type MessageEventDef, type TemplateField, type TemplateFields, type TemplateValues } from '#app/notify/templates.ts'
import { countOf } from '#app/text/arabic-count.ts'
import { characters } from '#app/text/messages.ts'
import { formatDateTime } from '#app/text/format.ts'
import { publicOrigin } from '#app/utils/env.server.ts'
import type { AdminHandle } from './layout.tsx'

// The words of every message the foundation sends (docs/product.md#messages): an admin rewords an
// event's SMS and e-mail, sees them as sent with sample values («معاينة» works without JavaScript;
// with it the preview follows the typing), and may go back to the default text (app/notify/templates.ts).

export const handle: AdminHandle = { breadcrumb: 'نصوص الرسائل' }

// A preview changes nothing: only a save and a reset are recorded.
export const middleware = [audited({ read: false, write: { byIntent: { save: 'messages.template', reset: 'messages.template' } } })]

const PATH = '/admin/messages'
const editorPath = (event: string) => `${PATH}?event=${encodeURIComponent(event)}`

const text = z
	.string()
	.optional()
	.transform((value) => (value ?? '').replace(/\r\n?/g, '\n'))
const schema = z.object({
	intent: z.enum(['preview', 'save', 'reset'], { error: 'الطلب غير صالح' }),
	event: z.string({ error: 'الرسالة غير معروفة' }),
	sms: text,
	emailSubject: text,
	emailBody: text,
})

export async function loader({ request, context }: Route.LoaderArgs) {
	requireRole(context, areaRoles.users)
	const db = await getDb()
	const stored = await rewordedTemplates(db)
	const changed = new Map(stored.map((row) => [row.event, row.updatedAt]))
	const smsOf = new Map(stored.map((row) => [row.event, row.sms]))
	const origin = publicOrigin()
	// How many parts each SMS goes in with the sample values (issue 37, part 2.7), before the staff's
	// message: that one is as long as they write it, and the editor's preview counts it.
	const partsOf = (event: MessageEventDef) =>
		event.channels.includes('sms')
			? smsSegments(renderMessage({ ...event.defaults, sms: smsOf.get(event.event) ?? event.defaults.sms }, { ...sampleValues(event, origin), staffMessage: '' }).sms).segments
			: null
	const chosen = new URL(request.url).searchParams.get('event')
	const definition = chosen ? messageEvent(chosen) : undefined
	if (chosen && !definition) throw data('الرسالة غير موجودة', { status: 404 })
	return {
		notice: context.get(flashContext),
		events: messageEvents.map((event) => ({
			event: event.event,
			label: event.label,
			audience: event.audience,
			changed: changed.has(event.event) ? formatDateTime(changed.get(event.event)!) : null,
			smsParts: partsOf(event),
			staffLine: event.offers.includes('staffMessage'),
		})),
		editing: definition
			? {
					event: definition.event,
					label: definition.label,
					audience: definition.audience,
					fields: fieldsOf(definition),
					saved: await templateOf(db, definition),
					changed: changed.has(definition.event),
					placeholders: definition.offers.map((key) => ({ token: `{${placeholders[key].token}}`, meaning: definition.meanings?.[key] ?? placeholders[key].label })),
					samples: sampleValues(definition, origin),
				}
			: null,
	}
}

export async function action({ request, context }: Route.ActionArgs) {
	const user = requireRole(context, areaRoles.users)
	const parsed = schema.safeParse(Object.fromEntries(await request.formData()))
	const definition = parsed.success ? messageEvent(parsed.data.event) : undefined
	if (!parsed.success || !definition) throw data('الرسالة غير معروفة', { status: 400 })
	const { intent, event, ...typed } = parsed.data
	const fields: TemplateFields = { ...typed, sms: definition.channels.includes('sms') ? typed.sms : '' }
	const db = await getDb()
	if (intent === 'reset') {
		await resetTemplate(db, event)
		noteAudit(context, { data: { event, reset: true } })
		return redirectWithFlash(editorPath(event), { tone: 'success', message: 'تمت استعادة النص الافتراضي' })
	}
	const problems = templateProblems(definition, fields)
	if (intent === 'preview') return { event, values: fields, errors: problems, previewed: true }
	if (Object.keys(problems).length) return data({ event, values: fields, errors: problems, previewed: false }, { status: 400 })
	await saveTemplate(db, event, fields, user.id)
	noteAudit(context, { data: { event } })
	return redirectWithFlash(editorPath(event), notices.updated)
}

const fieldLabels: Record<TemplateField, string> = { sms: 'نص الرسالة النصية', emailSubject: 'عنوان البريد الإلكتروني', emailBody: 'نص البريد الإلكتروني' }

export default function MessageTemplates({ loaderData, actionData }: Route.ComponentProps) {
	const { editing } = loaderData
	const typed = editing && actionData?.event === editing.event ? actionData : undefined
	return (
		<>
			<PageTitle title={editing ? `${editing.label} - نصوص الرسائل` : 'نصوص الرسائل'} error={Boolean(typed && Object.keys(typed.errors).length)} />
			<h1 className="text-2xl font-bold text-brand-900">نصوص الرسائل</h1>
			<p className="mt-1 max-w-3xl text-stone-700">
				ما تقوله المؤسسة للمتقدمين في الرسائل النصية والبريد الإلكتروني عند كل حدث في طلباتهم. الرسائل للإبلاغ عن الطلبات فقط، لا للترويج، ولا تحمل رابطاً خاصاً: رابطها صفحة الاستعلام، ويدخلها المتقدم برمز يصل إلى جواله.
			</p>
			<FlashNotice notice={loaderData.notice} live className="mt-4" />
			<div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]">
				<nav aria-label="الرسائل" className="min-w-0">
					<ul className="space-y-2">
						{loaderData.events.map((event) => (
							<li key={event.event}>
								<Link
									to={editorPath(event.event)}
									aria-current={editing?.event === event.event ? 'page' : undefined}
									className={`block rounded-lg border p-3 hover:border-brand-600 ${editing?.event === event.event ? 'border-brand-600 bg-brand-50' : 'border-stone-200 bg-white'}`}
								>
									<span className="font-semibold">{event.label}</span>
									<span className="block text-sm text-stone-600">
										{event.audience === 'foundation' ? 'إلى المؤسسة، بالبريد الإلكتروني' : 'إلى المتقدم'} — {event.changed ? `نص معدّل (${event.changed})` : 'النص الافتراضي'}
									</span>
									{event.smsParts ? (
										<span className={`block text-sm ${event.smsParts > 2 ? 'font-semibold text-amber-800' : 'text-stone-600'}`}>
											الرسالة النصية في {countOf(event.smsParts, smsParts)}
											{event.staffLine ? ' دون رسالة الموظف' : ''}
										</span>
									) : null}
								</Link>
							</li>
						))}
					</ul>
				</nav>
				{editing ? (
					<Editor key={`${editing.event}-${typed ? JSON.stringify(typed.values) : 'saved'}`} editing={editing} typed={typed} />
				) : (
					<p className="rounded-xl border border-stone-200 bg-white p-6 text-stone-700">اختر رسالة من القائمة لتعديل نصها.</p>
				)}
			</div>
		</>
	)
}

type Editing = NonNullable<Route.ComponentProps['loaderData']['editing']>
type Typed = { values: TemplateFields; errors: Partial<Record<TemplateField, string[]>>; previewed: boolean }

function Editor({ editing, typed }: { editing: Editing; typed: Typed | undefined }) {
	const busy = useNavigation().state !== 'idle'
	const [fields, setFields] = useState<TemplateFields>(typed?.values ?? editing.saved)
	const errors = typed?.errors ?? {}
	const summary = editing.fields.flatMap((field) => (errors[field] ?? []).map((message) => ({ message, fieldId: `template-${field}` })))
	const preview = renderMessage(fields, editing.samples as TemplateValues)
	const parts = smsSegments(preview.sms)
	const change = (field: TemplateField) => (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setFields((current) => ({ ...current, [field]: event.target.value }))
	return (
		<section aria-labelledby="editor-title" className="min-w-0 space-y-6">
			<div className="rounded-xl border border-stone-200 bg-white p-6">
				<h2 id="editor-title" className="text-xl font-bold text-brand-900">
					{editing.label}
				</h2>
				<p className="mt-1 text-sm text-stone-600">{editing.changed ? 'نص معدّل' : 'النص الافتراضي'}</p>
				{/* A preview's problems are said beside it; a refused save's at the top. */}
				{typed && !typed.previewed ? <ErrorSummary items={summary} /> : null}
				<Form method="post" action={editorPath(editing.event)} noValidate className="mt-4 space-y-5">
					<input type="hidden" name="event" value={editing.event} />
					{editing.fields.includes('sms') ? (
						<TextareaField
							label={fieldLabels.sms}
							hint="سطر لكل جملة؛ رسالة الموظف تُختصر إن طالت الرسالة."
							errors={errors.sms}
							textareaProps={{ id: 'template-sms', name: 'sms', rows: 5, value: fields.sms, onChange: change('sms'), dir: 'rtl' }}
						/>
					) : null}
					<Field label={fieldLabels.emailSubject} errors={errors.emailSubject} inputProps={{ id: 'template-emailSubject', name: 'emailSubject', value: fields.emailSubject, onChange: change('emailSubject') }} />
					<TextareaField
						label={fieldLabels.emailBody}
						hint="سطر فارغ بين الفقرات."
						errors={errors.emailBody}
						textareaProps={{ id: 'template-emailBody', name: 'emailBody', rows: 12, value: fields.emailBody, onChange: change('emailBody') }}
					/>
					<div className="flex flex-wrap gap-3">
						<button type="submit" name="intent" value="save" disabled={busy} className="btn-primary">
							حفظ
						</button>
						<button type="submit" name="intent" value="preview" disabled={busy} className="btn-secondary">
							معاينة
						</button>
					</div>
				</Form>
				{editing.changed ? (
					<Form method="post" action={editorPath(editing.event)} className="mt-3">
						<input type="hidden" name="event" value={editing.event} />
						<button type="submit" name="intent" value="reset" disabled={busy} className="link inline-flex min-h-11 items-center">
							استعادة النص الافتراضي
						</button>
					</Form>
				) : null}
			</div>

			<div className="rounded-xl border border-stone-200 bg-white p-6">
				<h3 className="text-lg font-bold text-brand-900">المتغيرات المتاحة</h3>
				<p className="mt-1 text-sm text-stone-600">اكتب المتغير بين قوسين كما هو. السطر الذي تكون كل متغيراته فارغة لا يُرسل (رسالة الموظف حين لا يكتب شيئاً).</p>
				<dl className="mt-3 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
					{editing.placeholders.map((placeholder) => (
						<div key={placeholder.token} className="contents">
							<dt className="font-semibold">
								<code>{placeholder.token}</code>
							</dt>
							<dd>{placeholder.meaning}</dd>
						</div>
					))}
				</dl>
			</div>

			<div className="rounded-xl border border-stone-200 bg-white p-6" aria-live="polite">
				<h3 className="text-lg font-bold text-brand-900">المعاينة بقيم تجريبية</h3>
				{typed?.previewed && summary.length ? (
					<ul className="mt-2 list-disc space-y-1 ps-5 text-sm font-semibold text-red-800">
						{summary.map((item) => (
							<li key={item.message}>{item.message}</li>
						))}
					</ul>
				) : null}
				{editing.fields.includes('sms') ? (
					<>
						<h4 className="mt-4 font-semibold">الرسالة النصية</h4>
						<p className="mt-1 whitespace-pre-line rounded-lg bg-stone-50 p-3">{preview.sms}</p>
						<p className="mt-1 text-sm text-stone-700">
							عدد الأحرف: {parts.characters} — تُرسل في {countOf(parts.segments, smsParts)} ({parts.encoding === 'ucs-2' ? 'ترميز UCS-2 للعربية' : 'ترميز GSM-7'}، {countOf(parts.perSegment, characters)} في كل رسالة)
						</p>
					</>
				) : null}
				<h4 className="mt-4 font-semibold">البريد الإلكتروني</h4>
				<p className="mt-1 text-sm">
					<span className="font-semibold">العنوان:</span> {preview.subject}
				</p>
				<p className="mt-1 whitespace-pre-line rounded-lg bg-stone-50 p-3">{preview.body}</p>
			</div>
		</section>
	)
}
