// The back office's routes as the route config declares them, and for each one what every kind of
// caller must get: the table behind authorization.spec.ts (who may open or post what) and
// csrf.spec.ts (every action refuses a cross-site POST). A route without an entry, or an entry
// without a route, fails the suite.
import { randomInt } from 'node:crypto'
import fs from 'node:fs'
import type { RouteConfigEntry } from '@react-router/dev/routes'
import { expect, type APIRequestContext, type APIResponse } from '@playwright/test'
import routes from '#app/routes.ts'
import { caseFileIds, registerInstitutionAsStaff, submitCaseAsStaff, type RegisteredInstitution, type SubmittedCase } from '../case-fixtures.ts'
import { unique, type StaffRole } from '../utils.ts'
import { studyForm } from '#tests/fixtures/needy-families.ts'

export interface ManifestRoute {
	/** As React Router names it: the config's id, or the file without its extension. */
	id: string
	/** Without the leading slash, as in the config: `admin/cases/:reference`. */
	path: string
	file: string
	hasLoader: boolean
	hasAction: boolean
}

const exports = (source: string, name: string) => new RegExp(`^export (async )?function ${name}\\b|^export const ${name}\\b`, 'm').test(source)

function flatten(entries: readonly RouteConfigEntry[], parent = ''): ManifestRoute[] {
	return entries.flatMap((entry) => {
		const path = [parent, entry.path ?? ''].filter(Boolean).join('/')
		const source = fs.readFileSync(new URL(`../../../app/${entry.file}`, import.meta.url), 'utf8')
		const route = { id: entry.id ?? entry.file.replace(/\.[jt]sx?$/, ''), path, file: entry.file, hasLoader: exports(source, 'loader'), hasAction: exports(source, 'action') }
		return [route, ...flatten(entry.children ?? [], path)]
	})
}

/** Every route of app/routes.ts, children after their layout. */
export const manifest: readonly ManifestRoute[] = flatten(routes)

/** The back office: every route under /admin, the printable report (outside its frame) included. */
export const adminRoutes = manifest.filter((route) => route.path === 'admin' || route.path.startsWith('admin/'))

export const staffRoles = ['admin', 'case_officer', 'content_editor', 'approver', 'finance'] as const satisfies readonly StaffRole[]
const everyone = staffRoles
const cases = ['admin', 'case_officer'] as const
/** Who reads a case, its files and its print: the committee decides on it, finance pays it. */
const caseReaders = ['admin', 'case_officer', 'approver', 'finance'] as const
const committee = ['admin', 'approver'] as const
const fundReaders = ['admin', 'approver', 'finance'] as const
const finance = ['admin', 'finance'] as const
const content = ['admin', 'content_editor'] as const
const adminOnly = ['admin'] as const

/** Ids that exist nowhere: a forbidden role must get the same 403 for them as for real ones. */
export const missing = { reference: 'AAAA-2222', uuid: '00000000-0000-4000-8000-00000000abcd', userId: '999999', type: 'no-such-type', nationalId: '1000000008' }

/** What the back-office samples act on, made by an admin before the tests (createAdminFixtures). */
export interface AdminFixtures {
	marker: string
	/** A submitted needy-families case and one of its files. */
	case: SubmittedCase & { fileId: string }
	/** An institution whose registration is an association case; its account signs in at /account/login. */
	institution: RegisteredInstitution
	adminId: string
	/** Staff accounts that only these tests touch. */
	users: { toggle: string; edit: string }
	inquiry: string
	/** Committees only these tests touch: one to edit, one for each role allowed to delete. */
	committees: { edit: string; delete: Record<(typeof content)[number], string> }
	/** A demo album (its photos are never changed here). */
	album: string
}

/** A status, or the statuses one of which is right (the two-step setup: its page, or a redirect once it is on). */
export type Status = number | readonly number[]

export interface GetSample {
	path: string
	/** What a role allowed on the route gets. */
	status: Status
	location?: string
}

export type FormBody = Record<string, string | string[]>
export type MultipartBody = Record<string, string | { name: string; mimeType: string; buffer: Buffer }>

export interface PostSample {
	path: string
	form?: FormBody
	multipart?: MultipartBody
	/** What a role allowed on the route gets. */
	status: Status
	/**
	 * What this POST changes, read by the admin: the same before and after a refused POST, different
	 * after an allowed one. Left out where the sample changes nothing any test could see (a body the
	 * route refuses, on records every visitor shares: intake, foundation, singletons).
	 */
	state?: (admin: APIRequestContext) => Promise<unknown>
}

