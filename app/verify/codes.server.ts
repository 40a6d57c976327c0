// Codes sent by SMS to prove a mobile (docs/security.md#verified-mobile): six digits, kept only as
// an HMAC, alive 10 minutes, 5 tries, used once; a new code replaces the ones before it. Sending is
// limited per mobile and per national ID, never per address: many families share one address.
import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto'
import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { appSecret } from '#app/db/app-secrets.server.ts'
import { verificationCodes } from '#app/db/schema.ts'
import { reachedLimit, countDone, type LimitCheck } from '#app/http/ip-limit.server.ts'
import { maskMobile } from '#app/notify/sms.server.ts'
import { getSmsDriver } from '#app/notify/notifier.server.ts'
import { getEnv, publicOrigin } from '#app/utils/env.server.ts'
import { admit, getSmsBudget, lockBudget, QUEUE_MS, roomLeft, smsUse, waiting } from './sms-budget.server.ts'
import { logger } from '#app/utils/log.server.ts'
import { countOf, seconds, triesLeft } from '#app/text/arabic-count.ts'
import { formatTime } from '#app/text/format.ts'

export const CODE_LIFETIME_MS = 10 * 60 * 1000
export const CODE_TRIES = 5
/** A second code for the same thing waits this long: a double tap sends one SMS. */
export const CODE_RESEND_SECONDS = 60

const HOUR = 60 * 60
const DAY = 24 * HOUR

/**
 * Codes sent, per mobile and per national ID (or licence number) where the ID is what is asked
 * about (the lookup, an account): a stranger cannot flood a phone, or guess for long. A case's code
 * names no ID (sendCaseCode): its draft is not the ID owner's until the code is typed.
 */
export const codeLimits = {
	perMobileHour: { bucket: 'code:mobile:hour', limit: 5, windowSeconds: HOUR },
	perMobileDay: { bucket: 'code:mobile:day', limit: 12, windowSeconds: DAY },
	perIdHour: { bucket: 'code:id:hour', limit: 5, windowSeconds: HOUR },
}

export type CodePurpose = 'case' | 'lookup' | 'account'

export interface CodeTarget {
	purpose: CodePurpose
	/** What the code opens: a case's id, the lookup's key (lookupSubject), an account's id. */
	subject: string
	/** +9665XXXXXXXX */
	mobile: string
	/** The national ID or licence number behind it, for its limit; '' for none. */
	nationalId: string
	/**
	 * The address that asks, for the SMS budgets (app/verify/sms-budget.server.ts); none for an
	 * institution's sign-in code, which follows its password and is not held by them.
	 */
	address?: string
}

export type CodeSent =
	| {
			ok: true
			id: string
			mobile: string
			/** No SMS provider (the demo): the code is in the server log. */
			logged: boolean
			/** Past the SMS budgets: the code waits for the scheduler, and comes by then at the latest. */
			by?: Date
	  }
	| { ok: false; reason: 'limited'; message: string; headers: Record<string, string> }
	| { ok: false; reason: 'too-soon'; seconds: number }
	| { ok: false; reason: 'not-sent' }

const hashCode = async (db: Database, id: string, code: string) => createHmac('sha256', await appSecret(db, 'verification-codes')).update(`${id}:${code}`).digest('hex')

/** The lookup's subject: a national ID and a mobile together, keyed so the table says neither. */
export async function lookupSubject(db: Database, nationalId: string, mobile: string): Promise<string> {
	return createHmac('sha256', await appSecret(db, 'verification-codes')).update(`lookup:${nationalId}:${mobile}`).digest('hex')
}

function limitChecks(target: CodeTarget): LimitCheck[] {
	return [
		{ rule: codeLimits.perMobileHour, key: target.mobile, reason: 'أُرسلت رموز كثيرة إلى رقم الجوال هذا في الساعة الأخيرة.' },
		{ rule: codeLimits.perMobileDay, key: target.mobile, reason: 'أُرسلت رموز كثيرة إلى رقم الجوال هذا اليوم.' },
		{ rule: codeLimits.perIdHour, key: target.nationalId, reason: 'طُلبت رموز كثيرة لهذا الرقم في الساعة الأخيرة.' },
	]
}

/** The SMS: the code first (a phone shows it in the notice), who sent it, and the line that lets a phone offer it on our site only. */
export function codeText(code: string): string {
	const host = new URL(publicOrigin()).host
	return `رمز التحقق: ${code}\nلطلبك لدى مؤسسة عطاء الخيرية، صالح 10 دقائق. لا تعطه لأحد؛ موظفونا لا يطلبونه.\n\n@${host} #${code}`
}

