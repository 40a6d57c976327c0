import { data, Form, redirect } from 'react-router'
import type { Route } from './+types/inquiry'
import { getDb } from '#app/db/database.server.ts'
import { requireRole } from '#app/auth/user-context.server.ts'
import { readInquiry, setHandled } from '#app/domain/contact-messages.server.ts'
import { areaRoles } from '#app/db/roles.ts'
import { formatDateTime, formatSaudiMobile } from '#app/text/format.ts'
import { PageTitle } from '#app/components/forms.tsx'
import type { AdminHandle } from './layout.tsx'
import { audited } from '#app/audit/audit-trail.server.ts'

export const handle: AdminHandle = { breadcrumb: () => [{ to: '/admin/inquiries', label: 'رسائل التواصل' }, { label: 'رسالة' }] }

export const middleware = [audited({ read: 'inquiry.view', write: 'inquiry.change' })]

export async function loader({ params, context }: Route.LoaderArgs) {
	requireRole(context, areaRoles.content)
	const row = await readInquiry(await getDb(), params.id)
	if (!row) throw data(null, { status: 404 })
	return {
		inquiry: {
			id: row.id,
			name: row.name,
			email: row.email,
			mobile: formatSaudiMobile(row.mobile),
			subject: row.subject,
			message: row.message,
			at: formatDateTime(row.createdAt),
			handled: row.handledAt ? formatDateTime(row.handledAt) : null,
			emailed: row.emailedAt !== null,
		},
	}
}

export async function action({ params, request, context }: Route.ActionArgs) {
	const user = requireRole(context, areaRoles.content)
	const db = await getDb()
	if (!(await readInquiry(db, params.id))) throw data(null, { status: 404 })
	const handled = (await request.formData()).get('handled') === 'true'
	await setHandled(db, params.id, user.id, handled)
	return redirect(`/admin/inquiries/${params.id}`)
}

export default function Inquiry({ loaderData: { inquiry } }: Route.ComponentProps) {
	return (
		<>
			<PageTitle title={inquiry.subject} />
			<h1 className="text-2xl font-bold text-brand-900">{inquiry.subject}</h1>
			<div className="mt-4 max-w-3xl space-y-4 rounded-xl border border-stone-200 bg-white p-5">
				<dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
					<dt className="text-stone-600">المرسل</dt>
					<dd className="font-semibold">{inquiry.name}</dd>
					<dt className="text-stone-600">البريد الإلكتروني</dt>
					<dd>
						<a href={`mailto:${inquiry.email}`} className="link" dir="ltr">
							{inquiry.email}
						</a>
					</dd>
					<dt className="text-stone-600">الجوال</dt>
					<dd>
						<a href={`tel:${inquiry.mobile}`} className="link" dir="ltr">
							{inquiry.mobile}
						</a>
					</dd>
					<dt className="text-stone-600">التاريخ</dt>
					<dd>{inquiry.at}</dd>
					<dt className="text-stone-600">البريد</dt>
					<dd>{inquiry.emailed ? 'أُرسلت إلى بريد المؤسسة' : 'محفوظة هنا فقط (البريد غير مهيأ)'}</dd>
				</dl>
				<p className="whitespace-pre-line border-t border-stone-200 pt-4">{inquiry.message}</p>
				<Form method="post" className="flex flex-wrap items-center gap-3 border-t border-stone-200 pt-4">
					{inquiry.handled ? (
						<>
							<span role="status" className="font-semibold text-brand-800">
								تمت المعالجة في {inquiry.handled}
							</span>
							<button type="submit" name="handled" value="false" className="btn-secondary">
								إعادة فتح
							</button>
						</>
					) : (
						<button type="submit" name="handled" value="true" className="btn-primary">
							تمت المعالجة
						</button>
					)}
				</Form>
			</div>
		</>
	)
}