export interface RouteEntry {
	/** The staff roles that may use the route (post to it; open it too unless `readRoles` says); every other staff role gets 403. */
	roles: readonly StaffRole[]
	/** The staff roles that may open it, when more than may post to it. */
	readRoles?: readonly StaffRole[]
	/** URLs to GET, with real ids and with ids that do not exist. */
	get?: (f: AdminFixtures) => GetSample[]
	/** A POST as `role` (one of `roles`) would send it; a forbidden role sends the first role's. */
	post?: (f: AdminFixtures, role: StaffRole) => PostSample
	/** The same POST on ids that do not exist: allowed roles get `status` (404), forbidden ones the same 403 as above. */
	postMissing?: (f: AdminFixtures) => PostSample
}

/** The form values of `<input name=…>` and `<textarea name=…>` on a page, as the server drew them. */
export function inputValue(html: string, name: string): string | null {
	const input = new RegExp(`<input[^>]*\\bname="${name}"[^>]*>`).exec(html)?.[0]
	if (input) return /\bchecked=""/.test(input) ? 'checked' : (/\bvalue="([^"]*)"/.exec(input)?.[1] ?? '')
	return new RegExp(`<textarea[^>]*\\bname="${name}"[^>]*>([^<]*)</textarea>`).exec(html)?.[1] ?? null
}

async function html(admin: APIRequestContext, path: string): Promise<string> {
	const response = await admin.get(path)
	expect(response.status(), path).toBe(200)
	return response.text()
}

/** How many times `text` (plain words: nothing HTML would escape) appears on a page. */
const count = async (admin: APIRequestContext, path: string, text: string) => (await html(admin, path)).split(text).length - 1

/** Whether the case list filtered by officer shows the case. */
const assignedTo = (list: string, reference: string, officer: string) => async (admin: APIRequestContext) =>
	(await html(admin, `${list}?${new URLSearchParams({ q: reference, assigned: officer })}`)).includes(`/admin/cases/${reference}"`)

const officerFor = (f: AdminFixtures, role: StaffRole) => (role === 'admin' ? f.adminId : 'none')

/**
 * The table: route id → samples and the roles allowed. «allowed» answers are the route's own: 200,
 * its redirect after a save, 400 for a body it refuses, 404 for a missing record.
 */
