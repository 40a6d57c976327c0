import { data, Form, Link, useNavigation } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/fund-receipts'
import { requireRole } from '#app/auth/user-context.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { areaRoles } from '#app/db/roles.ts'
import { listFunds } from '#app/aid/funds.server.ts'
import { fundLabel } from '#app/aid/aid-text.ts'
import { cancelReceipt, confirmReceipt, importStatement, listReceipts, receiptById, ReceiptFourEyesError, recordFundTransfer, recordReceipt, type StatementImport } from '#app/aid/receipts.server.ts'
import { receiptSources, receiptStateLabel, sourceLabel } from '#app/aid/receipts.ts'
import { riyals } from '#app/cases/aid.ts'
import { CaseChangeError } from '#app/cases/status-changes.server.ts'
import { applicationDefinitions, findDefinition } from '#app/forms/registry.ts'
import { CONFIRMATION_MAX_BYTES } from '#app/http/body-limits.server.ts'
import { flashContext, redirectWithFlash } from '#app/http/flash.server.ts'
import { formatDate, formatMoney, todayInRiyadh, toWesternDigits } from '#app/text/format.ts'
import { countOf, type CountedNoun } from '#app/text/arabic-count.ts'
import { ErrorList, Field, FlashNotice, PageTitle, SelectField, TextareaField } from '#app/components/forms.tsx'
import { audited, noteAudit, noteRefusal } from '#app/audit/audit-trail.server.ts'
import type { AdminHandle } from './layout.tsx'

// Money in (docs/product.md#money-in): finance records what each fund receives (a receipt, «سند
// قبض») and money moved between funds («مناقلة»), another finance user confirms each before it
// counts in the fund's balance, and a wrong one is cancelled with a reason; the bank statement's
// credits come in as receipts in one go, each matched to the fund whose account it came into.

export const handle: AdminHandle = { breadcrumb: 'المقبوضات' }

// The statement is the one form sent as multipart (its intent is inside the body the audit does not read).
export const middleware = [audited({ read: false, write: { byIntent: { receipt: 'receipts.record', transfer: 'receipts.transfer', confirm: 'receipts.confirm', cancel: 'receipts.cancel' }, otherwise: 'receipts.import' } })]

const receiptsNoun: CountedNoun = { one: 'سند قبض واحد', two: 'سندا قبض', few: 'سندات قبض', many: 'سند قبض', other: 'سند قبض' }

const day = z.preprocess((value) => (typeof value === 'string' ? toWesternDigits(value).trim() : value), z.string({ error: 'الرجاء كتابة التاريخ' }).regex(/^\d{4}-\d{2}-\d{2}$/, 'الرجاء كتابة التاريخ'))
const fund = (message: string) => z.coerce.number({ error: message }).int(message).positive(message)
const schema = z.discriminatedUnion('intent', [
	z.object({
		intent: z.literal('receipt'),
		fund: fund('الرجاء اختيار الصندوق'),
		amount: riyals('الرجاء كتابة المبلغ'),
		receivedOn: day,
		source: z.enum(receiptSources.map((source) => source.value) as [string, ...string[]], { error: 'الرجاء اختيار مصدر المبلغ' }),
		donor: z.string().trim().max(200, 'اسم المتبرع أطول من 200 حرف').default(''),
		programme: z.string().default(''),
		condition: z.string().trim().max(500, 'الشرط أطول من 500 حرف').default(''),
		bankReference: z.string().trim().max(60, 'مرجع البنك أطول من 60 حرفاً').default(''),
		note: z.string().trim().max(1000, 'الملاحظة أطول من 1000 حرف').default(''),
	}),
	z.object({
		intent: z.literal('transfer'),
		from: fund('الرجاء اختيار الصندوق المنقول منه'),
		to: fund('الرجاء اختيار الصندوق المنقول إليه'),
		amount: riyals('الرجاء كتابة المبلغ'),
		movedOn: day,
		note: z.string({ error: 'الرجاء كتابة سبب المناقلة' }).trim().min(1, 'الرجاء كتابة سبب المناقلة').max(1000, 'السبب أطول من 1000 حرف'),
	}),
	z.object({ intent: z.literal('confirm'), id: z.coerce.number().int() }),
	z.object({ intent: z.literal('cancel'), id: z.coerce.number().int(), reason: z.string().default('') }),
])

