import { sql } from 'drizzle-orm'
import {
	bigint,
	boolean,
	check,
	customType,
	date,
	index,
	integer,
	jsonb,
	numeric,
	pgEnum,
	pgTable,
	primaryKey,
	smallint,
	text,
	timestamp,
	uniqueIndex,
	uuid,
	type AnyPgColumn,
} from 'drizzle-orm/pg-core'
import { userRoles, type UserRole } from '#app/db/roles.ts'

/** Bytes kept as they are (PGlite and PostgreSQL give a Uint8Array or a Buffer back). */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' })

const timestamps = {
	createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
	updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}

/** The foundation's own details (docs/product.md#content-that-staff-edit, «Foundation info»): one row, id 1. */
export const foundationInfo = pgTable(
	'foundation_info',
	{
		id: integer('id').primaryKey().default(1),
		name: text('name').notNull(),
		phone: text('phone').notNull(),
		phone2: text('phone2').notNull(),
		email: text('email').notNull(),
		location: text('location').notNull(),
		/** Sanitised HTML. */
		about: text('about').notNull(),
		mapUrl: text('map_url').notNull().default(''),
		twitter: text('twitter').notNull().default(''),
		linkedin: text('linkedin').notNull().default(''),
		youtube: text('youtube').notNull().default(''),
		facebook: text('facebook').notNull().default(''),
		instagram: text('instagram').notNull().default(''),
		...timestamps,
	},
	(table) => [check('foundation_info_singleton', sql`${table.id} = 1`)],
)

export const userRole = pgEnum('user_role', userRoles)
export type { UserRole }

export const users = pgTable(
	'users',
	{
		id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
		name: text('name').notNull(),
		/** Stored lower-case; unique. */
		email: text('email').notNull(),
		/** +9665XXXXXXXX */
		mobile: text('mobile').notNull().default(''),
		passwordHash: text('password_hash').notNull(),
		/** Every role the user holds (a small foundation gives one person several); never empty. Each check asks for one role (app/db/roles.ts). */
		roles: userRole('roles').array().notNull(),
		active: boolean('active').notNull().default(true),
		lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
		/** The authenticator app's shared key (base32), set once the user has proved a code from it. */
		totpSecret: text('totp_secret'),
		/** The last time step a code was accepted for: a code is never accepted twice (RFC 6238, 5.2). */
		totpLastStep: bigint('totp_last_step', { mode: 'number' }),
		/** The password was set by someone else (an admin, the first start, an operator): changed at the next sign-in. */
		mustChangePassword: boolean('must_change_password').notNull().default(false),
		/** Deleted from the users screen: kept for the audit trail and case history, never signs in. */
		deletedAt: timestamp('deleted_at', { withTimezone: true }),
		...timestamps,
	},
	// A deleted user's e-mail may be given to a new one.
	(table) => [uniqueIndex('users_email_unique').on(table.email).where(sql`${table.deletedAt} is null`)],
)

