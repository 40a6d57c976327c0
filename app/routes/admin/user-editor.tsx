import { getCollectionProps, getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link } from 'react-router'
import type { z } from 'zod'
import type { Route } from './+types/user-editor'
import { getDb } from '#app/db/database.server.ts'
import { requireRole } from '#app/auth/user-context.server.ts'
import { deleteUserSessions } from '#app/auth/session.server.ts'
import { passwordRefusal } from '#app/utils/common-passwords.server.ts'
import { passwordHint } from '#app/text/messages.ts'
import { noteAudit, audited } from '#app/audit/audit-trail.server.ts'
import { areaRoles, hasRole, roleLabels, rolesLabel, userRoles, type UserRole } from '#app/db/roles.ts'
import { editUserSchema, newUserSchema } from '#app/domain/user-schema.ts'
import { countOtherActiveAdmins, createUser, DuplicateEmailError, getUser, updateUser } from '#app/domain/staff-users.server.ts'
import { formatSaudiMobile, normaliseSaudiMobile } from '#app/text/format.ts'
import { notices, redirectWithFlash } from '#app/http/flash.server.ts'
import { ErrorList, ErrorSummary, Field, useSubmitCount, PageTitle, validationTiming } from '#app/components/forms.tsx'
import type { AdminHandle } from './layout.tsx'

// One screen and one action for adding and editing a user (docs/product.md#other-forms).

export const handle: AdminHandle = {
	breadcrumb: (data) => [{ to: '/admin/users', label: 'المستخدمون' }, { label: (data as { user: unknown }).user ? 'تعديل مستخدم' : 'إضافة مستخدم' }],
}

// One screen adds and edits; adding says so (user.create).
export const middleware = [audited({ read: false, write: 'user.update', screenActions: ['user.create'] })]

async function loadTarget(params: { id?: string }) {
	if (params.id === undefined) return undefined
	const id = Number(params.id)
	const user = Number.isInteger(id) ? await getUser(await getDb(), id) : undefined
	if (!user) throw data(null, { status: 404 })
	return user
}

/** One's own password is changed on «حسابي», where the current one is asked (docs/security.md#passwords). */
const OWN_PASSWORD_HERE = 'لتغيير كلمة مرورك استخدم صفحة «حسابي»، حيث تُطلب كلمة المرور الحالية.'

export async function loader({ params, context }: Route.LoaderArgs) {
	const me = requireRole(context, areaRoles.users)
	const user = await loadTarget(params)
	return {
		user: user && {
			isMe: user.id === me.id,
			id: user.id,
			name: user.name,
			email: user.email,
			mobile: formatSaudiMobile(user.mobile),
			roles: user.roles,
			active: user.active,
		},
	}
}

export async function action({ request, params, context }: Route.ActionArgs) {
	const me = requireRole(context, areaRoles.users)
	const target = await loadTarget(params)
	const db = await getDb()
	const formData = await request.formData()
	const submission = await parseWithZod(formData, {
		schema: (target ? editUserSchema({ hasMobile: Boolean(target.mobile) }) : newUserSchema).superRefine(async (value, ctx) => {
			if (value.password && target?.id === me.id) return ctx.addIssue({ code: 'custom', path: ['password'], message: OWN_PASSWORD_HERE })
			const refusal = value.password ? passwordRefusal(value.password, [value.email]) : null
			if (refusal) ctx.addIssue({ code: 'custom', path: ['password'], message: refusal })
			if (!target || !hasRole(target, 'admin') || !target.active) return
			const demoted = !value.roles.includes('admin') || !value.active
			if (demoted && target.id === me.id) {
				ctx.addIssue({ code: 'custom', path: ['roles'], message: 'لا يمكنك إزالة صلاحية المدير أو إيقاف حسابك أنت.' })
			} else if (demoted && (await countOtherActiveAdmins(db, target.id)) === 0) {
				ctx.addIssue({ code: 'custom', path: ['roles'], message: 'لا يمكن إزالة آخر مدير نظام فعّال.' })
			}
		}),
		async: true,
	})
	if (submission.status !== 'success') {
		return data({ result: submission.reply({ hideFields: ['password', 'confirmPassword'] }) }, { status: 400 })
	}
	const { password, confirmPassword: _confirm, ...fields } = submission.value
	const values = { ...fields, mobile: fields.mobile ? normaliseSaudiMobile(fields.mobile)! : '' }
	try {
		if (target) {
			await updateUser(db, target.id, { ...values, password })
			// A new password, a stopped account or a new role ends every session of the user at once:
			// they sign in again with what they may now do.
			const roleChanged = rolesLabel(values.roles) !== rolesLabel(target.roles)
			const ended = password || !values.active || roleChanged ? await deleteUserSessions(db, target.id) : 0
			noteAudit(context, {
				data: {
					userId: target.id,
					email: values.email,
					...(roleChanged ? { roles: { from: target.roles, to: userRoles.filter((role) => values.roles.includes(role)) } } : {}),
					...(values.active !== target.active ? { active: values.active } : {}),
					...(password ? { passwordReset: true } : {}),
					sessionsEnded: ended,
				},
			})
		} else {
			const created = await createUser(db, { ...values, password: password!, temporary: true })
			noteAudit(context, { action: 'user.create', data: { userId: created.id, email: created.email, roles: created.roles } })
		}
	} catch (error) {
		if (!(error instanceof DuplicateEmailError)) throw error
		return data(
			{
				result: submission.reply({
					fieldErrors: { email: ['هذا البريد الإلكتروني مسجل لمستخدم آخر'] },
					hideFields: ['password', 'confirmPassword'],
				}),
			},
			{ status: 400 },
		)
	}
	return redirectWithFlash('/admin/users', target ? notices.updated : notices.added)
}