export async function loader({ context }: Route.LoaderArgs) {
	const user = requireRole(context, areaRoles.payments)
	const db = await getDb()
	const [funds, receipts] = await Promise.all([listFunds(db), listReceipts(db, { limit: 200 })])
	return {
		notice: context.get(flashContext),
		today: todayInRiyadh(),
		funds: funds.map((item) => ({ value: String(item.id), label: fundLabel(item), zakat: item.zakat })),
		sources: receiptSources.map(({ value, label }) => ({ value, label })),
		programmes: applicationDefinitions.filter((definition) => !definition.createsAccount).map((definition) => ({ value: definition.type, label: definition.title })),
		receipts: receipts.map((receipt) => ({
			id: receipt.id,
			number: receipt.number,
			date: formatDate(receipt.receivedOn),
			amount: formatMoney(receipt.amount),
			fund: receipt.fundName,
			source: receipt.fromFundName ? `${sourceLabel(receipt.source)}: ${receipt.fromFundName}` : sourceLabel(receipt.source),
			donor: receipt.donor,
			condition: [receipt.programme ? `مقيّد ببرنامج «${findDefinition(receipt.programme)?.title ?? receipt.programme}»` : '', receipt.condition].filter(Boolean).join(': '),
			bankReference: receipt.bankReference,
			note: receipt.note,
			state: receipt.state,
			stateLabel: receiptStateLabel[receipt.state],
			recordedBy: receipt.recordedByName ?? '',
			confirmedBy: receipt.confirmedByName ?? '',
			cancelledBy: receipt.cancelledByName ?? '',
			cancelReason: receipt.cancelReason,
			mine: receipt.recordedBy === user.id,
		})),
	}
}

type Outcome = { form: string; errors: string[]; typed: Record<string, string>; imported: StatementImport | null }