/**
 * How the SMS goes: `now` (awaited: a failure is said on the page), `background` (the answer does not
 * wait for the provider, so it takes as long as `none`), or `none`: a stand-in code that nobody
 * receives, counted, timed and refused as a real one, for a lookup that matches no case
 * (docs/security.md#verified-mobile).
 */
export type CodeSms = 'now' | 'background' | 'none'

/**
 * Sends a new code to `target.mobile`, replacing any unused one for the same thing. Refused when
 * the limits are reached or a code was sent less than a minute ago.
 */
export async function sendCode(db: Database, target: CodeTarget, now = new Date(), sms: CodeSms = 'now'): Promise<CodeSent> {
	const [last] = await db
		.select({ id: verificationCodes.id, createdAt: verificationCodes.createdAt, usedAt: verificationCodes.usedAt, tries: verificationCodes.tries, waiting: waiting(now).mapWith(Boolean) })
		.from(verificationCodes)
		.where(and(eq(verificationCodes.purpose, target.purpose), eq(verificationCodes.subject, target.subject)))
		.orderBy(desc(verificationCodes.createdAt))
		.limit(1)
	// One still waiting for the budget comes as it is: asking again neither sends another nor moves it back in the queue.
	if (last?.waiting) return { ok: true, id: last.id, mobile: target.mobile, logged: codesGoToLog(), by: new Date(last.createdAt.getTime() + QUEUE_MS) }
	// The wait is for a code still on its way; one used or worn out by wrong tries is no reason to wait.
	const usable = last && last.usedAt === null && last.tries < CODE_TRIES
	const since = usable ? (now.getTime() - last.createdAt.getTime()) / 1000 : Infinity
	if (since < CODE_RESEND_SECONDS) return { ok: false, reason: 'too-soon', seconds: Math.ceil(CODE_RESEND_SECONDS - since) }
	const checks = limitChecks(target)
	const limited = await reachedLimit(db, checks)
	if (limited) return { ok: false, reason: 'limited', ...limited }
	await countDone(db, checks)
	const code = String(randomInt(0, 1_000_000)).padStart(6, '0')
	const id = crypto.randomUUID()
	const codeHash = await hashCode(db, id, code)
	const admitted = await db.transaction(async (tx) => {
		// The codes before it stop working: only the newest one sent opens anything.
		await tx
			.update(verificationCodes)
			.set({ usedAt: now })
			.where(and(eq(verificationCodes.purpose, target.purpose), eq(verificationCodes.subject, target.subject), isNull(verificationCodes.usedAt)))
		let admission: Awaited<ReturnType<typeof admit>> = { now: true }
		if (target.address !== undefined) {
			await lockBudget(tx)
			admission = await admit(tx, target.address, now, getEnv().SCHEDULER_INTERVAL_SECONDS * 1000)
		}
		await tx.insert(verificationCodes).values({
			id,
			purpose: target.purpose,
			subject: target.subject,
			mobile: target.mobile,
			address: target.address ?? null,
			texted: sms !== 'none',
			...(admission.now
				? { codeHash, sentAt: now, expiresAt: new Date(now.getTime() + CODE_LIFETIME_MS) }
				: // Made when it is sent: until then no code opens it.
					{ codeHash: randomBytes(32).toString('hex'), queued: true, expiresAt: new Date(now.getTime() + QUEUE_MS + CODE_LIFETIME_MS) }),
			createdAt: now,
		})
		return admission
	})
	if (!admitted.now) return { ok: true, id, mobile: target.mobile, logged: codesGoToLog(), by: admitted.by }
	if (sms === 'none') return { ok: true, id, mobile: target.mobile, logged: codesGoToLog() }
	if (codesGoToLog()) {
		// The demo, with no SMS provider: whoever runs it reads the code in the log (production refuses to start so).
		await deliverCode(target.mobile, code)
		return { ok: true, id, mobile: target.mobile, logged: true }
	}
	if (sms === 'background') {
		// Kept even if the provider fails: the code then answers as a stand-in's would.
		void deliverCode(target.mobile, code)
		return { ok: true, id, mobile: target.mobile, logged: false }
	}
	if (await deliverCode(target.mobile, code)) return { ok: true, id, mobile: target.mobile, logged: false }
	// Not sent: it must not hold the next try back a minute, nor count as one.
	await db.delete(verificationCodes).where(eq(verificationCodes.id, id))
	return { ok: false, reason: 'not-sent' }
}

