import type { ReactNode } from 'react'
import { data, Link, useRouteError } from 'react-router'
import type { Route } from './+types/case-print'
import { groupTotals } from '#app/forms/totals.ts'
import { getDb } from '#app/db/database.server.ts'
import { requireUser } from '#app/auth/session.server.ts'
import { requireRole, staffContext } from '#app/auth/user-context.server.ts'
import { audited } from '#app/audit/audit-trail.server.ts'
import { findCaseByReference, listAttachments, loadSavedState } from '#app/cases/case-store.server.ts'
import { recordPrint } from '#app/cases/status-changes.server.ts'
import { staffStatusName } from '#app/cases/case-statuses.ts'
import { normaliseReference } from '#app/cases/tokens.server.ts'
import { getFoundationInfo } from '#app/domain/foundation-details.server.ts'
import { areaRoles, hasRole, roleLabels } from '#app/db/roles.ts'
import { isGiven, type ApplicationDef } from '#app/forms/definition.ts'
import { describeSection, type AnswerLine } from '#app/forms/describe.ts'
import { describeStudy, latestStudy, studyKindOf, type StudyDescription } from '#app/cases/studies.server.ts'
import { receiptInstalment, VISIT_PHOTO_SLOT } from '#app/cases/staff-files.ts'
import { listStaffFiles } from '#app/cases/staff-files.server.ts'
import { countOf, pages, photos as photosNoun } from '#app/text/arabic-count.ts'
import { decisionsOf, instalmentsOf } from '#app/aid/decisions.server.ts'
import { aidLedgerOf, aidLedgerTotals, type AidLedgerRow, type AidLedgerWhat } from '#app/aid/aid-ledger.server.ts'
import { aidActionLabels, instalmentsNoun } from '#app/cases/aid.ts'
import { describeDecision, describeInstalment } from '#app/aid/describe.ts'
import { findDefinition } from '#app/forms/registry.ts'
import type { SectionAnswers } from '#app/forms/schema.ts'
import { formatDate, formatDateTime, formatFileSize, formatMoney } from '#app/text/format.ts'
import { useNonce } from '#app/utils/nonce.tsx'
import { LogoMark } from '#app/components/logo.tsx'
import { ErrorMessage } from '#app/components/error-message.tsx'
import { DataTable, printCell as cell, printHeadCell as headCell } from '#app/components/data-table.tsx'
import { asksConsent, consentTitle, describeConsent } from '#app/privacy/consent-rules.ts'

// The printable case report (docs/product.md#printable-reports): outside the back-office frame, so
// it checks the session itself. Only sections that hold data are shown, in the definition's order;
// the print styles (A4, rows never cut across pages) are in app/app.css. No client bundle: a few
// lines of script with the page's nonce work the print button.

/** A run of single answers (a two-column label/value table), or a repeatable group as a table. */
export type ReportItem =
	| { kind: 'lines'; lines: AnswerLine[] }
	| {
			kind: 'table'
			label: string
			columns: string[]
			rows: string[][]
			/** Under a table with amounts: each column's sum, formatted, or '' for columns that are not amounts. */
			totals: string[] | null
	  }

export interface ReportFile {
	id: string
	slot: string
	name: string
	size: string
	/** A document's pages in words («3 صفحات»), when it says. */
	pages: string | null
	at: string
}

export interface ReportSection {
	key: string
	title: string
	items: ReportItem[]
	files: ReportFile[]
}

interface AttachmentInput {
	id: string
	slot: string
	originalName: string
	size: number
	createdAt: Date
	/** A document's pages, when it says (a document made of pages always does). */
	pages?: number | null
}

/** «رقم الجوال (اختياري)» says something to the applicant filling in the form, not on paper. */
const paperLabel = (label: string) => label.replace(/\s*\(اختياري\)$/, '')

