import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form } from 'react-router'
import type { Route } from './+types/foundation'
import { getDb } from '#app/db/database.server.ts'
import { requireRole } from '#app/auth/user-context.server.ts'
import { foundationSchema } from '#app/domain/foundation-schema.ts'
import { getFoundationInfo, updateFoundationInfo } from '#app/domain/foundation-details.server.ts'
import { formatPhone } from '#app/text/format.ts'
import { flashContext, notices, redirectWithFlash } from '#app/http/flash.server.ts'
import { sanitizeRichText } from '#app/utils/sanitize-html.server.ts'
import { areaRoles } from '#app/db/roles.ts'
import { ErrorSummary, Field, FlashNotice, PageTitle, useSubmitCount, validationTiming } from '#app/components/forms.tsx'
import { RichTextEditor } from '#app/components/rich-text-editor.tsx'
import type { AdminHandle } from './layout.tsx'
import { audited } from '#app/audit/audit-trail.server.ts'

export const handle: AdminHandle = { breadcrumb: 'بيانات المؤسسة' }

export const middleware = [audited({ read: false, write: 'foundation.change' })]

export async function loader({ context }: Route.LoaderArgs) {
	requireRole(context, areaRoles.content)
	const { name, about, email, location, phone, phone2, twitter, linkedin, youtube, facebook, instagram, mapUrl } = await getFoundationInfo(await getDb())
	return {
		notice: context.get(flashContext),
		values: { name, about, email, location, phone: formatPhone(phone), phone2: formatPhone(phone2), twitter, linkedin, youtube, facebook, instagram, mapUrl },
	}
}

export async function action({ request, context }: Route.ActionArgs) {
	requireRole(context, areaRoles.content)
	const submission = parseWithZod(await request.formData(), { schema: foundationSchema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	const about = sanitizeRichText(submission.value.about)
	if (!about.replace(/<[^>]*>/g, '').trim()) {
		return data({ result: submission.reply({ fieldErrors: { about: ['الرجاء كتابة نبذة عن المؤسسة'] } }) }, { status: 400 })
	}
	await updateFoundationInfo(await getDb(), { ...submission.value, about })
	return redirectWithFlash('/admin/foundation', notices.updated)
}

const links = [
	['twitter', 'حساب إكس (تويتر)'],
	['linkedin', 'لينكدإن'],
	['youtube', 'يوتيوب'],
	['instagram', 'إنستغرام'],
	['facebook', 'فيسبوك'],
] as const

export default function FoundationEditor({ loaderData, actionData }: Route.ComponentProps) {
	const [form, fields] = useForm({
		id: 'foundation',
		lastResult: actionData?.result,
		defaultValue: loaderData.values,
		...validationTiming,
		onValidate: ({ formData }) => parseWithZod(formData, { schema: foundationSchema }),
	})
	const [submitCount, countSubmit] = useSubmitCount()
	const order = ['name', 'about', 'email', 'location', 'phone', 'phone2', ...links.map(([key]) => key), 'mapUrl'] as const
	const summary = order.flatMap((key) => (fields[key].errors ?? []).map((message) => ({ message, fieldId: fields[key].id })))
	const failed = submitCount > 0 || actionData?.result.status === 'error'
	return (
		<>
			<PageTitle title="بيانات المؤسسة" error={failed && summary.length > 0} />
			<h1 className="text-2xl font-bold text-brand-900">بيانات المؤسسة</h1>
			<p className="mt-1 text-stone-700">تظهر في تذييل الموقع وصفحة التواصل وصفحة النبذة.</p>
			<div className="mt-6 max-w-3xl">
				<FlashNotice notice={loaderData.notice} />
				{failed ? <ErrorSummary key={submitCount} items={summary} /> : null}
				<Form method="post" {...getFormProps(form)} onSubmitCapture={countSubmit} noValidate className="space-y-5 rounded-xl border border-stone-200 bg-white p-6">
					<Field label="اسم المؤسسة" errors={fields.name.errors} inputProps={getInputProps(fields.name, { type: 'text' })} />
					<RichTextEditor id={fields.about.id} name={fields.about.name} label="نبذة عن المؤسسة" defaultValue={loaderData.values.about} errors={fields.about.errors} />
					<Field label="البريد الإلكتروني" errors={fields.email.errors} inputProps={{ ...getInputProps(fields.email, { type: 'email' }), dir: 'ltr' }} />
					<Field label="العنوان" errors={fields.location.errors} inputProps={getInputProps(fields.location, { type: 'text' })} />
					<div className="grid gap-5 sm:grid-cols-2">
						<Field label="الهاتف" errors={fields.phone.errors} inputProps={{ ...getInputProps(fields.phone, { type: 'tel' }), dir: 'ltr', inputMode: 'numeric' }} />
						<Field label="الهاتف الثاني (الجوال)" errors={fields.phone2.errors} inputProps={{ ...getInputProps(fields.phone2, { type: 'tel' }), dir: 'ltr', inputMode: 'numeric' }} />
					</div>
					<fieldset className="space-y-4 rounded-lg border border-stone-200 p-4">
						<legend className="px-2 font-semibold">حسابات التواصل الاجتماعي (اختيارية)</legend>
						{links.map(([key, label]) => (
							<Field key={key} label={label} errors={fields[key].errors} inputProps={{ ...getInputProps(fields[key], { type: 'url' }), dir: 'ltr' }} />
						))}
					</fieldset>
					<Field
						label="رابط الخريطة (اختياري)"
						hint="من خرائط Google: مشاركة ← تضمين خريطة، ثم انسخ الرابط الذي في src. يظهر في صفحة التواصل عند طلب الزائر."
						errors={fields.mapUrl.errors}
						inputProps={{ ...getInputProps(fields.mapUrl, { type: 'url' }), dir: 'ltr' }}
					/>
					<button type="submit" className="btn-primary">
						حفظ
					</button>
				</Form>
			</div>
		</>
	)
}
