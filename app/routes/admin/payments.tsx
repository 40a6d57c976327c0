import { data, Form, Link, useNavigation } from 'react-router'
import type { Route } from './+types/payments'
import { requireRole } from '#app/auth/user-context.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { areaRoles } from '#app/db/roles.ts'
import { tellApplicants } from '#app/casework/tell.server.ts'
import { APPROVER_MAY_NOT_PAY, createBatch, dueInstalments, listBatches, PaymentFourEyesError, recordDelivery } from '#app/aid/payments.server.ts'
import { confirmIban, IBAN_UNCONFIRMED, IbanFourEyesError } from '#app/cases/payee-accounts.server.ts'
import { aidKindLabel } from '#app/cases/aid.ts'
import { CaseChangeError } from '#app/cases/status-changes.server.ts'
import { flashContext, redirectWithFlash } from '#app/http/flash.server.ts'
import { countOf } from '#app/text/arabic-count.ts'
import { formatDate, formatMoney, formatMonth, todayInRiyadh } from '#app/text/format.ts'
import { ErrorList, Field, FlashNotice, PageTitle } from '#app/components/forms.tsx'
import { audited, noteAudit, noteRefusal } from '#app/audit/audit-trail.server.ts'
import fs from 'node:fs/promises'
import { attachmentUpload } from '#app/cases/attachment-upload.server.ts'
import { staffFileMessage } from '#app/cases/staff-files.ts'
import { discardStaffFiles, storeStaffFile, type StoredStaffFile } from '#app/cases/staff-files.server.ts'
import { acceptAttribute, uploadHint } from '#app/forms/upload-form.tsx'
import { getCaseFileStorage } from '#app/storage/file-storage.server.ts'
import { declaredTooLarge, receiveUpload } from '#app/storage/upload-stream.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import type { AdminHandle } from './layout.tsx'
import { isUuid } from '#app/utils/uuid.ts'

// Paying approved aid (docs/product.md#payment), finance's screen: the transfers due this month,
// to gather into a batch for the bank; the aid in kind due, recorded as delivered; and the batches.

export const handle: AdminHandle = { breadcrumb: 'صرف الدعم' }

// A delivery with its receipt is the one form sent as multipart (its intent is inside the body the audit does not read).
export const middleware = [audited({ read: false, write: { byIntent: { batch: 'payments.batch', deliver: 'payments.deliver', 'confirm-iban': 'payments.iban-confirm' }, otherwise: 'payments.deliver' } })]

const transfersNoun = { one: 'تحويل واحد', two: 'تحويلان', few: 'تحويلات', many: 'تحويلاً', other: 'تحويل', none: 'لا تحويلات' }
const batchesNoun = { one: 'دفعة صرف واحدة', two: 'دفعتا صرف', few: 'دفعات صرف', many: 'دفعة صرف', other: 'دفعة صرف' }
const batchStatus = { open: 'قيد الإعداد', sent: 'أُرسلت إلى البنك', closed: 'مكتملة' } as const

export async function loader({ context }: Route.LoaderArgs) {
	const user = requireRole(context, areaRoles.payments)
	const db = await getDb()
	const [transfers, inKind, batches] = await Promise.all([dueInstalments(db, 'transfer'), dueInstalments(db, 'in-kind'), listBatches(db)])
	const describe = (item: (typeof transfers)[number]) => ({
		id: item.id,
		reference: item.reference,
		caseReference: item.caseReference,
		name: item.name,
		what: `${aidKindLabel(item.aidKind)}${item.months ? ` — القسط ${item.seq} من ${item.months}` : ''}`,
		amount: formatMoney(item.amount),
		month: formatMonth(item.dueOn.slice(0, 7)),
		fund: item.fundName,
		iban: item.iban,
		accountProblem: item.accountProblem,
		// Four eyes: who approved it does not pay it.
		mine: item.deciderId === user.id,
		// An IBAN given after the approval, or the one the bank returned: not offered until finance confirms another.
		held: item.held,
		caseId: item.caseId,
	})
	return {
		notice: context.get(flashContext),
		today: todayInRiyadh(),
		maxBytes: getEnv().uploadMaxBytes,
		transfers: transfers.map(describe),
		// The accounts finance confirms before their transfers are offered again, one per case.
		toConfirm: [...new Map(transfers.filter((item) => item.held === IBAN_UNCONFIRMED).map((item) => [item.caseId, { caseId: item.caseId, caseReference: item.caseReference, name: item.name, iban: item.iban }])).values()],
		inKind: inKind.map(describe),
		batches: batches.map((batch) => ({
			id: batch.id,
			status: batchStatus[batch.status],
			created: formatDate(batch.createdAt),
			lines: countOf(batch.lines, transfersNoun),
			paid: batch.paid,
			bounced: batch.bounced,
			total: formatMoney(batch.total),
		})),
	}
}