/** The sections of the report: answers in words, empty answers, empty tables and empty sections left out. */
export function reportSections(definition: ApplicationDef, answers: Readonly<Record<string, SectionAnswers | undefined>>, attachments: readonly AttachmentInput[]): ReportSection[] {
	const slotLabels = new Map(definition.sections.flatMap((section) => (section.files ?? []).map((file) => [file.slot, file.label] as const)))
	const fileOf = (file: AttachmentInput): ReportFile => ({
		id: file.id,
		slot: slotLabels.get(file.slot) ?? file.slot,
		name: file.originalName,
		size: formatFileSize(file.size),
		// A document made of pages says how many: staff know what they are about to print.
		pages: file.pages ? countOf(file.pages, pages) : null,
		at: formatDateTime(file.createdAt),
	})
	const sections = definition.sections.map((section): ReportSection => {
		const saved = answers[section.key] ?? {}
		const items: ReportItem[] = []
		describeSection(section, saved).forEach((described, index) => {
			if (described.kind === 'line') {
				if (!described.line.value) return
				const last = items.at(-1)
				const line = {
					label: paperLabel(described.line.label),
					value: described.line.value,
				}
				if (last?.kind === 'lines') last.lines.push(line)
				else items.push({ kind: 'lines', lines: [line] })
				return
			}
			const field = section.fields[index]
			if (field?.kind !== 'group' || !described.group.rows.length) return
			// A column nobody filled in (an optional ID, say) is left off the paper.
			const kept = field.fields.map((_, column) => column).filter((column) => described.group.rows.some((row) => row[column]?.value))
			const rawRows = (saved[field.name] ?? []) as Record<string, unknown>[]
			const hasAmounts = kept.some((column) => field.fields[column]!.kind === 'money')
			items.push({
				kind: 'table',
				label: described.group.label,
				columns: kept.map((column) => paperLabel(field.fields[column]!.label)),
				rows: described.group.rows.map((row) => kept.map((column) => row[column]?.value ?? '')),
				totals: field.totals?.length
					? kept.map((column) => groupTotals(field, rawRows).find((total) => total.field === field.fields[column]!.name)?.value ?? '')
					: hasAmounts
						? kept.map((column) => {
								const sub = field.fields[column]!
								if (sub.kind !== 'money') return ''
								return formatMoney(rawRows.reduce((sum, row) => sum + (isGiven(row[sub.name]) ? Number(row[sub.name]) || 0 : 0), 0))
							})
						: null,
			})
		})
		return {
			key: section.key,
			title: section.title,
			items,
			// In the form's slot order, as the steps and the case view list them; a slot's files in upload order.
			files: (section.files ?? []).flatMap((slot) => attachments.filter((file) => file.slot === slot.slot)).map(fileOf),
		}
	})
	// A file in a slot the definition no longer has still belongs on the paper.
	const known = new Set(slotLabels.keys())
	const strays = attachments.filter((file) => !known.has(file.slot)).map(fileOf)
	if (strays.length)
		sections.push({
			key: 'other-files',
			title: 'مرفقات أخرى',
			items: [],
			files: strays,
		})
	return sections.filter((section) => section.items.length > 0 || section.files.length > 0)
}

/** Outside the back-office frame, so its own: the staff member first, then the audit trail. */
export const middleware: Route.MiddlewareFunction[] = [
	async ({ request, context }) => {
		context.set(staffContext, await requireUser(request))
	},
	audited({ read: 'case.print', write: false }),
]

