import { randomBytes } from 'node:crypto'
import { asc, sql } from 'drizzle-orm'
import fc from 'fast-check'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { Status } from '#app/cases/case-statuses.ts'
import { CaseChangeError } from '#app/cases/status-changes.server.ts'
import { caseAid, cases, caseSections, ledgerEntries } from '#app/db/schema.ts'
import { createUser, type PublicUser } from '#app/domain/staff-users.server.ts'
import { todayInRiyadh } from '#app/text/format.ts'
import { sectionAnswers } from '#tests/fixtures/needy-families.ts'
import { confirmIban, giveIban, IBAN_BOUNCED } from '#app/cases/payee-accounts.server.ts'
import { saudiIbanFromBban } from '#app/domain/validators.ts'
import { PURGED_NAME, purgeCase } from '#app/operations/retention-purge.server.ts'
import { withAppDatabase } from '#tests/db.ts'
import { temporaryStorage } from '#tests/storage.ts'
import { decide } from './decisions.server.ts'
import { addFund, budgetsOf, setBudget } from './funds.server.ts'
import { checkLedger } from './ledger.server.ts'
import { AidFourEyesError, changeAid, monthShift } from './monthly-aid.server.ts'
import { aidTransitions, type AidAction, type AidState } from './monthly-aid.ts'
import { batchOf, createBatch, markBatchSent, paymentReference, reconcile, recordDelivery, recordPayment, reopenPayment } from './payments.server.ts'
import { ClosedPeriodError, closedPeriodMessage, closeMonth, reopenMonth } from './periods.server.ts'
import { aidReport, type ReportRow } from './reports.server.ts'

// The money ledger's model-based test (docs/product.md#the-ledger): fast-check runs random sequences
// of the money actions (approve, batch, send, pay by hand or from the bank's file, bounce, withdraw,
// correct the IBAN, deliver; stop, suspend, resume and confirm or decline a monthly aid, four eyes
// on the confirmation; close and reopen last month, and money dated in it; retention's purge of a
// case) against the real store functions, on PGlite and PostgreSQL, beside a model of what each
// instalment, aid, batch and month should be; after every step it checks the ledger's invariants. A
// short run by default; LEDGER_MODEL_RUNS=<n> runs n sequences (docs/performance.md#the-ledgers-long-run).

const app = withAppDatabase()
const db = () => app.handle.db
const files = temporaryStorage('ledger-model')
afterAll(() => files.remove())
const today = todayInRiyadh()
const year = Number(today.slice(0, 4))
/** The month the model closes and reopens: last month, over (a month is closed once it has ended). */
const lastMonth = monthShift(today, -1).slice(0, 7)
const lastMonthYear = Number(lastMonth.slice(0, 4))
/** Money dated in last month is dated this day of it. */
const lastMonthDay = `${lastMonth}-15`
/** The years the model's money is dated in: this one, and last month's when it is last year's (January). */
const years = [...new Set([year, lastMonthYear])]
const RUNS = Number(process.env.LEDGER_MODEL_RUNS) || 3
/**
 * The short run is the same every time (its seed fixed: never a test that fails one run in fifty);
 * a long run, or LEDGER_MODEL_SEED=random, draws new sequences; a failure prints its seed, and
 * LEDGER_MODEL_SEED=<seed> replays it.
 */
const SEED = process.env.LEDGER_MODEL_SEED === 'random' ? undefined : process.env.LEDGER_MODEL_SEED ? Number(process.env.LEDGER_MODEL_SEED) : process.env.LEDGER_MODEL_RUNS ? undefined : 20_261_129
const MAX_ACTIONS = 30
/** Each sequence's own fund, with this budget: an approval past what is left is refused. */
const FUND_BUDGET = 20_000
let approver: PublicUser
let finance: PublicUser
let admin: PublicUser

beforeAll(async () => {
	const user = (name: string, roles: PublicUser['roles']) => createUser(db(), { name, email: `${roles.join('-')}-${Math.random()}@example.org`, mobile: '', roles, password: 'Ledger-Model-1234' })
	approver = await user('عضو اللجنة', ['approver'])
	finance = await user('المسؤولة المالية', ['finance'])
	admin = await user('مدير النظام', ['admin'])
	for (const budgetYear of years) await setBudget(db(), { programme: 'needy-families', year: budgetYear, fundId: null, allocated: 1_000_000_000 }, finance)
})