export async function action({ request, context }: Route.ActionArgs) {
	const user = requireRole(context, areaRoles.payments)
	const back = '/admin/funds/receipts'
	if (Number(request.headers.get('Content-Length') ?? 0) > CONFIRMATION_MAX_BYTES + 10_000) return data<Outcome>({ form: 'import', errors: ['كشف الحساب أكبر من 1 ميجابايت'], typed: {}, imported: null }, { status: 413 })
	const formData = await request.formData()
	const typed = Object.fromEntries([...formData.entries()].filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
	const db = await getDb()
	const form = typed.intent === 'confirm' || typed.intent === 'cancel' ? `${typed.intent}-${typed.id ?? ''}` : (typed.intent ?? '')
	try {
		if (typed.intent === 'import') {
			const file = formData.get('file')
			if (!(file instanceof File) || file.size === 0) return data<Outcome>({ form, errors: ['الرجاء اختيار ملف كشف الحساب (CSV)'], typed, imported: null }, { status: 400 })
			if (file.size > CONFIRMATION_MAX_BYTES) return data<Outcome>({ form, errors: ['كشف الحساب أكبر من 1 ميجابايت'], typed, imported: null }, { status: 413 })
			const imported = await importStatement(db, await file.text(), user)
			noteAudit(context, { data: { recorded: imported.recorded.length, receipts: imported.recorded, unmatched: imported.unmatched.length } })
			return { form, errors: [], typed, imported } satisfies Outcome
		}
		const parsed = schema.safeParse(typed)
		if (!parsed.success) return data<Outcome>({ form, errors: [...new Set(parsed.error.issues.map((issue) => issue.message))], typed, imported: null }, { status: 400 })
		const value = parsed.data
		if ((value.intent === 'confirm' || value.intent === 'cancel') && !(await receiptById(db, value.id))) throw data('السند غير موجود', { status: 404 })
		switch (value.intent) {
			case 'receipt': {
				const receipt = await recordReceipt(db, { fundId: value.fund, amount: value.amount, receivedOn: value.receivedOn, source: value.source, donor: value.donor, programme: value.programme || null, condition: value.condition, bankReference: value.bankReference, note: value.note }, user)
				noteAudit(context, { data: { receipt: receipt.id, fund: value.fund, amount: value.amount, receivedOn: value.receivedOn } })
				return redirectWithFlash(back, { tone: 'success', message: `سُجّل سند القبض بمبلغ ${formatMoney(value.amount)}، وينتظر تأكيد مسؤول مالي آخر` })
			}
			case 'transfer': {
				const receipt = await recordFundTransfer(db, { fromFundId: value.from, toFundId: value.to, amount: value.amount, movedOn: value.movedOn, note: value.note }, user)
				noteAudit(context, { data: { receipt: receipt.id, from: value.from, fund: value.to, amount: value.amount, receivedOn: value.movedOn } })
				return redirectWithFlash(back, { tone: 'success', message: `سُجّلت المناقلة بمبلغ ${formatMoney(value.amount)}، وتنتظر تأكيد مسؤول مالي آخر` })
			}
			case 'confirm': {
				await confirmReceipt(db, value.id, user)
				noteAudit(context, { data: { receipt: value.id } })
				return redirectWithFlash(`${back}#receipt-${value.id}`, { tone: 'success', message: 'أُكِّد السند، ودخل مبلغه في رصيد الصندوق' })
			}
			case 'cancel': {
				const { was } = await cancelReceipt(db, value.id, value.reason, user)
				noteAudit(context, { data: { receipt: value.id, reason: value.reason.trim() } })
				return redirectWithFlash(`${back}#receipt-${value.id}`, { tone: 'success', message: was === 'confirmed' ? 'أُلغي السند بقيد عكسي يسميه، وخرج مبلغه من رصيد الصندوق' : 'أُلغي السند قبل تأكيده' })
			}
		}
	} catch (error) {
		if (!(error instanceof CaseChangeError)) throw error
		noteRefusal(context, error)
		if (error instanceof ReceiptFourEyesError) {
			noteAudit(context, { data: { refused: 'receipt-four-eyes' } })
			return data<Outcome>({ form, errors: [error.message], typed, imported: null }, { status: 403 })
		}
		noteAudit(context, { refusal: true, data: { reason: error.message } })
		return data<Outcome>({ form, errors: [error.message], typed, imported: null }, { status: 409 })
	}
}

export default function FundReceipts({ loaderData: r, actionData }: Route.ComponentProps) {
	const busy = useNavigation().state !== 'idle'
	const errorsFor = (form: string) => (actionData?.form === form ? actionData.errors : undefined)
	const typedIn = (form: string, name: string) => (actionData?.form === form ? actionData.typed[name] : undefined)
	const imported = actionData?.imported
	const fundOptions = [{ value: '', label: 'اختر' }, ...r.funds]
	return (
		<>
			<PageTitle title="المقبوضات" error={Boolean(actionData?.errors.length)} />
			<h1 className="text-2xl font-bold text-brand-900">المقبوضات</h1>
			<p className="mt-1 text-stone-700">
				ما يقبضه كل صندوق: سند قبض لكل مبلغ يصل، ومناقلة لما يُنقل بين صندوقين. لا يدخل السند في رصيد الصندوق حتى يؤكده مسؤول مالي غير الذي سجّله، ولا يُعدَّل ولا يُحذف: يُلغى بسبب، بقيد يسميه. أموال الزكاة لا تُنقل إلى صندوق آخر.
			</p>
			<p className="mt-1">
				<Link to="/admin/funds" className="link inline-flex min-h-11 items-center">
					أرصدة الصناديق والميزانيات
				</Link>
			</p>
			<FlashNotice notice={r.notice} live className="mt-4" />

			<section aria-labelledby="new-receipt" className="mt-6 rounded-xl border border-brand-200 bg-brand-50 p-4">
				<h2 id="new-receipt" className="text-lg font-bold text-brand-900">
					سند قبض جديد
				</h2>
				<Form method="post" className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
					<input type="hidden" name="intent" value="receipt" />
					<div className="sm:col-span-2 lg:col-span-3">
						<ErrorList errors={errorsFor('receipt')} />
					</div>
					<SelectField label="الصندوق" options={fundOptions} selectProps={{ id: 'receipt-fund', name: 'fund', required: true, defaultValue: typedIn('receipt', 'fund') ?? '' }} />
					<Field label="المبلغ بالريال" inputProps={{ id: 'receipt-amount', name: 'amount', inputMode: 'decimal', required: true, dir: 'ltr', defaultValue: typedIn('receipt', 'amount') }} />
					<Field label="تاريخ القبض" inputProps={{ id: 'receipt-on', name: 'receivedOn', type: 'date', required: true, max: r.today, defaultValue: typedIn('receipt', 'receivedOn') ?? r.today }} />
					<SelectField label="مصدر المبلغ" options={[{ value: '', label: 'اختر' }, ...r.sources]} selectProps={{ id: 'receipt-source', name: 'source', required: true, defaultValue: typedIn('receipt', 'source') ?? '' }} />
					<Field label="اسم المتبرع (إن ذُكر)" inputProps={{ id: 'receipt-donor', name: 'donor', maxLength: 200, defaultValue: typedIn('receipt', 'donor') }} />
					<Field label="مرجع البنك (إن وُجد)" inputProps={{ id: 'receipt-reference', name: 'bankReference', maxLength: 60, dir: 'ltr', defaultValue: typedIn('receipt', 'bankReference') }} />
					<SelectField
						label="شرط المتبرع: مقيّد ببرنامج"
						options={[{ value: '', label: 'بلا شرط' }, ...r.programmes]}
						selectProps={{ id: 'receipt-programme', name: 'programme', defaultValue: typedIn('receipt', 'programme') ?? '' }}
					/>
					<Field label="نص الشرط (إن وُجد)" inputProps={{ id: 'receipt-condition', name: 'condition', maxLength: 500, defaultValue: typedIn('receipt', 'condition') }} />
					<Field label="ملاحظة" inputProps={{ id: 'receipt-note', name: 'note', maxLength: 1000, defaultValue: typedIn('receipt', 'note') }} />
					<div>
						<button type="submit" disabled={busy} className="btn-primary">
							تسجيل سند القبض
						</button>
					</div>
				</Form>
			</section>

			<section aria-labelledby="statement" className="mt-6 rounded-xl border border-stone-200 bg-white p-4">
				<h2 id="statement" className="text-lg font-bold text-brand-900">
					استيراد كشف الحساب البنكي
				</h2>
				<p className="mt-1 text-sm text-stone-700">
					ملف CSV بأعمدة <bdi dir="ltr">value_date, credit, account, reference</bdi> وعمودين اختياريين <bdi dir="ltr">depositor, description</bdi> (أو: تاريخ القيد، دائن، الحساب، المرجع، المودع، البيان). يصير كل قيد دائن سند قبض
					بانتظار التأكيد في الصندوق الذي حساب خصمه هو الحساب الذي دخل إليه المبلغ، ولا يُخمَّن صندوق: تُعرض القيود التي لا تطابق مع السبب، ولا يُسجّل مرجع بنك مرتين.
				</p>
				<Form method="post" encType="multipart/form-data" className="mt-3 flex flex-wrap items-end gap-3">
					<input type="hidden" name="intent" value="import" />
					<ErrorList errors={errorsFor('import')} />
					<Field label="كشف الحساب" inputProps={{ id: 'statement-file', name: 'file', type: 'file', required: true, accept: '.csv,text/csv' }} />
					<button type="submit" disabled={busy} className="btn-secondary">
						استيراد القيود الدائنة
					</button>
				</Form>
				{imported ? (
					<div role="status" className="mt-3 space-y-1 text-sm">
						<p className="font-semibold">{imported.recorded.length ? `سُجّل ${countOf(imported.recorded.length, receiptsNoun)} بانتظار التأكيد: ${imported.recorded.join('، ')}.` : 'لم يُسجَّل أي سند قبض.'}</p>
						{imported.unmatched.length ? (
							<>
								<p className="font-semibold text-red-800">قيود لم تُسجّل:</p>
								<ul className="list-disc ps-6">
									{imported.unmatched.map((line) => (
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

			<section aria-labelledby="new-transfer" className="mt-6 rounded-xl border border-stone-200 bg-white p-4">
				<h2 id="new-transfer" className="text-lg font-bold text-brand-900">
					مناقلة بين صندوقين
				</h2>
				<p className="mt-1 text-sm text-stone-700">مثل نقل عائد وقف إلى صندوق الصدقات العامة. لا تُنقل أموال الزكاة، ولا أكثر من رصيد الصندوق المنقول منه.</p>
				<Form method="post" className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
					<input type="hidden" name="intent" value="transfer" />
					<div className="sm:col-span-2 lg:col-span-3">
						<ErrorList errors={errorsFor('transfer')} />
					</div>
					<SelectField label="من صندوق" options={[{ value: '', label: 'اختر' }, ...r.funds.filter((item) => !item.zakat)]} selectProps={{ id: 'transfer-from', name: 'from', required: true, defaultValue: typedIn('transfer', 'from') ?? '' }} />
					<SelectField label="إلى صندوق" options={fundOptions} selectProps={{ id: 'transfer-to', name: 'to', required: true, defaultValue: typedIn('transfer', 'to') ?? '' }} />
					<Field label="مبلغ المناقلة بالريال" inputProps={{ id: 'transfer-amount', name: 'amount', inputMode: 'decimal', required: true, dir: 'ltr', defaultValue: typedIn('transfer', 'amount') }} />
					<Field label="تاريخ المناقلة" inputProps={{ id: 'transfer-on', name: 'movedOn', type: 'date', required: true, max: r.today, defaultValue: typedIn('transfer', 'movedOn') ?? r.today }} />
					<Field label="سبب المناقلة" inputProps={{ id: 'transfer-note', name: 'note', required: true, maxLength: 1000, defaultValue: typedIn('transfer', 'note') }} />
					<div className="flex items-end">
						<button type="submit" disabled={busy} className="btn-secondary">
							تسجيل المناقلة
						</button>
					</div>
				</Form>
			</section>

			<section aria-labelledby="receipts" className="mt-8">
				<h2 id="receipts" className="text-xl font-bold text-brand-900">
					السندات
				</h2>
				{r.receipts.length === 0 ? <p className="mt-3 rounded-xl border border-stone-200 bg-white p-4">لم يُسجَّل سند قبض بعد.</p> : null}
				<ul className="mt-3 space-y-3">
					{r.receipts.map((receipt) => (
						<li key={receipt.id} id={`receipt-${receipt.id}`} aria-labelledby={`receipt-title-${receipt.id}`} className="rounded-xl border border-stone-200 bg-white p-4 text-sm">
							<p id={`receipt-title-${receipt.id}`} className="font-bold">
								<bdi>{receipt.number}</bdi> — {receipt.amount} — {receipt.fund} — <span className={receipt.state === 'cancelled' ? 'text-red-800' : receipt.state === 'awaiting' ? 'text-amber-800' : 'text-brand-800'}>{receipt.stateLabel}</span>
							</p>
							<dl className="mt-1 grid gap-x-4 sm:grid-cols-[auto_1fr]">
								<dt className="font-semibold">التاريخ</dt>
								<dd>{receipt.date}</dd>
								<dt className="font-semibold">المصدر</dt>
								<dd>{receipt.source}</dd>
								{receipt.donor ? (
									<>
										<dt className="font-semibold">المتبرع</dt>
										<dd>{receipt.donor}</dd>
									</>
								) : null}
								{receipt.condition ? (
									<>
										<dt className="font-semibold">الشرط</dt>
										<dd>{receipt.condition}</dd>
									</>
								) : null}
								{receipt.bankReference ? (
									<>
										<dt className="font-semibold">مرجع البنك</dt>
										<dd>
											<bdi dir="ltr">{receipt.bankReference}</bdi>
										</dd>
									</>
								) : null}
								{receipt.note ? (
									<>
										<dt className="font-semibold">ملاحظة</dt>
										<dd>{receipt.note}</dd>
									</>
								) : null}
								<dt className="font-semibold">سجّله</dt>
								<dd>{receipt.recordedBy}</dd>
								{receipt.confirmedBy ? (
									<>
										<dt className="font-semibold">أكّده</dt>
										<dd>{receipt.confirmedBy}</dd>
									</>
								) : null}
								{receipt.state === 'cancelled' ? (
									<>
										<dt className="font-semibold">ألغاه</dt>
										<dd>
											{receipt.cancelledBy}: {receipt.cancelReason}
										</dd>
									</>
								) : null}
							</dl>
							<ErrorList errors={errorsFor(`confirm-${receipt.id}`) ?? errorsFor(`cancel-${receipt.id}`)} />
							{receipt.state === 'awaiting' ? (
								receipt.mine ? (
									<p className="mt-2 text-stone-700">يؤكده مسؤول مالي غيرك.</p>
								) : (
									<Form method="post" className="mt-2">
										<input type="hidden" name="intent" value="confirm" />
										<input type="hidden" name="id" value={receipt.id} />
										<button type="submit" disabled={busy} className="btn-primary">
											تأكيد السند<span className="sr-only"> {receipt.number}</span>
										</button>
									</Form>
								)
							) : null}
							{receipt.state !== 'cancelled' ? (
								<details className="mt-2">
									<summary className="link inline-flex min-h-11 cursor-pointer items-center">
										إلغاء السند<span className="sr-only"> {receipt.number}</span>
									</summary>
									<Form method="post" className="mt-2 space-y-2">
										<input type="hidden" name="intent" value="cancel" />
										<input type="hidden" name="id" value={receipt.id} />
										<TextareaField label="سبب الإلغاء" textareaProps={{ id: `cancel-reason-${receipt.id}`, name: 'reason', required: true, minLength: 5, maxLength: 1000, rows: 2, defaultValue: typedIn(`cancel-${receipt.id}`, 'reason') }} />
										<button type="submit" disabled={busy} className="btn-secondary">
											إلغاء السند
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