export async function loader({ params, context }: Route.LoaderArgs) {
	const user = requireRole(context, areaRoles.caseReading)
	const db = await getDb()
	const reference = normaliseReference(params.reference)
	const row = reference ? await findCaseByReference(db, reference) : undefined
	if (!row || (row.deletedAt && !hasRole(user, 'admin'))) throw data(null, { status: 404 })
	const definition = findDefinition(row.type)
	if (!definition) throw data(null, { status: 404 })
	const [state, files, staffFiles, foundation, study, decisions, instalments, ledger] = await Promise.all([
		loadSavedState(db, row.id),
		listAttachments(db, row.id),
		listStaffFiles(db, row.id),
		getFoundationInfo(db),
		latestStudy(db, row.id),
		decisionsOf(db, row.id),
		instalmentsOf(db, [row.id]),
		aidLedgerOf(db, row.id),
	])
	await recordPrint(db, row.id, user)
	const now = new Date()
	return {
		foundation: { name: foundation.name, location: foundation.location },
		report: {
			title: definition.reportTitle,
			reference: row.reference,
			applicantName: row.applicantName,
			status: staffStatusName(row.status),
			deleted: row.deletedAt !== null,
			submitted: row.submittedAt ? formatDate(row.submittedAt) : null,
			sections: reportSections(definition, state.answers, files),
			consent: asksConsent(definition) ? { title: consentTitle(definition), answer: describeConsent(row) } : null,
			study: studyLines(describeStudy(study), staffFiles.filter((file) => file.slot === VISIT_PHOTO_SLOT).length),
			studyTitle: studyKindOf(row.type) === 'visit' ? 'الدراسة الاجتماعية' : 'الدراسة المكتبية',
			// The committee's decisions, newest first, and what they gave (docs/product.md#the-decision).
			decisions: decisions.map(describeDecision).map((decision): AnswerLine => ({
				label: `${decision.outcome} — ${decision.at}${decision.by ? ` — ${decision.by}` : ''}`,
				value: [decision.aid, decision.fund ? `الصندوق: ${decision.fund}` : '', decision.reason ? `السبب: ${decision.reason}` : '', decision.note].filter(Boolean).join('؛ '),
			})),
			instalments: instalments.map((row): AnswerLine => {
				const item = describeInstalment(row)
				const receipt = staffFiles.some((file) => receiptInstalment(file.slot) === row.instalment.id) ? ' — الإيصال محفوظ في ملف الطلب' : ''
				return { label: `القسط ${item.seq} — ${item.month}`, value: `${item.amount} — ${item.fund} — ${item.status}${receipt}` }
			}),
		},
		printed: { by: user.name, at: formatDate(now) },
		// Signed on paper: the researcher who studied the case, and the committee (the member who decided first).
		signatures: { researcher: study?.authorName ?? '', committee: decisions[0]?.deciderName ?? '' },
		aidLedger: aidLedgerReport(ledger),
	}
}

/** What each row of the aid ledger is, in the names the back office uses. */
const ledgerWhat: Record<AidLedgerWhat, string> = {
	approved: 'اعتماد',
	paid: 'صرف (تحويل)',
	bounced: 'أعاده البنك',
	delivered: 'تسليم',
	recorded: 'دعم مسجل يدوياً',
	suspended: aidActionLabels.suspend,
	stopped: aidActionLabels.stop,
	resumed: aidActionLabels.confirm,
}

export interface AidLedgerReport {
	rows: { day: string; what: string; amount: string; fund: string; reference: string; note: string; by: string }[]
	totals: { label: string; value: string }[]
}

/** «سجل الدعم المالي»: each row with its day in both calendars, and the totals; null for a case with no money. */
function aidLedgerReport(ledger: readonly AidLedgerRow[]): AidLedgerReport | null {
	if (!ledger.length) return null
	const totals = aidLedgerTotals(ledger)
	return {
		rows: ledger.map((row) => ({
			day: formatDate(row.day),
			what: ledgerWhat[row.what],
			amount: row.amount === null ? '' : formatMoney(row.amount),
			fund: row.fund ?? '',
			reference: [row.reference, row.bankReference ? `مرجع البنك ${row.bankReference}` : ''].filter(Boolean).join('، '),
			note: [row.months ? `دعم شهري: ${countOf(row.months, instalmentsNoun)}` : '', row.note].filter(Boolean).join('؛ '),
			by: row.by ?? '',
		})),
		totals: [
			{ label: 'المعتمد', value: formatMoney(totals.approved) },
			{ label: 'المصروف (ناقص ما أعاده البنك)', value: formatMoney(totals.paid) },
			...(totals.delivered ? [{ label: 'المُسلَّم', value: formatMoney(totals.delivered) }] : []),
			...(totals.recorded ? [{ label: 'المسجل يدوياً', value: formatMoney(totals.recorded) }] : []),
		],
	}
}

/** The study as the report's lines (its summary and recommendation in full). */
function studyLines(study: StudyDescription | null, photos: number): AnswerLine[] | null {
	if (!study) return null
	return [
		{ label: 'نوع الدراسة', value: `${study.kind} بتاريخ ${study.on}` },
		...(study.by ? [{ label: 'الباحث', value: study.by }] : []),
		...(study.metWith ? [{ label: 'من قوبل', value: study.metWith }] : []),
		...study.housing,
		...(study.needs ? [{ label: 'الاحتياجات كما رُئيت', value: study.needs }] : []),
		{ label: 'الخلاصة', value: study.summary },
		{ label: 'التوصية', value: study.why ? `${study.recommendation} — ${study.why}` : study.recommendation },
		...(study.aid ? [{ label: 'المساعدة المقترحة', value: study.aid }] : []),
		...(study.works ? [{ label: 'أعمال الترميم', value: study.works }] : []),
		...(study.quote ? [{ label: 'عرض السعر', value: study.quote }] : []),
		...(study.invoice ? [{ label: 'مبلغ الفاتورة', value: study.invoice }] : []),
		{ label: 'مصرف الزكاة', value: study.zakatCategory ? `${study.zakatCategory}${study.zakatReason ? ` — ${study.zakatReason}` : ''}` : 'غير مستحقة للزكاة' },
		// The photos open from the case view (staff only); the printout says how many there are.
		...(photos ? [{ label: 'صور الزيارة', value: `${countOf(photos, photosNoun)} في ملف الطلب` }] : []),
	]
}