/**
 * The delivery form with its receipt (a photo or the signed form's PDF), streamed like every upload:
 * its fields, and the receipt kept in storage until the delivery is recorded (or discarded).
 */
async function readDelivery(request: Request): Promise<{ form: FormData; receiptFile?: StoredStaffFile } | { refused: string; status: number; typed: Record<string, string>; instalment: string }> {
	const maxFileBytes = getEnv().uploadMaxBytes
	if (declaredTooLarge(request, maxFileBytes)) return { refused: staffFileMessage('too-large', maxFileBytes), status: 413, typed: {}, instalment: '' }
	const received = await receiveUpload(request, getCaseFileStorage(), { maxFileBytes, stopWhenTooLarge: !request.headers.has('content-length') }, attachmentUpload)
	const form = new FormData()
	for (const [name, value] of Object.entries(received.fields)) form.set(name, value)
	const refuse = (error: string, status = 400) => ({ refused: staffFileMessage(error, maxFileBytes), status, typed: received.fields, instalment: received.fields.instalment ?? '' })
	if (!received.ok) return refuse(received.error, received.error === 'too-large' ? 413 : 400)
	if (received.fields.intent !== 'deliver') {
		if (received.file) await fs.rm(received.file.tempPath, { force: true })
		return refuse('bad-request')
	}
	if (!received.file) return { form }
	const kept = await storeStaffFile(received.file)
	return kept.ok ? { form, receiptFile: kept.stored } : refuse(kept.error)
}

