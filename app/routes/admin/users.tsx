import { data, Form, Link } from 'react-router'
import type { Route } from './+types/users'
import { getDb } from '#app/db/database.server.ts'
import { requireRole } from '#app/auth/user-context.server.ts'
import { deleteUserSessions } from '#app/auth/session.server.ts'
import { resetTwoStep, setTwoStepRoles, twoStepRoles } from '#app/auth/totp.server.ts'
import { areaRoles, roleLabels, userRoles, hasRole, rolesLabel } from '#app/db/roles.ts'
import { countOtherActiveAdmins, countUsers, getUser, listUsers, setActive, softDeleteUser } from '#app/domain/staff-users.server.ts'
import { noteAudit, audited } from '#app/audit/audit-trail.server.ts'
import { paginate, pageParam } from '#app/utils/pagination.ts'
import { flashContext, notices, redirectWithFlash, type Flash } from '#app/http/flash.server.ts'
import { formatDateTime, formatSaudiMobile } from '#app/text/format.ts'
import { FlashNotice, PageTitle } from '#app/components/forms.tsx'
import { Paginator } from '#app/components/paginator.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import type { AdminHandle } from './layout.tsx'

export const handle: AdminHandle = { breadcrumb: 'المستخدمون' }

// Stopping or starting an account is told apart by the screen (user.deactivate, user.activate).
export const middleware = [
	audited({
		read: false,
		write: { byIntent: { delete: 'user.delete', 'two-step-roles': 'auth.two-step-roles', 'reset-two-step': 'auth.two-step-reset' } },
		screenActions: ['user.activate', 'user.deactivate'],
	}),
]

const PER_PAGE = 5

/** Refusals shown once after a redirect back to the list. */
const refusals = {
	self: { tone: 'error', message: 'لا يمكنك إيقاف حسابك أنت.' },
	'last-admin': { tone: 'error', message: 'لا يمكن إيقاف آخر مدير نظام فعّال.' },
	'delete-self': { tone: 'error', message: 'لا يمكنك حذف حسابك أنت.' },
	'delete-last-admin': { tone: 'error', message: 'لا يمكن حذف آخر مدير نظام فعّال.' },
	'delete-unconfirmed': { tone: 'error', message: 'الرجاء تأكيد الحذف بوضع علامة في المربع ثم الضغط على «حذف».' },
} satisfies Record<string, Flash>

export async function loader({ request, context }: Route.LoaderArgs) {
	const me = requireRole(context, areaRoles.users)
	const db = await getDb()
	const pagination = paginate({ total: await countUsers(db), perPage: PER_PAGE, page: pageParam(request) })
	const [{ rows }, required] = await Promise.all([listUsers(db, { offset: pagination.offset, limit: PER_PAGE }), twoStepRoles(db)])
	return {
		pagination,
		twoStepRoles: userRoles.map((role) => ({ role, label: roleLabels[role], required: required.includes(role) })),
		notice: context.get(flashContext),
		users: rows.map((user) => ({
			id: user.id,
			// Stopping one's own account is refused, so it is not offered.
			isMe: user.id === me.id,
			name: user.name,
			email: user.email,
			mobile: formatSaudiMobile(user.mobile),
			roles: rolesLabel(user.roles),
			active: user.active,
			twoStep: user.twoStep,
			lastSignIn: user.lastSignInAt ? formatDateTime(user.lastSignInAt) : 'لم يسجل الدخول بعد',
		})),
	}
}

export async function action({ request, context }: Route.ActionArgs) {
	const me = requireRole(context, areaRoles.users)
	const formData = await request.formData()
	const id = Number(formData.get('userId'))
	const intent = formData.get('intent')
	const db = await getDb()
	const url = new URL(request.url)
	const back = url.pathname + url.search
	if (intent === 'two-step-roles') {
		const roles = userRoles.filter((role) => formData.getAll('role').includes(role))
		await setTwoStepRoles(db, roles)
		noteAudit(context, { data: { roles } })
		return redirectWithFlash(back, notices.updated)
	}
	const user = Number.isInteger(id) ? await getUser(db, id) : undefined
	if ((intent !== 'toggle-active' && intent !== 'delete' && intent !== 'reset-two-step') || !user) throw data('طلب غير صالح', { status: 400 })

	if (intent === 'reset-two-step') {
		// A lost phone: the user sets the app up again at their next sign-in; their sessions end now.
		await resetTwoStep(db, user.id)
		await deleteUserSessions(db, user.id)
		noteAudit(context, { data: { userId: user.id, email: user.email } })
		return redirectWithFlash(back, { tone: 'success', message: `أُلغي التحقق بخطوتين لحساب «${user.name}»، ويُطلب إعداده من جديد عند الدخول القادم بهذا الحساب.` })
	}
	if (intent === 'delete') {
		if (user.id === me.id) return redirectWithFlash(back, refusals['delete-self'])
		if (hasRole(user, 'admin') && user.active && (await countOtherActiveAdmins(db, user.id)) === 0) return redirectWithFlash(back, refusals['delete-last-admin'])
		if (formData.get('confirm') !== 'on') return redirectWithFlash(back, refusals['delete-unconfirmed'])
		await softDeleteUser(db, user.id)
		await deleteUserSessions(db, user.id)
		noteAudit(context, { data: { userId: user.id, email: user.email } })
		// The page may now be past the last one: the paginator's own rule brings it back.
		return redirectWithFlash(back, notices.deleted)
	}
	noteAudit(context, { action: user.active ? 'user.deactivate' : 'user.activate', data: { userId: user.id, email: user.email } })
	if (user.active) {
		if (user.id === me.id) return redirectWithFlash(back, refusals.self)
		if (hasRole(user, 'admin') && (await countOtherActiveAdmins(db, user.id)) === 0) return redirectWithFlash(back, refusals['last-admin'])
		await setActive(db, user.id, false)
		await deleteUserSessions(db, user.id)
	} else {
		await setActive(db, user.id, true)
	}
	return redirectWithFlash(back, notices.updated)
}

