import { data, Form, useNavigation } from 'react-router'
import { CONFIRMATION_MAX_BYTES } from '#app/http/body-limits.server.ts'
import type { Route } from './+types/payment-batch'
import { requireRole } from '#app/auth/user-context.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { areaRoles } from '#app/db/roles.ts'
import { tellApplicants } from '#app/casework/tell.server.ts'
import { batchOf, batchTotals, markBatchSent, PaymentFourEyesError, reconcile, recordPayment, reopenPayment, type Reconciled } from '#app/aid/payments.server.ts'
import { keptFiles } from '#app/aid/batch-files.server.ts'
import { bankLayouts } from '#app/aid/bank-layouts/index.ts'
import { batchLineStateLabels } from '#app/aid/describe.ts'
import { aidKindLabel } from '#app/cases/aid.ts'
import { CaseChangeError } from '#app/cases/status-changes.server.ts'
import { flashContext, redirectWithFlash } from '#app/http/flash.server.ts'
import { formatDate, formatDateTime, formatMoney, todayInRiyadh } from '#app/text/format.ts'
import { countOf, vouchers as vouchersNoun } from '#app/text/arabic-count.ts'
import { ErrorList, Field, FlashNotice, PageTitle } from '#app/components/forms.tsx'
import { audited, noteAudit, noteRefusal } from '#app/audit/audit-trail.server.ts'
import type { AdminHandle } from './layout.tsx'

// One payment batch (docs/product.md#payment): its transfers, the bank's file in each layout, then
// «sent», each payment's bank reference and day (typed, or the bank's confirmation file matched on
// reference and amount), and a bounced payment reopened.

export const handle: AdminHandle = {
	breadcrumb: (loaderData) => [{ to: '/admin/payments', label: 'صرف الدعم' }, { label: `دفعة الصرف رقم ${(loaderData as { id: number }).id}` }],
}

// The bank's confirmation file is the one form sent as multipart (its intent is inside the body the audit does not read).
export const middleware = [audited({ read: false, write: { byIntent: { sent: 'payments.sent', record: 'payments.record', reconcile: 'payments.reconcile', reopen: 'payments.reopen' }, otherwise: 'payments.reconcile' } })]

const batchStatus = { open: 'قيد الإعداد: نزّل الملف وأرسله إلى البنك، ثم سجّل إرساله', sent: 'أُرسلت إلى البنك: سجّل مرجع كل تحويل', closed: 'مكتملة' } as const
const transfersNoun = { one: 'تحويل واحد', two: 'تحويلين', few: 'تحويلات', many: 'تحويلاً', other: 'تحويل' }
const linesNoun = { one: 'سطر واحد', two: 'سطران', few: 'أسطر', many: 'سطراً', other: 'سطر', none: 'لا أسطر' }
const transfersCount = { ...transfersNoun, two: 'تحويلان', none: 'لا تحويلات' }

async function openBatch(id: string | undefined) {
	const batchId = Number(id)
	const db = await getDb()
	const found = Number.isInteger(batchId) && batchId > 0 ? await batchOf(db, batchId) : undefined
	if (!found) throw data('دفعة الصرف غير موجودة', { status: 404 })
	return { db, batchId, ...found }
}

