import { isCalendarDay } from '#app/text/format.ts'
import { and, asc, desc, eq, inArray, isNotNull, isNull, like, ne, or, sql, type SQL } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { aidInstalments, caseAid, caseDecisions, caseSections, cases, caseStudies, funds, users } from '#app/db/schema.ts'
import { applicationDefinitions, findDefinition } from '#app/forms/registry.ts'
import type { SectionAnswers } from '#app/forms/schema.ts'
import { normaliseSaudiMobile, toWesternDigits } from '#app/text/format.ts'
import { containsPattern, foldArabic } from '#app/utils/arabic-search.ts'
import { caseStatuses, Status, type CaseStatus } from './case-statuses.ts'
import { normaliseReference, referencePrefix } from './tokens.server.ts'
import type { CaseKind } from './workflow.ts'

// The back office's lists of cases: the filter read from a list's address, search, a page of
// rows, the count, and every case for an export.

export const CASE_LIST_PAGE_SIZE = 50

export interface CaseFilter {
	kind: CaseKind
	/** One status, or null for every status but archived (the old lists hid them). */
	status: CaseStatus | null
	type: string | null
	assignedTo: number | null
	/** Submitted from / to (inclusive), yyyy-mm-dd in Riyadh. */
	from: string | null
	to: string | null
	q: string
	sort: 'submitted' | 'waiting'
	/** Deleted cases only (admin). */
	deleted: boolean
}


export function typesOfKind(kind: CaseKind): string[] {
	return applicationDefinitions.filter((definition) => definition.kind === kind).map((definition) => definition.type)
}

/** The filter in a list's query string; anything malformed is ignored, never an error. */
export function readCaseFilter(params: URLSearchParams, kind: CaseKind, me: number): CaseFilter {
	const status = Number(params.get('status'))
	const type = params.get('type')
	const assigned = params.get('assigned')
	const day = (name: string) => {
		const value = toWesternDigits(params.get(name) ?? '').trim()
		return isCalendarDay(value) ? value : null
	}
	return {
		kind,
		status: Number.isInteger(status) && status in caseStatuses ? (status as CaseStatus) : null,
		type: type && typesOfKind(kind).includes(type) ? type : null,
		assignedTo: assigned === 'me' ? me : assigned && /^\d+$/.test(assigned) ? Number(assigned) : null,
		from: day('from'),
		to: day('to'),
		q: (params.get('q') ?? '').trim().slice(0, 100),
		sort: params.get('sort') === 'waiting' ? 'waiting' : 'submitted',
		deleted: params.get('deleted') === '1',
	}
}

/** The filter as a query string again (export links, the export record). */
export function filterParams(filter: CaseFilter, me: number): URLSearchParams {
	const params = new URLSearchParams()
	if (filter.q) params.set('q', filter.q)
	if (filter.status) params.set('status', String(filter.status))
	if (filter.type) params.set('type', filter.type)
	if (filter.assignedTo) params.set('assigned', filter.assignedTo === me ? 'me' : String(filter.assignedTo))
	if (filter.from) params.set('from', filter.from)
	if (filter.to) params.set('to', filter.to)
	if (filter.sort === 'waiting') params.set('sort', 'waiting')
	if (filter.deleted) params.set('deleted', '1')
	return params
}

/**
 * The search box: a reference (whole or its first characters), a national ID (whole or its first
 * digits), a mobile in any usual spelling, or words of a name folded as `cases.search_name` is:
 * every word, in any order («سعد القحطاني» finds «سعد محمد عبدالله القحطاني»). Each word is a
 * LIKE on the trigram index (cases_search_name_trgm); a reference's first characters, a range on
 * cases_reference_prefix.
 */
export function searchCondition(query: string): SQL | undefined {
	const text = toWesternDigits(query).trim()
	if (!text) return undefined
	const matches: SQL[] = []
	const reference = normaliseReference(text)
	if (reference) matches.push(eq(cases.reference, reference))
	const start = referencePrefix(text)
	if (start) matches.push(like(cases.reference, `${start}%`))
	const mobile = normaliseSaudiMobile(text)
	if (mobile) matches.push(eq(cases.mobile, mobile))
	const digits = text.replace(/[\s-]/g, '')
	// A national ID, licence or permit number: whole (any length, as an association's may be), or
	// its first digits from four on.
	if (/^\d{1,20}$/.test(digits)) matches.push(eq(cases.nationalId, digits))
	if (/^\d{4,19}$/.test(digits)) matches.push(like(cases.nationalId, `${digits}%`))
	const folded = foldArabic(text).replace(/\s+/g, ' ')
	const words = folded.split(' ').filter((word) => /\p{L}/u.test(word))
	if (words.length) matches.push(and(...words.map((word) => like(cases.searchName, containsPattern(word))))!)
	return matches.length ? or(...matches) : sql`false`
}