export default function Users({ loaderData }: Route.ComponentProps) {
	const { users, pagination, notice, twoStepRoles } = loaderData
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
			<DataTable label="جدول المستخدمين" caption={`قائمة المستخدمين، الصفحة ${pagination.page} من ${pagination.lastPage}`} headings={['#', 'الاسم', 'البريد الإلكتروني', 'الجوال', 'الصلاحيات', 'الحالة', 'التحقق بخطوتين', 'آخر دخول', 'الإجراءات']}>
						{users.map((user, index) => (
							<tr key={user.id} className="border-t border-stone-200">
								<td className="p-3">{pagination.offset + index + 1}</td>
								<td className="p-3 font-semibold">{user.name}</td>
								<td className="p-3" dir="ltr">{user.email}</td>
								<td className="p-3" dir="ltr">{user.mobile}</td>
								<td className="p-3">{user.roles}</td>
								<td className="p-3">
									<span className={`rounded-full px-3 py-1 text-xs font-bold ${user.active ? 'bg-brand-100 text-brand-900' : 'bg-stone-200 text-stone-800'}`}>
										{user.active ? 'فعّال' : 'موقوف'}
									</span>
								</td>
								<td className="p-3">{user.twoStep ? 'مفعّل' : 'غير مفعّل'}</td>
								<td className="p-3 whitespace-nowrap">{user.lastSignIn}</td>
								<td className="p-3">
									<div className="flex flex-wrap gap-2">
										<Link to={`/admin/users/${user.id}/edit`} className="btn-secondary min-h-9 px-3 py-1 text-sm">
											تعديل<span className="sr-only"> {user.name}</span>
										</Link>
										{user.isMe ? (
											<span className="self-center text-sm text-stone-600">حسابك</span>
										) : (
											<>
												<Form method="post">
													<input type="hidden" name="intent" value="toggle-active" />
													<input type="hidden" name="userId" value={user.id} />
													<button type="submit" className="btn-secondary min-h-9 px-3 py-1 text-sm">
														{user.active ? 'إيقاف' : 'تفعيل'}
														<span className="sr-only"> {user.name}</span>
													</button>
												</Form>
												{user.twoStep ? (
													<Form method="post">
														<input type="hidden" name="intent" value="reset-two-step" />
														<input type="hidden" name="userId" value={user.id} />
														<button type="submit" className="btn-secondary min-h-9 px-3 py-1 text-sm">
															إعادة ضبط التحقق<span className="sr-only"> بخطوتين لـ{user.name}</span>
														</button>
													</Form>
												) : null}
												{/* Deleting asks to be confirmed first; a native disclosure needs no script. */}
												<details className="w-full">
													<summary className="btn-secondary min-h-9 cursor-pointer px-3 py-1 text-sm text-red-800">
														حذف<span className="sr-only"> {user.name}</span>
													</summary>
													<Form method="post" className="mt-2 space-y-2 rounded-lg border border-red-200 bg-red-50 p-3 text-sm">
														<input type="hidden" name="intent" value="delete" />
														<input type="hidden" name="userId" value={user.id} />
														<p>بعد الحذف لا يمكن الدخول بحساب «{user.name}»، وتبقى أعمال هذا الحساب في سجل الطلبات وسجل التدقيق.</p>
														<label className="flex items-center gap-2">
															<input type="checkbox" name="confirm" required className="size-5" />
															أؤكد حذف هذا المستخدم
														</label>
														<button type="submit" className="btn min-h-9 bg-red-800 px-3 py-1 text-white hover:bg-red-900">
															حذف المستخدم<span className="sr-only"> {user.name}</span>
														</button>
													</Form>
												</details>
											</>
										)}
									</div>
								</td>
							</tr>
						))}
					</DataTable>
			<Paginator pagination={pagination} />
			<section aria-labelledby="two-step-roles" className="mt-8 max-w-2xl rounded-xl border border-stone-200 bg-white p-6">
				<h2 id="two-step-roles" className="text-lg font-bold text-brand-900">
					التحقق بخطوتين
				</h2>
				<p className="mt-1 text-stone-700">الصلاحيات التي يُطلب من أصحابها عند الدخول رمز من تطبيق على الجوال إضافة إلى كلمة المرور. من يطّلع على البيانات الصحية والبنكية يحتاجه.</p>
				<Form method="post" className="mt-4 space-y-3">
					<input type="hidden" name="intent" value="two-step-roles" />
					<fieldset>
						<legend className="sr-only">الصلاحيات التي يلزمها التحقق بخطوتين</legend>
						{twoStepRoles.map((item) => (
							<label key={item.role} className="flex items-center gap-2 py-1">
								<input type="checkbox" name="role" value={item.role} defaultChecked={item.required} className="size-5 accent-brand-700" />
								{item.label}
							</label>
						))}
					</fieldset>
					<button type="submit" className="btn-secondary">
						حفظ
					</button>
				</Form>
			</section>
		</>
	)
}