export const routeTable: Record<string, RouteEntry> = {
	'routes/admin/layout': { roles: everyone, get: () => [{ path: '/admin', status: 200 }] },
	'routes/admin/dashboard': { roles: everyone, get: () => [{ path: '/admin', status: 200 }] },
	'routes/admin/not-found': {
		roles: everyone,
		get: () => [{ path: '/admin/no-such-page', status: 404 }],
		post: () => ({ path: '/admin/no-such-page', form: { intent: 'x' }, status: 404 }),
	},
	'routes/admin/users': {
		roles: adminOnly,
		get: () => [{ path: '/admin/users', status: 200 }],
		post: (f) => ({
			path: '/admin/users',
			form: { intent: 'toggle-active', userId: f.users.toggle },
			status: 302,
			state: async (admin) => inputValue(await html(admin, `/admin/users/${f.users.toggle}/edit`), 'active'),
		}),
		postMissing: () => ({ path: '/admin/users', form: { intent: 'toggle-active', userId: missing.userId }, status: 400 }),
	},
	'admin-user-new': {
		roles: adminOnly,
		get: () => [{ path: '/admin/users/new', status: 200 }],
		// No state: were the user made by a refused POST, the admin's own POST after it would be told
		// that the e-mail is taken (400) instead of 302.
		post: (f) => ({
			path: '/admin/users/new',
			form: newUserForm(`new-${f.marker}@e2e.test`, 'content_editor'),
			status: 302,
		}),
	},
	'admin-user-edit': {
		roles: adminOnly,
		get: (f) => [
			{ path: `/admin/users/${f.users.edit}/edit`, status: 200 },
			{ path: `/admin/users/${missing.userId}/edit`, status: 404 },
		],
		post: (f, role) => ({
			path: `/admin/users/${f.users.edit}/edit`,
			form: { name: `تعديل ${role} ${f.marker}`, email: `edit-${f.marker}@e2e.test`, mobile: '0551000009', roles: 'content_editor', active: 'on', password: '', confirmPassword: '' },
			status: 302,
			state: async (admin) => inputValue(await html(admin, `/admin/users/${f.users.edit}/edit`), 'name'),
		}),
		postMissing: (f) => ({ path: `/admin/users/${missing.userId}/edit`, form: { name: `تعديل ${f.marker}` }, status: 404 }),
	},
	'routes/admin/account': {
		roles: everyone,
		get: () => [{ path: '/admin/account', status: 200 }],
		// Ending a session that is not the caller's: refused with a notice, nothing ends. Never
		// «end-others» or a new password, which would end the stored sessions every other test uses.
		post: () => ({ path: '/admin/account', form: { intent: 'end-session', sessionId: missing.uuid }, status: 302 }),
	},
	'routes/admin/account-two-step': {
		roles: everyone,
		get: () => [{ path: '/admin/account/two-step', status: [200, 302] }],
		// No key and no code: refused, nothing is turned on.
		post: () => ({ path: '/admin/account/two-step', form: { secret: '', code: '' }, status: [400, 302] }),
	},
	'routes/admin/audit': {
		roles: adminOnly,
		get: (f) => [
			{ path: '/admin/audit', status: 200 },
			{ path: `/admin/audit?case=${f.case.reference}`, status: 200 },
		],
	},
	'routes/admin/audit-export': { roles: adminOnly, get: () => [{ path: '/admin/audit/export', status: 200 }] },
	'routes/admin/retention': { roles: adminOnly, get: () => [{ path: '/admin/retention', status: 200 }, { path: '/admin/retention?page=2', status: 200 }] },
	'routes/admin/subject-access': {
		roles: adminOnly,
		get: () => [{ path: '/admin/subject-access', status: 200 }],
		// A national ID nobody has: the page says nothing is held; nothing changes.
		post: () => ({ path: '/admin/subject-access', form: { nationalId: missing.nationalId }, status: 200 }),
	},
	'routes/admin/subject-access-export': {
		roles: adminOnly,
		// Nothing held for it: back to the form with a notice, no ZIP.
		post: () => ({ path: '/admin/subject-access/export', form: { nationalId: missing.nationalId }, status: 302 }),
	},
	'routes/admin/cases': {
		roles: cases,
		get: (f) => [
			{ path: '/admin/cases', status: 200 },
			{ path: `/admin/cases?q=${f.case.reference}`, status: 200 },
		],
		post: (f, role) => ({
			path: '/admin/cases',
			form: { intent: 'bulk-assign', ref: [f.case.reference], officer: officerFor(f, role) },
			status: 302,
			state: assignedTo('/admin/cases', f.case.reference, f.adminId),
		}),
	},
	'admin-associations': {
		roles: cases,
		get: (f) => [
			{ path: '/admin/associations', status: 200 },
			{ path: `/admin/associations?q=${f.institution.reference}`, status: 200 },
		],
		post: (f, role) => ({
			path: '/admin/associations',
			form: { intent: 'bulk-assign', ref: [f.institution.reference], officer: officerFor(f, role) },
			status: 302,
			state: assignedTo('/admin/associations', f.institution.reference, f.adminId),
		}),
	},
	'routes/admin/cases-export': {
		roles: cases,
		get: (f) => [
			{ path: `/admin/cases/export/csv?q=${f.case.reference}`, status: 200 },
			{ path: `/admin/cases/export/xlsx?q=${f.case.reference}`, status: 200 },
			{ path: '/admin/cases/export/pdf', status: 404 },
		],
	},
	'admin-associations-export': {
		roles: cases,
		get: (f) => [
			{ path: `/admin/associations/export/csv?q=${f.institution.reference}`, status: 200 },
			{ path: '/admin/associations/export/pdf', status: 404 },
		],
	},
	'routes/admin/case-new': { roles: cases, get: () => [{ path: '/admin/cases/new', status: 200 }] },
	'routes/admin/case': {
		roles: cases,
		readRoles: caseReaders,
		get: (f) => [
			{ path: `/admin/cases/${f.case.reference}`, status: 200 },
			{ path: `/admin/cases/${f.institution.reference}`, status: 200 },
			{ path: `/admin/cases/${missing.reference}`, status: 404 },
		],
		post: (f, role) => ({
			path: `/admin/cases/${f.case.reference}`,
			form: { intent: 'note', note: `ملاحظة ${role} ${f.marker}` },
			status: 302,
			state: (admin) => count(admin, `/admin/cases/${f.case.reference}`, f.marker),
		}),
		postMissing: (f) => ({ path: `/admin/cases/${missing.reference}`, form: { intent: 'note', note: `ملاحظة ${f.marker}` }, status: 404 }),
	},
	'routes/admin/case-edit': {
		roles: cases,
		get: (f) => [
			{ path: `/admin/cases/${f.case.reference}/edit/financial`, status: 200 },
			{ path: `/admin/cases/${f.case.reference}/edit/no-such-section`, status: 404 },
			{ path: `/admin/cases/${missing.reference}/edit/financial`, status: 404 },
		],
		post: (f, role) => ({
			path: `/admin/cases/${f.case.reference}/edit/financial`,
			form: { Net_Income: role === 'admin' ? '3101' : '3102' },
			status: 302,
			state: async (admin) => inputValue(await html(admin, `/admin/cases/${f.case.reference}/edit/financial`), 'Net_Income'),
		}),
		postMissing: () => ({ path: `/admin/cases/${missing.reference}/edit/financial`, form: { Net_Income: '3103' }, status: 404 }),
	},
	'routes/admin/case-study': {
		roles: cases,
		get: (f) => [
			{ path: `/admin/cases/${f.case.reference}/study`, status: 200 },
			{ path: `/admin/cases/${missing.reference}/study`, status: 404 },
		],
		post: (f, role) => ({
			path: `/admin/cases/${f.case.reference}/study`,
			form: studyForm({ metWith: `زيارة ${role} ${f.marker}` }),
			status: 302,
			state: async (admin) => inputValue(await html(admin, `/admin/cases/${f.case.reference}/study`), 'metWith'),
		}),
		postMissing: () => ({ path: `/admin/cases/${missing.reference}/study`, form: studyForm(), status: 404 }),
	},
	'routes/admin/case-study-photos': {
		roles: cases,
		// A photo that is not the case's: an allowed role reaches the lookup, and is sent back to the study page with why.
		post: (f) => ({ path: `/admin/cases/${f.case.reference}/study/photos`, form: { intent: 'remove', file: missing.uuid }, status: 302 }),
		postMissing: () => ({ path: `/admin/cases/${missing.reference}/study/photos`, form: { intent: 'remove', file: missing.uuid }, status: 404 }),
	},
	'routes/admin/case-file': {
		roles: caseReaders,
		get: (f) => [
			{ path: `/admin/cases/${f.case.reference}/files/${f.case.fileId}`, status: 200 },
			{ path: `/admin/cases/${f.case.reference}/files/${missing.uuid}`, status: 404 },
			{ path: `/admin/cases/${missing.reference}/files/${f.case.fileId}`, status: 404 },
		],
	},
	'routes/admin/case-print': {
		roles: caseReaders,
		get: (f) => [
			{ path: `/admin/cases/${f.case.reference}/print`, status: 200 },
			{ path: `/admin/cases/${missing.reference}/print`, status: 404 },
		],
	},
	'routes/admin/visits': {
		roles: cases,
		get: () => [
			{ path: '/admin/visits', status: 200 },
			{ path: '/admin/visits?all=1', status: 200 },
		],
	},
	'routes/admin/decisions': {
		roles: committee,
		get: () => [
			{ path: '/admin/decisions', status: 200 },
			{ path: '/admin/decisions?programme=needy-families&city=%D8%A7%D9%84%D8%B1%D9%8A%D8%A7%D8%B6&page=2', status: 200 },
		],
		// No case ticked: refused with its message, nothing is decided.
		post: () => ({ path: '/admin/decisions', form: { note: 'محضر' }, status: 400 }),
	},
	'routes/admin/meetings': {
		roles: committee,
		get: () => [
			{ path: '/admin/meetings', status: 200 },
			{ path: '/admin/meetings?page=abc', status: 200 },
		],
		// A day that is not one: refused with its message, no meeting is opened.
		post: () => ({ path: '/admin/meetings', form: { intent: 'open-meeting', heldOn: 'not-a-day', place: 'قاعة' }, status: 400 }),
	},
	'routes/admin/meeting': {
		roles: committee,
		get: () => [
			{ path: '/admin/meetings/999999', status: 404 },
			{ path: '/admin/meetings/not-a-meeting', status: 404 },
		],
		// A meeting that is not there: nothing is closed.
		post: () => ({ path: '/admin/meetings/999999', form: { intent: 'close-meeting' }, status: 404 }),
	},
	'routes/admin/meeting-minutes': {
		roles: committee,
		get: () => [
			{ path: '/admin/meetings/999999/minutes', status: 404 },
			{ path: '/admin/meetings/not-a-meeting/minutes', status: 404 },
		],
	},
	'routes/admin/funds': {
		roles: adminOnly,
		readRoles: fundReaders,
		get: () => [
			{ path: '/admin/funds', status: 200 },
			{ path: '/admin/funds?year=2031', status: 200 },
		],
		post: (f, role) => ({
			path: '/admin/funds',
			form: { intent: 'add-fund', name: `صندوق ${role} ${f.marker}` },
			status: 302,
			state: async (admin) => (await html(admin, '/admin/funds')).includes(`صندوق ${role} ${f.marker}`),
		}),
	},
	'routes/admin/fund-receipts': {
		roles: finance,
		get: () => [{ path: '/admin/funds/receipts', status: 200 }],
		// A receipt that is not there: nothing is cancelled.
		post: () => ({ path: '/admin/funds/receipts', form: { intent: 'cancel', id: '999999', reason: 'سبب الإلغاء' }, status: 404 }),
	},
	'routes/admin/payments': {
		roles: finance,
		get: () => [{ path: '/admin/payments', status: 200 }],
		// No transfer ticked: refused with its message, no batch is made.
		post: () => ({ path: '/admin/payments', form: { intent: 'batch', note: 'دفعة' }, status: 400 }),
	},
	'routes/admin/payment-batch': {
		roles: finance,
		get: () => [
			{ path: '/admin/payments/999999', status: 404 },
			{ path: '/admin/payments/not-a-batch', status: 404 },
		],
		post: () => ({ path: '/admin/payments/999999', form: { intent: 'sent', sentOn: '2026-01-01' }, status: 404 }),
	},
	'routes/admin/payment-file': {
		roles: finance,
		get: () => [
			{ path: '/admin/payments/999999/file/common/csv', status: 404 },
			{ path: '/admin/payments/999999/file/no-such-bank/xlsx', status: 404 },
		],
	},
	'routes/admin/payment-vouchers': {
		roles: finance,
		// No such batch, or no paid line: no voucher.
		get: () => [
			{ path: '/admin/payments/999999/vouchers', status: 404 },
			{ path: '/admin/payments/999999/vouchers/1', status: 404 },
			{ path: '/admin/payments/1/vouchers/not-an-instalment', status: 404 },
		],
	},
	'routes/admin/case-aid': {
		roles: fundReaders,
		// The sample case has no approved aid: its schedule is a 404 for those who may read one.
		get: (f) => [
			{ path: `/admin/cases/${f.case.reference}/aid`, status: 404 },
			{ path: `/admin/cases/${missing.reference}/aid`, status: 404 },
		],
		post: (f) => ({ path: `/admin/cases/${f.case.reference}/aid`, form: { intent: 'suspend', decision: '999999', reason: 'سبب الإيقاف' }, status: 404 }),
	},
	'routes/admin/monthly-aid': {
		roles: fundReaders,
		get: () => [{ path: '/admin/monthly-aid', status: 200 }],
	},
	'routes/admin/approval-limits': {
		roles: adminOnly,
		readRoles: fundReaders,
		get: () => [{ path: '/admin/funds/limits', status: 200 }],
		// A limit that is not there: nothing is removed.
		post: () => ({ path: '/admin/funds/limits', form: { intent: 'remove', id: '999999' }, status: 404 }),
	},
	'routes/admin/periods': {
		roles: finance,
		get: () => [
			{ path: '/admin/periods', status: 200 },
			{ path: '/admin/periods?year=2022&close=2022-05', status: 200 },
			{ path: '/admin/periods?year=abc&reopen=nothing', status: 200 },
		],
		// A month that is not one: refused with its message, nothing is closed.
		post: () => ({ path: '/admin/periods?year=2022', form: { intent: 'close', month: 'not-a-month' }, status: 409 }),
	},
	'routes/admin/reports': {
		roles: fundReaders,
		get: () => [
			{ path: '/admin/reports', status: 200 },
			{ path: '/admin/reports?year=2025&by=city', status: 200 },
			{ path: '/admin/reports?year=abc&by=nothing', status: 200 },
		],
	},
	'routes/admin/reports-export': {
		roles: fundReaders,
		get: () => [{ path: '/admin/reports/export?year=2026&by=fund', status: 200 }],
	},
	'routes/admin/zakat': {
		roles: fundReaders,
		get: () => [
			{ path: '/admin/zakat', status: 200 },
			{ path: '/admin/zakat?period=gregorian-2026', status: 200 },
			{ path: '/admin/zakat?period=hijri-script', status: 200 },
		],
	},
	'routes/admin/zakat-export': {
		roles: fundReaders,
		get: () => [{ path: '/admin/zakat/export?period=hijri-1448', status: 200 }],
	},
	'routes/admin/reasons': {
		roles: adminOnly,
		get: () => [{ path: '/admin/reasons', status: 200 }],
		post: (f, role) => ({
			path: '/admin/reasons',
			form: { intent: 'add', kind: 'study-reject', label: `سبب ${role} ${f.marker}` },
			status: 302,
			state: async (admin) => (await html(admin, '/admin/reasons')).includes(`سبب ${role} ${f.marker}`),
		}),
	},
	'routes/admin/intake': {
		roles: adminOnly,
		get: () => [{ path: '/admin/intake', status: 200 }],
		// An unknown programme: the admin's POST is refused after the role check, so no programme
		// that other tests apply to ever closes.
		post: () => ({ path: '/admin/intake', form: { type: missing.type, state: 'closed', pausedNotice: 'متوقف', closedNotice: 'مغلق' }, status: 400 }),
	},
	'routes/admin/messages': {
		roles: adminOnly,
		get: () => [
			{ path: '/admin/messages', status: 200 },
			{ path: '/admin/messages?event=status%3A4', status: 200 },
			{ path: '/admin/messages?event=no-such-event', status: 404 },
		],
		// A preview: it draws the text, saves nothing (the wording every applicant reads never changes here).
		post: () => ({ path: '/admin/messages', form: { intent: 'preview', event: 'status:4', sms: 'طلبك {رقم_الطلب}', emailSubject: 'طلبك', emailBody: 'طلبك {رقم_الطلب}' }, status: 200 }),
	},
	'routes/admin/foundation': {
		roles: content,
		get: () => [{ path: '/admin/foundation', status: 200 }],
		// Without its required fields: the foundation's details, on every page, never change here.
		post: () => ({ path: '/admin/foundation', form: { name: '' }, status: 400 }),
	},
	'routes/admin/privacy': {
		roles: content,
		get: () => [
			{ path: '/admin/privacy', status: 200 },
			{ path: '/admin/privacy?version=1', status: 200 },
			{ path: '/admin/privacy?version=999999', status: 404 },
		],
		// An empty text is refused: the notice every visitor reads never changes here.
		post: () => ({ path: '/admin/privacy', form: { body: '<p> </p>' }, status: 400 }),
	},
	'routes/admin/inquiries': {
		roles: content,
		get: (f) => [
			{ path: '/admin/inquiries', status: 200 },
			{ path: `/admin/inquiries?q=${f.marker}`, status: 200 },
		],
	},
	'routes/admin/inquiry': {
		roles: content,
		get: (f) => [
			{ path: `/admin/inquiries/${f.inquiry}`, status: 200 },
			{ path: `/admin/inquiries/${missing.uuid}`, status: 404 },
		],
		post: (f, role) => ({
			path: `/admin/inquiries/${f.inquiry}`,
			form: { handled: role === 'admin' ? 'true' : 'false' },
			status: 302,
			state: async (admin) => (await html(admin, `/admin/inquiries/${f.inquiry}`)).includes('تمت المعالجة في'),
		}),
		postMissing: () => ({ path: `/admin/inquiries/${missing.uuid}`, form: { handled: 'true' }, status: 404 }),
	},
	'routes/admin/content-list': {
		roles: content,
		get: () => [
			{ path: '/admin/content/committees', status: 200 },
			{ path: '/admin/content/home', status: 302, location: '/admin/content/home/edit' },
			{ path: `/admin/content/${missing.type}`, status: 404 },
		],
		// The bulk upload without files: refused after the role check; the library never changes here.
		post: () => ({ path: '/admin/content/documents', multipart: { category: 'reports' }, status: 400 }),
		postMissing: () => ({ path: `/admin/content/${missing.type}`, multipart: { category: 'reports' }, status: 405 }),
	},
	'admin-content-new': {
		roles: content,
		get: () => [
			{ path: '/admin/content/committees/new', status: 200 },
			{ path: `/admin/content/${missing.type}/new`, status: 404 },
		],
		post: (f, role) => ({
			path: '/admin/content/committees/new',
			form: committeeForm(`لجنة ${role} ${f.marker}`),
			status: 302,
			state: (admin) => count(admin, '/committees', `لجنة ${role} ${f.marker}`),
		}),
		postMissing: (f) => ({ path: `/admin/content/${missing.type}/new`, form: committeeForm(`لجنة ${f.marker}`), status: 404 }),
	},
	'routes/admin/content-upload': {
		roles: content,
		post: () => ({ path: '/admin/content/documents/upload', multipart: { category: 'reports' }, status: 400 }),
		postMissing: () => ({ path: `/admin/content/${missing.type}/upload`, multipart: { category: 'reports' }, status: 404 }),
	},
	'routes/admin/video-upload': {
		roles: content,
		post: () => ({ path: '/admin/content/videos/video-upload', multipart: { title: 'فيديو' }, status: 400 }),
		postMissing: () => ({ path: `/admin/content/${missing.type}/video-upload`, multipart: { title: 'فيديو' }, status: 404 }),
	},
	'routes/admin/album-photos': {
		roles: content,
		get: (f) => [
			{ path: `/admin/content/albums/${f.album}/photos`, status: 200 },
			{ path: `/admin/content/albums/${missing.uuid}/photos`, status: 404 },
		],
		// A photo that is not in the album: an allowed role reaches the lookup (404); the demo album's
		// photos, which other tests look at, never change.
		post: (f) => ({ path: `/admin/content/albums/${f.album}/photos`, form: { intent: 'caption', photo: missing.uuid, caption: f.marker }, status: 404 }),
		postMissing: (f) => ({ path: `/admin/content/albums/${missing.uuid}/photos`, form: { intent: 'caption', photo: missing.uuid, caption: f.marker }, status: 404 }),
	},
	'admin-content-singleton': {
		roles: content,
		get: () => [
			{ path: '/admin/content/chairman-speech/edit', status: 200 },
			{ path: `/admin/content/${missing.type}/edit`, status: 404 },
		],
		// Without the required fields: the chairman's speech, on a public page, never changes here.
		post: () => ({ path: '/admin/content/chairman-speech/edit', multipart: { chairmanName: '' }, status: 400 }),
		postMissing: () => ({ path: `/admin/content/${missing.type}/edit`, multipart: { chairmanName: '' }, status: 404 }),
	},
	'admin-content-edit': {
		roles: content,
		get: (f) => [
			{ path: `/admin/content/committees/${f.committees.edit}/edit`, status: 200 },
			{ path: `/admin/content/committees/${missing.uuid}/edit`, status: 404 },
			{ path: `/admin/content/${missing.type}/${f.committees.edit}/edit`, status: 404 },
		],
		post: (f, role) => ({
			path: `/admin/content/committees/${f.committees.edit}/edit`,
			form: committeeForm(`لجنة معدلة ${role} ${f.marker}`),
			status: 302,
			state: async (admin) => inputValue(await html(admin, `/admin/content/committees/${f.committees.edit}/edit`), 'name'),
		}),
		postMissing: (f) => ({ path: `/admin/content/committees/${missing.uuid}/edit`, form: committeeForm(`لجنة ${f.marker}`), status: 404 }),
	},
	'routes/admin/content-delete': {
		roles: content,
		get: (f) => [
			{ path: `/admin/content/committees/${f.committees.edit}/delete`, status: 200 },
			{ path: `/admin/content/committees/${missing.uuid}/delete`, status: 404 },
			{ path: `/admin/content/${missing.type}/${f.committees.edit}/delete`, status: 404 },
		],
		post: (f, role) => {
			const id = f.committees.delete[role as keyof AdminFixtures['committees']['delete']]
			return {
				path: `/admin/content/committees/${id}/delete`,
				form: {},
				status: 302,
				state: async (admin) => (await admin.get(`/admin/content/committees/${id}/edit`)).status(),
			}
		},
		postMissing: () => ({ path: `/admin/content/committees/${missing.uuid}/delete`, form: {}, status: 404 }),
	},
}

