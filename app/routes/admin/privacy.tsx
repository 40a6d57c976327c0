import { data, Form, Link } from 'react-router'
import type { Route } from './+types/privacy'
import { getDb } from '#app/db/database.server.ts'
import { requireRole } from '#app/auth/user-context.server.ts'
import { noteAudit, audited } from '#app/audit/audit-trail.server.ts'
import { areaRoles } from '#app/db/roles.ts'
import { currentNotice, EmptyNoticeError, findNotice, listNotices, publishNotice } from '#app/privacy/notice.server.ts'
import { formatDateTime } from '#app/text/format.ts'
import { flashContext, redirectWithFlash } from '#app/http/flash.server.ts'
import { ErrorSummary, FlashNotice, PageTitle } from '#app/components/forms.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import { RichTextEditor } from '#app/components/rich-text-editor.tsx'
import type { AdminHandle } from './layout.tsx'

// The privacy notice's editor (docs/product.md#privacy-and-consent): every save publishes a new
// version, shown at /privacy at once; earlier versions stay readable here, since a case's consent
// names the version it was given under.

export const handle: AdminHandle = { breadcrumb: 'إشعار الخصوصية' }

export const middleware = [audited({ read: false, write: 'privacy.publish' })]

const EMPTY = 'الرجاء كتابة نص الإشعار'

export async function loader({ request, context }: Route.LoaderArgs) {
	requireRole(context, areaRoles.content)
	const db = await getDb()
	const asked = new URL(request.url).searchParams.get('version')
	const [current, versions, shown] = await Promise.all([currentNotice(db), listNotices(db), asked ? findNotice(db, Number(asked)) : undefined])
	if (asked && !shown) throw data(null, { status: 404 })
	return {
		notice: context.get(flashContext),
		current: current ? { version: current.version, body: current.body } : null,
		versions: versions.map((version) => ({ version: version.version, at: formatDateTime(version.publishedAt), by: version.publishedByName || '—' })),
		// An earlier version opened from the list, to read (not to edit: the editor always starts from the current one).
		shown: shown ? { version: shown.version, body: shown.body, at: formatDateTime(shown.publishedAt), by: shown.publishedByName || '—' } : null,
	}
}

export async function action({ request, context }: Route.ActionArgs) {
	const user = requireRole(context, areaRoles.content)
	const body = String((await request.formData()).get('body') ?? '')
	try {
		const published = await publishNotice(await getDb(), body, user)
		noteAudit(context, { data: { version: published.version } })
		return redirectWithFlash('/admin/privacy', { tone: 'success', message: `نُشر الإصدار ${published.version} من إشعار الخصوصية، ويظهر الآن في صفحة الخصوصية.` })
	} catch (error) {
		if (!(error instanceof EmptyNoticeError)) throw error
		// What was typed comes back into the editor: nothing is lost.
		return data({ error: EMPTY, body }, { status: 400 })
	}
}

export default function PrivacyEditor({ loaderData, actionData }: Route.ComponentProps) {
	const { current, versions, shown } = loaderData
	const error = actionData?.error
	return (
		<>
			<PageTitle title="إشعار الخصوصية" error={Boolean(error)} />
			<h1 className="text-2xl font-bold text-brand-900">إشعار الخصوصية</h1>
			<p className="mt-1 max-w-3xl text-stone-700">
				يظهر في{' '}
				<a href="/privacy" className="link">
					صفحة الخصوصية
				</a>{' '}
				وفي بداية كل طلب. كل حفظ ينشر إصداراً جديداً برقم جديد، ويبقى كل إصدار سابق محفوظاً: تُسجَّل موافقة المتقدم مع رقم الإصدار الذي وافق في ظله.
			</p>
			<div className="mt-6 max-w-3xl space-y-6">
				<FlashNotice notice={loaderData.notice} />
				{error ? <ErrorSummary items={[{ message: error, fieldId: 'privacy-body' }]} /> : null}
				<Form method="post" className="space-y-5 rounded-xl border border-stone-200 bg-white p-6">
					<p className="font-semibold">{current ? `الإصدار الحالي: ${current.version}` : 'لم يُنشر إصدار بعد.'}</p>
					<RichTextEditor
						key={actionData?.body ?? current?.version ?? 0}
						id="privacy-body"
						name="body"
						label="نص الإشعار"
						hint="اسم المؤسسة ووسائل التواصل معها تظهر فوق النص تلقائياً من بيانات المؤسسة."
						defaultValue={actionData?.body ?? current?.body ?? ''}
						errors={error ? [error] : undefined}
					/>
					<button type="submit" className="btn-primary">
						نشر إصدار جديد
					</button>
				</Form>

				{shown ? (
					<section aria-labelledby="shown-version" className="rounded-xl border border-stone-200 bg-white p-6">
						<h2 id="shown-version" className="text-xl font-bold text-brand-900">
							نص الإصدار {shown.version}
						</h2>
						<p className="mt-1 text-sm text-stone-700">
							نُشر في {shown.at} — {shown.by}
						</p>
						<div
							className="mt-4 space-y-3 [&_a]:text-brand-700 [&_a]:underline [&_h2]:mt-4 [&_h2]:text-lg [&_h2]:font-bold [&_h3]:font-bold [&_ol]:list-decimal [&_ol]:ps-6 [&_ul]:list-disc [&_ul]:ps-6"
							dangerouslySetInnerHTML={{ __html: shown.body }}
						/>
						<Link to="/admin/privacy" className="link mt-4 inline-flex min-h-11 items-center">
							إغلاق النص
						</Link>
					</section>
				) : null}

				<section aria-labelledby="versions" className="rounded-xl border border-stone-200 bg-white p-6">
					<h2 id="versions" className="text-xl font-bold text-brand-900">
						الإصدارات
					</h2>
					<DataTable
						variant="plain"
						label="جدول الإصدارات"
						caption="إصدارات إشعار الخصوصية"
						headings={['الإصدار', 'تاريخ النشر', 'نشره', <span className="sr-only">النص</span>]}
						headCellClassName="p-2 text-start"
						className="mt-3"
					>
						{versions.map((version, index) => (
							<tr key={version.version} className="border-b border-stone-100">
								<td className="p-2 font-semibold">
									{version.version}
									{index === 0 ? ' (الحالي)' : ''}
								</td>
								<td className="p-2">{version.at}</td>
								<td className="p-2">{version.by}</td>
								<td className="p-2">
									<Link to={`/admin/privacy?version=${version.version}#shown-version`} className="link inline-flex min-h-11 items-center">
										عرض النص<span className="sr-only"> (الإصدار {version.version})</span>
									</Link>
								</td>
							</tr>
						))}
					</DataTable>
				</section>
			</div>
		</>
	)
}