export async function action({ request, context }: Route.ActionArgs) {
	const user = requireRole(context, areaRoles.payments)
	const db = await getDb()
	const read = request.headers.get('Content-Type')?.startsWith('multipart/form-data') ? await readDelivery(request) : { form: await request.formData() }
	if ('refused' in read) {
		noteAudit(context, { data: { instalment: Number(read.instalment) || null, refused: 'receipt' } })
		return data({ form: read.instalment ? `deliver-${read.instalment}` : '', errors: [read.refused], refused: [], typed: read.typed }, { status: read.status, headers: read.status === 413 ? { Connection: 'close' } : undefined })
	}
	const { form, receiptFile } = read as { form: FormData; receiptFile?: StoredStaffFile }
	const intent = form.get('intent')
	const typed = Object.fromEntries([...form.entries()].filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
	try {
		if (intent === 'batch') {
			const ids = [...new Set(form.getAll('line').map(Number))].filter((id) => Number.isInteger(id) && id > 0).slice(0, 1000)
			if (!ids.length) return data({ form: 'batch', errors: ['الرجاء اختيار تحويل واحد على الأقل'], refused: [], typed }, { status: 400 })
			const made = await createBatch(db, ids, String(form.get('note') ?? '').slice(0, 500), user)
			noteAudit(context, { data: { batch: made.batchId, batches: made.batchIds, lines: ids.length - made.refused.length, refused: made.refused.map((item) => item.reference) } })
			if (made.batchId === null) {
				// Refused money actions are audited too; whoever approved them all is refused as four eyes (403).
				const fourEyes = made.refused.every((item) => item.reason === APPROVER_MAY_NOT_PAY)
				noteAudit(context, { refusal: true, ...(fourEyes ? { data: { refused: 'four-eyes', references: made.refused.map((item) => item.reference) } } : {}) })
				return data({ form: 'batch', errors: ['لم يُضف أي تحويل إلى دفعة صرف:'], refused: made.refused, typed }, { status: fourEyes ? 403 : 409 })
			}
			const left = made.refused.length ? ` لم يُضف ${countOf(made.refused.length, transfersNoun)}: ${made.refused.map((item) => `${item.reference} (${item.reason})`).join('؛ ')}` : ''
			// One batch per debit account, zakat apart: each is its own file for the bank.
			const madeText = made.batchIds.length > 1 ? `أُنشئت ${countOf(made.batchIds.length, batchesNoun)} لأن التحويلات من حسابات خصم مختلفة أو من الزكاة وغيرها: ${made.batchIds.map((id) => `رقم ${id}`).join('، ')}.` : `أُنشئت دفعة الصرف رقم ${made.batchId}.`
			return redirectWithFlash(`/admin/payments/${made.batchId}`, { tone: made.refused.length ? 'error' : 'success', message: `${madeText}${left}` })
		}
		if (intent === 'deliver') {
			const id = Number(form.get('instalment'))
			const delivered = await recordDelivery(db, id, { deliveredOn: String(form.get('deliveredOn') ?? ''), deliveredBy: String(form.get('deliveredBy') ?? ''), receipt: String(form.get('receipt') ?? ''), receiptFile }, user)
			await tellApplicants(db, [delivered], user)
			noteAudit(context, { data: { instalment: id, receiptFile: Boolean(receiptFile) } })
			return redirectWithFlash('/admin/payments', { tone: 'success', message: 'تم تسجيل تسليم المساعدة' })
		}
		if (intent === 'confirm-iban') {
			const caseId = String(form.get('case') ?? '')
			if (!isUuid(caseId)) return data({ form: '', errors: ['الطلب غير صالح'], refused: [], typed }, { status: 400 })
			try {
				await confirmIban(db, caseId, user)
			} catch (error) {
				if (!(error instanceof IbanFourEyesError)) throw error
				noteAudit(context, { data: { refused: 'iban-four-eyes' } })
				return data({ form: `iban-${caseId}`, errors: [error.message], refused: [], typed }, { status: 403 })
			}
			return redirectWithFlash('/admin/payments', { tone: 'success', message: 'تأكد الآيبان: تُعرض تحويلاته للصرف' })
		}
		if (receiptFile) await discardStaffFiles([receiptFile])
		return data({ form: '', errors: ['الطلب غير صالح'], refused: [], typed }, { status: 400 })
	} catch (error) {
		if (!(error instanceof CaseChangeError)) throw error
		noteRefusal(context, error)
		const which = intent === 'deliver' ? `deliver-${String(form.get('instalment'))}` : intent === 'confirm-iban' ? `iban-${String(form.get('case'))}` : 'batch'
		if (error instanceof PaymentFourEyesError) {
			noteAudit(context, { data: { refused: 'four-eyes' } })
			return data({ form: which, errors: [error.message], refused: [], typed }, { status: 403 })
		}
		return data({ form: which, errors: [error.message], refused: [], typed }, { status: 409 })
	}
}

export default function Payments({ loaderData: p, actionData }: Route.ComponentProps) {
	const busy = useNavigation().state !== 'idle'
	const errorsFor = (form: string) => (actionData?.form === form ? actionData.errors : undefined)
	const typed = (form: string, name: string) => (actionData?.form === form ? actionData.typed[name] : undefined)
	return (
		<>
			<PageTitle title="صرف الدعم" error={Boolean(actionData)} />
			<h1 className="text-2xl font-bold text-brand-900">صرف الدعم</h1>
			<p className="mt-1 text-stone-700">الدعم المعتمد المستحق حتى نهاية هذا الشهر: التحويلات تُجمع في دفعة صرف يُنزَّل ملفها للبنك، والمساعدات العينية تُسجَّل عند تسليمها. لا يسجّل صرفَ دعمٍ من اعتمده.</p>
			<p className="mt-1">
				<Link to="/admin/periods" className="link">
					الفترات المالية: إقفال الشهر بعد مطابقة صرفه مع البنك
				</Link>
			</p>
			<FlashNotice notice={p.notice} live className="mt-4" />

			<section aria-labelledby="transfers" className="mt-6">
				<h2 id="transfers" className="text-xl font-bold text-brand-900">
					تحويلات مستحقة
				</h2>
				{p.transfers.length === 0 ? (
					<p className="mt-3 rounded-xl border border-stone-200 bg-white p-4">لا تحويلات مستحقة.</p>
				) : (
					<Form method="post" className="mt-3 space-y-3">
						<input type="hidden" name="intent" value="batch" />
						<ErrorList errors={errorsFor('batch')} />
						{actionData?.refused.length ? (
							<ul className="list-disc ps-6 text-sm text-red-800">
								{actionData.refused.map((item) => (
									<li key={item.reference}>
										<bdi dir="ltr">{item.reference}</bdi>: {item.reason}
									</li>
								))}
							</ul>
						) : null}
						<ul className="space-y-2">
							{p.transfers.map((line) => (
								<li key={line.id} className="flex flex-wrap items-start gap-3 rounded-xl border border-stone-200 bg-white p-3">
									<input id={`line-${line.id}`} name="line" type="checkbox" value={line.id} disabled={line.mine || !line.iban || Boolean(line.held)} defaultChecked={!line.mine && Boolean(line.iban) && !line.held} className="mt-1 size-5 shrink-0" />
									<div className="min-w-0 flex-1 text-sm">
										<label htmlFor={`line-${line.id}`} className="font-bold">
											{line.name} — {line.amount}
										</label>
										<p>
											{line.what} — {line.month} — {line.fund} —{' '}
											<Link to={`/admin/cases/${line.caseReference}`} className="link">
												<bdi dir="ltr">{line.caseReference}</bdi>
											</Link>
										</p>
										<p dir="ltr" className="text-start text-stone-700">
											{line.iban || '—'}
										</p>
										{line.mine ? <p className="text-gold-700">اعتُمد هذا الدعم بقرارك، فيصرفه مسؤول مالي آخر.</p> : null}
										{line.accountProblem ? <p className="text-red-800">{line.accountProblem}.</p> : null}
										{line.held ? <p className="font-semibold text-red-800">{line.held}</p> : null}
									</div>
								</li>
							))}
						</ul>
						<Field label="ملاحظة على دفعة الصرف (اختياري)" inputProps={{ id: 'batch-note', name: 'note', maxLength: 500, defaultValue: typed('batch', 'note') }} />
						<button type="submit" disabled={busy} className="btn-primary">
							إنشاء دفعة صرف بالتحويلات المختارة
						</button>
					</Form>
				)}
			</section>

			{p.toConfirm.length ? (
				<section aria-labelledby="ibans" className="mt-8">
					<h2 id="ibans" className="text-xl font-bold text-brand-900">
						آيبانات بانتظار التأكيد
					</h2>
					<p className="mt-1 text-sm text-stone-700">آيبان أُدخل بعد اعتماد الدعم (من الأسرة في صفحة طلبها أو بتصحيح الإجابات): يتأكد منه مسؤول مالي غير من أدخله، ثم تُعرض تحويلاته للصرف.</p>
					<ul className="mt-3 space-y-2">
						{p.toConfirm.map((item) => (
							<li key={item.caseId} className="rounded-xl border border-stone-200 bg-white p-3 text-sm">
								<Form method="post" className="flex flex-wrap items-center gap-3">
									<input type="hidden" name="intent" value="confirm-iban" />
									<input type="hidden" name="case" value={item.caseId} />
									<span className="font-bold">{item.name}</span>
									<Link to={`/admin/cases/${item.caseReference}`} className="link">
										<bdi dir="ltr">{item.caseReference}</bdi>
									</Link>
									<span dir="ltr">{item.iban || '—'}</span>
									<button type="submit" disabled={busy} className="btn-secondary">
										تأكيد الآيبان<span className="sr-only"> لـ{item.name}</span>
									</button>
								</Form>
								<ErrorList errors={errorsFor(`iban-${item.caseId}`)} />
							</li>
						))}
					</ul>
				</section>
			) : null}

			<section aria-labelledby="in-kind" className="mt-8">
				<h2 id="in-kind" className="text-xl font-bold text-brand-900">
					مساعدات عينية للتسليم
				</h2>
				{p.inKind.length === 0 ? (
					<p className="mt-3 rounded-xl border border-stone-200 bg-white p-4">لا مساعدات عينية مستحقة.</p>
				) : (
					<ul className="mt-3 space-y-3">
						{p.inKind.map((line) => (
							<li key={line.id} className="rounded-xl border border-stone-200 bg-white p-4 text-sm">
								<p className="font-bold">
									{line.name} — {line.what} ({line.amount})
								</p>
								<p>
									{line.month} — {line.fund} —{' '}
									<Link to={`/admin/cases/${line.caseReference}`} className="link">
										<bdi dir="ltr">{line.caseReference}</bdi>
									</Link>
								</p>
								{line.mine ? (
									<p className="mt-2 text-gold-700">اعتُمدت هذه المساعدة بقرارك، فيسجّل تسليمها مسؤول مالي آخر.</p>
								) : (
									<Form method="post" encType="multipart/form-data" className="mt-3 grid gap-3 sm:grid-cols-4">
										<input type="hidden" name="intent" value="deliver" />
										<input type="hidden" name="instalment" value={line.id} />
										<div className="sm:col-span-4">
											<ErrorList errors={errorsFor(`deliver-${line.id}`)} />
										</div>
										<Field label={<>تاريخ التسليم<span className="sr-only"> لـ{line.name}</span></>} inputProps={{ id: `delivered-on-${line.id}`, name: 'deliveredOn', type: 'date', required: true, max: p.today, dir: 'ltr', defaultValue: typed(`deliver-${line.id}`, 'deliveredOn') ?? p.today }} />
										<Field label={<>سلّمها<span className="sr-only"> لـ{line.name}</span></>} inputProps={{ id: `delivered-by-${line.id}`, name: 'deliveredBy', required: true, maxLength: 200, defaultValue: typed(`deliver-${line.id}`, 'deliveredBy') }} />
										<Field label={<>رقم الإيصال أو النموذج الموقّع<span className="sr-only"> لـ{line.name}</span></>} inputProps={{ id: `receipt-${line.id}`, name: 'receipt', maxLength: 100, dir: 'ltr', defaultValue: typed(`deliver-${line.id}`, 'receipt') }} />
										<Field
											label={<>صورة الإيصال أو النموذج الموقّع (اختياري)<span className="sr-only"> لـ{line.name}</span></>}
											hint={uploadHint(['photo', 'pdf'], p.maxBytes)}
											inputProps={{ id: `receipt-file-${line.id}`, name: 'receiptFile', type: 'file', accept: acceptAttribute(['photo', 'pdf']) }}
											className="sm:col-span-3"
										/>
										<div className="flex items-end">
											<button type="submit" disabled={busy} className="btn-secondary">
												تسجيل التسليم<span className="sr-only"> لـ{line.name}</span>
											</button>
										</div>
									</Form>
								)}
							</li>
						))}
					</ul>
				)}
			</section>

			<section aria-labelledby="batches" className="mt-8">
				<h2 id="batches" className="text-xl font-bold text-brand-900">
					دفعات الصرف
				</h2>
				{p.batches.length === 0 ? (
					<p className="mt-3 rounded-xl border border-stone-200 bg-white p-4">لا دفعات صرف بعد.</p>
				) : (
					<ul className="mt-3 divide-y divide-stone-200 rounded-xl border border-stone-200 bg-white">
						{p.batches.map((batch) => (
							<li key={batch.id} className="flex flex-wrap items-center justify-between gap-2 p-3 text-sm">
								<Link to={`/admin/payments/${batch.id}`} className="link inline-flex min-h-11 items-center font-bold">
									دفعة الصرف رقم {batch.id}
								</Link>
								<span>
									{batch.created} — {batch.lines}، {batch.total}{batch.bounced ? ` (أعاد البنك منها: ${countOf(batch.bounced, transfersNoun)})` : ''} — {batch.status}
								</span>
							</li>
						))}
					</ul>
				)}
			</section>
		</>
	)
}