export default function UserEditor({ loaderData, actionData }: Route.ComponentProps) {
	const { user } = loaderData
	const mobileOptional = Boolean(user && !user.mobile)
	const schema = user ? editUserSchema({ hasMobile: !mobileOptional }) : newUserSchema
	const [form, fields] = useForm<z.input<ReturnType<typeof editUserSchema>>>({
		id: user ? `user-${user.id}` : 'user-new',
		lastResult: actionData?.result,
		defaultValue: user ? { name: user.name, email: user.email, mobile: user.mobile, roles: user.roles, active: user.active } : { roles: ['case_officer'], active: true },
		...validationTiming,
		onValidate: ({ formData }) => parseWithZod(formData, { schema }),
	})
	const title = user ? `تعديل المستخدم: ${user.name}` : 'إضافة مستخدم'
	const order = ['name', 'email', 'mobile', 'roles', 'password', 'confirmPassword'] as const
	const summary = [...(form.errors ?? []).map((message) => ({ message })), ...order.flatMap((key) => (fields[key].errors ?? []).map((message) => ({ message, fieldId: fields[key].id })))]
	// The summary appears after a submit, from the server or from the browser's own check (GOV.UK).
	const [submitCount, countSubmit] = useSubmitCount()
	const failed = submitCount > 0 || actionData?.result.status === 'error'
	return (
		<>
			<PageTitle title={title} error={failed && summary.length > 0} />
			<h1 className="text-2xl font-bold text-brand-900">{title}</h1>
			<div className="mt-6 max-w-2xl">
				{failed ? <ErrorSummary key={submitCount} items={summary} /> : null}
				<Form method="post" {...getFormProps(form)} onSubmitCapture={countSubmit} noValidate className="space-y-5 rounded-xl border border-stone-200 bg-white p-6">
					<Field label="الاسم" errors={fields.name.errors} inputProps={{ ...getInputProps(fields.name, { type: 'text' }), autoComplete: 'name' }} />
					<Field label="البريد الإلكتروني" errors={fields.email.errors} inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'email', dir: 'ltr' }} />
					<Field
						label={mobileOptional ? 'رقم الجوال (اختياري)' : 'رقم الجوال'}
						hint="10 أرقام تبدأ بـ 05، مثل 0551234567"
						errors={fields.mobile.errors}
						inputProps={{ ...getInputProps(fields.mobile, { type: 'tel' }), autoComplete: 'tel', inputMode: 'numeric', dir: 'ltr' }}
					/>
					<fieldset id={fields.roles.id} tabIndex={-1} aria-describedby={fields.roles.errors ? `${fields.roles.id}-error` : undefined} className="rounded-lg border border-stone-200 p-4">
						<legend className="px-2 font-semibold">الصلاحيات</legend>
						<p className="text-sm text-stone-600">اختر كل ما يقوم به هذا الموظف؛ يمكن أن يجمع أكثر من صلاحية.</p>
						<ErrorList id={`${fields.roles.id}-error`} errors={fields.roles.errors} />
						{getCollectionProps(fields.roles, { type: 'checkbox', options: [...userRoles] }).map((props) => (
							<label key={props.value} className="flex min-h-11 items-center gap-3">
								<input {...props} key={props.key} className="size-5 accent-brand-700" />
								{roleLabels[props.value as UserRole]}
							</label>
						))}
					</fieldset>
					<div className="flex items-center gap-3">
						<input {...getInputProps(fields.active, { type: 'checkbox' })} className="size-5 accent-brand-700" />
						<label htmlFor={fields.active.id} className="font-semibold">
							الحساب فعّال
						</label>
					</div>
					{user?.isMe ? (
						<p className="rounded-lg border border-stone-200 p-4">
							لتغيير كلمة مرورك استخدم صفحة{' '}
							<Link to="/admin/account" className="link">
								حسابي
							</Link>
							، حيث تُطلب كلمة المرور الحالية.
						</p>
					) : (
						<fieldset className="space-y-5 rounded-lg border border-stone-200 p-4">
							<legend className="px-2 font-semibold">{user ? 'تغيير كلمة المرور (اتركها فارغة للإبقاء عليها)' : 'كلمة المرور'}</legend>
							<Field
								label="كلمة المرور"
								hint={passwordHint}
								errors={fields.password.errors}
								inputProps={{ ...getInputProps(fields.password, { type: 'password' }), autoComplete: 'new-password', dir: 'ltr' }}
							/>
							<Field
								label="تأكيد كلمة المرور"
								errors={fields.confirmPassword.errors}
								inputProps={{ ...getInputProps(fields.confirmPassword, { type: 'password' }), autoComplete: 'new-password', dir: 'ltr' }}
							/>
						</fieldset>
					)}
					<div className="flex flex-wrap gap-3">
						<button type="submit" className="btn-primary">
							{user ? 'حفظ التعديلات' : 'إضافة المستخدم'}
						</button>
						<Link to="/admin/users" className="btn-secondary">
							إلغاء
						</Link>
					</div>
				</Form>
			</div>
		</>
	)
}
