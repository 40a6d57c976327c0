import { and, eq } from 'drizzle-orm'
import { beforeAll, expect, test } from 'vitest'
import { changeStatus, correctSection } from '#app/cases/status-changes.server.ts'
import { type CaseRow } from '#app/cases/case-store.server.ts'
import { bounceNotice, CHANGER_MAY_NOT_CONFIRM, confirmIban, giveIban, IBAN_BOUNCED, IBAN_UNCONFIRMED, ibanConfirmed, IbanFourEyesError, payeeField, payeeIbans, SAME_IBAN } from '#app/cases/payee-accounts.server.ts'
import { aidInstalments, caseEvents, caseMessages } from '#app/db/schema.ts'
import { createUser, type PublicUser } from '#app/domain/staff-users.server.ts'
import { saudiIbanFromBban } from '#app/domain/validators.ts'
import { needyFamilies } from '#app/forms/definitions/needy-families.ts'
import { todayInRiyadh } from '#app/text/format.ts'
import { studied, submittedCase, validIban } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { decide } from './decisions.server.ts'
import { listFunds, setBudget } from './funds.server.ts'
import { createBatch, dueInstalments, markBatchSent, recordPayment, reopenPayment } from './payments.server.ts'
import { tellApplicants } from '#app/casework/tell.server.ts'

// Issue 38, finding 7 and the IBAN changed after the approval (docs/product.md#a-bounced-payment):
// a bounced transfer tells the family and holds the account; another IBAN, given on the family's
// link or corrected by staff, is offered for a batch only once finance (not whoever gave it) confirms it.

const app = withAppDatabase()
const db = () => app.handle.db
const today = todayInRiyadh()
const otherIban = saudiIbanFromBban(`80${'0'.repeat(16)}42`)
let researcher: PublicUser
let approver: PublicUser
let finance: PublicUser
let officerInFinance: PublicUser
let fundId: number

beforeAll(async () => {
	const user = (name: string, roles: PublicUser['roles']) => createUser(db(), { name, email: `${roles.join('-')}-${Date.now()}-${Math.random()}@example.org`, mobile: '', roles, password: 'Bounce-Test-1234' })
	researcher = await user('الباحثة', ['case_officer'])
	approver = await user('عضو اللجنة', ['approver'])
	finance = await user('المسؤولة المالية', ['finance'])
	// A small foundation: one person corrects answers and keeps the accounts.
	officerInFinance = await user('الباحث والمالي', ['case_officer', 'finance'])
	fundId = (await listFunds(db())).find((fund) => !fund.zakat)!.id
	await setBudget(db(), { programme: 'needy-families', year: Number(today.slice(0, 4)), fundId: null, allocated: 1_000_000 }, researcher)
})

async function approvedOnce(): Promise<CaseRow> {
	const row = await submittedCase(db())
	await studied(db(), row, researcher)
	await changeStatus(db(), row.id, { to: 2, note: 'دُرست' }, researcher)
	await decide(db(), row.id, { outcome: 'approve', aidKind: 'cash', amount: 1000, months: null, fundId, note: '' }, approver)
	return row
}

const line = async (row: CaseRow) => (await dueInstalments(db(), 'transfer')).find((item) => item.caseId === row.id)