export function newUserForm(email: string, role: StaffRole, password = `Only-For-Tests-${unique()}`): FormBody {
	return { name: 'مستخدم للاختبار', email, mobile: '0551000008', roles: role, active: 'on', password, confirmPassword: password }
}

const committeeForm = (name: string): FormBody => ({ name, members: 'عضو أول\nعضو ثان', duties: '<p>مهام اللجنة</p>', order: '999' })

/** Pages through a back-office list until a row holds `text`; returns what `id` captures in that row. */
async function idInList(admin: APIRequestContext, list: string, text: string, id: RegExp): Promise<string> {
	for (let page = 1; page <= 60; page++) {
		const rows = (await html(admin, `${list}?page=${page}`)).split(/<tr[\s>]/)
		const row = rows.find((candidate) => candidate.includes(text))
		if (row) return id.exec(row)![1]!
		if (rows.length <= 2) break
	}
	throw new Error(`no row with ${text} in ${list}`)
}

export const userId = (admin: APIRequestContext, email: string) => idInList(admin, '/admin/users', `>${email}<`, /\/admin\/users\/(\d+)\/edit/)

/** Adds a staff account through /admin/users/new; its id. */
export async function addUser(admin: APIRequestContext, email: string, role: StaffRole, password?: string): Promise<string> {
	const response = await send(admin, { path: '/admin/users/new', form: newUserForm(email, role, password), status: 302 })
	expect(response.status(), `adding ${email}`).toBe(302)
	return userId(admin, email)
}

