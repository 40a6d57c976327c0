import { data, Form, useNavigation } from 'react-router'
import { z } from 'zod'
import { parseWithZod } from '@conform-to/zod/v4'
import type { Route } from './+types/subject-access'
import { getDb } from '#app/db/database.server.ts'
import { requireRole } from '#app/auth/user-context.server.ts'
import { noteAudit, audited } from '#app/audit/audit-trail.server.ts'
import { areaRoles } from '#app/db/roles.ts'
import { nationalIdField } from '#app/domain/validators.ts'
import { casesHeld, maskNationalId, summariseHeld } from '#app/operations/subject-access-export.server.ts'
import { formatNumber } from '#app/text/format.ts'
import { countOf, requests } from '#app/text/arabic-count.ts'
import { Field, FlashNotice, PageTitle } from '#app/components/forms.tsx'
import { flashContext } from '#app/http/flash.server.ts'
import type { AdminHandle } from './layout.tsx'

// Subject access (docs/operations.md#subject-access-requests): an admin looks up a national ID, sees
// what is held, and downloads all of it as one ZIP (app/routes/admin/subject-access-export.ts).

export const handle: AdminHandle = { breadcrumb: 'طلبات الاطلاع على البيانات' }

// Looking a national ID up reads what is held about a person.
export const middleware = [audited({ read: false, write: 'subject-access.lookup' })]

/** The same rules as the application forms; an ID staff accepted despite its checksum is still found. */
export const subjectAccessSchema = z.object({ nationalId: nationalIdField({ allowChecksumFailure: true }) })

export function loader({ context }: Route.LoaderArgs) {
	requireRole(context, areaRoles.users)
	return { notice: context.get(flashContext) }
}

export async function action({ request, context }: Route.ActionArgs) {
	requireRole(context, areaRoles.users)
	const formData = await request.formData()
	const submission = parseWithZod(formData, { schema: subjectAccessSchema })
	const typed = typeof submission.payload.nationalId === 'string' ? submission.payload.nationalId : ''
	if (submission.status !== 'success') return data({ nationalId: typed, errors: submission.error?.nationalId ?? ['رقم الهوية غير صحيح'], summary: null }, { status: 400 })
	const { nationalId } = submission.value
	const db = await getDb()
	const summary = await summariseHeld(db, await casesHeld(db, nationalId))
	noteAudit(context, { data: { nationalId: maskNationalId(nationalId), cases: summary.cases } })
	return { nationalId, errors: null, summary }
}

export default function SubjectAccess({ loaderData, actionData }: Route.ComponentProps) {
	const busy = useNavigation().state !== 'idle'
	const summary = actionData?.summary
	return (
		<>
			<PageTitle title="طلبات الاطلاع على البيانات" error={Boolean(actionData?.errors)} />
			<FlashNotice notice={loaderData.notice} live className="mb-4" />
			<h1 className="text-2xl font-bold text-brand-900">طلبات الاطلاع على البيانات</h1>
			<p className="mt-1 max-w-3xl text-stone-700">
				لكل شخص أن يطلب نسخة من بياناته الشخصية المحفوظة لدى المؤسسة، ويُجاب طلبه خلال 30 يوماً. اكتب رقم هويته لمعرفة ما هو محفوظ عنه، ثم نزّل نسخة كاملة منه: الطلبات وأقسامها، والمرفقات، وسجل كل طلب،
				والدعم المقدم. يُسجَّل البحث والتنزيل في سجل التدقيق.
			</p>
			<Form method="post" className="mt-4 flex max-w-xl flex-wrap items-end gap-3 rounded-xl border border-stone-200 bg-white p-4" noValidate>
				<Field
					className="min-w-0 flex-1"
					label="رقم الهوية أو الإقامة"
					hint="10 أرقام تبدأ بـ 1 أو 2"
					errors={actionData?.errors}
					inputProps={{ name: 'nationalId', defaultValue: actionData?.nationalId ?? '', inputMode: 'numeric', autoComplete: 'off', dir: 'ltr', required: true, maxLength: 20 }}
				/>
				<button type="submit" className="btn-primary" disabled={busy}>
					بحث
				</button>
			</Form>
			{summary ? (
				<section aria-labelledby="held" className="mt-6 max-w-xl rounded-xl border border-stone-200 bg-white p-4" role="status">
					<h2 id="held" className="text-lg font-bold text-brand-900">
						ما هو محفوظ لرقم الهوية <bdi dir="ltr">{actionData.nationalId}</bdi>
					</h2>
					{summary.cases === 0 ? (
						<p className="mt-2">لا توجد لدى المؤسسة أي بيانات لرقم الهوية هذا: لا طلبات ولا مرفقات. لا توجد نسخة لتنزيلها.</p>
					) : (
						<>
							<ul className="mt-2 list-disc space-y-1 ps-6">
								{summary.byType.map((item) => (
									<li key={item.type}>
										{item.title}: {countOf(item.count, requests)}
									</li>
								))}
								<li>المرفقات: {formatNumber(summary.files)}</li>
								{summary.purged ? <li>منها {formatNumber(summary.purged)} أُتلفت بياناتها بعد انتهاء مدة الاحتفاظ (يبقى سجلها المختصر)</li> : null}
							</ul>
							<form method="post" action="/admin/subject-access/export" className="mt-4">
								<input type="hidden" name="nationalId" value={actionData.nationalId} />
								<button type="submit" className="btn-primary">
									تنزيل نسخة البيانات (ZIP)
								</button>
							</form>
						</>
					)}
				</section>
			) : null}
		</>
	)
}
