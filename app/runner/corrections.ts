// A section as staff correct it (app/routes/admin/case-edit.tsx draws it; app/runner/steps.server.ts
// runs it): its password fields are not corrected, and the stored hashes are kept as they are.
import type { SectionDef } from '#app/forms/definition.ts'
import type { SectionAnswers } from '#app/forms/schema.ts'

const correctable = new WeakMap<SectionDef, SectionDef>()
/**
 * The section as staff correct it: without its new-password fields. A registration's password
 * opened the institution's account when it was sent and lives there now (the account's own,
 * app/accounts/institution-accounts.server.ts); the hash in the answers is kept as it is.
 */
export function withoutPasswords(section: SectionDef): SectionDef {
	if (!section.fields.some((field) => field.kind === 'newPassword')) return section
	if (!correctable.has(section)) correctable.set(section, { ...section, fields: section.fields.filter((field) => field.kind !== 'newPassword') })
	return correctable.get(section)!
}

/** The stored password hashes of a section, put back beside the corrected answers. */
export function savedPasswords(section: SectionDef, saved: SectionAnswers | undefined): SectionAnswers {
	return Object.fromEntries(section.fields.filter((field) => field.kind === 'newPassword' && saved?.[field.name] !== undefined).map((field) => [field.name, saved![field.name]]))
}
