import { Readable } from 'node:stream'
import { and, count, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm'
import { stringify } from 'csv-stringify'
import type { Database } from '#app/db/client.server.ts'
import { auditLog, users } from '#app/db/schema.ts'
import { formatDateTime } from '#app/text/format.ts'
import { csvOptions, safeCell } from '#app/utils/spreadsheet-cells.ts'
import { staffStatusName } from '#app/cases/case-statuses.ts'
import { roleLabels } from '#app/db/roles.ts'
import type { UserRole } from '#app/db/schema.ts'
import { staffFileErrors } from '#app/cases/staff-files.ts'
import { contentRefusalMessages } from '#app/storage/upload-messages.ts'
import { messageEventLabel } from '#app/notify/templates.ts'
import { auditActions, isAuditAction, type AuditAction } from './actions.ts'

// Reading the audit trail: /admin/audit and its CSV export (docs/security.md#audit-trail).

export interface AuditFilter {
	actorId?: number
	action?: AuditAction
	caseReference?: string
	/** yyyy-mm-dd, Riyadh's calendar days, both ends included. */
	from?: string
	to?: string
}

const DAY = /^\d{4}-\d{2}-\d{2}$/

/** The filter from the page's query; anything malformed is left out rather than refused. */
export function readAuditFilter(params: URLSearchParams): AuditFilter {
	const actor = Number(params.get('user'))
	const action = params.get('action') ?? ''
	const reference = (params.get('case') ?? '').trim().toUpperCase().slice(0, 20)
	const from = params.get('from') ?? ''
	const to = params.get('to') ?? ''
	return {
		actorId: Number.isInteger(actor) && actor > 0 ? actor : undefined,
		action: isAuditAction(action) ? action : undefined,
		caseReference: reference || undefined,
		from: DAY.test(from) ? from : undefined,
		to: DAY.test(to) ? to : undefined,
	}
}

export function auditFilterParams(filter: AuditFilter): URLSearchParams {
	const params = new URLSearchParams()
	if (filter.actorId) params.set('user', String(filter.actorId))
	if (filter.action) params.set('action', filter.action)
	if (filter.caseReference) params.set('case', filter.caseReference)
	if (filter.from) params.set('from', filter.from)
	if (filter.to) params.set('to', filter.to)
	return params
}

const riyadhDay = (day: string) => sql`(${day}::date::timestamp at time zone 'Asia/Riyadh')`

function whereOf(filter: AuditFilter): SQL | undefined {
	return and(
		filter.actorId ? eq(auditLog.actorId, filter.actorId) : undefined,
		filter.action ? eq(auditLog.action, filter.action) : undefined,
		// A reference typed with or without its dash.
		filter.caseReference ? eq(sql`replace(${auditLog.caseReference}, '-', '')`, filter.caseReference.replace(/-/g, '')) : undefined,
		filter.from ? gte(auditLog.at, riyadhDay(filter.from)) : undefined,
		filter.to ? lt(auditLog.at, sql`${riyadhDay(filter.to)} + interval '1 day'`) : undefined,
	)
}

export async function countAudit(db: Database, filter: AuditFilter): Promise<number> {
	const [row] = await db.select({ value: count() }).from(auditLog).where(whereOf(filter))
	return row?.value ?? 0
}

const columns = {
	id: auditLog.id,
	at: auditLog.at,
	actorId: auditLog.actorId,
	actorName: sql<string>`coalesce(${users.name}, ${auditLog.actorName})`,
	action: auditLog.action,
	caseReference: auditLog.caseReference,
	path: auditLog.path,
	ip: auditLog.ip,
	data: auditLog.data,
}

export type AuditRow = { id: number; at: Date; actorId: number | null; actorName: string; action: string; caseReference: string | null; path: string; ip: string; data: unknown }

export async function listAudit(db: Database, filter: AuditFilter, page: { offset: number; limit: number }): Promise<AuditRow[]> {
	return db.select(columns).from(auditLog).leftJoin(users, eq(users.id, auditLog.actorId)).where(whereOf(filter)).orderBy(desc(auditLog.id)).offset(page.offset).limit(page.limit)
}

/** The action's words, or the stored key for one this version no longer names. */
export const actionLabel = (action: string) => (isAuditAction(action) ? auditActions[action] : action)

/**
 * What each detail a screen records is called on /admin/audit and in its CSV. Every key written is
 * here (`AuditDetails` types what is written; app/audit/audit-details.test.ts reads every call site).
 */
export const detailLabels = {
	intent: 'العملية',
	from: 'من',
	to: 'إلى',
	kind: 'القائمة',
	format: 'الصيغة',
	filter: 'التصفية',
	rows: 'عدد الصفوف',
	userId: 'رقم المستخدم',
	email: 'البريد الإلكتروني',
	role: 'الصلاحية',
	roles: 'الصلاحيات',
	active: 'الحساب فعّال',
	passwordReset: 'كلمة مرور جديدة',
	sessionsEnded: 'الجلسات المنتهية',
	count: 'العدد',
	nationalId: 'رقم الهوية',
	cases: 'الطلبات',
	files: 'الملفات',
	file: 'الملف',
	bytes: 'الحجم بالبايت',
	sections: 'الأقسام',
	by: 'بواسطة',
	grouping: 'التجميع حسب',
	version: 'الإصدار',
	type: 'النوع',
	id: 'المعرّف',
	method: 'الطريقة',
	reason: 'السبب',
	recovery: 'برمز احتياطي',
	accountId: 'رقم حساب المؤسسة',
	code: 'رمز التحقق',
	on: 'رمز التحقق عند الدخول مفعّل',
	outcome: 'القرار',
	refused: 'رُفض',
	approved: 'اعتُمد',
	added: 'أُضيف',
	message: 'رقم الرسالة',
	event: 'الرسالة',
	channel: 'الوسيلة',
	reset: 'استعادة النص الافتراضي',
	label: 'النص',
	fund: 'الصندوق',
	fundId: 'رقم الصندوق',
	zakat: 'صندوق زكاة',
	programme: 'البرنامج',
	year: 'السنة',
	calendar: 'التقويم',
	month: 'الشهر',
	months: 'الأشهر',
	before: 'قبل',
	after: 'بعد',
	instalment: 'رقم القسط',
	batch: 'رقم دفعة الصرف',
	layout: 'نموذج البنك',
	lines: 'عدد التحويلات',
	recorded: 'سُجّل',
	unmatched: 'لم يُطابَق',
	references: 'مراجع التحويلات',
	amount: 'المبلغ',
	kept: 'الملف كما أُرسل',
	sha256: 'بصمة الملف (SHA-256)',
	debitAccount: 'حساب الخصم',
	status: 'رُفض برمز HTTP',
	batches: 'دفعات الصرف',
	receiptFile: 'مع إيصال',
	mobileVerified: 'التحقق من الجوال',
	incompleteFirstDays: 'التذكير الأول بعد (أيام)',
	incompleteSecondDays: 'التذكير الثاني بعد (أيام)',
	incompleteCloseDays: 'إغلاق الطلب غير المكتمل بعد (أيام)',
	draftDays: 'التذكير بالطلب الذي لم يُرسل بعد (أيام)',
	perHour: 'رسائل الرموز في الساعة',
	perDay: 'رسائل الرموز في اليوم',
	perAddressHour: 'رسائل الرموز لعنوان واحد في الساعة',
	awaitingSecond: 'بانتظار اعتماد ثانٍ',
	decision: 'رقم القرار',
	inBatch: 'أقساط في دفعة صرف',
	restudyOn: 'موعد إعادة الدراسة',
	vouchers: 'أرقام سندات الصرف',
	meeting: 'رقم الاجتماع',
	online: 'عن بعد',
	member: 'العضو',
	decisions: 'عدد القرارات',
	receipt: 'رقم السند في النظام',
	receivedOn: 'تاريخ القبض',
	receipts: 'أرقام سندات القبض',
	generalOverdraft: 'الصرف من الصناديق العامة بما يتجاوز رصيدها',
} as const satisfies Record<string, string>

/** What a screen may write as an entry's details: only keys with a label. */
export type AuditDetails = { [Key in keyof typeof detailLabels]?: unknown }

/** Values in words where the stored value is a code: statuses, roles, yes and no, and the like. */
export const valueWords: Record<string, Record<string, string>> = {
	kind: { individual: 'طلبات الأفراد', association: 'طلبات الجمعيات' },
	method: { password: 'كلمة المرور', code: 'رمز التحقق', 'recovery-code': 'رمز احتياطي', enrolment: 'تفعيل التحقق بخطوتين' },
	reason: { invalid: 'بيانات غير صحيحة', limited: 'محاولات كثيرة' },
	by: { timer: 'التشغيل اليومي', command: 'أمر المشغّل' },
	code: { wrong: 'رمز خاطئ', expired: 'رمز منتهي الصلاحية', locked: 'محاولات كثيرة', malformed: 'رمز غير مكتمل' },
	outcome: { approve: 'اعتماد الدعم', reject: 'عدم الدعم', return: 'إعادة للدراسة' },
	refused: {
		'four-eyes': 'من أوصى بالدعم أو أعدّ الدفعة لا يعتمدها (فصل المهام)',
		'resume-four-eyes': 'من طلب استئناف الدعم لا يؤكده (فصل المهام)',
		'iban-four-eyes': 'من أدخل الآيبان لا يؤكده (فصل المهام)',
		'receipt-four-eyes': 'من سجّل سند القبض لا يؤكده (فصل المهام)',
		receipt: 'إيصال التسليم غير مقبول',
		gone: 'الصورة لم تعد في الطلب',
		case: 'الطلب لا يقبل صوراً في حالته',
		'too-large': 'الملف أكبر من الحد المسموح',
		'closed-period': 'الحركة مؤرخة في شهر مقفل',
		...staffFileErrors,
		...contentRefusalMessages,
	},
	intent: {
		'add-fund': 'إضافة صندوق',
		'set-limit': 'تحديد حد اعتماد',
		'remove-limit': 'حذف حد اعتماد',
		'rename-fund': 'تغيير اسم صندوق',
		'retire-fund': 'إيقاف صندوق',
		'restore-fund': 'إعادة صندوق موقوف',
		'debit-account': 'حساب الخصم لصندوق',
		add: 'إضافة',
		rename: 'تغيير النص',
		retire: 'إيقاف',
		restore: 'إعادة',
		suspend: 'إيقاف مؤقت',
		stop: 'إيقاف نهائي',
		resume: 'طلب الاستئناف',
		confirm: 'تأكيد الاستئناف',
		decline: 'رفض الاستئناف',
		restudy: 'موعد إعادة الدراسة',
		'open-meeting': 'فتح اجتماع',
		'set-quorum': 'تحديد النصاب',
		'remove-quorum': 'حذف النصاب',
		'mark-present': 'تسجيل عضو حاضراً',
		'mark-absent': 'حذف عضو من الحاضرين',
		'close-meeting': 'إغلاق الاجتماع وكتابة محضره',
	},
	channel: { sms: 'رسالة نصية', email: 'بريد إلكتروني' },
	mobileVerified: { 'in-person': 'حضورياً (طلب ورقي)' },
}

function describeValue(key: string, value: unknown): string {
	if (typeof value === 'boolean') return value ? 'نعم' : 'لا'
	if ((key === 'from' || key === 'to') && typeof value === 'number') return `«${staffStatusName(value)}»`
	if (key === 'role' || key === 'roles') {
		// One role, a user's roles, or a change of them ({ from, to }).
		const name = (role: unknown) => roleLabels[role as UserRole] ?? String(role)
		const names = (roles: unknown) => (Array.isArray(roles) ? (roles.length ? roles.map(name).join('، ') : 'لا أحد') : name(roles))
		if (value && typeof value === 'object' && !Array.isArray(value)) return `${names((value as { from?: unknown }).from)} ← ${names((value as { to?: unknown }).to)}`
		return names(value)
	}
	if (key === 'event' && typeof value === 'string') return `«${messageEventLabel(value)}»`
	if (Array.isArray(value)) return value.length ? value.map((item) => describeValue(key, item)).join('، ') : 'لا شيء'
	if (typeof value === 'string' && valueWords[key]?.[value]) return valueWords[key][value]
	return typeof value === 'object' ? JSON.stringify(value) : String(value)
}

/** The details as one line of `name: value` pairs, in Arabic where the app knows the name. */
export function describeDetails(data: unknown): string {
	if (!data || typeof data !== 'object') return ''
	// The form's intent is stored, and shown as the action itself unless a screen names it in words
	// (a fund added or renamed, both «تعديل الصناديق»).
	return Object.entries(data as Record<string, unknown>)
		.filter(([key, value]) => key !== 'intent' || (typeof value === 'string' && Object.hasOwn(valueWords.intent!, value)))
		.map(([key, value]) => `${(detailLabels as Record<string, string>)[key] ?? key}: ${describeValue(key, value)}`)
		.join('، ')
}

const BATCH = 1000

/** The filtered trail, newest first, read in batches by id: a long trail never sits in memory at once. */
async function* linesOf(db: Database, filter: AuditFilter): AsyncGenerator<string[]> {
	let before: number | undefined
	for (;;) {
		const rows = await db
			.select(columns)
			.from(auditLog)
			.leftJoin(users, eq(users.id, auditLog.actorId))
			.where(and(whereOf(filter), before === undefined ? undefined : lt(auditLog.id, before)))
			.orderBy(desc(auditLog.id))
			.limit(BATCH)
		for (const row of rows) {
			// A failed sign-in's typed e-mail is a visitor's text: never a formula in a spreadsheet.
			yield [String(row.id), formatDateTime(row.at), row.actorName, actionLabel(row.action), row.caseReference ?? '', row.path, row.ip, describeDetails(row.data)].map(safeCell)
		}
		if (rows.length < BATCH) return
		before = rows.at(-1)!.id
	}
}

/** The filtered trail as CSV, with a byte-order mark so that Excel reads the Arabic. */
export function auditCsv(db: Database, filter: AuditFilter): ReadableStream {
	const csv = stringify({ ...csvOptions, header: true, columns: ['الرقم', 'الوقت (الرياض، UTC+3)', 'المستخدم', 'الإجراء', 'رقم الطلب', 'الصفحة', 'عنوان IP', 'التفاصيل'] })
	Readable.from(linesOf(db, filter))
		.on('error', (error) => csv.destroy(error))
		.pipe(csv)
	return Readable.toWeb(csv) as ReadableStream
}

/** Staff who appear in the trail, for the filter's list (deleted ones included: their actions stay). */
export async function auditActors(db: Database): Promise<{ id: number; name: string; deleted: boolean }[]> {
	const rows = await db.select({ id: users.id, name: users.name, deletedAt: users.deletedAt }).from(users).orderBy(users.name)
	return rows.map((row) => ({ id: row.id, name: row.name, deleted: row.deletedAt !== null }))
}
