import { bankOfIban, ibanBankProblem } from '#app/domain/saudi-banks.ts'
import { ibanProblem } from '#app/domain/validators.ts'
import type { FieldDef } from './definition.ts'
import { banks } from './options.ts'

// An IBAN and the bank chosen beside it (issue 38, finding 3: «مصرف الراجحي» with an IBAN of the
// Saudi National Bank, bank code 10, was accepted). One check, wherever an IBAN is given: the
// applicant's bank step and a staff correction (both through the section's schema, ./schema.ts),
// and the family's new IBAN on their link (app/cases/payee-accounts.server.ts giveIban).
// Pure and browser-safe: the form shows the refusal before the page is sent, too.

/** The bank choice an IBAN field belongs to: the nearest choice of bank before it among its fields. */
export function bankFieldBefore(fields: readonly FieldDef[], ibanName: string): string | undefined {
	const before = fields.slice(0, fields.findIndex((field) => field.name === ibanName)).reverse()
	return before.find((field) => field.kind === 'select' && field.options === banks)?.name
}

/** The IBAN fields that have a choice of bank beside them, with it. */
export function ibanBankPairs(fields: readonly FieldDef[]): { iban: string; bank: string }[] {
	return fields.flatMap((field) => {
		if (field.kind !== 'text' || field.format !== 'iban') return []
		const bank = bankFieldBefore(fields, field.name)
		return bank ? [{ iban: field.name, bank }] : []
	})
}

/**
 * Each IBAN given (and otherwise valid) whose bank code is not the chosen bank's, or is of no Saudi
 * bank: the IBAN field's name and why, in Arabic. An IBAN not valid yet has its own message.
 */
export function ibanBankMismatches(fields: readonly FieldDef[], values: Record<string, unknown>): { field: string; message: string }[] {
	return ibanBankPairs(fields).flatMap((pair) => {
		const iban = values[pair.iban]
		const bank = values[pair.bank]
		if (typeof iban !== 'string' || ibanProblem(iban) !== null) return []
		const problem = ibanBankProblem(iban, typeof bank === 'string' && bank ? bank : undefined)
		if (!problem) return []
		// Of another bank than the chosen one: both banks named (ibanBankProblem), and what to do.
		return [{ field: pair.iban, message: bankOfIban(iban) ? `${problem}: اختر البنك الذي فيه الحساب، أو اكتب آيبان حسابك في البنك المختار` : problem }]
	})
}