/** The SMS of a code; never throws (the drivers log a failure with the masked number). */
async function deliverCode(mobile: string, code: string): Promise<boolean> {
	if (codesGoToLog()) {
		logger.warn(`[verify] no SMS provider configured: the code for ${maskMobile(mobile)} is ${code}`)
		return true
	}
	try {
		return (await getSmsDriver().deliver(mobile, codeText(code))).ok
	} catch (error) {
		logger.error(`[verify] the code for ${maskMobile(mobile)} was not sent: ${(error as Error).message}`)
		return false
	}
}

/** No SMS provider here (the demo): codes are written to the server's log, and the pages say so. */
export const codesGoToLog = () => getSmsDriver().name === 'log'

export type CodeChecked = { ok: true; mobile: string } | { ok: false; reason: 'wrong'; left: number } | { ok: false; reason: 'expired' | 'locked' | 'malformed' }

/** Checks `code` against the newest live code for the thing; right once, then used. */
export async function checkCode(db: Database, purpose: CodePurpose, subject: string, typed: string, now = new Date()): Promise<CodeChecked> {
	const code = toAsciiDigits(typed).replace(/\s/g, '')
	if (!/^\d{6}$/.test(code)) return { ok: false, reason: 'malformed' }
	const [row] = await db
		.select()
		.from(verificationCodes)
		.where(and(eq(verificationCodes.purpose, purpose), eq(verificationCodes.subject, subject), isNull(verificationCodes.usedAt), gt(verificationCodes.expiresAt, now)))
		.orderBy(desc(verificationCodes.createdAt))
		.limit(1)
	if (!row) return { ok: false, reason: 'expired' }
	if (row.tries >= CODE_TRIES) return { ok: false, reason: 'locked' }
	const expected = Buffer.from(row.codeHash, 'hex')
	const given = Buffer.from(await hashCode(db, row.id, code), 'hex')
	if (!timingSafeEqual(expected, given)) {
		// Counted in one statement: tries sent at once cannot all slip under the limit.
		const [counted] = await db
			.update(verificationCodes)
			.set({ tries: sql`${verificationCodes.tries} + 1` })
			.where(and(eq(verificationCodes.id, row.id), lt(verificationCodes.tries, CODE_TRIES)))
			.returning({ tries: verificationCodes.tries })
		if (!counted || counted.tries >= CODE_TRIES) return { ok: false, reason: 'locked' }
		return { ok: false, reason: 'wrong', left: CODE_TRIES - counted.tries }
	}
	// Used once: the same code sent twice (a replay, a double tap) opens nothing the second time.
	const [used] = await db
		.update(verificationCodes)
		.set({ usedAt: now })
		.where(and(eq(verificationCodes.id, row.id), isNull(verificationCodes.usedAt), lt(verificationCodes.tries, CODE_TRIES)))
		.returning({ mobile: verificationCodes.mobile })
	return used ? { ok: true, mobile: used.mobile } : { ok: false, reason: 'expired' }
}

/** How many waiting codes one drain takes at a time. */
const DRAIN_BATCH = 50

/**
 * Sends the codes waiting for the SMS budgets (the scheduler's task, with its clock), as many as the
 * hourly and daily budgets have room for, one address's turn after another's (oldest first within
 * each): a script's thousand codes from one address do not hold back the families elsewhere. Each
 * code is made as it is sent and lives 10 minutes from then. A stand-in takes its turn and no budget.
 * Resolves with how many were sent.
 */
export async function drainQueuedCodes(db: Database, now: Date): Promise<number> {
	let sent = 0
	for (;;) {
		const batch = await db.transaction(async (tx) => {
			await lockBudget(tx)
			const room = roomLeft(await getSmsBudget(tx), await smsUse(tx, now))
			if (room <= 0) return []
			const turns = tx
				.select({ id: verificationCodes.id, turn: sql<number>`row_number() over (partition by coalesce(${verificationCodes.address}, '') order by ${verificationCodes.createdAt})`.as('turn'), createdAt: verificationCodes.createdAt })
				.from(verificationCodes)
				.where(waiting(now))
				.as('turns')
			const next = await tx.select({ id: turns.id }).from(turns).orderBy(turns.turn, turns.createdAt).limit(Math.min(room, DRAIN_BATCH))
			const made: { id: string; mobile: string; code: string; texted: boolean }[] = []
			for (const { id } of next) {
				const code = String(randomInt(0, 1_000_000)).padStart(6, '0')
				const [row] = await tx
					.update(verificationCodes)
					.set({ queued: false, sentAt: now, codeHash: await hashCode(tx, id, code), expiresAt: new Date(now.getTime() + CODE_LIFETIME_MS) })
					.where(and(eq(verificationCodes.id, id), waiting(now)))
					.returning({ mobile: verificationCodes.mobile, texted: verificationCodes.texted })
				if (row) made.push({ id, code, ...row })
			}
			return made
		})
		if (!batch.length) break
		// Sent once the batch is committed: a slow provider holds no lock.
		await Promise.all(batch.filter((item) => item.texted).map((item) => deliverCode(item.mobile, item.code)))
		sent += batch.filter((item) => item.texted).length
	}
	if (sent) logger.info(`[verify] ${sent} code(s) that waited for the SMS budget sent`)
	return sent
}