export function caseListWhere(filter: CaseFilter): SQL {
	const types = filter.type ? [filter.type] : typesOfKind(filter.kind)
	const riyadhDay = (day: string, plusDays: number) => sql`((${day}::date + ${plusDays}::int)::timestamp at time zone 'Asia/Riyadh')`
	return and(
		isNotNull(cases.submittedAt),
		filter.deleted ? isNotNull(cases.deletedAt) : isNull(cases.deletedAt),
		types.length ? inArray(cases.type, types) : sql`false`,
		filter.status ? eq(cases.status, filter.status) : filter.deleted ? undefined : ne(cases.status, Status.Closed),
		filter.assignedTo ? eq(cases.assignedTo, filter.assignedTo) : undefined,
		filter.from ? sql`${cases.submittedAt} >= ${riyadhDay(filter.from, 0)}` : undefined,
		filter.to ? sql`${cases.submittedAt} < ${riyadhDay(filter.to, 1)}` : undefined,
		searchCondition(filter.q),
	)!
}

function listOrder(filter: CaseFilter) {
	return filter.sort === 'waiting' ? [asc(cases.statusChangedAt), asc(cases.id)] : [desc(cases.submittedAt), desc(cases.id)]
}

export async function countCases(db: Database, filter: CaseFilter): Promise<number> {
	const [row] = await db
		.select({ value: sql<number>`count(*)::int` })
		.from(cases)
		.where(caseListWhere(filter))
	return Number(row?.value ?? 0)
}

export interface CaseListRow {
	id: string
	reference: string
	type: string
	status: number
	applicantName: string
	nationalId: string
	mobile: string
	submittedAt: Date
	statusChangedAt: Date
	assignedName: string | null
	/** The first section's answers: nationality, specialty… for the list's columns. */
	first: SectionAnswers
}

/** One page of the filtered list, with what its columns show. */
export async function listCases(db: Database, filter: CaseFilter, page: { offset: number; limit: number }): Promise<CaseListRow[]> {
	const rows = await db
		.select({
			id: cases.id,
			reference: cases.reference,
			type: cases.type,
			status: cases.status,
			applicantName: cases.applicantName,
			nationalId: cases.nationalId,
			mobile: cases.mobile,
			submittedAt: cases.submittedAt,
			statusChangedAt: cases.statusChangedAt,
			assignedName: users.name,
		})
		.from(cases)
		.leftJoin(users, eq(users.id, cases.assignedTo))
		.where(caseListWhere(filter))
		.orderBy(...listOrder(filter))
		.offset(page.offset)
		.limit(page.limit)
	const firsts = await firstSections(db, rows)
	return rows.map((row) => ({
		...row,
		submittedAt: row.submittedAt!,
		first: firsts.get(row.id) ?? {},
	}))
}

async function firstSections(db: Database, rows: readonly { id: string; type: string }[]): Promise<Map<string, SectionAnswers>> {
	if (!rows.length) return new Map()
	const keys = [...new Set(rows.map((row) => findDefinition(row.type)?.sections[0]?.key ?? ''))]
	const found = await db
		.select({ caseId: caseSections.caseId, answers: caseSections.answers })
		.from(caseSections)
		.where(
			and(
				inArray(
					caseSections.caseId,
					rows.map((row) => row.id),
				),
				inArray(caseSections.section, keys),
			),
		)
	return new Map(found.map((row) => [row.caseId, row.answers as SectionAnswers]))
}

/**
 * The filtered list in pages of `batch`, by keyset (never OFFSET), for exports: memory stays at
 * one batch however many cases there are.
 */
export interface ExportDecision {
	outcome: (typeof caseDecisions.$inferSelect)['outcome']
	decidedAt: Date
	/** The fund an approval is charged to; null for a rejection or a return. */
	fund: string | null
	zakat: boolean | null
}

export interface ExportGiven {
	riyals: number
	/** yyyy-mm-dd */
	lastOn: string
	bankReferences: string[]
}