type InstalmentState = 'approved' | 'in_batch' | 'paid' | 'delivered' | 'suspended' | 'cancelled'
interface Instalment {
	status: InstalmentState
	amount: number
	inKind: boolean
	batchId: number | null
	caseId: string
	decisionId: number
	/** The day it was paid or delivered. */
	givenOn: string | null
}
interface Model {
	fundId: number
	instalments: Map<number, Instalment>
	/** Each approval's aid: its state (./monthly-aid.ts) and who asked to resume it. */
	aids: Map<number, { state: AidState; requestedBy: number | null }>
	/** Cases whose account the bank returned (or taken out of a batch): not batched until finance confirms another IBAN. */
	held: Set<string>
	/** Each batch's lines as it was sent: reference, amount and account. */
	sent: Map<number, string[]>
	/** The day each batch was sent. */
	sentOn: Map<number, string>
	open: Set<number>
	/** Cases whose personal data retention destroyed (over every sequence: the aid ledger is the whole database's). */
	purged: Set<string>
	refusedApprovals: number
}
/** Every purged case, over every sequence. */
const purgedCases = new Set<string>()
/** Last month, over every sequence (a month is the whole ledger's): closed or not, and its report when it closed. */
const period: { closed: boolean; report: ReportRow | undefined } = { closed: false, report: undefined }
interface Real {
	/** Every entry and every row of the aid ledger written so far, as first read. */
	entries: Map<number, unknown>
	given: Map<number, (typeof caseAid)['$inferSelect']>
	/** Every kept file of a sent batch: its SHA-256 and length, as first read. */
	files: Map<number, unknown>
}

/** How many times each action ran, over all sequences. */
const ran = new Map<string, number>()