export async function loader({ params, context }: Route.LoaderArgs) {
	const user = requireRole(context, areaRoles.payments)
	const { db, batch, lines } = await openBatch(params.batch)
	const totals = batchTotals(lines)
	const figure = (part: { count: number; amount: number }) => `${countOf(part.count, transfersCount)} (${formatMoney(part.amount)})`
	const layoutLabel = (key: string) => bankLayouts.find((layout) => layout.key === key)?.label ?? key
	return {
		id: batch.id,
		notice: context.get(flashContext),
		status: batch.status,
		statusLabel: batchStatus[batch.status],
		made: `${formatDate(batch.createdAt)}${batch.createdByName ? ` — ${batch.createdByName}` : ''}`,
		sentOn: batch.sentOn ? formatDate(batch.sentOn) : null,
		note: batch.note,
		count: countOf(totals.sent.count, linesNoun),
		total: formatMoney(totals.sent.amount),
		// As a bank statement shows it: what went, what was paid, what came back, and what left for good.
		statement: batch.status === 'open' ? null : { sent: figure(totals.sent), paid: figure(totals.paid), bounced: figure(totals.bounced), waiting: totals.waiting.count ? figure(totals.waiting) : null, net: formatMoney(totals.net) },
		debitAccount: batch.debitAccount ?? '',
		zakat: batch.zakat,
		kept: (await keptFiles(db, batch.id)).map((file) => ({ label: `${layoutLabel(file.layout)} — ${file.format.toUpperCase()}`, sha256: file.sha256, at: formatDateTime(file.keptAt) })),
		today: todayInRiyadh(),
		// The disbursement vouchers of the paid lines, one PDF (app/routes/admin/payment-vouchers.ts).
		vouchers: totals.paid.count ? { href: `/admin/payments/${batch.id}/vouchers`, count: countOf(totals.paid.count, vouchersNoun) } : null,
		downloads: bankLayouts.flatMap((layout) => (['csv', 'xlsx'] as const).map((format) => ({ href: `/admin/payments/${batch.id}/file/${layout.key}/${format}`, label: `${layout.label} — ${format.toUpperCase()}` }))),
		lines: lines.map((line) => ({
			id: line.id,
			reference: line.reference,
			caseReference: line.caseReference,
			name: line.name,
			iban: line.iban,
			amount: formatMoney(line.amount),
			kind: aidKindLabel(line.aidKind),
			status: line.status,
			statusLabel: batchLineStateLabels[line.status],
			stateNote: line.stateNote ?? '',
			bankReference: line.bankReference ?? '',
			paidOn: line.paidOn ? formatDate(line.paidOn) : '',
			mine: line.deciderId === user.id,
		})),
	}
}

