// The aid cycle in the demo content (npm start): the researcher's visits, planned and done; budgets
// for this year; the committee's decisions on some of the studied demo cases; finance paying some of
// them (a batch sent and recorded, one transfer left due for a visitor to pay, aid in kind
// delivered); last month closed, a transfer of it returned by the bank this month (an adjusting entry
// naming last month's payment), the family's new IBAN confirmed and paid on the next batch; a
// monthly aid stopped after its first payment; the committee's meeting those decisions were taken
// in, closed with its minutes. Through the same functions as staff's, by demo members who cannot
// sign in (stopped accounts with random passwords). A visitor signed in as the first admin sees every step, and the
// budgets they draw on.
import { randomBytes } from 'node:crypto'
import { and, asc, eq, inArray, isNotNull, isNull } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { aidInstalments, caseEvents, cases, caseStudies, caseVisits } from '#app/db/schema.ts'
import type { UserRole } from '#app/db/roles.ts'
import { bankOfChoice } from '#app/domain/saudi-banks.ts'
import { demoIban } from '#app/cases/demo-cases.server.ts'
import { confirmIban, giveIban } from '#app/cases/payee-accounts.server.ts'
import { findDefinition } from '#app/forms/registry.ts'
import { visitMessage } from '#app/cases/visits.server.ts'
import { createUser } from '#app/domain/staff-users.server.ts'
import { todayInRiyadh } from '#app/text/format.ts'
import { Status } from '#app/cases/case-statuses.ts'
import { isInKind } from '#app/cases/aid.ts'
import { listReasons } from '#app/cases/reasons.server.ts'
import { decide } from './decisions.server.ts'
import { listFunds, setBudget } from './funds.server.ts'
import { batchOf, createBatch, dueInstalments, markBatchSent, recordDelivery, recordPayment, reopenPayment } from './payments.server.ts'
import { changeAid, monthShift } from './monthly-aid.server.ts'
import { closeMonth } from './periods.server.ts'
import { closeMeeting, markPresent, openMeeting } from './meetings.server.ts'
import { cancelReceipt, confirmReceipt, recordReceipt } from './receipts.server.ts'
import type { Notice } from '#app/notify/case-notices.server.ts'

/** This year's demo budgets, riyals, by programme (from any fund). */
const demoBudgets: Record<string, number> = {
	'needy-families': 450_000,
	'home-restoration': 600_000,
	'medical-case': 300_000,
	'association-support': 250_000,
	'health-association-support': 200_000,
}

/** What the demo's finance member did that families are told of, for the caller to tell once committed (app/casework/tell.server.ts). */
export interface DemoTold {
	notices: Notice[]
	by: { id: number }
}

