import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { z } from 'zod'
import { getDb } from '#app/db/database.server.ts'
import type { Database } from '#app/db/client.server.ts'
import { signInMessages } from '#app/auth/sign-in.server.ts'
import { recordAudit } from '#app/audit/audit-trail.server.ts'
import type { AuditAction } from '#app/audit/actions.ts'
import { clientIp } from '#app/utils/origin.server.ts'
import { isHoneypotFilled } from '#app/components/forms.tsx'

// The one sign-in action behind both doors (its page: +sign-in.tsx): staff (/login, by e-mail, then the two-step
// code) and institutions (/account/login, by user name or e-mail). What differs is who is looked
// up, what a right password opens, and the audit action's name; the form, its checks, the limits'
// refusal (with Retry-After), the honeypot and the audit of a failure are the same. No
// `handle.hydrate`: the pages ship no JavaScript, and the form posts and answers as plain HTML.

/** The name field (`email` for staff, `name` for an institution's user name or e-mail), the password, and where to go after. */
export type NameField = 'email' | 'name'
export const signInSchema = (field: NameField, name: z.ZodType<string>) =>
	z.object({ [field]: name, password: z.string({ error: 'الرجاء كتابة كلمة المرور' }).max(1024, 'كلمة المرور أطول من المسموح'), redirectTo: z.string().optional() }) as unknown as z.ZodType<
		Record<NameField, string> & { password: string; redirectTo?: string }
	>

type Attempt<Who> = { ok: true; who: Who } | { ok: false; reason: 'invalid' | 'limited' | string; retryAfter?: number }

export interface SignInReply {
	result: SubmissionResult<string[]>
	limited: boolean
}

/**
 * Reads the form, tries the name and password (`attempt`: the door's own lookup and limits), and
 * on a right password hands over to `signedIn`. A refusal is audited under the name typed
 * (`failedAction`) and answered with the form again, its password never sent back.
 */
export async function signInAction<Who>(
	request: Request,
	door: {
		nameField: NameField
		schema: ReturnType<typeof signInSchema>
		attempt: (db: Database, typed: { name: string; password: string; ip: string }) => Promise<Attempt<Who>>
		failedAction: Extract<AuditAction, `${string}sign-in-failed`>
		auditName: (name: string) => string
		signedIn: (db: Database, who: Who, redirectTo: string | undefined) => Promise<Response>
	},
) {
	const formData = await request.formData()
	const submission = parseWithZod(formData, { schema: door.schema })
	if (submission.status !== 'success') return data<SignInReply>({ result: submission.reply({ hideFields: ['password'] }), limited: false }, { status: 400 })
	const db = await getDb()
	const outcome: Attempt<Who> = isHoneypotFilled(formData) ? { ok: false, reason: 'invalid' } : await door.attempt(db, { name: submission.value[door.nameField], password: submission.value.password, ip: clientIp(request) })
	if (!outcome.ok) {
		const limited = outcome.reason === 'limited'
		await recordAudit(db, { actorName: door.auditName(submission.value[door.nameField]), action: door.failedAction, request, data: { reason: outcome.reason } })
		const message = limited ? signInMessages.limited(outcome.retryAfter ?? 60) : signInMessages.invalid
		return data<SignInReply>(
			{ result: submission.reply({ formErrors: [message], hideFields: ['password'] }), limited },
			{ status: limited ? 429 : 400, headers: limited ? { 'Retry-After': String(outcome.retryAfter ?? 60) } : undefined },
		)
	}
	return door.signedIn(db, outcome.who, submission.value.redirectTo)
}