/** A money action: its `act` runs against the real store, then every invariant is checked. */
abstract class Action implements fc.AsyncCommand<Model, Real> {
	abstract check(model: Readonly<Model>): boolean
	abstract act(model: Model): Promise<void>
	async run(model: Model, real: Real) {
		await this.act(model)
		const name = this.toString().replace(/\(.*/, '')
		ran.set(name, (ran.get(name) ?? 0) + 1)
		await invariants(model, real)
	}
}

const idsIn = (model: Readonly<Model>, wanted: (item: Instalment) => boolean) => [...model.instalments].filter(([, item]) => wanted(item)).map(([id]) => id)
const pick = <T>(list: readonly T[], index: number): T => list[index % list.length]!
/** The day a dated action writes: today, or a day of last month. */
const dayOf = (lastMonthDated: boolean) => (lastMonthDated ? lastMonthDay : today)
/** Money dated in last month while it is closed: refused. */
const inClosedMonth = (day: string | null) => period.closed && day?.slice(0, 7) === lastMonth

/** The money tables as they stand, to show that a refused action changed nothing. */
async function moneyState() {
	const digest = (table: string) => sql.raw(`(select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) from ${table} t)`)
	const [row] = (
		await db().execute(
			sql`select ${digest('ledger_entries')} as entries, ${digest('case_aid')} as given, ${digest('aid_instalments')} as instalments, ${digest('payment_batches')} as batches,
				${digest('payment_batch_lines')} as lines, ${digest('monthly_aids')} as aids, ${digest('cases')} as cases, ${digest('closed_periods')} as periods`,
		)
	).rows
	return row
}

/** The action is refused with `refusal` (an error class, or the message) and nothing it touches changed. */
async function refused(work: () => Promise<unknown>, refusal: (new (...args: never[]) => Error) | string) {
	const before = await moneyState()
	await expect(work()).rejects.toThrow(refusal)
	expect(await moneyState()).toEqual(before)
	if (refusal === ClosedPeriodError) ran.set('refused-in-closed-month', (ran.get('refused-in-closed-month') ?? 0) + 1)
}

/** A case waiting for the committee, written directly (the cycle's earlier steps have their own tests), with the family's IBAN. */
async function studiedCase(): Promise<string> {
	const [row] = await db()
		.insert(cases)
		.values({
			type: 'needy-families',
			reference: `MDL-${randomBytes(5).toString('hex')}`,
			status: Status.Studied,
			applicantName: 'أسرة النموذج',
			nationalId: '',
			mobile: '',
			resumeTokenHash: `model-${randomBytes(12).toString('hex')}`,
			submittedAt: new Date(),
			household: 3,
		})
		.returning({ id: cases.id })
	await db().insert(caseSections).values({ caseId: row!.id, section: 'bank', answers: sectionAnswers.bank })
	return row!.id
}

class Approve extends Action {
	constructor(
		readonly amount: number,
		readonly months: number | null,
		readonly inKind: boolean,
	) {
		super()
	}
	check() {
		return true
	}
	async act(model: Model) {
		const caseId = await studiedCase()
		const total = this.amount * (this.months ?? 1)
		const approve = () =>
			decide(db(), caseId, { outcome: 'approve', aidKind: this.inKind ? 'food_basket' : 'cash', amount: this.amount, months: this.months, fundId: model.fundId, note: 'نموذج' }, approver)
		if (total > FUND_BUDGET - used(model)) {
			await expect(approve()).rejects.toThrow(CaseChangeError)
			model.refusedApprovals++
			return
		}
		await approve()
		const written = (await db().execute(sql`select id, decision_id from aid_instalments where case_id = ${caseId} order by seq`)).rows as { id: number; decision_id: number }[]
		for (const { id, decision_id: decisionId } of written) {
			model.instalments.set(id, { status: 'approved', amount: this.amount, inKind: this.inKind, batchId: null, caseId, decisionId, givenOn: null })
			model.aids.set(decisionId, { state: 'active', requestedBy: null })
		}
	}
	override toString = () => `approve(${this.amount}x${this.months ?? 1}${this.inKind ? ', in kind' : ''})`
}

/** Committed and paid in the model: what its budget has used (a cancelled instalment's money is back). */
const used = (model: Readonly<Model>) => [...model.instalments.values()].filter((item) => item.status !== 'cancelled').reduce((sum, item) => sum + item.amount, 0)

const batchable = (model: Readonly<Model>) => idsIn(model, (item) => item.status === 'approved' && !item.inKind && !model.held.has(item.caseId))

class Batch extends Action {
	constructor(readonly take: number) {
		super()
	}
	check(model: Readonly<Model>) {
		return batchable(model).length > 0
	}
	async act(model: Model) {
		const due = batchable(model)
		const chosen = due.slice(0, 1 + (this.take % due.length))
		const { batchId, refused } = await createBatch(db(), chosen, '', finance)
		expect(refused).toEqual([])
		for (const id of chosen) Object.assign(model.instalments.get(id)!, { status: 'in_batch', batchId })
		model.open.add(batchId!)
	}
	override toString = () => `batch(${this.take})`
}

/** A batch's lines as finance reads them: reference, amount and account. */
const linesOf = async (batchId: number) => (await batchOf(db(), batchId))!.lines.map((line) => `${line.reference} ${Number(line.amount).toFixed(2)} ${line.iban}`)

/** The lines of these batches as pinned (what the bank was told), read at once: reference, amount and account. */
async function pinnedLines(batchIds: readonly number[]): Promise<Map<number, string[]>> {
	const found = new Map<number, string[]>(batchIds.map((id) => [id, []]))
	if (!batchIds.length) return found
	const rows = (await db().execute(sql`select batch_id, reference, amount, iban from payment_batch_lines where batch_id in ${sql.raw(`(${batchIds.map(Number).join(',')})`)} order by batch_id, id`)).rows as { batch_id: number; reference: string; amount: string; iban: string }[]
	for (const row of rows) found.get(row.batch_id)!.push(`${row.reference} ${Number(row.amount).toFixed(2)} ${row.iban}`)
	return found
}

class Send extends Action {
	constructor(
		readonly which: number,
		readonly lastMonthDated: boolean,
	) {
		super()
	}
	check(model: Readonly<Model>) {
		return [...model.open].some((batchId) => idsIn(model, (item) => item.batchId === batchId).length > 0)
	}
	async act(model: Model) {
		const batchId = pick(
			[...model.open].filter((id) => idsIn(model, (item) => item.batchId === id).length > 0),
			this.which,
		)
		const day = dayOf(this.lastMonthDated)
		if (inClosedMonth(day)) return refused(() => markBatchSent(db(), batchId, day, finance), ClosedPeriodError)
		await markBatchSent(db(), batchId, day, finance)
		model.open.delete(batchId)
		// As finance reads it, the lines as pinned.
		const lines = await linesOf(batchId)
		expect(lines).toEqual((await pinnedLines([batchId])).get(batchId))
		model.sent.set(batchId, lines)
		model.sentOn.set(batchId, day)
	}
	override toString = () => `send(${this.which}${this.lastMonthDated ? ', last month' : ''})`
}

const waitingInSent = (model: Readonly<Model>) => idsIn(model, (item) => item.status === 'in_batch' && item.batchId !== null && model.sent.has(item.batchId))

class Pay extends Action {
	constructor(
		readonly which: number,
		readonly fromBankFile: boolean,
		readonly lastMonthDated: boolean,
	) {
		super()
	}
	check(model: Readonly<Model>) {
		return waitingInSent(model).length > 0
	}
	async act(model: Model) {
		const id = pick(waitingInSent(model), this.which)
		const item = model.instalments.get(id)!
		const bankReference = `FT${randomBytes(4).toString('hex')}`
		const day = dayOf(this.lastMonthDated)
		if (this.fromBankFile) {
			const pay = () => reconcile(db(), item.batchId!, `payment_reference,amount,bank_reference,paid_on\n${paymentReference(id)},${item.amount},${bankReference},${day}\n`, finance)
			if (inClosedMonth(day)) {
				// The bank's file is read line by line: the line dated in the closed month is listed, with why, and nothing is recorded.
				const before = await moneyState()
				expect(await pay()).toEqual({ recorded: [], notices: [], unmatched: [{ line: 2, reference: paymentReference(id), reason: closedPeriodMessage(lastMonth) }] })
				expect(await moneyState()).toEqual(before)
				ran.set('refused-in-closed-month', (ran.get('refused-in-closed-month') ?? 0) + 1)
				return
			}
			expect(await pay()).toEqual({ recorded: [paymentReference(id)], notices: [{ kind: 'payment-made', caseId: item.caseId, amount: item.amount, on: day }], unmatched: [] })
		} else {
			const pay = () => recordPayment(db(), item.batchId!, { instalmentId: id, bankReference, paidOn: day }, finance)
			if (inClosedMonth(day)) return refused(pay, ClosedPeriodError)
			await pay()
		}
		Object.assign(item, { status: 'paid', givenOn: day })
	}
	override toString = () => `pay(${this.which}${this.fromBankFile ? ', bank file' : ''}${this.lastMonthDated ? ', last month' : ''})`
}

/**
 * The bank returned a paid transfer (`paid`), or finance takes a line out of its batch before it was
 * paid. (Not a purged case's: retention waits months after the last payment, a bank days.)
 */
class Bounce extends Action {
	constructor(
		readonly which: number,
		readonly state: 'paid' | 'in_batch',
	) {
		super()
	}
	candidates(model: Readonly<Model>) {
		return idsIn(model, (item) => item.status === this.state && !model.purged.has(item.caseId))
	}
	check(model: Readonly<Model>) {
		return this.candidates(model).length > 0
	}
	async act(model: Model) {
		const id = pick(this.candidates(model), this.which)
		const item = model.instalments.get(id)!
		const sent = !model.open.has(item.batchId!)
		// A payment of a closed month may come back too: it is undone by entries dated today, in an open
		// month, naming it (drizzle/0043_reversal_in_open_period.sql); the closed month's report stays.
		await reopenPayment(db(), item.batchId!, id, 'أعاد البنك التحويل', finance)
		// Back to wait for a payment; an aid held or stopped keeps it held or stops it (app/aid/monthly-aid.server.ts).
		const aid = model.aids.get(item.decisionId)!.state
		const status: InstalmentState = aid === 'suspended' || aid === 'resuming' ? 'suspended' : aid === 'stopped' || aid === 'restarting' ? 'cancelled' : 'approved'
		Object.assign(item, { status, batchId: null, givenOn: null })
		// Returned by the bank, its account is held: the family is asked for another
		// (app/cases/payee-accounts.server.ts). Taken out before the file went, it is due again as it is.
		if (!sent) return
		model.held.add(item.caseId)
		if (status === 'approved') {
			const held = (await createBatch(db(), [id], '', finance)).refused
			expect(held.map((refusal) => refusal.reason)).toEqual([IBAN_BOUNCED])
		}
	}
	override toString = () => `${this.state === 'paid' ? 'bounce' : 'withdraw'}(${this.which})`
}

/** The family gives another IBAN on its link; finance (not the giver) confirms it: the case may be batched again. */
class CorrectIban extends Action {
	constructor(readonly which: number) {
		super()
	}
	check(model: Readonly<Model>) {
		return [...model.held].some((caseId) => !model.purged.has(caseId))
	}
	async act(model: Model) {
		const caseId = pick(
			[...model.held].filter((id) => !model.purged.has(id)),
			this.which,
		)
		const digits = Array.from(randomBytes(18), (byte) => String(byte % 10)).join('')
		await giveIban(db(), caseId, saudiIbanFromBban(`80${digits}`))
		await confirmIban(db(), caseId, finance)
		model.held.delete(caseId)
	}
	override toString = () => `correct-iban(${this.which})`
}

class Deliver extends Action {
	constructor(
		readonly which: number,
		readonly lastMonthDated: boolean,
	) {
		super()
	}
	check(model: Readonly<Model>) {
		return idsIn(model, (item) => item.status === 'approved' && item.inKind).length > 0
	}
	async act(model: Model) {
		const id = pick(
			idsIn(model, (item) => item.status === 'approved' && item.inKind),
			this.which,
		)
		const day = dayOf(this.lastMonthDated)
		const deliver = () => recordDelivery(db(), id, { deliveredOn: day, deliveredBy: 'فريق التوزيع', receipt: `R-${id}` }, finance)
		if (inClosedMonth(day)) return refused(deliver, ClosedPeriodError)
		await deliver()
		Object.assign(model.instalments.get(id)!, { status: 'delivered', givenOn: day })
	}
	override toString = () => `deliver(${this.which}${this.lastMonthDated ? ', last month' : ''})`
}

/** Finance and the committee hold and resume aid (./monthly-aid.ts); either may ask, the other confirms. */
const holders = () => [finance, approver] as const

/**
 * Suspend, stop, ask to resume, confirm or decline an approved aid's remaining instalments
 * (app/aid/monthly-aid.server.ts), as its state allows; `allowed` false tries an action its state
 * does not allow, and `samePerson` has the one who asked to resume confirm it: both refused, nothing changed.
 */
class ChangeAid extends Action {
	constructor(
		readonly action: AidAction,
		readonly which: number,
		readonly by: number,
		readonly allowed: boolean,
		readonly samePerson: boolean,
	) {
		super()
	}
	candidates(model: Readonly<Model>) {
		// (Not a purged case's: its aid is over; retention waited for its last instalment.)
		const purged = new Set([...model.instalments.values()].filter((item) => model.purged.has(item.caseId)).map((item) => item.decisionId))
		return [...model.aids].filter(([id, aid]) => !purged.has(id) && (aidTransitions[aid.state][this.action] !== undefined) === this.allowed).map(([id]) => id)
	}
	check(model: Readonly<Model>) {
		return this.candidates(model).length > 0
	}
	async act(model: Model) {
		const decisionId = pick(this.candidates(model), this.which)
		const aid = model.aids.get(decisionId)!
		const actor = this.action === 'confirm' && aid.requestedBy !== null ? (this.samePerson ? holders().find((user) => user.id === aid.requestedBy)! : holders().find((user) => user.id !== aid.requestedBy)!) : pick(holders(), this.by)
		const change = () => changeAid(db(), decisionId, { action: this.action, reason: 'تحسن دخل الأسرة' }, actor)
		const next = aidTransitions[aid.state][this.action]
		if (!next) return refused(change, CaseChangeError)
		// Four eyes: a resumption or a restart is confirmed by someone other than the one who asked for it.
		if (this.action === 'confirm' && actor.id === aid.requestedBy) return refused(change, AidFourEyesError)
		const ofAid = (states: InstalmentState[]) => [...model.instalments.values()].filter((item) => item.decisionId === decisionId && states.includes(item.status))
		const moves: Partial<Record<AidAction, [InstalmentState[], InstalmentState]>> = {
			suspend: [['approved'], 'suspended'],
			stop: [['approved', 'suspended'], 'cancelled'],
			confirm: aid.state === 'restarting' ? [['cancelled'], 'approved'] : [['suspended'], 'approved'],
		}
		const [from, to] = moves[this.action] ?? [[], 'approved']
		const moving = ofAid(from)
		// Nothing left to hold or stop: every instalment paid, delivered or cancelled, none on its way to the bank.
		if ((this.action === 'suspend' || this.action === 'stop') && !moving.length && !ofAid(['in_batch']).length) return refused(change, 'لا أقساط باقية')
		// A restart takes the stopped instalments' money from the budget again, if it is still there.
		if (this.action === 'confirm' && aid.state === 'restarting' && moving.reduce((sum, item) => sum + item.amount, 0) > FUND_BUDGET - used(model)) return refused(change, 'يتجاوز المبلغ')
		const done = await change()
		expect({ from: done.from, to: done.to, months: done.months.length }).toEqual({ from: aid.state, to: next, months: moving.length })
		for (const item of moving) item.status = to
		Object.assign(aid, { state: next, requestedBy: this.action === 'resume' ? actor.id : null })
	}
	override toString = () => `${!this.allowed ? 'refused-aid-action' : this.samePerson ? `${this.action}-by-requester` : this.action}(${this.which}${this.allowed ? '' : `, ${this.action}`})`
}

/** The month's report figures (the board's report by month), as they stand. */
const monthReport = async () => (await aidReport(db(), lastMonthYear, 'month')).rows.find((row) => row.key === lastMonth)

/** Finance closes last month: refused while a batch it sent waits for the bank's references, or once closed. */
class ClosePeriod extends Action {
	check() {
		return true
	}
	async act(model: Model) {
		const close = () => closeMonth(db(), lastMonth, finance)
		if (period.closed) return refused(close, 'مقفل من قبل')
		const waiting = [...model.sentOn].filter(([batchId, day]) => day <= lastMonthDay && idsIn(model, (item) => item.batchId === batchId && item.status === 'in_batch').length > 0)
		if (waiting.length) return refused(close, 'لم تكتمل مطابقة')
		await close()
		Object.assign(period, { closed: true, report: await monthReport() })
	}
	override toString = () => 'close-month()'
}

/** An admin reopens last month, with a reason; refused when it is open. */
class ReopenPeriod extends Action {
	check() {
		return true
	}
	async act() {
		const reopen = () => reopenMonth(db(), lastMonth, 'قيد تسوية وصل متأخراً من البنك', admin)
		if (!period.closed) return refused(reopen, 'مفتوح')
		await reopen()
		Object.assign(period, { closed: false, report: undefined })
	}
	override toString = () => 'reopen-month()'
}

/** Closed for good with nothing left to pay: every instalment paid, delivered or cancelled, one of them given («تم تقديم الدعم»). */
const dueForRetention = (model: Readonly<Model>, caseId: string) => {
	const own = [...model.instalments.values()].filter((item) => item.caseId === caseId)
	return own.every((item) => ['paid', 'delivered', 'cancelled'].includes(item.status)) && own.some((item) => item.status === 'paid' || item.status === 'delivered')
}

/** Retention destroys a case's personal data, as if its time had come (`now` years ahead); a case still being paid waits. */
class Purge extends Action {
	constructor(
		readonly which: number,
		readonly due: boolean,
	) {
		super()
	}
	candidates(model: Readonly<Model>) {
		return [...new Set([...model.instalments.values()].map((item) => item.caseId))].filter((caseId) => !model.purged.has(caseId) && dueForRetention(model, caseId) === this.due)
	}
	check(model: Readonly<Model>) {
		return this.candidates(model).length > 0
	}
	async act(model: Model) {
		const caseId = pick(this.candidates(model), this.which)
		const figures = async () => ({ reports: await Promise.all(years.flatMap((reportYear) => (['fund', 'month'] as const).map((by) => aidReport(db(), reportYear, by)))), budgets: await Promise.all(years.map((budgetYear) => budgetsOf(db(), budgetYear))) })
		const before = await figures()
		const purged = await purgeCase(db(), files.storage, caseId, { months: 12, now: new Date(Date.now() + 2 * 366 * 86_400_000), runBy: 'command' })
		if (!this.due) {
			expect(purged).toBeNull()
			return
		}
		expect(purged).not.toBeNull()
		const [row] = (await db().execute(sql`select applicant_name from cases where id = ${caseId}`)).rows as { applicant_name: string }[]
		expect(row!.applicant_name).toBe(PURGED_NAME)
		// The money stays as it was: every report and budget figure (the entries' own check is after every step).
		expect(await figures()).toEqual(before)
		model.purged.add(caseId)
	}
	override toString = () => `${this.due ? 'purge' : 'purge-not-due'}(${this.which})`
}

/** The ledger's posted riyals of a fund in a year, read directly: postings less their reversals; and the families given more than zero. */
async function postedOf(fundId: number, inYear: number) {
	const rows = (
		await db().execute(sql`select case_id, sum(case when corrects_id is null then amount else -amount end) as net
			from ledger_entries where fund_id = ${fundId} and phase = 'posted' and extract(year from value_date) = ${inYear} group by case_id`)
	).rows as { net: string }[]
	return { riyals: rows.reduce((sum, row) => sum + Number(row.net), 0), families: rows.filter((row) => Number(row.net) > 0).length }
}

/** What must hold after every step (docs/product.md#the-ledger). */
async function invariants(model: Model, real: Real) {
	// What was written never changes: every entry and every row of the aid ledger read before is as it
	// was; only rows are added. Retention blanks a purged case's notes in the aid ledger (the one
	// change its trigger allows, drizzle/0040_ledger.sql), never an amount, a day or an entry.
	const entries = await db().select().from(ledgerEntries).orderBy(asc(ledgerEntries.id))
	for (const [id, before] of real.entries) expect(entries.find((row) => row.id === id), `ledger_entries ${id}`).toEqual(before)
	for (const row of entries) if (!real.entries.has(row.id)) real.entries.set(row.id, row)
	const given = await db().select().from(caseAid).orderBy(asc(caseAid.id))
	for (const [id, before] of real.given) expect(given.find((row) => row.id === id), `case_aid ${id}`).toEqual(model.purged.has(before.caseId) ? { ...before, note: '' } : before)
	for (const row of given) if (!real.given.has(row.id)) real.given.set(row.id, row)
	// Debits equal credits in every transaction: what its entries take out of funds is what they give
	// families (each entry moves its amount, more than zero, from one account to another: between a
	// fund and a family, never two funds or two families); each pending resolved once; no account
	// below zero; each instalment as its entries say.
	const unbalanced = await db().execute(sql`select transaction_id from ledger_entries group by transaction_id
		having sum(case when debit_account like 'fund:%' then amount else 0 end) - sum(case when credit_account like 'fund:%' then amount else 0 end)
			<> sum(case when credit_account like 'family:%' then amount else 0 end) - sum(case when debit_account like 'family:%' then amount else 0 end)
			or bool_or((debit_account like 'fund:%') = (credit_account like 'fund:%'))`)
	expect(unbalanced.rows).toEqual([])
	expect(await checkLedger(db())).toEqual([])
	// The fund's budget: never below zero, and what the model says is committed and paid (a suspended instalment's money is still the family's).
	const budget = (await budgetsOf(db(), year)).find((candidate) => candidate.fundId === model.fundId)!
	const sum = (states: InstalmentState[]) => [...model.instalments.values()].filter((item) => states.includes(item.status)).reduce((total, item) => total + item.amount, 0)
	expect({ committed: budget.committed, paid: budget.paid }).toEqual({ committed: sum(['approved', 'in_batch', 'suspended']), paid: sum(['paid', 'delivered']) })
	expect(budget.remaining).toBeGreaterThanOrEqual(0)
	// Every sent batch's lines are those it was sent with, the bounced ones too: a line stays in its batch as the bank was told it.
	const pinned = await pinnedLines([...model.sent.keys()])
	for (const [batchId, lines] of model.sent) expect(pinned.get(batchId), `batch ${batchId}`).toEqual(lines)
	// And the files kept when it was sent: the same bytes (their SHA-256 as stored and as computed now), for ever.
	const kept = (await db().execute(sql`select id, batch_id, layout, format, sha256, encode(sha256(bytes), 'hex') as computed, length(bytes) as size from payment_batch_files order by id`)).rows as { id: number; batch_id: number; sha256: string; computed: string }[]
	for (const [id, before] of real.files) expect(kept.find((row) => row.id === id), `payment_batch_files ${id}`).toEqual(before)
	for (const row of kept) {
		expect(row.computed).toBe(row.sha256)
		if (!real.files.has(row.id)) real.files.set(row.id, row)
	}
	for (const batchId of model.sent.keys()) expect(kept.some((row) => row.batch_id === batchId)).toBe(true)
	// A closed month's report is as it was when it closed.
	if (period.closed) expect(await monthReport()).toEqual(period.report)
	// The reports (by fund, each year) equal the entries read directly. The reports read the aid
	// ledger's sums (report_figures, drizzle/0029_report_summary.sql), written in the same transaction
	// as the entries: through aidReport, this holds whichever the reports read.
	for (const reportYear of years) {
		const row = (await aidReport(db(), reportYear, 'fund')).rows.find((candidate) => candidate.key === String(model.fundId))
		expect({ riyals: row?.givenRiyals ?? 0, families: row?.families ?? 0 }, `report ${reportYear}`).toEqual(await postedOf(model.fundId, reportYear))
	}
	expect((await postedOf(model.fundId, year)).riyals + (lastMonthYear === year ? 0 : (await postedOf(model.fundId, lastMonthYear)).riyals)).toBe(sum(['paid', 'delivered']))
}

const lastMonthDated = fc.boolean()
const approve = fc.tuple(fc.integer({ min: 1, max: 25 }), fc.constantFrom(null, null, 2, 3), fc.boolean()).map(([hundreds, months, inKind]) => new Approve(hundreds * 100, months, inKind))
const batch = fc.nat(20).map((take) => new Batch(take))
const send = fc.tuple(fc.nat(20), lastMonthDated).map(([which, dated]) => new Send(which, dated))
const pay = fc.tuple(fc.nat(20), fc.boolean(), lastMonthDated).map(([which, fromBankFile, dated]) => new Pay(which, fromBankFile, dated))
const bounce = fc.nat(20).map((which) => new Bounce(which, 'paid'))
const withdraw = fc.nat(20).map((which) => new Bounce(which, 'in_batch'))
const deliver = fc.tuple(fc.nat(20), lastMonthDated).map(([which, dated]) => new Deliver(which, dated))
const correctIban = fc.nat(20).map((which) => new CorrectIban(which))
const changeAidOf = (action: AidAction, allowed = true, samePerson = false) => fc.tuple(fc.nat(20), fc.nat(1)).map(([which, by]) => new ChangeAid(action, which, by, allowed, samePerson))
const closePeriod = fc.constant(null).map(() => new ClosePeriod())
const reopenPeriod = fc.constant(null).map(() => new ReopenPeriod())
const purge = fc.tuple(fc.nat(20), fc.boolean()).map(([which, due]) => new Purge(which, due))
// Weighted so that sequences reach paying, bouncing, holding and closing; every sequence starts with
// two approvals (a sequence without money would check little).
const actions = fc.oneof(
	{ arbitrary: approve, weight: 4 },
	{ arbitrary: batch, weight: 3 },
	{ arbitrary: send, weight: 3 },
	{ arbitrary: pay, weight: 4 },
	{ arbitrary: bounce, weight: 2 },
	{ arbitrary: withdraw, weight: 1 },
	{ arbitrary: correctIban, weight: 2 },
	{ arbitrary: deliver, weight: 2 },
	{ arbitrary: changeAidOf('suspend'), weight: 2 },
	{ arbitrary: changeAidOf('stop'), weight: 1 },
	{ arbitrary: changeAidOf('resume'), weight: 2 },
	{ arbitrary: changeAidOf('confirm'), weight: 2 },
	{ arbitrary: changeAidOf('confirm', true, true), weight: 2 },
	{ arbitrary: changeAidOf('decline'), weight: 2 },
	{ arbitrary: fc.constantFrom<AidAction>('suspend', 'stop', 'resume', 'confirm', 'decline').chain((action) => changeAidOf(action, false)), weight: 3 },
	{ arbitrary: closePeriod, weight: 1 },
	{ arbitrary: reopenPeriod, weight: 1 },
	{ arbitrary: purge, weight: 3 },
)
/**
 * The first sequence of every run, written out: each kind of action once at least, in an order
 * where its check allows it (last month closed while paid in, money dated in it refused, reopened;
 * an aid held, refused a same-person resumption, stopped and restarted; a case delivered and purged).
 * The random sequences follow.
 */
const tour = (): Action[] => [
	new Approve(1000, null, false),
	new Approve(500, 3, false),
	new Approve(300, null, true),
	new Batch(0),
	new Send(0, true),
	new ClosePeriod(),
	new Pay(0, false, true),
	new ClosePeriod(),
	new Deliver(0, true),
	new Send(0, true),
	new Bounce(0, 'paid'),
	new ReopenPeriod(),
	new Bounce(0, 'paid'),
	new CorrectIban(0),
	new ChangeAid('suspend', 1, 0, true, false),
	new ChangeAid('resume', 0, 0, true, false),
	new ChangeAid('confirm', 0, 0, true, true),
	new ChangeAid('decline', 0, 0, true, false),
	new ChangeAid('confirm', 0, 0, false, false),
	new ChangeAid('stop', 1, 1, true, false),
	new ChangeAid('resume', 0, 1, true, false),
	new ChangeAid('confirm', 0, 0, true, false),
	new Batch(20),
	new Bounce(0, 'in_batch'),
	new CorrectIban(0),
	new Send(0, false),
	new Pay(0, true, false),
	new Deliver(0, false),
	new Purge(0, false),
	new Purge(0, true),
]

const sequence = fc.tuple(fc.array(approve, { minLength: 2, maxLength: 2 }), fc.array(actions, { minLength: MAX_ACTIONS / 2, maxLength: MAX_ACTIONS - 2 })).map(([first, rest]) => [...first, ...rest])

test(`random sequences of money actions keep the ledger's invariants after every step (a tour of every action, then ${RUNS} random sequences of up to ${MAX_ACTIONS})`, { timeout: 120_000 + RUNS * 60_000 }, async () => {
	const real: Real = { entries: new Map(), given: new Map(), files: new Map() }
	let run = 0
	await fc.assert(
		fc.asyncProperty(sequence, async (commands) => {
			const fund = await addFund(db(), { name: `صندوق النموذج ${++run} ${randomBytes(3).toString('hex')}`, zakat: false })
			for (const budgetYear of years) await setBudget(db(), { programme: 'needy-families', year: budgetYear, fundId: fund.id, allocated: FUND_BUDGET }, finance)
			const model: Model = { fundId: fund.id, instalments: new Map(), aids: new Map(), sent: new Map(), sentOn: new Map(), open: new Set(), held: new Set(), purged: purgedCases, refusedApprovals: 0 }
			await invariants(model, real)
			// Each command runs when its check allows it, and the invariants are checked after it.
			await fc.asyncModelRun(() => ({ model, real }), commands)
			// Last month is the whole ledger's: the bank's references of what this sequence sent are
			// recorded (today), so that a later sequence may close it.
			while (waitingInSent(model).length) await new Pay(0, false, false).run(model, real)
		}),
		{ numRuns: RUNS + 1, examples: [[tour()]], endOnFailure: true, ...(SEED === undefined ? {} : { seed: SEED }) },
	)
	// The sequences reached every action (the checks above saw each kind of step), and wrote money: its rows are all still there.
	expect([...ran.keys()].sort(), JSON.stringify(Object.fromEntries(ran))).toEqual([
		'approve',
		'batch',
		'bounce',
		'close-month',
		'confirm',
		'confirm-by-requester',
		'correct-iban',
		'decline',
		'deliver',
		'pay',
		'purge',
		'purge-not-due',
		'refused-aid-action',
		'refused-in-closed-month',
		'reopen-month',
		'resume',
		'send',
		'stop',
		'suspend',
		'withdraw',
	])
	expect(real.entries.size).toBeGreaterThan(0)
})
