import { data, Form, Link } from 'react-router'
import type { Route } from './+types/users'
import { getDb } from '#app/db/database.server.ts'
import { requireRole } from '#app/auth/user-context.server.ts'
import { deleteUserSessions } from '#app/auth/session.server.ts'
import { areaRoles, roleLabels } from '#app/domain/roles.ts'
import { countOtherActiveAdmins, countUsers, getUser, listUsers, setActive } from '#app/domain/users.server.ts'
import { paginate, pageParam } from '#app/utils/pagination.ts'
import { flashContext, notices, redirectWithFlash, type Flash } from '#app/utils/flash.server.ts'
import { formatDateTime, formatSaudiMobile } from '#app/utils/format.ts'
import { FlashNotice, PageTitle } from '#app/components/forms.tsx'
import { Paginator } from '#app/components/paginator.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import type { AdminHandle } from './layout.tsx'

export const handle: AdminHandle = { breadcrumb: 'المستخدمون' }

const PER_PAGE = 5

/** Refusals shown once after a redirect back to the list. */
const refusals = {
	self: { tone: 'error', message: 'لا يمكنك إيقاف حسابك أنت.' },
	'last-admin': { tone: 'error', message: 'لا يمكن إيقاف آخر مدير نظام فعّال.' },
} satisfies Record<string, Flash>

export async function loader({ request, context }: Route.LoaderArgs) {
	const me = requireRole(context, areaRoles.users)
	const db = await getDb()
	const pagination = paginate({ total: await countUsers(db), perPage: PER_PAGE, page: pageParam(request) })
	const { rows } = await listUsers(db, { offset: pagination.offset, limit: PER_PAGE })
	return {
		pagination,
		notice: context.get(flashContext),
		users: rows.map((user) => ({
			id: user.id,
			// Stopping one's own account is refused, so it is not offered.
			isMe: user.id === me.id,
			name: user.name,
			email: user.email,
			mobile: formatSaudiMobile(user.mobile),
			role: roleLabels[user.role],
			active: user.active,
			lastSignIn: user.lastSignInAt ? formatDateTime(user.lastSignInAt) : 'لم يسجل الدخول بعد',
		})),
	}
}

export async function action({ request, context }: Route.ActionArgs) {
	const me = requireRole(context, areaRoles.users)
	const formData = await request.formData()
	const id = Number(formData.get('userId'))
	const db = await getDb()
	const user = Number.isInteger(id) ? await getUser(db, id) : undefined
	if (formData.get('intent') !== 'toggle-active' || !user) throw data('طلب غير صالح', { status: 400 })

	const url = new URL(request.url)
	const back = url.pathname + url.search
	if (user.active) {
		if (user.id === me.id) return redirectWithFlash(back, refusals.self)
		if (user.role === 'admin' && (await countOtherActiveAdmins(db, user.id)) === 0) return redirectWithFlash(back, refusals['last-admin'])
		await setActive(db, user.id, false)
		await deleteUserSessions(db, user.id)
	} else {
		await setActive(db, user.id, true)
	}
	return redirectWithFlash(back, notices.updated)
}

export default function Users({ loaderData }: Route.ComponentProps) {
	const { users, pagination, notice } = loaderData
	return (
		<>
			<PageTitle title="المستخدمون" />
			<div className="flex flex-wrap items-center justify-between gap-3">
				<h1 className="text-2xl font-bold text-brand-900">المستخدمون</h1>
				<Link to="/admin/users/new" className="btn-primary">
					إضافة مستخدم
				</Link>
			</div>
			<div className="mt-4">
				<FlashNotice notice={notice} />
			</div>
			<DataTable label="جدول المستخدمين" caption={`قائمة المستخدمين، الصفحة ${pagination.page} من ${pagination.lastPage}`} headings={['#', 'الاسم', 'البريد الإلكتروني', 'الجوال', 'الصلاحية', 'الحالة', 'آخر دخول', 'الإجراءات']}>
						{users.map((user, index) => (
							<tr key={user.id} className="border-t border-stone-200">
								<td className="p-3">{pagination.offset + index + 1}</td>
								<td className="p-3 font-semibold">{user.name}</td>
								<td className="p-3" dir="ltr">{user.email}</td>
								<td className="p-3" dir="ltr">{user.mobile}</td>
								<td className="p-3">{user.role}</td>
								<td className="p-3">
									<span className={`rounded-full px-3 py-1 text-xs font-bold ${user.active ? 'bg-brand-100 text-brand-900' : 'bg-stone-200 text-stone-800'}`}>
										{user.active ? 'فعّال' : 'موقوف'}
									</span>
								</td>
								<td className="p-3 whitespace-nowrap">{user.lastSignIn}</td>
								<td className="p-3">
									<div className="flex flex-wrap gap-2">
										<Link to={`/admin/users/${user.id}/edit`} className="btn-secondary min-h-9 px-3 py-1 text-sm">
											تعديل<span className="sr-only"> {user.name}</span>
										</Link>
										{user.isMe ? (
											<span className="self-center text-sm text-stone-600">حسابك</span>
										) : (
											<Form method="post">
												<input type="hidden" name="intent" value="toggle-active" />
												<input type="hidden" name="userId" value={user.id} />
												<button type="submit" className="btn-secondary min-h-9 px-3 py-1 text-sm">
													{user.active ? 'إيقاف' : 'تفعيل'}
													<span className="sr-only"> {user.name}</span>
												</button>
											</Form>
										)}
									</div>
								</td>
							</tr>
						))}
					</DataTable>
			<Paginator pagination={pagination} />
		</>
	)
}