/** When the code waiting for the thing comes at the latest, or null when none waits. */
export async function codeWaitingUntil(db: Database, purpose: CodePurpose, subject: string, now = new Date()): Promise<Date | null> {
	const [row] = await db
		.select({ createdAt: verificationCodes.createdAt })
		.from(verificationCodes)
		.where(and(eq(verificationCodes.purpose, purpose), eq(verificationCodes.subject, subject), waiting(now)))
		.orderBy(desc(verificationCodes.createdAt))
		.limit(1)
	return row ? new Date(row.createdAt.getTime() + QUEUE_MS) : null
}

/** ٠١٢٣٤٥٦٧٨٩ and ۰۱۲۳۴۵۶۷۸۹ as typed on an Arabic or Persian keyboard → 0-9. */
function toAsciiDigits(text: string): string {
	return text.replace(/[٠-٩]/g, (d) => String(d.charCodeAt(0) - 0x0660)).replace(/[۰-۹]/g, (d) => String(d.charCodeAt(0) - 0x06f0))
}

/** What a refused or failed check says, in Arabic. */
export function codeProblem(checked: Exclude<CodeChecked, { ok: true }>): string {
	switch (checked.reason) {
		case 'malformed':
			return 'اكتب الرمز المكوّن من 6 أرقام كما وصلك في الرسالة.'
		case 'wrong':
			return `الرمز غير صحيح. بقيت لك ${countOf(checked.left, triesLeft)}، ثم تطلب رمزاً جديداً.`
		case 'locked':
			return 'أخطأت في كتابة الرمز عدة مرات، فلم يعد صالحاً. اطلب رمزاً جديداً.'
		case 'expired':
			return 'انتهت صلاحية الرمز أو استُخدم من قبل. اطلب رمزاً جديداً.'
	}
}

/** «كثرت الطلبات الآن، فيصلك رمز التحقق برسالة نصية قبل الساعة ٣:٤٥ م»: a code waiting for the SMS budget. */
export function codeComesBy(by: Date): string {
	return `كثرت طلبات الرموز الآن، فيصلك رمز التحقق برسالة نصية قبل الساعة ${formatTime(by)}`
}

/** What a refused send says, in Arabic. */
export function sendProblem(sent: Exclude<CodeSent, { ok: true }>): string {
	switch (sent.reason) {
		case 'limited':
			return sent.message
		case 'too-soon':
			return `أرسلنا إليك رمزاً قبل قليل. انتظر حتى يصلك، أو اطلب رمزاً جديداً بعد ${countOf(sent.seconds, seconds)}.`
		case 'not-sent':
			return 'تعذّر إرسال الرسالة النصية الآن. حاول بعد دقائق، أو تواصل مع المؤسسة.'
	}
}

/** Codes a day old, used or not, go (docs/operations.md#retention): they prove nothing after. */
export async function removeOldCodes(db: Database, now = new Date()): Promise<number> {
	const gone = await db
		.delete(verificationCodes)
		.where(lt(verificationCodes.createdAt, new Date(now.getTime() - DAY * 1000)))
		.returning({ id: verificationCodes.id })
	return gone.length
}

/** Whether a code for the thing was sent and can still be used: the page then asks for it. */
export async function hasLiveCode(db: Database, purpose: CodePurpose, subject: string, now = new Date()): Promise<boolean> {
	const [row] = await db
		.select({ id: verificationCodes.id })
		.from(verificationCodes)
		.where(and(eq(verificationCodes.purpose, purpose), eq(verificationCodes.subject, subject), isNull(verificationCodes.usedAt), gt(verificationCodes.expiresAt, now), lt(verificationCodes.tries, CODE_TRIES)))
		.limit(1)
	return Boolean(row)
}
