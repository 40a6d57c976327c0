// What a step's answers become before they are stored, for every caller of a programme's steps
// (a new application, a private link, an institution's account, staff paper intake and corrections).
import type { SectionDef } from '#app/forms/definition.ts'
import { isPasswordHash, type SectionAnswers } from '#app/forms/schema.ts'
import { passwordRefusal } from '#app/utils/common-passwords.server.ts'
import { hashPassword } from '#app/utils/password.server.ts'

/**
 * A section's answers as they are stored: a new password becomes its hash (app/utils/password.server.ts),
 * and one left blank keeps the hash already saved. A password is never stored or logged as typed.
 */
export async function sealPasswords(section: SectionDef, values: SectionAnswers, saved: SectionAnswers | undefined): Promise<SectionAnswers> {
	const passwords = section.fields.filter((field) => field.kind === 'newPassword')
	if (!passwords.length) return values
	const sealed = { ...values }
	for (const field of passwords) {
		const typed = values[field.name]
		if (typeof typed === 'string' && typed && !isPasswordHash(typed)) sealed[field.name] = await hashPassword(typed)
		else if (isPasswordHash(saved?.[field.name])) sealed[field.name] = saved![field.name]
		else delete sealed[field.name]
	}
	return sealed
}

/** A new password typed into a section that is common or leaked: refused here, as the list stays on the server. */
export function commonPasswordErrors(section: SectionDef, values: SectionAnswers): Record<string, string[]> | null {
	// The account's own words: every short text answered on the step (its user name and e-mail).
	const accountWords = section.fields.filter((field) => field.kind === 'text').map((field) => values[field.name] as string | undefined)
	const errors = section.fields.flatMap((field) => {
		const typed = values[field.name]
		if (field.kind !== 'newPassword' || typeof typed !== 'string' || isPasswordHash(typed)) return []
		const refusal = passwordRefusal(typed, accountWords)
		return refusal ? [[field.name, [refusal]] as [string, string[]]] : []
	})
	return errors.length ? Object.fromEntries(errors) : null
}

/** A section's password inputs, never sent back in a refused form's reply (Conform's `hideFields`). */
export function secretFields(section: SectionDef): string[] {
	return section.fields.flatMap((field) => (field.kind === 'newPassword' ? [field.name, `${field.name}Confirm`] : []))
}
