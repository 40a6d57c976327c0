import { expect, test } from 'vitest'
import { banks } from '#app/forms/options.ts'
import { isValidSaudiIban, saudiIbanFromBban } from './validators.ts'
import { bankOfChoice, bankOfIban, ibanBankCode, ibanBankProblem, saudiBanks } from './saudi-banks.ts'

// The Saudi banks by their IBAN code (app/domain/saudi-banks.ts): each of the forms' banks once, its
// code and BIC as the banks publish them, and an IBAN refused when it is another bank's than the chosen one.

test('every bank the forms offer has one code and one BIC, and no code or BIC is given twice', () => {
	expect(banks.map((bank) => bankOfChoice(bank.value)?.code)).toEqual(['10', '80', '20', '45', '55', '30', '15', '60', '05', '65', '90'])
	expect(new Set(saudiBanks.map((bank) => bank.code)).size).toBe(saudiBanks.length)
	expect(new Set(saudiBanks.map((bank) => bank.bic)).size).toBe(saudiBanks.length)
	expect(saudiBanks.map((bank) => bank.choice).sort()).toEqual(banks.map((bank) => bank.value).sort())
	// The forms' own names: one name per thing.
	for (const bank of saudiBanks) expect(bank.name).toBe(banks.find((option) => option.value === bank.choice)!.label)
	for (const bank of saudiBanks) expect(bank.bic).toMatch(/^[A-Z]{4}SA[A-Z0-9]{2}$/)
})

test('the BIC of the well-known banks', () => {
	const bic = (code: string) => bankOfIban(saudiIbanFromBban(`${code}000000608010167519`))?.bic
	expect(['80', '10', '30', '05', '20', '45', '15', '60', '55', '65', '90'].map(bic)).toEqual(['RJHISARI', 'NCBKSAJE', 'ARNBSARI', 'INMASARI', 'RIBLSARI', 'SABBSARI', 'ALBISARI', 'BJAZSAJE', 'BSFRSARI', 'SIBCSARI', 'GULFSARI'])
})

test('an IBAN of another bank than the chosen one is refused with both banks named; a merged bank\'s code is refused', () => {
	const alrajhi = 'SA0380000000608010167519'
	const snb = saudiIbanFromBban('10000000608010167519')
	expect(isValidSaudiIban(snb)).toBe(true)
	expect(ibanBankCode(' sa03 8000 0000 6080 1016 7519 ')).toBe('80')
	expect(ibanBankProblem(alrajhi, 'alrajhi')).toBeNull()
	expect(ibanBankProblem(alrajhi, undefined)).toBeNull()
	expect(ibanBankProblem(snb, 'alrajhi')).toBe('الآيبان لحساب في «البنك الأهلي السعودي» (رمز البنك 10)، لا في «مصرف الراجحي» المختار')
	expect(ibanBankProblem(saudiIbanFromBban('40000000608010167519'), 'snb')).toMatch(/^رمز البنك في الآيبان \(40\) لا يعود إلى بنك سعودي معروف/)
})