/** A staff member's printout holds personal data: never kept by a browser or proxy cache. */
export function headers() {
	return { 'Cache-Control': 'private, no-store' }
}

// The button stays hidden until this runs (the CSP allows it through the nonce, never an onclick).
const printScript = `(()=>{const b=document.getElementById('print-report');if(!b)return;b.hidden=false;b.addEventListener('click',()=>window.print())})()`

// Cells wrap between words and break a word only when it cannot fit a line of its own
// (break-words): `overflow-wrap: anywhere` let the table shrink its columns below a word's width,
// so at A4 width a heading printed as «العم/ر».
function LinesTable({ lines }: { lines: readonly AnswerLine[] }) {
	return (
		<DataTable variant="print" tableClassName="text-sm break-words">
			{lines.map((line, index) => (
				<tr key={index}>
					<th scope="row" className={`${headCell} w-2/5 font-normal text-stone-700 print:text-black`}>
						{line.label}
					</th>
					<td className={`${cell} font-semibold break-words whitespace-pre-line`}>
						<bdi>{line.value}</bdi>
					</td>
				</tr>
			))}
		</DataTable>
	)
}

/**
 * A table wider than a phone (the family's members, the aid ledger): on screen it scrolls within its
 * own region, reachable by keyboard, rather than the page sideways; on paper it takes the page's width.
 * Positioned, so that what is read aloud only (sr-only, absolutely placed) scrolls and is clipped with it.
 * Named «جدول …»: its section is a landmark by the table's own name.
 */
function ScrollsOnScreen({ label, children }: { label: string; children: ReactNode }) {
	return (
		<div className="relative overflow-x-auto print:overflow-visible" tabIndex={0} role="region" aria-label={`جدول ${label}`}>
			{children}
		</div>
	)
}

function GroupTable({ item, sectionTitle }: { item: Extract<ReportItem, { kind: 'table' }>; sectionTitle: string }) {
	return (
		<ScrollsOnScreen label={item.label}>
			<DataTable
				variant="print"
				caption={item.label}
				captionVisible={item.label !== sectionTitle}
				headings={['م', ...item.columns]}
				tableClassName="text-sm break-words"
				footer={
					item.totals ? (
						<tr className="font-bold">
							<th scope="row" className={headCell}>
								الإجمالي
							</th>
							{item.totals.map((total, column) => (
								<td key={column} className={cell}>
									<bdi>{total}</bdi>
								</td>
							))}
						</tr>
					) : null
				}
			>
				{item.rows.map((row, index) => (
					<tr key={index}>
						<td className={`${cell} w-8`}>{index + 1}</td>
						{row.map((value, column) => (
							<td key={column} className={`${cell} break-words`}>
								<bdi>{value}</bdi>
							</td>
						))}
					</tr>
				))}
			</DataTable>
		</ScrollsOnScreen>
	)
}

function FilesTable({ reference, files }: { reference: string; files: readonly ReportFile[] }) {
	return (
		<DataTable variant="print" caption="المرفقات" captionVisible headings={['المرفق', 'اسم الملف', 'الحجم', 'تاريخ الرفع']} tableClassName="text-sm [overflow-wrap:anywhere]">
			{files.map((file) => (
				<tr key={file.id}>
					<td className={cell}>{file.slot}</td>
					<td className={`${cell} break-all`}>
						<a href={`/admin/cases/${reference}/files/${file.id}`} className="link print:text-black print:no-underline">
							<bdi>{file.name}</bdi>
						</a>
						{file.pages ? <span className="text-stone-700">{`، ${file.pages}`}</span> : null}
					</td>
					<td className={`${cell} whitespace-nowrap`}>
						<bdi>{file.size}</bdi>
					</td>
					{/* The date in both calendars may take two lines on a phone; each calendar's date never breaks inside (app/text/format.ts). */}
					<td className={cell}>
						<bdi>{file.at}</bdi>
					</td>
				</tr>
			))}
		</DataTable>
	)
}