export async function* eachCaseForExport(
	db: Database,
	filter: CaseFilter,
	batch = 500,
): AsyncGenerator<{
	row: typeof cases.$inferSelect & { assignedName: string | null }
	answers: Record<string, SectionAnswers>
	/** The case's study (the newest), if any. */
	study: typeof caseStudies.$inferSelect | undefined
	/** The committee's newest decision, with its fund, if any. */
	decision: ExportDecision | undefined
	/** The aid ledger's sum, its last day, and the bank's references of the transfers paid (in the order paid). */
	given: ExportGiven | undefined
}> {
	// The last row's id: its submitted_at is compared as the database holds it (microseconds), never
	// through a JavaScript Date (milliseconds), which would skip rows in the same millisecond.
	let after: string | null = null
	for (;;) {
		const where = and(
			caseListWhere({ ...filter, sort: 'submitted' }),
			after ? sql`(${cases.submittedAt}, ${cases.id}) < (select last.submitted_at, last.id from cases as last where last.id = ${after}::uuid)` : undefined,
		)
		const rows = await db
			.select({ row: cases, assignedName: users.name })
			.from(cases)
			.leftJoin(users, eq(users.id, cases.assignedTo))
			.where(where)
			.orderBy(desc(cases.submittedAt), desc(cases.id))
			.limit(batch)
		if (!rows.length) return
		const sections = await db
			.select({
				caseId: caseSections.caseId,
				section: caseSections.section,
				answers: caseSections.answers,
			})
			.from(caseSections)
			.where(
				inArray(
					caseSections.caseId,
					rows.map((item) => item.row.id),
				),
			)
		const studies = await db
			.selectDistinctOn([caseStudies.caseId])
			.from(caseStudies)
			.where(
				inArray(
					caseStudies.caseId,
					rows.map((item) => item.row.id),
				),
			)
			.orderBy(caseStudies.caseId, desc(caseStudies.createdAt), desc(caseStudies.id))
		const studyOf = new Map(studies.map((study) => [study.caseId, study]))
		const ids = rows.map((item) => item.row.id)
		const decisions = await db
			.selectDistinctOn([caseDecisions.caseId], { caseId: caseDecisions.caseId, outcome: caseDecisions.outcome, decidedAt: caseDecisions.createdAt, fund: funds.name, zakat: funds.zakat })
			.from(caseDecisions)
			.leftJoin(funds, eq(funds.id, caseDecisions.fundId))
			.where(inArray(caseDecisions.caseId, ids))
			.orderBy(caseDecisions.caseId, desc(caseDecisions.createdAt), desc(caseDecisions.id))
		const decisionOf = new Map(decisions.map(({ caseId, ...decision }) => [caseId, decision]))
		const standing = sql`${caseAid.correctsId} is null and not exists (select 1 from ${caseAid} r where r.corrects_id = ${caseAid.id})`
		const given = await db
			.select({
				caseId: caseAid.caseId,
				riyals: sql<string>`sum(${caseAid.amount})`,
				// A bounced payment's row and its reversal (docs/decisions/018-append-only-ledger.md) net to nothing: the
				// last day and the bank references are those of the rows that stand.
				lastOn: sql<string | null>`(max(${caseAid.givenOn}) filter (where ${standing}))::text`,
				bankReferences: sql<string[]>`coalesce(array_remove(array_agg(${aidInstalments.bankReference} order by ${caseAid.givenOn}, ${caseAid.id}) filter (where ${standing}), null), '{}')`,
			})
			.from(caseAid)
			.leftJoin(aidInstalments, eq(aidInstalments.id, caseAid.instalmentId))
			.where(inArray(caseAid.caseId, ids))
			.groupBy(caseAid.caseId)
		// A case whose every payment came back has nothing given.
		const givenOf = new Map(given.flatMap(({ caseId, riyals, lastOn, bankReferences }) => (lastOn === null ? [] : [[caseId, { riyals: Number(riyals), lastOn, bankReferences }] as const])))
		const byCase = new Map<string, Record<string, SectionAnswers>>()
		for (const section of sections) {
			const answers = byCase.get(section.caseId) ?? {}
			answers[section.section] = section.answers as SectionAnswers
			byCase.set(section.caseId, answers)
		}
		for (const item of rows)
			yield {
				row: { ...item.row, assignedName: item.assignedName },
				answers: byCase.get(item.row.id) ?? {},
				study: studyOf.get(item.row.id),
				decision: decisionOf.get(item.row.id),
				given: givenOf.get(item.row.id),
			}
		if (rows.length < batch) return
		after = rows.at(-1)!.row.id
	}
}