export async function insertDemoCycle(db: Database): Promise<DemoTold> {
	const year = Number(todayInRiyadh().slice(0, 4))
	const demoMember = (name: string, role: 'approver' | 'finance' | 'case_officer', email = `demo-${role}@ataa.invalid`) =>
		createUser(db, { name, email, mobile: '', roles: [role], active: false, password: randomBytes(24).toString('base64url') })
	const [approver, finance, researcher, secondFinance, secondMember, thirdMember] = await Promise.all([
		demoMember('عبدالله الشهري (عضو لجنة تجريبي)', 'approver'),
		demoMember('ريم الحربي (مسؤولة مالية تجريبية)', 'finance'),
		demoMember('نورة القحطاني (باحثة تجريبية)', 'case_officer'),
		// Confirms the IBAN a family gave after a bounce: not the member who recorded the payments.
		demoMember('سلمان العنزي (مسؤول مالي تجريبي)', 'finance', 'demo-finance-2@ataa.invalid'),
		// The committee's meeting below: three members present.
		demoMember('هيفاء الدوسري (عضوة لجنة تجريبية)', 'approver', 'demo-approver-2@ataa.invalid'),
		demoMember('خالد المطيري (عضو لجنة تجريبي)', 'approver', 'demo-approver-3@ataa.invalid'),
	])
	await insertDemoVisits(db, researcher)
	for (const [programme, allocated] of Object.entries(demoBudgets)) await setBudget(db, { programme, year, fundId: null, allocated }, approver)
	const [zakat, general] = [(await listFunds(db)).find((fund) => fund.zakat), (await listFunds(db)).find((fund) => !fund.zakat)]
	if (!zakat || !general) return { notices: [], by: finance }
	// A zakat fund's own ceiling for the families' programme: the budgets screen shows both kinds.
	await setBudget(db, { programme: 'needy-families', year, fundId: zakat.id, allocated: 200_000 }, approver)

	// Money in (docs/product.md#money-in): what the funds received, each receipt recorded by one member
	// of finance and confirmed by the other, so the committee approves within the balances; one left
	// awaiting confirmation and one cancelled with its reason, for the receipts screen to show each state.
	const monthStart = monthShift(todayInRiyadh(), 0)
	const receive = async (input: Parameters<typeof recordReceipt>[1], confirmed = true) => {
		const receipt = await recordReceipt(db, input, finance)
		if (confirmed) await confirmReceipt(db, receipt.id, secondFinance)
		return receipt
	}
	await receive({ fundId: zakat.id, amount: 150_000, receivedOn: monthStart, source: 'ehsan', note: 'زكاة محوّلة من منصة إحسان (تجريبي)', bankReference: 'EHSAN-DEMO-0001' })
	await receive({ fundId: zakat.id, amount: 50_000, receivedOn: monthStart, source: 'donor_transfer', donor: 'فاعل خير (تجريبي)', programme: 'needy-families', condition: 'زكاة للأسر المحتاجة' })
	await receive({ fundId: general.id, amount: 250_000, receivedOn: monthStart, source: 'bank_deposit', donor: 'شركة متبرعة (تجريبي)', bankReference: 'DEP-DEMO-0002' })
	await receive({ fundId: general.id, amount: 3_500, receivedOn: todayInRiyadh(), source: 'cash', donor: 'صندوق التبرعات في المسجد (تجريبي)' }, false)
	const wrong = await receive({ fundId: general.id, amount: 1_000, receivedOn: monthStart, source: 'cash' }, false)
	await cancelReceipt(db, wrong.id, 'سُجّل مرتين: المبلغ نفسه في سند الإيداع (تجريبي)', secondFinance)

	const waiting = await db.select({ id: cases.id }).from(cases).where(eq(cases.status, Status.Studied)).orderBy(asc(cases.reference))
	const studies = waiting.length ? await db.select().from(caseStudies).where(inArray(caseStudies.caseId, waiting.map((row) => row.id))) : []
	const [reason] = await listReasons(db, 'decision-reject')
	// Most approved as the researcher proposed, one rejected and one returned; the rest wait for the
	// committee. A monthly aid among them: when no study proposed one, the committee makes the first
	// transfer approved a monthly rent (stopped below after its first payment).
	const decided = waiting.slice(0, Math.max(0, waiting.length - 2))
	let monthlyWanted = !studies.some((study) => decided.some((row) => row.id === study.caseId) && (study.aidMonths ?? 0) > 1)
	// The committee decides in a meeting (./meetings.server.ts): three members present; closed after, its minutes written.
	const meeting = await openMeeting(db, { heldOn: todayInRiyadh(), place: 'قاعة الاجتماعات بمقر المؤسسة', online: false }, approver)
	for (const member of [approver, secondMember, thirdMember]) await markPresent(db, meeting.id, member.id, approver)
	for (const [index, row] of decided.entries()) {
		const study = studies.find((item) => item.caseId === row.id)
		if (index === 1 && reason) await decide(db, row.id, { outcome: 'reject', reason: reason.label, note: 'رأت اللجنة أن الحالة لا تنطبق عليها شروط البرنامج.' }, approver)
		else if (index === 3) await decide(db, row.id, { outcome: 'return', note: 'نرجو التحقق من دخل الأبناء العاملين قبل القرار.' }, approver)
		else if (study?.aidKind && study.aidAmount) {
			const monthly = monthlyWanted && !isInKind(study.aidKind)
			if (monthly) monthlyWanted = false
			await decide(
				db,
				row.id,
				monthly
					? { outcome: 'approve', aidKind: 'rent', amount: study.aidAmount, months: 6, fundId: study.zakatCategory ? zakat.id : general.id, note: 'محضر لجنة الصرف (تجريبي): إيجار شهري لستة أشهر.' }
					: { outcome: 'approve', aidKind: study.aidKind, amount: study.aidAmount, months: study.aidMonths, fundId: study.zakatCategory ? zakat.id : general.id, note: 'محضر لجنة الصرف (تجريبي).' },
				approver,
			)
		}
	}
	await closeMeeting(db, meeting.id, approver)

	// Finance: aid in kind delivered; the transfers due in a batch sent to the bank and recorded, but the last when there are three or more, left for a visitor to pay.
	const today = todayInRiyadh()
	const told: Notice[] = []
	for (const item of await dueInstalments(db, 'in-kind')) told.push(await recordDelivery(db, item.id, { deliveredOn: today, deliveredBy: 'فريق التوزيع الميداني', receipt: `R-${item.id}` }, finance))
	const transfers = (await dueInstalments(db, 'transfer')).filter((item) => item.iban)
	if (!transfers.length) return { notices: told, by: finance }
	// With two transfers only, both are paid: one of them is last month's, returned and paid again.
	const paid = transfers.length > 2 ? transfers.slice(0, -1) : transfers
	// A one-off transfer paid last month (its batch sent and reconciled then), and last month closed by
	// finance; the others paid today. One batch per debit account, zakat apart (docs/product.md#payment).
	const returned = paid.length > 1 ? paid.find((item) => item.months === null) : undefined
	// Last month's last day: the day before this month's first.
	const lastDay = new Date(Date.parse(`${monthShift(today, 0)}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10)
	if (returned) {
		told.push(...(await payInBatches(db, [returned.id], 'دفعة صرف تجريبية (الشهر الماضي)', lastDay, finance)))
		await closeMonth(db, lastDay.slice(0, 7), finance)
	}
	told.push(...(await payInBatches(db, paid.filter((item) => item !== returned).map((item) => item.id), 'دفعة صرف تجريبية', today, finance)))

	// The transfer paid last month comes back from the bank this month: its reversal is dated today,
	// naming last month's payment (an adjusting entry: the closed month keeps what it recorded). The
	// family is told and gives another IBAN on its link; another member of finance confirms it, and
	// the transfer is paid on the next batch.
	if (returned) {
		const [line] = await db.select({ batchId: aidInstalments.batchId }).from(aidInstalments).where(eq(aidInstalments.id, returned.id))
		told.push(...(await reopenPayment(db, line!.batchId!, returned.id, 'اسم المستفيد لا يطابق اسم صاحب الحساب لدى البنك', finance)))
		await giveIban(db, returned.caseId, demoIban(bankOfChoice('alrajhi')!.code, `0000${String(returned.id).padStart(14, '0')}`), null, 'alrajhi')
		await confirmIban(db, returned.caseId, secondFinance)
		told.push(...(await payInBatches(db, [returned.id], 'دفعة صرف تجريبية (إعادة تحويل)', today, finance)))
	}

	// A monthly aid stopped after its first payment, with the reason the family reads (the months left cancelled).
	const monthly = paid.find((item) => item.months !== null && item.months > 1)
	const [why] = await listReasons(db, 'aid-hold')
	if (monthly && why) {
		const [instalment] = await db.select({ decisionId: aidInstalments.decisionId }).from(aidInstalments).where(eq(aidInstalments.id, monthly.id))
		const change = await changeAid(db, instalment!.decisionId, { action: 'stop', reason: why.label }, finance)
		const [stopped] = await db.select({ status: cases.status }).from(cases).where(eq(cases.id, monthly.caseId))
		if (change.told && stopped) told.push({ kind: 'status', caseId: monthly.caseId, to: stopped.status, message: change.told, messageOnly: true })
	}
	return { notices: told, by: finance }
}

/** Batches the transfers (one per debit account), marks each sent on `day`, and records each line paid that day. */
async function payInBatches(db: Database, instalmentIds: readonly number[], note: string, day: string, finance: { id: number; roles: readonly UserRole[] }): Promise<Notice[]> {
	const told: Notice[] = []
	if (!instalmentIds.length) return told
	const { batchIds } = await createBatch(db, instalmentIds, note, finance)
	for (const batchId of batchIds) {
		await markBatchSent(db, batchId, day, finance)
		const lines = (await batchOf(db, batchId))?.lines ?? []
		for (const line of lines) if (line.status === 'in_batch') told.push(await recordPayment(db, batchId, { instalmentId: line.id, bankReference: `DEMO${String(batchId).padStart(3, '0')}${String(line.id).padStart(6, '0')}`, paidOn: day }, finance))
	}
	return told
}

/**
 * The researcher's visits: the studied families' visits done on their study's day, and a visit
 * planned in the coming days for a few new families (their private link shows it; «زياراتي» with
 * «كل الباحثين» lists it). Written as the case view's form writes them, with their history.
 */
async function insertDemoVisits(db: Database, researcher: { id: number; name: string }): Promise<void> {
	const done = await db.select({ caseId: caseStudies.caseId, on: caseStudies.studiedOn }).from(caseStudies).where(eq(caseStudies.kind, 'visit'))
	if (done.length) await db.insert(caseVisits).values(done.map((study) => ({ caseId: study.caseId, visitOn: study.on, visitAt: '10:00', visitorId: researcher.id, status: 'done' as const, createdBy: researcher.id })))
	const waiting = await db
		.select({ id: cases.id, type: cases.type })
		.from(cases)
		.where(and(eq(cases.status, Status.New), isNull(cases.deletedAt), isNotNull(cases.submittedAt)))
		.orderBy(asc(cases.reference))
	// One visit planned at a time: not a family whose researcher already planned one.
	const planned = new Set((await db.select({ caseId: caseVisits.caseId }).from(caseVisits).where(eq(caseVisits.status, 'planned'))).map((row) => row.caseId))
	const families = waiting.filter((row) => findDefinition(row.type)?.kind === 'individual' && !planned.has(row.id)).slice(0, 4)
	const today = Date.parse(`${todayInRiyadh()}T00:00:00Z`)
	for (const [index, family] of families.entries()) {
		const visit = { visitOn: new Date(today + (index + 1) * 86_400_000).toISOString().slice(0, 10), visitAt: ['09:30', '11:00', '16:30', '18:00'][index]! }
		await db.insert(caseVisits).values({ caseId: family.id, ...visit, visitorId: researcher.id, createdBy: researcher.id })
		await db.insert(caseEvents).values([
			{ caseId: family.id, actorId: researcher.id, kind: 'visit_scheduled', data: { ...visit, visitorName: researcher.name } },
			{ caseId: family.id, actorId: researcher.id, kind: 'applicant_message', note: visitMessage({ ...visit, visitorName: researcher.name }) },
		])
	}
}