/** One-time codes for signing in without the authenticator app: shown once, stored as SHA-256. */
export const recoveryCodes = pgTable(
	'recovery_codes',
	{
		userId: integer('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		codeHash: text('code_hash').notNull(),
		usedAt: timestamp('used_at', { withTimezone: true }),
	},
	(table) => [primaryKey({ columns: [table.userId, table.codeHash] })],
)

/** Which staff roles must sign in in two steps (docs/security.md#two-step-sign-in). */
export const roleSettings = pgTable('role_settings', {
	role: userRole('role').primaryKey(),
	requireTwoFactor: boolean('require_two_factor').notNull(),
	updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

/** Server-side sessions; the cookie holds a random token, the table its SHA-256. */
export const sessions = pgTable(
	'sessions',
	{
		id: text('id').primaryKey(),
		userId: integer('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
		expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
		/** Refreshed at most once a minute by use; a session unused for SESSION_IDLE_MINUTES ends. */
		lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
		/** False between the password and the authenticator's code: such a session opens nothing else. */
		verified: boolean('verified').notNull().default(true),
		/** Shown in the user's list of sessions, so they can tell them apart. */
		ip: text('ip').notNull().default(''),
		userAgent: text('user_agent').notNull().default(''),
	},
	(table) => [index('sessions_user_idx').on(table.userId), index('sessions_expires_idx').on(table.expiresAt)],
)

/** Fixed-window counters shared by every app instance (sign-in failures, public forms). */
export const rateLimits = pgTable(
	'rate_limits',
	{
		bucket: text('bucket').notNull(),
		key: text('key').notNull(),
		windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
		count: integer('count').notNull(),
	},
	(table) => [primaryKey({ columns: [table.bucket, table.key] })],
)

/** Application types' intake: open, paused (accepted with a notice) or closed (docs/product.md#opening-and-closing-intake). */
export const intakeState = pgEnum('intake_state', ['open', 'paused', 'closed'])

export const intakeSettings = pgTable('intake_settings', {
	type: text('type').primaryKey(),
	state: intakeState('state').notNull().default('open'),
	pausedNotice: text('paused_notice').notNull(),
	closedNotice: text('closed_notice').notNull(),
	updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
	updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
})

/** The SQL of `cases.search_name`; app/utils/arabic-search.ts folds a query the same way. */
const SEARCH_FOLD_SQL = `lower(translate(regexp_replace(applicant_name, '[\\u064B-\\u065F\\u0670\\u0640]', '', 'g'), 'أإآٱىةؤئ', 'اااايهوي'))`

/**
 * One aid application. The columns staff filter on are promoted out of the answers; the resume
 * token is stored hashed. `submittedAt` null means a draft the applicant is still filling in.
 */
export const cases = pgTable(
	'cases',
	{
		id: uuid('id').primaryKey().defaultRandom(),
		type: text('type').notNull(),
		reference: text('reference').notNull(),
		/** The old StatusId (docs/product.md#case-statuses): 1 new, 2 study done, 3 support provided, 4 incomplete, 5 support stopped, 6 archived; the aid cycle's 7 approved awaiting payment, 8 rejected. */
		status: smallint('status').notNull().default(1),
		applicantName: text('applicant_name').notNull(),
		nationalId: text('national_id').notNull(),
		mobile: text('mobile').notNull(),
		email: text('email').notNull().default(''),
		resumeTokenHash: text('resume_token_hash').notNull(),
		/** Staff accepted a national ID that fails the checksum; the reason is in the history. */
		idChecksumOverride: boolean('id_checksum_override').notNull().default(false),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
		updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
		submittedAt: timestamp('submitted_at', { withTimezone: true }),
		/** When the case last changed status (or was sent): how long it has waited. */
		statusChangedAt: timestamp('status_changed_at', { withTimezone: true }).notNull().defaultNow(),
		/** The case officer it is assigned to. */
		assignedTo: integer('assigned_to').references(() => users.id, { onDelete: 'set null' }),
		/** Sent back as incomplete: the sections and file slots the applicant may change (app/cases/workflow.ts). */
		reopened: jsonb('reopened').$type<Reopened>(),
		/** Started by staff for a walk-in or phone applicant (paper intake). */
		paperIntake: boolean('paper_intake').notNull().default(false),
		createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
		/** Deleted by staff: hidden everywhere until an admin restores it. */
		deletedAt: timestamp('deleted_at', { withTimezone: true }),
		deletedBy: integer('deleted_by').references(() => users.id, { onDelete: 'set null' }),
		deletedReason: text('deleted_reason'),
		/**
		 * The applicant's answer to the consent step, asked before the first section holding health or
		 * bank data (docs/product.md#privacy-and-consent): 'given' or 'declined'; null before it is asked.
		 * Without 'given' those sections are not offered.
		 */
		consent: text('consent').$type<'given' | 'declined'>(),
		consentAt: timestamp('consent_at', { withTimezone: true }),
		/** The privacy notice's version the consent answer was given under. */
		consentNoticeVersion: integer('consent_notice_version').references((): AnyPgColumn => privacyNotices.version),
		/** Its attachments and sensitive sections destroyed by retention (docs/operations.md#retention). */
		purgedAt: timestamp('purged_at', { withTimezone: true }),
		/** Started by a registered institution from its own area (/account): an association-support request. */
		accountId: integer('account_id').references((): AnyPgColumn => institutionAccounts.id, { onDelete: 'set null' }),
		/**
		 * The name as searched: tashkeel and tatweel dropped, hamza/alef forms, ى/ي and ة/ه folded,
		 * lower case. The same folding is `foldArabic` in app/utils/arabic-search.ts (tested to agree).
		 */
		searchName: text('search_name').generatedAlwaysAs(sql`${sql.raw(SEARCH_FOLD_SQL)}`),
		/** The city the applicant gave (a definition's `applicant.city`): the committee's queue and the reports filter on it. */
		city: text('city').notNull().default(''),
		/** The applicant and the family members listed (a definition's `applicant.household`): the reports' individuals helped. */
		household: integer('household').notNull().default(1),
		/**
		 * When the case's mobile was proven (docs/security.md#verified-mobile): by a code sent to it, or
		 * in person by staff at a paper intake. Null until then, and again when staff change the mobile.
		 * A browser remembered for the case before this time is not any more.
		 */
		mobileVerifiedAt: timestamp('mobile_verified_at', { withTimezone: true }),
		mobileVerifiedHow: text('mobile_verified_how').$type<'code' | 'in-person'>(),
	},
	(table) => [
		uniqueIndex('cases_reference_unique').on(table.reference),
		// The search by a reference's first characters (LIKE 'BHCG%') in any database collation.
		index('cases_reference_prefix').on(table.reference.op('text_pattern_ops')),
		uniqueIndex('cases_token_unique').on(table.resumeTokenHash),
		index('cases_national_id_idx').on(table.nationalId, table.type),
		// The staff search by a national ID's first digits (LIKE '1076%') in any database collation:
		// a plain index serves it only under "C" (docs/performance.md).
		index('cases_national_id_prefix').on(table.nationalId.op('text_pattern_ops')),
		index('cases_mobile_idx').on(table.mobile),
		index('cases_status_idx').on(table.status, table.submittedAt),
		index('cases_submitted_idx').on(table.submittedAt),
		index('cases_waiting_idx').on(table.statusChangedAt),
		index('cases_assigned_idx').on(table.assignedTo, table.status),
		index('cases_account_idx').on(table.accountId),
		index('cases_search_name_trgm').using('gin', sql`${table.searchName} gin_trgm_ops`),
		// The staff lists count sent, undeleted cases by status and programme on every page (bench:cases).
		index('cases_list_idx')
			.on(table.status, table.type, table.submittedAt)
			.where(sql`${table.submittedAt} is not null and ${table.deletedAt} is null`),
		check('cases_status_range', sql`${table.status} between 1 and 8`),
		// The committee's queue: studied cases by programme and city (app/aid/decisions.server.ts).
		index('cases_city_idx').on(table.status, table.city),
		check('cases_consent_values', sql`${table.consent} in ('given', 'declined')`),
	],
)

/**
 * A registered institution's own account (docs/product.md#roles): made from its completed
 * «institution registration» application, signed in at /account/login, never admitted to /admin.
 * The user name and the e-mail are each unique whatever their letter case.
 */
export const institutionAccounts = pgTable(
	'institution_accounts',
	{
		id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
		/** The institution's name. */
		name: text('name').notNull(),
		userName: text('user_name').notNull(),
		/** Stored lower-case. */
		email: text('email').notNull(),
		/** +9665XXXXXXXX */
		mobile: text('mobile').notNull(),
		passwordHash: text('password_hash').notNull(),
		/** The registration application the account came from. */
		registrationCaseId: uuid('registration_case_id').references(() => cases.id, { onDelete: 'set null' }),
		active: boolean('active').notNull().default(true),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
		lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
		/** The institution asked for a code sent to its mobile at each sign-in, after the password. */
		signInCode: boolean('sign_in_code').notNull().default(false),
	},
	(table) => [
		uniqueIndex('institution_accounts_user_name_unique').on(sql`lower(${table.userName})`),
		uniqueIndex('institution_accounts_email_unique').on(sql`lower(${table.email})`),
	],
)

/** An institution's sessions, apart from staff's (`sessions`): the cookie holds a random token, the table its SHA-256. */
export const institutionSessions = pgTable(
	'institution_sessions',
	{
		id: text('id').primaryKey(),
		accountId: integer('account_id')
			.notNull()
			.references(() => institutionAccounts.id, { onDelete: 'cascade' }),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
		expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
	},
	(table) => [index('institution_sessions_account_idx').on(table.accountId), index('institution_sessions_expires_idx').on(table.expiresAt)],
)

export interface Reopened {
	sections: string[]
	slots: string[]
}

/** Aid given on a case (support provided): the ledger staff read before deciding. */
export const caseAid = pgTable(
	'case_aid',
	{
		id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
		caseId: uuid('case_id')
			.notNull()
			.references(() => cases.id, { onDelete: 'cascade' }),
		/** Saudi riyals. */
		amount: numeric('amount', { precision: 12, scale: 2, mode: 'number' }).notNull(),
		/** app/cases/aid.ts `aidKinds`. */
		kind: text('kind').notNull(),
		givenOn: date('given_on', { mode: 'string' }).notNull(),
		note: text('note').notNull().default(''),
		createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
		/** Paid or delivered through the aid cycle: the instalment it records (null: recorded by hand). */
		instalmentId: integer('instalment_id'),
		/**
		 * A reversing row (a bounced transfer, docs/decisions/018-append-only-ledger.md): the row it
		 * cancels, whose amount it carries negated. Rows are never updated or deleted (a trigger refuses).
		 */
		correctsId: integer('corrects_id').references((): AnyPgColumn => caseAid.id),
	},
	(table) => [
		index('case_aid_case_idx').on(table.caseId),
		index('case_aid_given_idx').on(table.givenOn),
		index('case_aid_instalment_idx').on(table.instalmentId),
		// A row is reversed at most once.
		uniqueIndex('case_aid_corrects_unique').on(table.correctsId),
		// Only a reversing row is negative.
		check('case_aid_amount_positive', sql`(${table.correctsId} is null and ${table.amount} > 0) or (${table.correctsId} is not null and ${table.amount} < 0)`),
	],
)

export const studyRecommendation = pgEnum('study_recommendation', ['support', 'reject', 'refer'])

/**
 * The social study of a case (docs/product.md#the-social-study): the researcher's home visit, or a
 * desk study for programmes where no visit happens, and its recommendation. Each study recorded is
 * kept; the newest is the case's study. Never shown to the applicant.
 */
export const caseStudies = pgTable(
	'case_studies',
	{
		id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
		caseId: uuid('case_id')
			.notNull()
			.references(() => cases.id, { onDelete: 'cascade' }),
		/** A home visit, or a desk study (associations and institutions). */
		kind: text('kind', { enum: ['visit', 'desk'] }).notNull(),
		/** The day of the visit, or of the desk study. */
		studiedOn: date('studied_on', { mode: 'string' }).notNull(),
		/** Who was met (a visit), or what was read and whom was called (a desk study). */
		metWith: text('met_with').notNull().default(''),
		/** The housing as seen, by the programme's own options: { condition, type, ownership, needsMaintenance }. */
		housing: jsonb('housing').$type<Record<string, string>>().notNull().default({}),
		/** The family's needs as seen. */
		needs: text('needs').notNull().default(''),
		summary: text('summary').notNull().default(''),
		recommendation: studyRecommendation('recommendation').notNull(),
		/** Why not (a reject recommendation): the words of a reason staff keep (app/cases/reasons.server.ts), as they were. */
		rejectReason: text('reject_reason'),
		/** The body the case is referred to (a refer recommendation). */
		referTo: text('refer_to').notNull().default(''),
		/**
		 * The zakat category (مصرف الزكاة) the researcher found the family in: the words of a category
		 * staff keep (reasons of kind 'zakat-category'), as they were; null: not eligible for zakat, and
		 * no zakat money goes to the case. «غير محدد» (`UNSPECIFIED_ZAKAT_CATEGORY`, app/cases/zakat.ts):
		 * found eligible before categories were recorded; completed by a new study before zakat is approved.
		 */
		zakatCategory: text('zakat_category'),
		/** Why the family is in that category. */
		zakatReason: text('zakat_reason').notNull().default(''),
		/** The aid proposed with a support recommendation: app/cases/aid.ts `aidKinds`. */
		aidKind: text('aid_kind'),
		/** Saudi riyals: the whole amount, or each month's. */
		aidAmount: numeric('aid_amount', { precision: 12, scale: 2, mode: 'number' }),
		/** Monthly for this many months; null for once. */
		aidMonths: integer('aid_months'),
		/** Home restoration: the works and the contractor's quote (riyals). */
		works: text('works').notNull().default(''),
		quote: numeric('quote', { precision: 12, scale: 2, mode: 'number' }),
		/** Bill payment: the invoice's amount (riyals); the foundation pays at most half of it. */
		invoice: numeric('invoice', { precision: 12, scale: 2, mode: 'number' }),
		authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(table) => [
		index('case_studies_case_idx').on(table.caseId, table.createdAt),
		check('case_studies_aid_positive', sql`${table.aidAmount} is null or ${table.aidAmount} > 0`),
		check('case_studies_months', sql`${table.aidMonths} is null or ${table.aidMonths} between 2 and 24`),
	],
)

/**
 * A home visit planned on a case (docs/product.md#the-social-study): the day, the hour and who goes.
 * The applicant is told; it is done once the visitor's study of the case is recorded, and cancelled
 * when the case leaves «جديد» and «غير مكتمل» without one (drizzle/0034_settled_visits.sql's trigger).
 */
export const caseVisits = pgTable(
	'case_visits',
	{
		id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
		caseId: uuid('case_id')
			.notNull()
			.references(() => cases.id, { onDelete: 'cascade' }),
		visitOn: date('visit_on', { mode: 'string' }).notNull(),
		/** HH:MM, Riyadh time. */
		visitAt: text('visit_at').notNull(),
		visitorId: integer('visitor_id').references(() => users.id, { onDelete: 'set null' }),
		status: text('status', { enum: ['planned', 'done', 'cancelled'] })
			.notNull()
			.default('planned'),
		createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(table) => [index('case_visits_visitor_idx').on(table.visitorId, table.status, table.visitOn), index('case_visits_case_idx').on(table.caseId)],
)

/**
 * The lists of reasons staff keep (/admin/reasons): why a study does not recommend support. A
 * reason is retired, never deleted; a study keeps the words it was given with.
 */
export const reasons = pgTable('reasons', {
	id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
	/** zakat-category: the zakat categories (مصارف الزكاة) a study may find a family in, as the foundation's Shariah adviser sets them; study-reject: why a study does not recommend support (staff only); decision-reject: why the committee said no, in the words the applicant reads; aid-hold: why a monthly aid is suspended or stopped, as the applicant reads it. */
	kind: text('kind', { enum: ['study-reject', 'decision-reject', 'aid-hold', 'zakat-category'] }).notNull(),
	label: text('label').notNull(),
	active: boolean('active').notNull().default(true),
	position: integer('position').notNull().default(0),
	createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

/**
 * The money aid is paid from (docs/product.md#funds-and-budgets): zakat, general donations, a
 * restricted grant. Zakat goes only to a case its study found eligible for zakat.
 */
export const funds = pgTable(
	'funds',
	{
		id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
		name: text('name').notNull(),
		zakat: boolean('zakat').notNull().default(false),
		active: boolean('active').notNull().default(true),
		/** The foundation's account (a Saudi IBAN) this fund pays from: a batch never mixes two; null until finance names it. */
		debitAccount: text('debit_account'),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(table) => [uniqueIndex('funds_name_unique').on(sql`lower(${table.name})`)],
)

/**
 * What a programme may give in a (Gregorian) year, from one fund or from any (`fundId` null). What
 * is committed and paid is summed from the instalments; an approval past what remains is refused.
 */
export const budgets = pgTable(
	'budgets',
	{
		id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
		/** A programme: a definition's `type`. */
		programme: text('programme').notNull(),
		year: integer('year').notNull(),
		fundId: integer('fund_id').references(() => funds.id),
		/** Saudi riyals. */
		allocated: numeric('allocated', { precision: 14, scale: 2, mode: 'number' }).notNull(),
		updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
		updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
	},
	(table) => [uniqueIndex('budgets_unique').on(table.programme, table.year, sql`coalesce(${table.fundId}, 0)`), check('budgets_allocated', sql`${table.allocated} >= 0`)],
)

/**
 * Approval limits an admin keeps (docs/product.md#approval-limits): an approval whose whole amount
 * (every month of a monthly aid) is above `above` riyals, for the programme or the fund named (null:
 * any), needs a second member of the committee before it is committed. The lowest that applies holds.
 */
export const approvalLimits = pgTable(
	'approval_limits',
	{
		id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
		/** A programme: a definition's `type`; null for every programme. */
		programme: text('programme'),
		fundId: integer('fund_id').references(() => funds.id),
		/** Saudi riyals. */
		above: numeric('above', { precision: 12, scale: 2, mode: 'number' }).notNull(),
		updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
		updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
	},
	(table) => [uniqueIndex('approval_limits_unique').on(sql`coalesce(${table.programme}, '')`, sql`coalesce(${table.fundId}, 0)`), check('approval_limits_above', sql`${table.above} >= 0`)],
)

/**
 * The committee's meetings (docs/product.md#committee-meetings): an approver opens one (at most one
 * is open), marks the members present, and every decision taken while it is open carries it. Closing
 * it fixes it: the minutes are written into `minutes` then, and the database refuses any change to a
 * closed meeting, its members or a decision added to it (drizzle/ custom triggers).
 */
export const committeeMeetings = pgTable(
	'committee_meetings',
	{
		id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
		heldOn: date('held_on', { mode: 'string' }).notNull(),
		/** Where: a room, or the link's name for a meeting held online. */
		place: text('place').notNull().default(''),
		online: boolean('online').notNull().default(false),
		openedBy: integer('opened_by').references(() => users.id, { onDelete: 'set null' }),
		openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
		closedBy: integer('closed_by').references(() => users.id, { onDelete: 'set null' }),
		closedAt: timestamp('closed_at', { withTimezone: true }),
		/** The minutes as closing wrote them (app/aid/meetings.server.ts `Minutes`): never written again. */
		minutes: jsonb('minutes'),
	},
	(table) => [
		uniqueIndex('committee_meetings_one_open').on(sql`(true)`).where(sql`${table.closedAt} is null`),
		index('committee_meetings_held_idx').on(table.heldOn),
		check('committee_meetings_closed', sql`(${table.closedAt} is null) = (${table.minutes} is null)`),
	],
)

/** A member present at a meeting: a staff user with the approver role, named as they were then. */
export const committeeMeetingMembers = pgTable(
	'committee_meeting_members',
	{
		meetingId: integer('meeting_id')
			.notNull()
			.references(() => committeeMeetings.id),
		userId: integer('user_id')
			.notNull()
			.references(() => users.id),
		name: text('name').notNull(),
		markedBy: integer('marked_by').references(() => users.id, { onDelete: 'set null' }),
		markedAt: timestamp('marked_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(table) => [primaryKey({ columns: [table.meetingId, table.userId] })],
)

/**
 * How many members present a meeting needs to decide above an approval limit
 * (docs/product.md#committee-meetings): the programme's own, else the default (`programme` null).
 */
export const committeeQuorums = pgTable(
	'committee_quorums',
	{
		id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
		/** A programme: a definition's `type`; null for the default. */
		programme: text('programme'),
		quorum: smallint('quorum').notNull(),
		updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
		updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
	},
	(table) => [uniqueIndex('committee_quorums_unique').on(sql`coalesce(${table.programme}, '')`), check('committee_quorums_quorum', sql`${table.quorum} between 1 and 50`)],
)

export const decisionOutcome = pgEnum('decision_outcome', ['approve', 'reject', 'return'])

/**
 * The committee's decision on a studied case (docs/product.md#the-decision): approve (what, how much,
 * from which fund), reject (with the reason the applicant reads), or return it for more study. Made
 * by someone other than whoever recommended support. Kept 10 years with the money it moved.
 */
export const caseDecisions = pgTable(
	'case_decisions',
	{
		id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
		caseId: uuid('case_id')
			.notNull()
			.references(() => cases.id),
		outcome: decisionOutcome('outcome').notNull(),
		/** The study decided on; null once retention destroyed the study (the decision, a financial record, stays). */
		studyId: integer('study_id').references(() => caseStudies.id, { onDelete: 'set null' }),
		/** app/cases/aid.ts `aidKinds`. */
		aidKind: text('aid_kind'),
		/** Riyals: the whole amount, or each month's. */
		amount: numeric('amount', { precision: 12, scale: 2, mode: 'number' }),
		/** Monthly for this many months; null for once. */
		months: integer('months'),
		fundId: integer('fund_id').references(() => funds.id),
		/** An approval from a zakat fund: the zakat category of the study decided on, as it was (the zakat register reads it). */
		zakatCategory: text('zakat_category'),
		/** The budget year the approval is charged to. */
		budgetYear: integer('budget_year'),
		/** A rejection: the reason's words, as the applicant read them. */
		reason: text('reason'),
		/** Internal: why, for staff. */
		note: text('note').notNull().default(''),
		deciderId: integer('decider_id').references(() => users.id, { onDelete: 'set null' }),
		/** Above an approval limit: the member who approved first; `deciderId` is the second, who committed it. */
		firstApproverId: integer('first_approver_id').references(() => users.id, { onDelete: 'set null' }),
		/** The committee's meeting it was taken in (docs/product.md#committee-meetings); null when none was open. */
		meetingId: integer('meeting_id').references((): AnyPgColumn => committeeMeetings.id),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(table) => [
		index('case_decisions_meeting_idx').on(table.meetingId),
		index('case_decisions_case_idx').on(table.caseId, table.createdAt),
		index('case_decisions_created_idx').on(table.createdAt),
		check('case_decisions_amount', sql`${table.amount} is null or ${table.amount} > 0`),
		check('case_decisions_months', sql`${table.months} is null or ${table.months} between 2 and 24`),
		check('case_decisions_approval', sql`${table.outcome} <> 'approve' or (${table.amount} is not null and ${table.fundId} is not null and ${table.aidKind} is not null and ${table.budgetYear} is not null)`),
	],
)

export const proposalState = pgEnum('aid_proposal_state', ['proposed', 'awaiting_second', 'approved', 'rejected', 'withdrawn'])

/**
 * Money waiting for the committee (docs/product.md#proposals-and-the-committees-four-eyes): a case
 * officer's proposal of aid (on a studied case, or more aid on one whose support was provided), or
 * a first approval above an approval limit waiting for a second member. It gives nothing: only the
 * committee's approval (app/aid/decisions.server.ts) writes a decision and its instalments. At most
 * one is open per case.
 */
export const aidProposals = pgTable(
	'aid_proposals',
	{
		id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
		caseId: uuid('case_id')
			.notNull()
			.references(() => cases.id),
		/** `support`: the case's first aid, proposed on a studied case; `additional`: more aid after support was provided. */
		purpose: text('purpose', { enum: ['support', 'additional'] }).notNull(),
		state: proposalState('state').notNull().default('proposed'),
		/** app/cases/aid.ts `aidKinds`. */
		aidKind: text('aid_kind').notNull(),
		/** Riyals: the whole amount, or each month's. */
		amount: numeric('amount', { precision: 12, scale: 2, mode: 'number' }).notNull(),
		/** Monthly for this many months (a first approval may set it); null for once. */
		months: integer('months'),
		note: text('note').notNull().default(''),
		/** The case officer who proposed it; null for a first approval the committee made without a proposal. */
		proposedBy: integer('proposed_by').references(() => users.id, { onDelete: 'set null' }),
		/** Awaiting a second approval: the fund and who approved first, with their note. */
		fundId: integer('fund_id').references(() => funds.id),
		firstApproverId: integer('first_approver_id').references(() => users.id, { onDelete: 'set null' }),
		firstNote: text('first_note').notNull().default(''),
		firstApprovedAt: timestamp('first_approved_at', { withTimezone: true }),
		/** Settled: the approval's decision, or why it was rejected, by whom and when. */
		decisionId: integer('decision_id').references(() => caseDecisions.id),
		reason: text('reason'),
		settledBy: integer('settled_by').references(() => users.id, { onDelete: 'set null' }),
		settledAt: timestamp('settled_at', { withTimezone: true }),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(table) => [
		uniqueIndex('aid_proposals_one_open').on(table.caseId).where(sql`${table.state} in ('proposed', 'awaiting_second')`),
		index('aid_proposals_state_idx').on(table.state, table.createdAt),
		check('aid_proposals_amount', sql`${table.amount} > 0`),
		check('aid_proposals_months', sql`${table.months} is null or ${table.months} between 2 and 24`),
		check('aid_proposals_second', sql`${table.state} <> 'awaiting_second' or (${table.fundId} is not null and ${table.firstApproverId} is not null)`),
	],
)

/**
 * A payment batch (docs/product.md#payment): approved instalments finance gathers into one bank
 * transfer file. Open while it is being made; sent once the file went to the bank; closed when
 * each of its payments is paid or reopened.
 */
export const paymentBatches = pgTable('payment_batches', {
	id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
	status: text('status', { enum: ['open', 'sent', 'closed'] })
		.notNull()
		.default('open'),
	note: text('note').notNull().default(''),
	createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
	createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
	sentOn: date('sent_on', { mode: 'string' }),
	sentBy: integer('sent_by').references(() => users.id, { onDelete: 'set null' }),
	closedAt: timestamp('closed_at', { withTimezone: true }),
	/** The foundation's account the whole batch is debited from (its funds'), as the bank is told; null when its funds name none. */
	debitAccount: text('debit_account'),
	/** Zakat funds' batch: zakat and other money never go to the bank in one file. */
	zakat: boolean('zakat').notNull().default(false),
})

export const batchLineState = pgEnum('batch_line_state', ['in_batch', 'paid', 'bounced', 'withdrawn'])

/**
 * A line of a payment batch as the bank is told it (docs/product.md#payment), pinned when the batch is
 * made: later corrections of the applicant's answers never change it. Never deleted; only its state
 * (and the bank's reference and day) changes, and the database refuses any other change.
 */
export const paymentBatchLines = pgTable(
	'payment_batch_lines',
	{
		id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
		batchId: integer('batch_id')
			.notNull()
			.references(() => paymentBatches.id),
		instalmentId: integer('instalment_id')
			.notNull()
			.references(() => aidInstalments.id),
		/** The instalment's case and (below) fund, as its own row has them: checked once a statement (drizzle/0045), not a key each. */
		caseId: uuid('case_id').notNull(),
		caseReference: text('case_reference').notNull(),
		/** ATAA-<n>: the reference the transfer carries to the bank and back. */
		reference: text('reference').notNull(),
		payeeName: text('payee_name').notNull(),
		iban: text('iban').notNull(),
		/** The IBAN's bank code (app/domain/saudi-banks.ts). */
		bankCode: text('bank_code').notNull(),
		amount: numeric('amount', { precision: 12, scale: 2, mode: 'number' }).notNull(),
		fundId: integer('fund_id').notNull(),
		aidKind: text('aid_kind').notNull(),
		/** in_batch until the bank's answer: paid, or bounced (returned); withdrawn: taken out before the file was sent. */
		state: batchLineState('state').notNull().default('in_batch'),
		bankReference: text('bank_reference'),
		paidOn: date('paid_on', { mode: 'string' }),
		/** Why the bank returned it, or why it was withdrawn. */
		stateNote: text('state_note'),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(table) => [uniqueIndex('payment_batch_lines_unique').on(table.batchId, table.instalmentId), index('payment_batch_lines_instalment_idx').on(table.instalmentId), check('payment_batch_lines_amount', sql`${table.amount} > 0`)],
)

/**
 * A batch's bank file as it was when the batch was marked sent: the exact bytes of each layout and
 * format, with their SHA-256. Written once; the database refuses to change or delete it.
 */
export const paymentBatchFiles = pgTable(
	'payment_batch_files',
	{
		id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
		batchId: integer('batch_id')
			.notNull()
			.references(() => paymentBatches.id),
		/** app/aid/bank-layouts: the layout's key. */
		layout: text('layout').notNull(),
		format: text('format', { enum: ['csv', 'xlsx'] }).notNull(),
		bytes: bytea('bytes').notNull(),
		/** Hex. */
		sha256: text('sha256').notNull(),
		keptAt: timestamp('kept_at', { withTimezone: true }).notNull().defaultNow(),
		/** Who marked the batch sent (no cascade: the row never changes). */
		keptBy: integer('kept_by').references(() => users.id),
	},
	(table) => [uniqueIndex('payment_batch_files_unique').on(table.batchId, table.layout, table.format)],
)

/**
 * The months finance closed once reconciled, and reopened (docs/product.md#periods): one row per
 * close and per reopening, never changed or removed (triggers refuse UPDATE, DELETE and TRUNCATE);
 * a month's state is its newest row. Money dated in a closed month is refused by the database
 * (drizzle/0038_closed_periods.sql, `ataa_refuse_closed_period`).
 */
export const closedPeriods = pgTable(
	'closed_periods',
	{
		id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
		/** The month's first day. */
		month: date('month', { mode: 'string' }).notNull(),
		action: text('action', { enum: ['close', 'reopen'] }).notNull(),
		/** Why it was reopened (required); empty for a close. */
		reason: text('reason').notNull().default(''),
		actorId: integer('actor_id')
			.notNull()
			.references(() => users.id),
		at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
	},
	(table) => [
		index('closed_periods_month_idx').on(table.month, table.id),
		check('closed_periods_first_day', sql`extract(day from ${table.month}) = 1`),
		check('closed_periods_action', sql`${table.action} in ('close', 'reopen')`),
		check('closed_periods_reason', sql`${table.action} = 'close' or length(trim(${table.reason})) > 0`),
	],
)

/** `suspended`: a monthly aid held (app/aid/monthly-aid.ts); `cancelled`: stopped, or never to be paid. */
export const instalmentStatus = pgEnum('instalment_status', ['approved', 'in_batch', 'paid', 'delivered', 'cancelled', 'suspended'])

/**
 * What an approval gives, one row per payment: once, or each month of a monthly aid. Each is paid
 * (or, aid in kind, delivered) and recorded on its own. The budgets sum these.
 */
export const aidInstalments = pgTable(
	'aid_instalments',
	{
		id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
		caseId: uuid('case_id')
			.notNull()
			.references(() => cases.id),
		decisionId: integer('decision_id')
			.notNull()
			.references(() => caseDecisions.id),
		fundId: integer('fund_id')
			.notNull()
			.references(() => funds.id),
		/** The case's programme and the approval's budget year, as the budgets count them. */
		programme: text('programme').notNull(),
		budgetYear: integer('budget_year').notNull(),
		/** 1 for aid given once; 1..N for a monthly aid. */
		seq: smallint('seq').notNull(),
		/** The first day of the month it is due. */
		dueOn: date('due_on', { mode: 'string' }).notNull(),
		amount: numeric('amount', { precision: 12, scale: 2, mode: 'number' }).notNull(),
		aidKind: text('aid_kind').notNull(),
		status: instalmentStatus('status').notNull().default('approved'),
		/** The batch it is paid in (a transfer); null for aid in kind and before batching. */
		batchId: integer('batch_id').references(() => paymentBatches.id),
		/** The bank's reference of the transfer, as the bank gave it. */
		bankReference: text('bank_reference'),
		/** The day it was paid (a transfer) or delivered (in kind). */
		paidOn: date('paid_on', { mode: 'string' }),
		/** Who recorded the payment or the delivery. */
		recordedBy: integer('recorded_by').references(() => users.id, { onDelete: 'set null' }),
		/** Aid in kind: who handed it over, and the receipt's number (a signed form). */
		deliveredBy: text('delivered_by'),
		receipt: text('receipt'),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
		updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(table) => [
		uniqueIndex('aid_instalments_seq').on(table.decisionId, table.seq),
		index('aid_instalments_case_idx').on(table.caseId),
		index('aid_instalments_budget_idx').on(table.programme, table.budgetYear, table.fundId, table.status),
		index('aid_instalments_due_idx').on(table.status, table.dueOn),
		check('aid_instalments_amount', sql`${table.amount} > 0`),
	],
)

/**
 * Money a fund receives (docs/product.md#money-in, docs/decisions/019-money-in.md): a receipt
 * («سند قبض», series «ق») from a source, or money moved from another fund («مناقلة بين الصناديق»,
 * series «م», `fromFundId` set). Numbered without gaps per series and Gregorian year of its day
 * (`voucherNumbers`). What happened to it (recorded, confirmed by a second finance user, cancelled)
 * is its ledger entries' (`ledgerEntries.receiptId`): the row itself never changes (a trigger
 * refuses UPDATE, DELETE and TRUNCATE).
 */
export const fundReceipts = pgTable(
	'fund_receipts',
	{
		id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
		series: text('series', { enum: ['ق', 'م'] }).notNull(),
		year: integer('year').notNull(),
		seq: integer('seq').notNull(),
		/** The day the money came in (or moved): the entries' value date. */
		receivedOn: date('received_on', { mode: 'string' }).notNull(),
		amount: numeric('amount', { precision: 12, scale: 2, mode: 'number' }).notNull(),
		fundId: integer('fund_id')
			.notNull()
			.references(() => funds.id),
		/** A transfer between funds: the fund the money leaves (never a zakat fund). */
		fromFundId: integer('from_fund_id').references(() => funds.id),
		/** app/aid/receipts.ts `receiptSources`; `fund` for a transfer between funds. */
		source: text('source').notNull(),
		donor: text('donor').notNull().default(''),
		/** The donor's condition: the programme the money is restricted to (null: none), and its words. */
		programme: text('programme'),
		condition: text('condition').notNull().default(''),
		/** The bank statement's reference of the credit, when imported or typed ('' when none): a credit is recorded once. */
		bankReference: text('bank_reference').notNull().default(''),
		note: text('note').notNull().default(''),
		recordedBy: integer('recorded_by')
			.notNull()
			.references(() => users.id),
		recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(table) => [
		uniqueIndex('fund_receipts_number').on(table.series, table.year, table.seq),
		uniqueIndex('fund_receipts_bank_reference').on(table.bankReference).where(sql`${table.bankReference} <> ''`),
		index('fund_receipts_fund_idx').on(table.fundId),
		check('fund_receipts_amount', sql`${table.amount} > 0`),
		check('fund_receipts_transfer', sql`(${table.series} = 'م') = (${table.fromFundId} is not null) and (${table.fromFundId} is null or ${table.fromFundId} <> ${table.fundId})`),
	],
)

/** The last number given in each series and year: taken in the writing transaction, so numbers have no gaps. */
export const voucherNumbers = pgTable(
	'voucher_numbers',
	{
		series: text('series').notNull(),
		year: integer('year').notNull(),
		last: integer('last').notNull(),
	},
	(table) => [primaryKey({ columns: [table.series, table.year] })],
)

/** How funds may be drawn (one row; admins keep it): whether a general fund may approve beyond what it received. */
export const fundSettings = pgTable(
	'fund_settings',
	{
		id: smallint('id').primaryKey().default(1),
		/** True (the default): a general fund's approvals are bounded by the budgets only; false: by its balance too. Zakat funds never. */
		generalOverdraft: boolean('general_overdraft').notNull().default(true),
		updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
		updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
	},
	(table) => [check('fund_settings_one_row', sql`${table.id} = 1`)],
)

export const ledgerPhase = pgEnum('ledger_phase', ['pending', 'posted', 'voided'])

/**
 * The money ledger (docs/product.md#the-ledger, docs/decisions/018-append-only-ledger.md): double
 * entry, one row a transfer of `amount` from the debit account to the credit account (`fund:<id>`,
 * `family:<caseId>`), so debits equal credits in every transaction. Two phases: an approval commits
 * an amount (`pending`); a payment posts it, or a cancellation voids it, by a NEW row naming the
 * pending one. A correction is a new row naming the one it corrects. Never updated or deleted (a
 * trigger refuses; retention's narrow exception aside). Written by app/aid/ledger.server.ts alone.
 */
export const ledgerEntries = pgTable(
	'ledger_entries',
	{
		id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
		/** The transfers written together (one action): they balance together. */
		transactionId: uuid('transaction_id').notNull(),
		debitAccount: text('debit_account').notNull(),
		creditAccount: text('credit_account').notNull(),
		/** Saudi riyals, always more than zero: the direction is the accounts'. */
		amount: numeric('amount', { precision: 12, scale: 2, mode: 'number' }).notNull(),
		phase: ledgerPhase('phase').notNull(),
		/** A posting or a void: the pending transfer it resolves (once). */
		pendingId: integer('pending_id').references((): AnyPgColumn => ledgerEntries.id),
		/** An adjusting entry (a reversal): the entry it corrects (once). */
		correctsId: integer('corrects_id').references((): AnyPgColumn => ledgerEntries.id),
		/** The day the money moved (or was committed), as the reports and periods date it. */
		valueDate: date('value_date', { mode: 'string' }).notNull(),
		caseId: uuid('case_id').references(() => cases.id),
		instalmentId: integer('instalment_id').references(() => aidInstalments.id),
		decisionId: integer('decision_id').references(() => caseDecisions.id),
		batchId: integer('batch_id').references(() => paymentBatches.id),
		fundId: integer('fund_id').references(() => funds.id),
		/**
		 * Aid recorded by hand before the committee's cycle (a `case_aid` row without an instalment):
		 * the row this entry posts (drizzle/0042_reports_from_ledger.sql). Without a foreign key, as
		 * `case_aid.instalment_id`: retention may remove either after 10 years.
		 */
		aidId: integer('aid_id'),
		/** Money in (app/aid/receipts.server.ts): the receipt or transfer between funds this entry records, confirms or cancels. */
		receiptId: integer('receipt_id').references(() => fundReceipts.id),
		/** Who, why and from which screen (the page and its form's intent; '' for the app's own work). */
		actorId: integer('actor_id').references(() => users.id),
		reason: text('reason').notNull().default(''),
		screen: text('screen').notNull().default(''),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(table) => [
		index('ledger_entries_transaction_idx').on(table.transactionId),
		index('ledger_entries_instalment_idx').on(table.instalmentId),
		index('ledger_entries_case_idx').on(table.caseId),
		index('ledger_entries_fund_idx').on(table.fundId, table.phase),
		index('ledger_entries_debit_idx').on(table.debitAccount),
		index('ledger_entries_credit_idx').on(table.creditAccount),
		uniqueIndex('ledger_entries_pending_unique').on(table.pendingId),
		uniqueIndex('ledger_entries_corrects_unique').on(table.correctsId),
		uniqueIndex('ledger_entries_aid_unique').on(table.aidId),
		index('ledger_entries_receipt_idx').on(table.receiptId),
		check('ledger_entries_amount', sql`${table.amount} > 0`),
		check('ledger_entries_accounts', sql`${table.debitAccount} <> ${table.creditAccount}`),
		check('ledger_entries_phase', sql`(${table.phase} = 'pending' and ${table.pendingId} is null) or (${table.phase} = 'voided' and ${table.pendingId} is not null) or ${table.phase} = 'posted'`),
	],
)

/**
 * An approved aid's remaining instalments held or ended by finance or the committee
 * (docs/product.md#monthly-aid-over-time): its state (app/aid/monthly-aid.ts), who put it there and
 * why, who asks to resume it (another confirms), and its re-study date. No row: running, re-study a
 * month before its last instalment. The history is the case's `aid_changed` events.
 */
export const monthlyAids = pgTable(
	'monthly_aids',
	{
		decisionId: integer('decision_id')
			.primaryKey()
			.references(() => caseDecisions.id),
		caseId: uuid('case_id')
			.notNull()
			.references(() => cases.id),
		state: text('state', { enum: ['active', 'suspended', 'stopped', 'resuming', 'restarting'] })
			.notNull()
			.default('active'),
		/** The reason the applicant was told of the hold or the stop. */
		reason: text('reason').notNull().default(''),
		/** Who suspended or stopped it. */
		heldBy: integer('held_by').references(() => users.id, { onDelete: 'set null' }),
		/** Who asked to resume it: someone else confirms. */
		requestedBy: integer('requested_by').references(() => users.id, { onDelete: 'set null' }),
		/** Set by the committee; null: a month before the last instalment. */
		restudyOn: date('restudy_on', { mode: 'string' }),
		updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(table) => [index('monthly_aids_case_idx').on(table.caseId)],
)

/**
 * The account a case's aid goes to once approved (docs/product.md#a-bounced-payment): an IBAN given
 * after the approval (by the applicant on their link, or by staff correcting the answers), confirmed
 * by finance (not whoever gave it), or refused by the bank. Written once, never changed.
 */
export const payeeAccounts = pgTable(
	'payee_accounts',
	{
		id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
		caseId: uuid('case_id')
			.notNull()
			.references(() => cases.id),
		kind: text('kind', { enum: ['changed', 'confirmed', 'bounced'] }).notNull(),
		iban: text('iban').notNull(),
		/** A bounce: the bank's reason, as the applicant was told it. */
		reason: text('reason').notNull().default(''),
		/** The staff member; null: the applicant on their link. */
		actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
		at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
	},
	(table) => [index('payee_accounts_case_idx').on(table.caseId, table.id)],
)

/**
 * The figures of the year's reports (docs/product.md#reports), as `report_figures` and
 * `report_case_figures` keep them: counts, riyals, and the days an average divides.
 */
const reportFigureColumns = () => ({
	/** Cases sent in the period (not deleted). */
	received: integer('received').notNull().default(0),
	/** Cases with a study recorded in the period (not deleted), each once in its group. */
	studied: integer('studied').notNull().default(0),
	/** The committee's decisions, whatever the outcome (a returned case too); approved and rejected among them. */
	decisions: integer('decisions').notNull().default(0),
	approved: integer('approved').notNull().default(0),
	rejected: integer('rejected').notNull().default(0),
	/** Riyals approved (every month of a monthly aid). */
	approvedRiyals: numeric('approved_riyals').notNull().default('0'),
	/** Days from sending to each decision that is not a return, summed; and how many were summed. */
	decisionDays: numeric('decision_days').notNull().default('0'),
	decisionsTimed: integer('decisions_timed').notNull().default(0),
	/** Families and associations helped, each once in its group, and the individuals in them (`cases.household`). */
	families: integer('families').notNull().default(0),
	individuals: integer('individuals').notNull().default(0),
	/** Riyals given and aid in kind delivered: the aid ledger (`case_aid`). */
	givenRiyals: numeric('given_riyals').notNull().default('0'),
	inKind: integer('in_kind').notNull().default(0),
	/** Days from sending to the first aid given in the group, summed over its families; and how many were summed. */
	aidDays: numeric('aid_days').notNull().default('0'),
	aidTimed: integer('aid_timed').notNull().default(0),
})

/**
 * The year's reports summed ahead (app/aid/reports.server.ts), so a report reads a few hundred
 * rows rather than the whole ledger: per year, grain, group, programme and city, the sums of
 * `report_case_figures`. Written only by the triggers of drizzle/0029_report_summary.sql, in the
 * transaction that changes a case, a study, a decision, an instalment or the aid ledger; never by
 * the app. A group whose figures fell back to nothing keeps its row of zeros.
 */
export const reportFigures = pgTable(
	'report_figures',
	{
		/** The Gregorian year, Riyadh time. */
		year: integer('year').notNull(),
		/** 'year': the year as one period (by programme or city, and the year's totals); 'month' or 'fund': one row per month or fund, each counting a family or a case studied once in it. */
		grain: text('grain', { enum: ['year', 'month', 'fund'] }).notNull(),
		/** The month (YYYY-MM, Riyadh time) or the fund's id ('' for no fund: aid recorded by hand, a case sent or studied); '' for the year. */
		key: text('key').notNull(),
		/** The case's programme (a definition's `type`) and city. */
		type: text('type').notNull(),
		city: text('city').notNull(),
		...reportFigureColumns(),
	},
	(table) => [primaryKey({ name: 'report_figures_pk', columns: [table.year, table.grain, table.key, table.type, table.city] })],
)

/**
 * «أثرنا» as published (docs/product.md#our-impact): families helped and riyals given per year and
 * programme, from the aid ledger as it stood through `through` (the last day of a month, Riyadh
 * time), taken once a month by the scheduler (app/aid/impact.server.ts). The public page shows the
 * newest, so a payment shows there only at the next month's snapshot. Its trigger raises the content
 * version (drizzle/0035_impact_snapshots.sql), so cached pages show a new snapshot at once.
 */
export const impactSnapshots = pgTable('impact_snapshots', {
	through: date('through', { mode: 'string' }).primaryKey(),
	takenAt: timestamp('taken_at', { withTimezone: true }).notNull().defaultNow(),
	/** Every year and programme with aid given, before suppression: the page applies it (app/aid/impact-disclosure.ts). */
	figures: jsonb('figures').$type<{ year: number; programme: string; families: number; riyals: number }[]>().notNull(),
})

/**
 * What each case adds to `report_figures`, per year, grain and group (the same columns): recomputed
 * from the case's records by the same triggers whenever one of them changes, and the difference
 * added to `report_figures`. A family helped or a case studied twice in a group is one here.
 */
export const reportCaseFigures = pgTable(
	'report_case_figures',
	{
		/** No foreign key: the row outlives a case deleted for good until the trigger takes its figures off. */
		caseId: uuid('case_id').notNull(),
		year: integer('year').notNull(),
		grain: text('grain', { enum: ['year', 'month', 'fund'] }).notNull(),
		key: text('key').notNull(),
		/** The case's programme and city when its figures were added: where they are taken off. */
		type: text('type').notNull(),
		city: text('city').notNull(),
		...reportFigureColumns(),
	},
	(table) => [primaryKey({ name: 'report_case_figures_pk', columns: [table.caseId, table.year, table.grain, table.key] })],
)

/**
 * The audit trail: who did or read what, when, from where (docs/security.md#audit-trail). Rows are
 * only ever added: triggers refuse every UPDATE, DELETE and TRUNCATE.
 */
export const auditLog = pgTable(
	'audit_log',
	{
		id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
		at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
		/** The staff member; null for a visitor, an institution or a failed sign-in. */
		actorId: integer('actor_id').references(() => users.id),
		/** Who, as shown: the staff member's name, an institution's, or the e-mail a failed sign-in typed. */
		actorName: text('actor_name').notNull().default(''),
		action: text('action').notNull(),
		/** The case concerned, by its reference. */
		caseReference: text('case_reference'),
		/** The path the request was for (without its query). */
		path: text('path').notNull().default(''),
		ip: text('ip').notNull().default(''),
		data: jsonb('data').notNull().default({}),
	},
	(table) => [
		index('audit_log_at_idx').on(table.at),
		index('audit_log_actor_idx').on(table.actorId, table.at),
		index('audit_log_case_idx').on(table.caseReference, table.at),
		index('audit_log_action_idx').on(table.action, table.at),
	],
)

/** A section's answers, validated by the definition on every write. */
export const caseSections = pgTable(
	'case_sections',
	{
		caseId: uuid('case_id')
			.notNull()
			.references(() => cases.id, { onDelete: 'cascade' }),
		section: text('section').notNull(),
		answers: jsonb('answers').notNull(),
		updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(table) => [primaryKey({ columns: [table.caseId, table.section] })],
)

export const attachments = pgTable(
	'attachments',
	{
		id: uuid('id').primaryKey().defaultRandom(),
		caseId: uuid('case_id')
			.notNull()
			.references(() => cases.id, { onDelete: 'cascade' }),
		slot: text('slot').notNull(),
		originalName: text('original_name').notNull(),
		contentType: text('content_type').notNull(),
		size: integer('size').notNull(),
		sha256: text('sha256').notNull(),
		storageKey: text('storage_key').notNull(),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
		/** Removed by the applicant before submitting; kept for the audit trail. */
		deletedAt: timestamp('deleted_at', { withTimezone: true }),
		/** A PDF's pages: a document made of pages, or a PDF given as some of them (app/documents/). */
		pages: integer('pages'),
		/** A page of a document being made (slot `page:<slot>`): its place in the order the applicant chose. */
		position: integer('position'),
		/** A page's photo: `processing` until it is cleaned and made smaller, `failed` if it could not be read. */
		status: text('status', { enum: ['ready', 'processing', 'failed'] })
			.notNull()
			.default('ready'),
	},
	(table) => [index('attachments_case_idx').on(table.caseId)],
)

export const caseEventKind = pgEnum('case_event_kind', [
	'created',
	'section_saved',
	'file_added',
	'file_removed',
	'submitted',
	'status_changed',
	'internal_note',
	'applicant_message',
	'link_sent',
	'assigned',
	'aid_recorded',
	'answers_corrected',
	'printed',
	'deleted',
	'restored',
	'notified',
	'study_recorded',
	'visit_scheduled',
	'visit_cancelled',
	'decided',
	'payment_recorded',
	'payment_reopened',
	'mobile_verified',
	'mobile_changed',
	'message_resent',
	'reminded',
	'closed_unanswered',
	'aid_proposed',
	'proposal_settled',
	'aid_changed',
	'iban_changed',
])

/** Append-only history: who did what to a case, when. Notes are internal or a message to the applicant. */
export const caseEvents = pgTable(
	'case_events',
	{
		id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
		caseId: uuid('case_id')
			.notNull()
			.references(() => cases.id, { onDelete: 'cascade' }),
		at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
		/** The staff member; null when the applicant acted. */
		actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
		kind: caseEventKind('kind').notNull(),
		note: text('note').notNull().default(''),
		data: jsonb('data').notNull().default({}),
	},
	(table) => [index('case_events_case_idx').on(table.caseId, table.at)],
)

/** Messages from the contact form (docs/product.md#other-forms), kept whether or not mail works. */
export const contactInquiries = pgTable(
	'contact_inquiries',
	{
		id: uuid('id').primaryKey().defaultRandom(),
		name: text('name').notNull(),
		email: text('email').notNull(),
		/** +9665XXXXXXXX */
		mobile: text('mobile').notNull(),
		subject: text('subject').notNull(),
		message: text('message').notNull(),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
		emailedAt: timestamp('emailed_at', { withTimezone: true }),
		readAt: timestamp('read_at', { withTimezone: true }),
		handledAt: timestamp('handled_at', { withTimezone: true }),
		handledBy: integer('handled_by').references(() => users.id, { onDelete: 'set null' }),
	},
	(table) => [index('contact_inquiries_created_idx').on(table.createdAt)],
)

/** An uploaded picture, kept only as resized AVIF and WebP variants (the original is not stored). */
export const images = pgTable('images', {
	id: uuid('id').primaryKey().defaultRandom(),
	originalName: text('original_name').notNull(),
	/** Of the original, after applying its EXIF orientation. */
	width: integer('width').notNull(),
	height: integer('height').notNull(),
	/** the variants: [{ format: 'avif'|'webp', width: number, key: string, size: number }] */
	variants: jsonb('variants').notNull().$type<{ format: 'avif' | 'webp'; width: number; key: string; size: number }[]>(),
	alt: text('alt').notNull().default(''),
	createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
	createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
})

/**
 * Staff-edited content (members, committees, the chairman's speech, …): one row per entry, its
 * fields as JSONB validated by the content type's definition on every write (app/content).
 */
export const contentEntries = pgTable(
	'content_entries',
	{
		id: uuid('id').primaryKey().defaultRandom(),
		type: text('type').notNull(),
		data: jsonb('data').notNull(),
		position: integer('position').notNull().default(0),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
		updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
		updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
		/** Deleted by staff: hidden everywhere, kept for the record. */
		deletedAt: timestamp('deleted_at', { withTimezone: true }),
		/** The words of the type's `searchFields`, tags dropped and Arabic-folded (app/utils/arabic-search.ts). */
		search: text('search').notNull().default(''),
		/** The name of the staff member who published it (news: «publishBy»), kept as it was then. */
		authorName: text('author_name'),
		/** Visits counted by app/content/views.server.ts (news). */
		views: integer('views').notNull().default(0),
	},
	(table) => [
		index('content_entries_type_idx').on(table.type, table.position),
		// The dated lists (news, albums, videos), newest first, one page read from the index whatever
		// their number (app/content/store.server.ts, ordering; docs/performance.md#staff-lists-and-paged-lists).
		...(['news:NewsDate', 'albums:date', 'videos:date'] as const).map((pair) => {
			const [type, dateField] = pair.split(':') as [string, string]
			return index(`content_entries_${type}_by_date`)
				.on(sql`(${table.data} ->> ${sql.raw(`'${dateField}'`)}) desc`, sql`${table.createdAt} desc`)
				.where(sql`${table.type} = ${sql.raw(`'${type}'`)} and ${table.deletedAt} is null`)
		}),
	],
)

/** Who has been counted as a visit of an entry lately: a visitor's keyed hash, never an address. */
export const contentViews = pgTable(
	'content_views',
	{
		entryId: uuid('entry_id')
			.notNull()
			.references(() => contentEntries.id, { onDelete: 'cascade' }),
		visitor: text('visitor').notNull(),
		seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(table) => [primaryKey({ columns: [table.entryId, table.visitor] })],
)

/** A file that staff publish (a certificate's PDF, a report, a video): public, downloaded by its id. */
export const documents = pgTable('documents', {
	id: uuid('id').primaryKey().defaultRandom(),
	originalName: text('original_name').notNull(),
	/** Judged from the bytes at upload: application/pdf, video/mp4, video/webm or video/quicktime. */
	mediaType: text('media_type').notNull().default('application/pdf'),
	size: integer('size').notNull(),
	sha256: text('sha256').notNull(),
	storageKey: text('storage_key').notNull(),
	createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
	createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
})

/**
 * Keys the app makes for itself on first start (e.g. the flash cookie's signing key): kept in the
 * database, so every instance and every restart signs and reads with the same key.
 */
export const appSecrets = pgTable('app_secrets', {
	name: text('name').primaryKey(),
	value: text('value').notNull(),
	createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

/**
 * One row (id 1): a number that triggers raise, in the same transaction, whenever something a public
 * page shows changes (foundation info, content entries, images, documents, intake settings), and
 * announce on the `ataa_content` channel. Caches of public pages and their data are valid for one
 * version (app/cache/content-version.server.ts).
 */
export const contentVersion = pgTable(
	'content_version',
	{
		id: smallint('id').primaryKey().default(1),
		version: bigint('version', { mode: 'number' }).notNull().default(1),
	},
	(table) => [check('content_version_one_row', sql`${table.id} = 1`)],
)

/**
 * The privacy notice shown at /privacy: every published text is kept, and the newest is shown. A
 * case's consent names the version it was given under (docs/product.md#privacy-and-consent).
 */
export const privacyNotices = pgTable('privacy_notices', {
	version: integer('version').primaryKey().generatedAlwaysAsIdentity(),
	/** Sanitised HTML. */
	body: text('body').notNull(),
	publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
	publishedBy: integer('published_by').references(() => users.id, { onDelete: 'set null' }),
	/** The name of the staff member who published it, kept as it was then. */
	publishedByName: text('published_by_name').notNull().default(''),
})

/**
 * The beneficiary of zakat paid to a case whose details retention destroyed
 * (docs/decisions/014-decisions-funds-and-budgets.md): the name and national ID the zakat register
 * needs for the 10 years of the financial record, and nothing else. Written by the purge; removed
 * by retention once `keptUntil` (10 years after the last zakat paid) has passed.
 */
export const zakatRecipients = pgTable('zakat_recipients', {
	caseId: uuid('case_id')
		.primaryKey()
		.references(() => cases.id),
	applicantName: text('applicant_name').notNull(),
	nationalId: text('national_id').notNull(),
	keptUntil: date('kept_until', { mode: 'string' }).notNull(),
	createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

/**
 * What retention destroyed (docs/operations.md#retention): one row per case purged, kept for good.
 * The case itself stays as its minimal record (reference, type, dates, outcome, aid given).
 */
export const retentionRegister = pgTable(
	'retention_register',
	{
		id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
		caseId: uuid('case_id').references(() => cases.id, { onDelete: 'set null' }),
		caseReference: text('case_reference').notNull(),
		caseType: text('case_type').notNull(),
		/** The case's status when purged (3 support provided or 6 archived). */
		outcome: smallint('outcome').notNull(),
		/** When the case was closed: its last status change. */
		closedAt: timestamp('closed_at', { withTimezone: true }).notNull(),
		purgedAt: timestamp('purged_at', { withTimezone: true }).notNull().defaultNow(),
		/** The section keys whose answers were destroyed. */
		sections: jsonb('sections').notNull().$type<string[]>().default([]),
		files: integer('files').notNull().default(0),
		bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
		/** What ran it: 'timer' (the server's daily run) or 'command' (npm run retention). */
		runBy: text('run_by').notNull(),
	},
	(table) => [index('retention_register_purged_idx').on(table.purgedAt)],
)

/**
 * A code sent by SMS to prove a mobile (docs/security.md#verified-mobile): only its HMAC is kept; it
 * lives 10 minutes, allows 5 tries and opens what it was sent for once.
 */
export const verificationCodes = pgTable(
	'verification_codes',
	{
		id: uuid('id').primaryKey().defaultRandom(),
		/** `case`: a case's mobile on a browser (its first save, or a link opened elsewhere); `lookup`: the lookup; `account`: an institution's sign-in. */
		purpose: text('purpose').$type<'case' | 'lookup' | 'account'>().notNull(),
		/** What it opens: the case's id, the lookup's HMAC of national ID and mobile, the account's id. */
		subject: text('subject').notNull(),
		/** +9665XXXXXXXX, where it was sent. */
		mobile: text('mobile').notNull(),
		codeHash: text('code_hash').notNull(),
		tries: smallint('tries').notNull().default(0),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
		expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
		usedAt: timestamp('used_at', { withTimezone: true }),
		/** The address that asked for it, for its hourly SMS budget (docs/security.md#sms-budgets); null for an account's code. */
		address: text('address'),
		/** Waiting for the SMS budget: sent by the scheduler (the code is made then), or never if it waits an hour. */
		queued: boolean('queued').notNull().default(false),
		/** When its SMS went (or was due, for a stand-in); null for a queued one, and for codes from before the budgets (their createdAt). */
		sentAt: timestamp('sent_at', { withTimezone: true }),
		/** False for a lookup's stand-in code that nobody receives: it takes no SMS budget. */
		texted: boolean('texted').notNull().default(true),
	},
	(table) => [index('verification_codes_subject_idx').on(table.purpose, table.subject, table.createdAt), index('verification_codes_mobile_idx').on(table.mobile, table.createdAt)],
)

/**
 * Every message the foundation sends about a case, or to its staff, with its delivery state
 * (docs/product.md#messages): tried at once, then again with backoff; `failed` says why, and staff
 * may send it again. A message holds no secret: links in it go to the lookup, never a private link.
 */
export const caseMessages = pgTable(
	'case_messages',
	{
		id: uuid('id').primaryKey().defaultRandom(),
		caseId: uuid('case_id').references(() => cases.id, { onDelete: 'cascade' }),
		/** The template's event (app/notify/templates.ts), e.g. `status:4`, `reminder:incomplete`. */
		event: text('event').notNull(),
		channel: text('channel').$type<'sms' | 'email'>().notNull(),
		/** +9665XXXXXXXX or an e-mail address. */
		recipient: text('recipient').notNull(),
		/** An e-mail's subject; '' for an SMS. */
		subject: text('subject').notNull().default(''),
		/** The text as sent (an e-mail's text part). */
		body: text('body').notNull(),
		status: text('status').$type<'pending' | 'sent' | 'failed'>().notNull().default('pending'),
		attempts: smallint('attempts').notNull().default(0),
		/** When a pending message is next tried. */
		nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
		/** The last refusal or failure, as the provider said it (no credentials, no text). */
		lastError: text('last_error'),
		/** The SMS provider or `smtp` that took it, and its own id for it. */
		provider: text('provider'),
		providerRef: text('provider_ref'),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
		sentAt: timestamp('sent_at', { withTimezone: true }),
		/** The staff member whose action sent it; null for the applicant's own or the scheduler's. */
		createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
	},
	(table) => [
		index('case_messages_case_idx').on(table.caseId, table.createdAt),
		index('case_messages_due_idx')
			.on(table.nextAttemptAt)
			.where(sql`${table.status} = 'pending'`),
	],
)

/** Staff's own wording of a message (app/notify/templates.ts holds the defaults); a row only once changed. */
export const messageTemplates = pgTable('message_templates', {
	event: text('event').primaryKey(),
	sms: text('sms').notNull(),
	emailSubject: text('email_subject').notNull(),
	emailBody: text('email_body').notNull(),
	updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
	updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
})

/** When applicants are reminded, and whether an unanswered incomplete case is closed (one row). */
export const reminderSettings = pgTable(
	'reminder_settings',
	{
		id: smallint('id').primaryKey().default(1),
		/** Days after a case was sent back as incomplete: the first and the second reminder. */
		incompleteFirstDays: smallint('incomplete_first_days').notNull().default(3),
		incompleteSecondDays: smallint('incomplete_second_days').notNull().default(7),
		/** Days after which an incomplete case still unanswered is closed; null: never (the default). */
		incompleteCloseDays: smallint('incomplete_close_days'),
		/** Days after which a draft not sent gets its one reminder. */
		draftDays: smallint('draft_days').notNull().default(2),
		updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
		updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
	},
	(table) => [check('reminder_settings_one_row', sql`${table.id} = 1`)],
)

/**
 * The SMS budgets of the codes the public can ask for (docs/operations.md#sms-budgets), set by staff on
 * /admin/intake; without a row, the environment's (SMS_BUDGET_*).
 */
export const smsBudget = pgTable(
	'sms_budget',
	{
		id: smallint('id').primaryKey().default(1),
		perHour: integer('per_hour').notNull(),
		perDay: integer('per_day').notNull(),
		perAddressHour: integer('per_address_hour').notNull(),
		updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
		updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
	},
	(table) => [check('sms_budget_one_row', sql`${table.id} = 1`)],
)

/** Work one instance does for all (the scheduler): the instance holding an unexpired lease does it. */
export const schedulerLeases = pgTable('scheduler_leases', {
	name: text('name').primaryKey(),
	holder: text('holder').notNull(),
	expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
})