function AidLedgerTable({ ledger }: { ledger: AidLedgerReport }) {
	return (
		<ScrollsOnScreen label="سجل الدعم المالي">
			<DataTable
				variant="print"
				caption="سجل الدعم المالي"
				headings={['التاريخ', 'البيان', 'المبلغ', 'الصندوق', 'المرجع', 'ملاحظة', 'سجّله']}
				tableClassName="text-sm break-words"
				footer={ledger.totals.map((total) => (
					<tr key={total.label} className="font-bold">
						<th scope="row" colSpan={2} className={headCell}>
							{total.label}
						</th>
						<td colSpan={5} className={cell}>
							<bdi>{total.value}</bdi>
						</td>
					</tr>
				))}
			>
				{ledger.rows.map((row, index) => (
					<tr key={index}>
						<td className={cell}>
							<bdi>{row.day}</bdi>
						</td>
						<td className={cell}>{row.what}</td>
						<td className={`${cell} whitespace-nowrap`}>
							<bdi>{row.amount}</bdi>
						</td>
						<td className={cell}>{row.fund}</td>
						<td className={cell}>
							{/* Each reference on its line; a code may break anywhere, the words of its label do not. */}
							{row.reference.split('، ').map((part, index) => {
								const [label, code] = part.startsWith('مرجع البنك ') ? ['مرجع البنك', part.slice('مرجع البنك '.length)] : ['', part]
								return (
									<span key={part} className="block">
										{/* Read aloud (and copied) as one list, though shown one under the other. */}
										{index > 0 ? <span className="sr-only">، </span> : null}
										{label ? `${label} ` : null}
										<bdi dir="ltr" className="break-all">
											{code}
										</bdi>
									</span>
								)
							})}
						</td>
						<td className={cell}>{row.note}</td>
						<td className={cell}>{row.by}</td>
					</tr>
				))}
			</DataTable>
		</ScrollsOnScreen>
	)
}

/** A box to sign in: who signs, their name when known (else a line to write it on), and lines for the signature and the day. */
function SignatureBox({ role, name }: { role: string; name: string }) {
	const line = 'mt-5 flex items-end gap-2'
	const blank = 'h-px flex-1 border-b border-stone-500 print:border-black'
	return (
		<div className="break-inside-avoid rounded border border-stone-300 p-3 print:border-black">
			<p className="font-bold">{role}</p>
			<p className={line}>
				<span>الاسم:</span> {name ? <span className="font-semibold">{name}</span> : <span className={blank} />}
			</p>
			<p className={line}>
				<span>التوقيع:</span> <span className={blank} />
			</p>
			<p className={line}>
				<span>التاريخ:</span> <span className={blank} />
			</p>
		</div>
	)
}