export async function action({ params, request, context }: Route.ActionArgs) {
	const user = requireRole(context, areaRoles.payments)
	const { db, batchId } = await openBatch(params.batch)
	const back = `/admin/payments/${batchId}`
	if (Number(request.headers.get('Content-Length') ?? 0) > CONFIRMATION_MAX_BYTES + 10_000) return data({ form: 'reconcile', errors: ['ملف البنك أكبر من 1 ميجابايت'], typed: {} as Record<string, string>, reconciled: null }, { status: 413 })
	const form = await request.formData()
	const intent = String(form.get('intent') ?? '')
	const typed = Object.fromEntries([...form.entries()].filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
	const which = intent === 'record' || intent === 'reopen' ? `${intent}-${String(form.get('instalment'))}` : intent
	try {
		switch (intent) {
			case 'sent':
				await markBatchSent(db, batchId, String(form.get('sentOn') ?? ''), user)
				return redirectWithFlash(back, { tone: 'success', message: 'سُجّل إرسال دفعة الصرف إلى البنك' })
			case 'record': {
				const instalmentId = Number(form.get('instalment'))
				const paid = await recordPayment(db, batchId, { instalmentId, bankReference: String(form.get('bankReference') ?? ''), paidOn: String(form.get('paidOn') ?? '') }, user)
				await tellApplicants(db, [paid], user)
				noteAudit(context, { data: { instalment: instalmentId } })
				return redirectWithFlash(`${back}#line-${instalmentId}`, { tone: 'success', message: 'سُجّل صرف التحويل' })
			}
			case 'reconcile': {
				const file = form.get('file')
				if (!(file instanceof File) || file.size === 0) return data({ form: which, errors: ['الرجاء اختيار ملف البنك (CSV)'], typed, reconciled: null }, { status: 400 })
				if (file.size > CONFIRMATION_MAX_BYTES) return data({ form: which, errors: ['ملف البنك أكبر من 1 ميجابايت'], typed, reconciled: null }, { status: 413 })
				const { notices, ...reconciled }: Reconciled = await reconcile(db, batchId, await file.text(), user)
				await tellApplicants(db, notices, user)
				// Each payment the file recorded, by its reference, and each line it could not.
				noteAudit(context, { data: { batch: batchId, recorded: reconciled.recorded.length, references: reconciled.recorded, unmatched: reconciled.unmatched.length } })
				return { form: which, errors: [] as string[], typed, reconciled }
			}
			case 'reopen': {
				const instalmentId = Number(form.get('instalment'))
				const told = await reopenPayment(db, batchId, instalmentId, String(form.get('reason') ?? ''), user)
				await tellApplicants(db, told, user)
				noteAudit(context, { data: { instalment: instalmentId } })
				return redirectWithFlash(back, { tone: 'success', message: 'أُعيد التحويل إلى «بانتظار الصرف» ليُصرف في دفعة صرف أخرى' })
			}
		}
		return data({ form: which, errors: ['الطلب غير صالح'], typed, reconciled: null }, { status: 400 })
	} catch (error) {
		if (!(error instanceof CaseChangeError)) throw error
		noteRefusal(context, error)
		if (error instanceof PaymentFourEyesError) {
			noteAudit(context, { data: { refused: 'four-eyes' } })
			return data({ form: which, errors: [error.message], typed, reconciled: null }, { status: 403 })
		}
		// Refused money actions are audited too, with why.
		noteAudit(context, { refusal: true, data: { batch: batchId, reason: error.message } })
		return data({ form: which, errors: [error.message], typed, reconciled: null }, { status: 409 })
	}
}

export default function PaymentBatch({ loaderData: b, actionData }: Route.ComponentProps) {
	const busy = useNavigation().state !== 'idle'
	const errorsFor = (form: string) => (actionData?.form === form ? actionData.errors : undefined)
	const typed = (form: string, name: string) => (actionData?.form === form ? actionData.typed[name] : undefined)
	const reconciled = actionData?.reconciled
	return (
		<>
			<PageTitle title={`دفعة الصرف رقم ${b.id}`} error={Boolean(actionData?.errors.length)} />
			<h1 className="text-2xl font-bold text-brand-900">دفعة الصرف رقم {b.id}</h1>
			<p className="mt-1 text-stone-700">
				{b.count}، المجموع {b.total}، وأُنشئت {b.made}.{b.sentOn ? ` أُرسلت إلى البنك ${b.sentOn}.` : ''}
			</p>
			<p className="mt-1 text-sm">
				{b.zakat ? 'أموال زكاة' : 'أموال غير الزكاة'} — حساب الخصم:{' '}
				{b.debitAccount ? (
					<bdi dir="ltr">{b.debitAccount}</bdi>
				) : (
					<span className="text-red-800">لم يُحدَّد لصندوقها حساب خصم (يُحدَّد في «الصناديق والميزانيات»)</span>
				)}
			</p>
			<p className="mt-1 font-semibold">{b.statusLabel}</p>
			{b.note ? <p className="mt-1 text-sm">ملاحظة: {b.note}</p> : null}
			{b.statement ? (
				<dl aria-label="كشف دفعة الصرف" className="mt-4 grid gap-x-6 gap-y-1 rounded-xl border border-stone-200 bg-white p-4 text-sm sm:grid-cols-[auto_1fr]">
					<dt className="font-semibold">أُرسل إلى البنك</dt>
					<dd>{b.statement.sent}</dd>
					<dt className="font-semibold">صُرف</dt>
					<dd>{b.statement.paid}</dd>
					<dt className="font-semibold">أعاده البنك</dt>
					<dd>{b.statement.bounced}</dd>
					{b.statement.waiting ? (
						<>
							<dt className="font-semibold">بانتظار تأكيد البنك</dt>
							<dd>{b.statement.waiting}</dd>
						</>
					) : null}
					<dt className="font-semibold">الصافي (المُرسل ناقص ما أعاده البنك)</dt>
					<dd>{b.statement.net}</dd>
				</dl>
			) : null}
			<FlashNotice notice={b.notice} live className="mt-4" />

			<section aria-labelledby="files" className="mt-6 rounded-xl border border-stone-200 bg-white p-4">
				<h2 id="files" className="text-lg font-bold text-brand-900">
					ملف التحويل للبنك
				</h2>
				<ul className="mt-2 flex flex-wrap gap-3">
					{b.downloads.map((download) => (
						<li key={download.href}>
							<a href={download.href} className="link inline-flex min-h-11 items-center" download>
								{download.label}
							</a>
						</li>
					))}
				</ul>
				{b.kept.length ? (
					<div className="mt-3 text-sm">
						<p>الملفات كما أُرسلت إلى البنك (لا تتغير بعد الإرسال)، وبصمة كل منها:</p>
						<ul className="mt-1 space-y-1">
							{b.kept.map((file) => (
								<li key={file.label}>
									{file.label} — {file.at} — <bdi dir="ltr" className="break-all font-mono text-xs">SHA-256 {file.sha256}</bdi>
								</li>
							))}
						</ul>
					</div>
				) : null}
				{b.status === 'open' ? (
					<Form method="post" className="mt-3 flex flex-wrap items-end gap-3">
						<input type="hidden" name="intent" value="sent" />
						<ErrorList errors={errorsFor('sent')} />
						<Field label="تاريخ إرسال الملف إلى البنك" inputProps={{ id: 'sent-on', name: 'sentOn', type: 'date', required: true, max: b.today, dir: 'ltr', defaultValue: typed('sent', 'sentOn') ?? b.today }} />
						<button type="submit" disabled={busy} className="btn-primary">
							تسجيل الإرسال إلى البنك
						</button>
					</Form>
				) : null}
			</section>

			{/* The file's outcome shows even when its last line closed the batch. */}
			{b.status === 'sent' || reconciled ? (
				<section aria-labelledby="confirmation" className="mt-6 rounded-xl border border-stone-200 bg-white p-4">
					<h2 id="confirmation" className="text-lg font-bold text-brand-900">
						ملف تأكيد البنك
					</h2>
					<p className="mt-1 text-sm text-stone-700">
						ملف CSV بأعمدة <bdi dir="ltr">payment_reference, amount, bank_reference, paid_on</bdi> (أو: مرجع التحويل، المبلغ، مرجع البنك، تاريخ الصرف). يُسجَّل كل سطر يطابق تحويلاً في دفعة الصرف هذه بمرجعه ومبلغه، ويُقرأ التاريخ كما تكتبه البنوك وExcel (مثل 29/11/2026 أو 2026-11-29)، وتُعرض الأسطر التي لا تطابق دون تخمين.
					</p>
					{b.status === 'sent' ? (
						<Form method="post" encType="multipart/form-data" className="mt-3 flex flex-wrap items-end gap-3">
							<input type="hidden" name="intent" value="reconcile" />
							<ErrorList errors={errorsFor('reconcile')} />
							<Field label="ملف البنك" inputProps={{ id: 'confirmation-file', name: 'file', type: 'file', required: true, accept: '.csv,text/csv' }} />
							<button type="submit" disabled={busy} className="btn-secondary">
								مطابقة الملف
							</button>
						</Form>
					) : null}
					{reconciled ? (
						<div role="status" className="mt-3 space-y-1 text-sm">
							<p className="font-semibold">{reconciled.recorded.length ? `سُجّل صرف ${countOf(reconciled.recorded.length, transfersNoun)}.` : 'لم يُسجَّل صرف أي تحويل.'}</p>
							{reconciled.unmatched.length ? (
								<>
									<p className="font-semibold text-red-800">أسطر لم تُطابق:</p>
									<ul className="list-disc ps-6">
										{reconciled.unmatched.map((line) => (
											<li key={line.line}>
												السطر {line.line} (<bdi dir="ltr">{line.reference || '—'}</bdi>): {line.reason}
											</li>
										))}
									</ul>
								</>
							) : null}
						</div>
					) : null}
				</section>
			) : null}

			{b.vouchers ? (
				<section aria-labelledby="vouchers" className="mt-6 rounded-xl border border-stone-200 bg-white p-4">
					<h2 id="vouchers" className="text-lg font-bold text-brand-900">
						سندات الصرف
					</h2>
					<p className="mt-1 text-sm">لكل تحويل صُرف سند صرف مرقّم للتوقيع والحفظ، وفي الملف سندات التحويلات التي صُرفت كلها، سند في كل صفحة.</p>
					<a href={b.vouchers.href} className="link mt-2 inline-flex min-h-11 items-center" download>
						سندات الصرف ({b.vouchers.count}) — PDF
					</a>
				</section>
			) : null}

			<section aria-labelledby="lines" className="mt-6">
				<h2 id="lines" className="text-lg font-bold text-brand-900">
					التحويلات
				</h2>
				<ul className="mt-3 space-y-3">
					{b.lines.map((line) => (
						<li key={line.id} id={`line-${line.id}`} className="rounded-xl border border-stone-200 bg-white p-4 text-sm">
							<p className="font-bold">
								{line.name} — {line.amount} — {line.statusLabel}
							</p>
							<p>
								<bdi dir="ltr">{line.reference}</bdi> — {line.kind} — الطلب <bdi dir="ltr">{line.caseReference}</bdi>
							</p>
							<p dir="ltr" className="text-start text-stone-700">
								{line.iban}
							</p>
							{line.stateNote ? <p>السبب: {line.stateNote}</p> : null}
							{line.bankReference ? (
								<p>
									مرجع البنك <bdi dir="ltr">{line.bankReference}</bdi> — {line.paidOn}
								</p>
							) : null}
							{line.status === 'paid' ? (
								<a href={`/admin/payments/${b.id}/vouchers/${line.id}`} className="link inline-flex min-h-11 items-center" download>
									سند الصرف (PDF)<span className="sr-only"> لـ{line.name}</span>
								</a>
							) : null}
							<ErrorList errors={errorsFor(`record-${line.id}`) ?? errorsFor(`reopen-${line.id}`)} />
							{b.status === 'sent' && line.status === 'in_batch' && !line.mine ? (
								<Form method="post" className="mt-3 grid gap-3 sm:grid-cols-3">
									<input type="hidden" name="intent" value="record" />
									<input type="hidden" name="instalment" value={line.id} />
									<Field label={<>مرجع البنك<span className="sr-only"> لـ{line.name}</span></>} inputProps={{ id: `bank-reference-${line.id}`, name: 'bankReference', required: true, maxLength: 40, dir: 'ltr', defaultValue: typed(`record-${line.id}`, 'bankReference') }} />
									<Field label={<>تاريخ الصرف<span className="sr-only"> لـ{line.name}</span></>} inputProps={{ id: `paid-on-${line.id}`, name: 'paidOn', type: 'date', required: true, max: b.today, dir: 'ltr', defaultValue: typed(`record-${line.id}`, 'paidOn') ?? b.today }} />
									<div className="flex items-end">
										<button type="submit" disabled={busy} className="btn-secondary">
											تسجيل الصرف<span className="sr-only"> لـ{line.name}</span>
										</button>
									</div>
								</Form>
							) : null}
							{line.mine && line.status === 'in_batch' ? <p className="mt-2 text-gold-700">اعتُمد هذا الدعم بقرارك، فيسجّل صرفه مسؤول مالي آخر.</p> : null}
							{line.status === 'in_batch' || line.status === 'paid' ? (
								<details className="mt-3 rounded-lg border border-stone-200" open={actionData?.form === `reopen-${line.id}`}>
									<summary className="flex min-h-11 cursor-pointer items-center px-3 font-semibold">أعاده البنك (إعادة التحويل)</summary>
									<Form method="post" className="space-y-3 p-3">
										<input type="hidden" name="intent" value="reopen" />
										<input type="hidden" name="instalment" value={line.id} />
										<Field label={<>سبب الإعادة<span className="sr-only"> لـ{line.name}</span></>} inputProps={{ id: `reopen-reason-${line.id}`, name: 'reason', required: true, maxLength: 500, defaultValue: typed(`reopen-${line.id}`, 'reason') }} />
										<button type="submit" disabled={busy} className="btn-secondary">
											إعادة التحويل إلى «بانتظار الصرف»
										</button>
									</Form>
								</details>
							) : null}
						</li>
					))}
				</ul>
			</section>
		</>
	)
}
