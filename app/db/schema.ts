import { sql } from 'drizzle-orm'
import {
	bigint,
	boolean,
	check,
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
		role: userRole('role').notNull(),
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
		/** The old StatusId (docs/product.md#case-statuses): 1 new, 2 study done, 3 support provided, 4 incomplete, 5 support stopped, 6 archived. */
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
	},
	(table) => [
		uniqueIndex('cases_reference_unique').on(table.reference),
		// The search by a reference's first characters (LIKE 'BHCG%') in any database collation.
		index('cases_reference_prefix').on(table.reference.op('text_pattern_ops')),
		uniqueIndex('cases_token_unique').on(table.resumeTokenHash),
		index('cases_national_id_idx').on(table.nationalId, table.type),
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
		check('cases_status_range', sql`${table.status} between 1 and 6`),
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
	},
	(table) => [index('case_aid_case_idx').on(table.caseId), check('case_aid_amount_positive', sql`${table.amount} > 0`)],
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
	(table) => [index('content_entries_type_idx').on(table.type, table.position)],
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
