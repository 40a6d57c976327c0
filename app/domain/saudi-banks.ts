import { normaliseIban } from './validators.ts'

// The Saudi banks an applicant may be paid at, by the code a Saudi IBAN carries in its 5th and 6th
// characters (SA cc BB …: BB is the bank), with the bank's choice in the forms (app/forms/options.ts
// `banks`) and its SWIFT BIC, which a bank's transfer file names the beneficiary's bank by. The
// assumptions (sources, merged banks) are in docs/decisions/017-bank-files-kept-as-sent.md.
// Pure and browser-safe: the forms check the IBAN against the chosen bank with it too.

export interface SaudiBank {
	/** The IBAN's two-digit bank code. */
	code: string
	/** The bank's value in the forms' bank choice. */
	choice: string
	/** As the forms name it. */
	name: string
	/** SWIFT BIC (8 characters). */
	bic: string
}

export const saudiBanks: readonly SaudiBank[] = [
	{ code: '05', choice: 'alinma', name: 'مصرف الإنماء', bic: 'INMASARI' },
	{ code: '10', choice: 'snb', name: 'البنك الأهلي السعودي', bic: 'NCBKSAJE' },
	{ code: '15', choice: 'albilad', name: 'بنك البلاد', bic: 'ALBISARI' },
	{ code: '20', choice: 'riyad', name: 'بنك الرياض', bic: 'RIBLSARI' },
	{ code: '30', choice: 'anb', name: 'البنك العربي الوطني', bic: 'ARNBSARI' },
	{ code: '45', choice: 'sab', name: 'البنك السعودي الأول (ساب)', bic: 'SABBSARI' },
	{ code: '55', choice: 'bsf', name: 'البنك السعودي الفرنسي', bic: 'BSFRSARI' },
	{ code: '60', choice: 'aljazira', name: 'بنك الجزيرة', bic: 'BJAZSAJE' },
	{ code: '65', choice: 'saib', name: 'البنك السعودي للاستثمار', bic: 'SIBCSARI' },
	{ code: '80', choice: 'alrajhi', name: 'مصرف الراجحي', bic: 'RJHISARI' },
	{ code: '90', choice: 'gib', name: 'بنك الخليج الدولي - السعودية', bic: 'GULFSARI' },
]

/** The bank code of a Saudi IBAN (its 5th and 6th characters). */
export const ibanBankCode = (iban: string) => normaliseIban(iban).slice(4, 6)

/** The bank a Saudi IBAN is held at; undefined for a code of no bank above. */
export const bankOfIban = (iban: string): SaudiBank | undefined => saudiBanks.find((bank) => bank.code === ibanBankCode(iban))

export const bankOfChoice = (choice: string): SaudiBank | undefined => saudiBanks.find((bank) => bank.choice === choice)

/**
 * Why an IBAN (already valid: mod 97, SA format) does not fit the bank chosen beside it, in Arabic;
 * null when it does, or when no bank was chosen. A code of no bank we know is refused too: a family
 * paid at a bank that merged into another (Samba, Alawwal) has a new IBAN to give.
 */
export function ibanBankProblem(iban: string, choice: string | undefined): string | null {
	const held = bankOfIban(iban)
	if (!held) return `رمز البنك في الآيبان (${ibanBankCode(iban)}) لا يعود إلى بنك سعودي معروف: الرجاء كتابة الآيبان الحالي كما في شهادة الحساب`
	if (!choice) return null
	const chosen = bankOfChoice(choice)
	if (chosen && chosen.code !== held.code) return `الآيبان لحساب في «${held.name}» (رمز البنك ${held.code})، لا في «${chosen.name}» المختار`
	return null
}