export default function CasePrint({ loaderData: { foundation, report, printed, aidLedger, signatures } }: Route.ComponentProps) {
	const nonce = useNonce()
	return (
		<div className="min-h-dvh bg-stone-100 py-6 print:min-h-0 print:bg-white print:py-0">
			{/* The applicant's full name alone, as the old reports: it also names the saved PDF. */}
			<title>{report.applicantName}</title>
			<nav aria-label="أدوات التقرير" className="mx-auto mb-4 flex max-w-[210mm] flex-wrap items-center gap-3 px-4 print:hidden">
				<Link to={`/admin/cases/${report.reference}`} className="link">
					العودة إلى الطلب
				</Link>
				<button id="print-report" type="button" hidden className="btn-primary ms-auto">
					طباعة
				</button>
				<script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: printScript }} />
			</nav>

			<main className="mx-auto max-w-[210mm] bg-white p-4 text-stone-900 sm:p-[14mm] shadow-sm print:max-w-none print:p-0 print:text-black print:shadow-none">
				<header className="flex items-center gap-4 border-b-2 border-brand-700 pb-4 print:border-black">
					<LogoMark className="size-16 shrink-0" />
					<div className="min-w-0">
						<p className="text-lg font-bold text-brand-900 print:text-black">{foundation.name}</p>
						<p className="text-xs text-stone-600 print:text-black">{foundation.location}</p>
					</div>
					<h1 className="ms-auto text-2xl font-bold text-brand-900 print:text-black">{report.title}</h1>
				</header>

				<dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr_auto_1fr] print:grid-cols-[auto_1fr_auto_1fr]">
					<dt className="text-stone-700 print:text-black">رقم الطلب</dt>
					<dd className="font-bold">
						<bdi>{report.reference}</bdi>
					</dd>
					<dt className="text-stone-700 print:text-black">الحالة</dt>
					<dd className="font-semibold">
						{report.status}
						{report.deleted ? ' — طلب محذوف' : null}
					</dd>
					<dt className="text-stone-700 print:text-black">اسم المتقدم</dt>
					<dd className="font-semibold">{report.applicantName}</dd>
					<dt className="text-stone-700 print:text-black">تاريخ التقديم</dt>
					<dd className="font-semibold">{report.submitted ?? 'لم يُرسل بعد'}</dd>
					{report.consent ? (
						<>
							<dt className="text-stone-700 print:text-black">{report.consent.title}</dt>
							<dd className="font-semibold sm:col-span-3 print:col-span-3">{report.consent.answer}</dd>
						</>
					) : null}
				</dl>

				{report.sections.map((section) => (
					<section key={section.key} aria-labelledby={`report-${section.key}`} className="mt-6">
						<h2 id={`report-${section.key}`} className="mb-2 border-b border-stone-300 pb-1 text-lg font-bold text-brand-900 print:border-black print:text-black">
							{section.title}
						</h2>
						<div className="space-y-3">
							{section.items.map((item, index) => (item.kind === 'lines' ? <LinesTable key={index} lines={item.lines} /> : <GroupTable key={index} item={item} sectionTitle={section.title} />))}
							{section.files.length ? <FilesTable reference={report.reference} files={section.files} /> : null}
						</div>
					</section>
				))}

				{report.study ? (
					<section aria-labelledby="report-study" className="mt-6">
						<h2 id="report-study" className="mb-2 border-b border-stone-300 pb-1 text-lg font-bold text-brand-900 print:border-black print:text-black">
							{report.studyTitle}
						</h2>
						<LinesTable lines={report.study} />
					</section>
				) : null}

				{report.decisions.length ? (
					<section aria-labelledby="report-decision" className="mt-6">
						<h2 id="report-decision" className="mb-2 border-b border-stone-300 pb-1 text-lg font-bold text-brand-900 print:border-black print:text-black">
							قرار لجنة الصرف
						</h2>
						<LinesTable lines={[...report.decisions, ...report.instalments]} />
					</section>
				) : null}

				{aidLedger ? (
					<section aria-labelledby="report-aid-ledger" className="mt-6">
						<h2 id="report-aid-ledger" className="mb-2 border-b border-stone-300 pb-1 text-lg font-bold text-brand-900 print:border-black print:text-black">
							سجل الدعم المالي
						</h2>
						<AidLedgerTable ledger={aidLedger} />
					</section>
				) : null}

				<section aria-labelledby="report-signatures" className="mt-8 break-inside-avoid">
					<h2 id="report-signatures" className="mb-2 border-b border-stone-300 pb-1 text-lg font-bold text-brand-900 print:border-black print:text-black">
						التوقيعات
					</h2>
					<div className="grid gap-3 text-sm sm:grid-cols-3 print:grid-cols-3">
						<SignatureBox role={roleLabels.case_officer} name={signatures.researcher} />
						<SignatureBox role={roleLabels.approver} name={signatures.committee} />
						<SignatureBox role={roleLabels.approver} name="" />
					</div>
				</section>

				<footer className="mt-8 border-t border-stone-300 pt-3 text-sm text-stone-700 print:border-black print:text-black">
					طُبع بواسطة {printed.by} في {printed.at}
				</footer>
			</main>
		</div>
	)
}

export function ErrorBoundary() {
	const error = useRouteError()
	return (
		<main className="mx-auto max-w-2xl p-8 text-center">
			<ErrorMessage error={error} />
			<Link to="/admin/cases" className="btn-primary mt-6">
				العودة إلى الطلبات
			</Link>
		</main>
	)
}