async function addCommittee(admin: APIRequestContext, name: string): Promise<string> {
	const response = await send(admin, { path: '/admin/content/committees/new', form: committeeForm(name), status: 302 })
	expect(response.status(), `adding the committee ${name}`).toBe(302)
	return idInList(admin, '/admin/content/committees', name, /\/admin\/content\/committees\/([0-9a-f-]{36})\/edit/)
}

async function inquiryId(admin: APIRequestContext, subject: string): Promise<string | undefined> {
	const inbox = await html(admin, `/admin/inquiries?${new URLSearchParams({ q: subject })}`)
	return /\/admin\/inquiries\/([0-9a-f-]{36})/.exec(inbox)?.[1]
}

/**
 * A message through the contact form, found in the inbox; its id. The form takes 5 messages a
 * sender (e-mail, mobile) an hour, so each message comes from a sender of its own; each security
 * spec sends one message a run, under a subject of its own, which a worker started again after a
 * failed test finds and takes again.
 */
export async function inquiry(request: APIRequestContext, admin: APIRequestContext, fields: { subject: string; message?: string; name?: string; key?: string }): Promise<string> {
	// Found again by a plain word of it (`key`), not by what a search is being tested with.
	const key = fields.key ?? fields.subject
	const sent = await inquiryId(admin, key)
	if (sent) return sent
	const response = await request.post('/contact', {
		form: { UserName: fields.name ?? 'سائل', Email: `asker-${unique()}@example.org`, Mobile: `05${randomInt(10_000_000, 100_000_000)}`, Subject: fields.subject, InquiryText: fields.message ?? 'نص الرسالة' },
		maxRedirects: 0,
	})
	expect(response.status(), 'the contact form').toBe(302)
	const id = await inquiryId(admin, key)
	expect(id, `the message «${fields.subject}» in the inbox`).toBeTruthy()
	return id!
}