test('finding 7: a bounced transfer tells the family why and asks another IBAN; the line comes back only once a different one is confirmed by finance', async () => {
	const row = await approvedOnce()
	const [instalment] = await db().select().from(aidInstalments).where(eq(aidInstalments.caseId, row.id))
	const { batchId } = await createBatch(db(), [instalment!.id], '', finance)
	await markBatchSent(db(), batchId!, today, finance)
	const paid = await recordPayment(db(), batchId!, { instalmentId: instalment!.id, bankReference: 'FT99887766', paidOn: today }, finance)
	const bounced = await reopenPayment(db(), batchId!, instalment!.id, 'الحساب مغلق', finance)
	// What to tell comes back from the store; the caller tells it once (app/casework/tell.server.ts).
	expect(bounced).toEqual([{ kind: 'payment-bounced', caseId: row.id, reason: 'الحساب مغلق' }])
	await tellApplicants(db(), [paid, ...bounced], finance)

	// The family is told: by SMS, short, with the reason; and on its link.
	const sms = (await db().select().from(caseMessages).where(and(eq(caseMessages.caseId, row.id), eq(caseMessages.event, 'payment-bounced'))))[0]!
	expect(sms.body).toContain(`أعاد البنك تحويل دعم طلبك ${row.reference}.\nالسبب: الحساب مغلق\nأرسل آيباناً آخر من: `)
	const told = (await db().select().from(caseEvents).where(and(eq(caseEvents.caseId, row.id), eq(caseEvents.kind, 'applicant_message')))).at(-1)!
	expect(told.note).toBe(bounceNotice('الحساب مغلق'))
	expect(told.note).toContain('السبب: الحساب مغلق.')

	// The line is due again, but held: not offered, and a batch refuses it.
	expect(await line(row)).toMatchObject({ held: IBAN_BOUNCED, iban: validIban })
	expect((await createBatch(db(), [instalment!.id], '', finance)).refused).toEqual([{ reference: `ATAA-${instalment!.id}`, reason: IBAN_BOUNCED }])
	expect(await ibanConfirmed(db(), row.id)).toBe(false)
	await expect(confirmIban(db(), row.id, finance)).rejects.toThrow(SAME_IBAN)

	// The family gives the same IBAN, a wrong one, then another: held until finance confirms it.
	await expect(giveIban(db(), row.id, validIban)).rejects.toThrow(SAME_IBAN)
	await expect(giveIban(db(), row.id, 'SA0000000000000000000000')).rejects.toThrow('رقم الآيبان غير صحيح')
	await expect(giveIban(db(), row.id, 'SA12')).rejects.toThrow('الرجاء كتابة الآيبان كاملاً')
	// Of another bank than the one chosen (the bank chosen before, or with it): refused as the bank step refuses it.
	const snbIban = saudiIbanFromBban(`10${'0'.repeat(12)}778899`)
	const mismatch = 'الآيبان لحساب في «البنك الأهلي السعودي» (رمز البنك 10)، لا في «مصرف الراجحي» المختار'
	await expect(giveIban(db(), row.id, snbIban)).rejects.toThrow(mismatch)
	await expect(giveIban(db(), row.id, snbIban, null, 'alrajhi')).rejects.toThrow(mismatch)
	await expect(giveIban(db(), row.id, snbIban, null, 'no-such-bank')).rejects.toThrow('الرجاء اختيار البنك')
	expect((await payeeIbans(db(), [row.id])).get(row.id)).toBe(validIban)
	await giveIban(db(), row.id, otherIban.replace(/(.{4})/g, '$1 '))
	expect((await payeeIbans(db(), [row.id])).get(row.id)).toBe(otherIban)
	expect(await line(row)).toMatchObject({ held: IBAN_UNCONFIRMED, iban: otherIban })
	expect((await createBatch(db(), [instalment!.id], '', finance)).refused[0]!.reason).toBe(IBAN_UNCONFIRMED)

	await expect(confirmIban(db(), row.id, researcher)).rejects.toThrow('يؤكد الآيبان مسؤول مالي')
	expect(await confirmIban(db(), row.id, finance)).toBe(otherIban)
	expect(await ibanConfirmed(db(), row.id)).toBe(true)
	expect(await line(row)).toMatchObject({ held: null, iban: otherIban })
	expect((await createBatch(db(), [instalment!.id], '', finance)).refused).toEqual([])
})

test('an IBAN corrected by staff after the approval waits for another finance member; before the approval it is simply the answer', async () => {
	const field = payeeField(needyFamilies)!
	const correct = (row: CaseRow, iban: string, actor: PublicUser) => correctSection(db(), needyFamilies, row, field.section, (saved: Record<string, unknown> | undefined) => ({ ...saved, [field.name]: iban }), actor)

	const early = await submittedCase(db())
	expect((await correct(early, otherIban, researcher)).ok).toBe(true)
	await studied(db(), early, researcher)
	await changeStatus(db(), early.id, { to: 2, note: 'دُرست' }, researcher)
	await decide(db(), early.id, { outcome: 'approve', aidKind: 'cash', amount: 500, months: null, fundId, note: '' }, approver)
	expect(await line(early)).toMatchObject({ held: null, iban: otherIban })

	const row = await approvedOnce()
	expect((await correct(row, otherIban, officerInFinance)).ok).toBe(true)
	expect(await line(row)).toMatchObject({ held: IBAN_UNCONFIRMED, iban: otherIban })
	await expect(confirmIban(db(), row.id, officerInFinance)).rejects.toThrow(IbanFourEyesError)
	await expect(confirmIban(db(), row.id, officerInFinance)).rejects.toThrow(CHANGER_MAY_NOT_CONFIRM)
	await confirmIban(db(), row.id, finance)
	expect(await line(row)).toMatchObject({ held: null })
	await expect(confirmIban(db(), row.id, finance)).rejects.toThrow('آيبان هذا الطلب لا ينتظر تأكيداً')
})
