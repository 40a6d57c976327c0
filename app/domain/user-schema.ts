import { z } from 'zod'
import { userRoles } from '#app/db/roles.ts'
import { toWesternDigits } from '#app/text/format.ts'
import { PASSWORD_MAX, PASSWORD_MIN, passwordTooShort } from '#app/text/messages.ts'

// The staff user form (docs/product.md#other-forms) with its messages (docs/product.md#messages);
// used by the browser for instant feedback and by the action as the truth.

/** As every password here (app/forms/schema.ts newPasswordSchema): long enough, and not a common one (checked by the server). */
export const passwordRules = z
	.string({ error: 'الرجاء كتابة كلمة المرور' })
	.min(PASSWORD_MIN, passwordTooShort(PASSWORD_MIN))
	.max(PASSWORD_MAX, 'كلمة المرور طويلة جداً')

const mobileField = z
	.string({ error: 'الرجاء كتابة رقم الجوال' })
	.transform((value) => toWesternDigits(value).replace(/\s/g, ''))
	.pipe(z.string().regex(/^05\d{8}$/, 'رقم الجوال يجب أن يكون 10 أرقام ويبدأ بـ 05'))

const ROLES_MISSING = 'الرجاء اختيار صلاحية واحدة على الأقل'

const baseFields = {
	name: z.string({ error: 'الرجاء كتابة الاسم' }).trim().min(2, 'الرجاء كتابة الاسم').max(100, 'الاسم طويل جداً'),
	email: z
		.email({ error: (issue) => (issue.input === undefined ? 'الرجاء كتابة البريد الإلكتروني' : 'صيغة البريد الإلكتروني غير صحيحة') })
		.max(254, 'البريد الإلكتروني طويل جداً'),
	mobile: mobileField,
	/** One or several: a small foundation gives one person several roles (docs/product.md#roles). */
	roles: z.array(z.enum(userRoles, { error: 'الرجاء اختيار الصلاحيات من القائمة' }), { error: ROLES_MISSING }).min(1, ROLES_MISSING),
	active: z.boolean().default(false),
}

function confirmMatches(value: { password?: string; confirmPassword?: string }, ctx: z.RefinementCtx) {
	if (value.password && value.password !== value.confirmPassword) {
		ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: 'كلمتا المرور غير متطابقتين' })
	}
}

export const newUserSchema = z
	.object({
		...baseFields,
		password: passwordRules,
		confirmPassword: z.string({ error: 'الرجاء تأكيد كلمة المرور' }),
	})
	.superRefine(confirmMatches)

/**
 * Editing: the password fields may stay empty to keep the current password. A user saved without a
 * mobile (the first admin, made at start-up) may keep it empty; one who has a mobile keeps one.
 */
export function editUserSchema({ hasMobile }: { hasMobile: boolean }) {
	return z
		.object({
			...baseFields,
			mobile: hasMobile ? mobileField : mobileField.optional(),
			password: passwordRules.optional(),
			confirmPassword: z.string().optional(),
		})
		.superRefine(confirmMatches)
}