/**
 * Everything the samples act on, made by `admin` (a request context with an admin's session);
 * `inquirySubject` names the spec's one contact message.
 */
export async function createAdminFixtures(admin: APIRequestContext, inquirySubject: string): Promise<AdminFixtures> {
	const marker = unique()
	const [submitted, institution, toggle, edit, message, committee, deleteAdmin, deleteEditor, albums, adminId] = await Promise.all([
		submitCaseAsStaff(admin),
		registerInstitutionAsStaff(admin),
		addUser(admin, `toggle-${marker}@e2e.test`, 'content_editor'),
		addUser(admin, `edit-${marker}@e2e.test`, 'content_editor'),
		inquiry(admin, admin, { subject: inquirySubject }),
		addCommittee(admin, `لجنة للتعديل ${marker}`),
		addCommittee(admin, `لجنة للحذف أ ${marker}`),
		addCommittee(admin, `لجنة للحذف ب ${marker}`),
		html(admin, '/admin/content/albums'),
		userId(admin, 'admin@e2e.test'),
	])
	const [fileId] = await caseFileIds(admin, submitted.reference)
	const album = /\/admin\/content\/albums\/([0-9a-f-]{36})\/photos/.exec(albums)?.[1]
	expect(fileId, 'a file of the case').toBeTruthy()
	expect(album, 'a demo album').toBeTruthy()
	return {
		marker,
		case: { ...submitted, fileId: fileId! },
		institution,
		adminId,
		users: { toggle, edit },
		inquiry: message,
		committees: { edit: committee, delete: { admin: deleteAdmin, content_editor: deleteEditor } },
		album: album!,
	}
}

/** Checks an answer's status against a sample's. */
export function expectStatus(response: APIResponse, status: Status, what: string) {
	if (typeof status === 'number') expect(response.status(), what).toBe(status)
	else expect(status, what).toContain(response.status())
}

/** A page's HTML with what changes on every answer (the script nonce) taken out. */
export const comparable = (body: string) => body.replace(/nonce="[^"]*"/g, 'nonce=""').replace(/'nonce-[^']*'/g, "'nonce-'")

/** Where a request to `path` from someone not signed in as staff is sent: the staff sign-in, coming back to it. */
export const staffSignIn = (path: string) => `/login?${new URLSearchParams({ redirectTo: path })}`

/** Sends a sample POST on `request`, with `headers` (an Origin, or none). */
export function send(request: APIRequestContext, sample: PostSample, headers: Record<string, string> = {}) {
	if (sample.multipart) return request.post(sample.path, { multipart: sample.multipart, headers, maxRedirects: 0 })
	const body = new URLSearchParams()
	for (const [key, value] of Object.entries(sample.form ?? {})) for (const item of [value].flat()) body.append(key, item)
	return request.post(sample.path, { data: body.toString(), headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers }, maxRedirects: 0 })
}
