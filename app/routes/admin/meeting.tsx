import { data, Form, Link, useNavigation } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/meeting'
import { requireRole } from '#app/auth/user-context.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { areaRoles } from '#app/db/roles.ts'
import { closeMeeting, committeeMembers, findMeeting, markPresent, MeetingRefused, members, minutesOf, presentAt, quorumFor, unmarkPresent } from '#app/aid/meetings.server.ts'
import { describeMinutes, type Minutes } from '#app/aid/minutes.ts'
import { decisionQueue } from '#app/aid/decisions.server.ts'
import { findDefinition } from '#app/forms/registry.ts'
import { flashContext, redirectWithFlash } from '#app/http/flash.server.ts'
import { applications, countOf } from '#app/text/arabic-count.ts'
import { noteAudit, audited } from '#app/audit/audit-trail.server.ts'
import { ErrorList, FlashNotice, PageTitle } from '#app/components/forms.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import type { AdminHandle } from './layout.tsx'

// A committee meeting (docs/product.md#committee-meetings): its members present (marked and taken
// off while it is open and before any decision in it), its agenda (the committee's queue), the
// decisions taken in it, and closing it, which writes the minutes. A closed meeting only shows its
// minutes as they were written.

export const handle: AdminHandle = { breadcrumb: (data) => [{ to: '/admin/meetings', label: 'اجتماعات لجنة الصرف' }, { label: `اجتماع رقم ${(data as { id: number }).id}` }] }

export const middleware = [audited({ read: false, write: { byIntent: { 'mark-present': 'meetings.present', 'mark-absent': 'meetings.present', 'close-meeting': 'meetings.close' } } })]

const schema = z.discriminatedUnion('intent', [
	z.object({ intent: z.literal('mark-present'), member: z.coerce.number({ error: 'الرجاء اختيار العضو' }).int('الرجاء اختيار العضو').positive('الرجاء اختيار العضو') }),
	z.object({ intent: z.literal('mark-absent'), member: z.coerce.number().int().positive() }),
	z.object({ intent: z.literal('close-meeting') }),
])

const meetingId = (value: string | undefined) => (value && /^\d{1,9}$/.test(value) ? Number(value) : null)

export async function loader({ params, context }: Route.LoaderArgs) {
	requireRole(context, areaRoles.decisions)
	const id = meetingId(params.id)
	const db = await getDb()
	const meeting = id === null ? undefined : await findMeeting(db, id)
	if (!meeting) throw data('الاجتماع غير موجود', { status: 404 })
	const closed = Boolean(meeting.closedAt)
	// A closed meeting shows its minutes as written; an open one, as they stand now.
	const minutes = closed ? (meeting.minutes as Minutes) : await minutesOf(db, meeting, { closedBy: null, closedAt: null })
	const [present, staff, queue, quorum] = await Promise.all([presentAt(db, meeting.id), closed ? [] : committeeMembers(db), closed ? null : decisionQueue(db, { page: 1 }), quorumFor(db, '')])
	return {
		notice: context.get(flashContext),
		id: meeting.id,
		closed,
		minutes: describeMinutes(minutes),
		decided: minutes.decisions.length > 0,
		present: present.map((member) => ({ id: member.userId, name: member.name })),
		presentCount: countOf(present.length, members),
		quorum: countOf(quorum, members),
		absent: staff.filter((user) => !present.some((member) => member.userId === user.id)),
		agenda: queue
			? {
					count: countOf(queue.total, { ...applications, none: 'لا طلبات' }),
					rows: queue.rows.map((row) => ({ reference: row.reference, name: row.applicantName, programme: findDefinition(row.type)?.title ?? row.type, proposal: row.proposal?.state === 'awaiting_second' })),
				}
			: null,
	}
}

export async function action({ request, params, context }: Route.ActionArgs) {
	const user = requireRole(context, areaRoles.decisions)
	const id = meetingId(params.id)
	if (id === null) throw data('الاجتماع غير موجود', { status: 404 })
	const formData = await request.formData()
	const parsed = schema.safeParse(Object.fromEntries(formData))
	if (!parsed.success) return data({ errors: parsed.error.issues.map((issue) => issue.message) }, { status: 400 })
	const db = await getDb()
	const value = parsed.data
	try {
		if (value.intent === 'close-meeting') {
			const minutes = await closeMeeting(db, id, user)
			if (!minutes) throw data('الاجتماع غير موجود', { status: 404 })
			noteAudit(context, { data: { intent: 'close-meeting', meeting: id, decisions: minutes.decisions.length } })
			return redirectWithFlash(`/admin/meetings/${id}`, { tone: 'success', message: 'أُغلق الاجتماع وكُتب محضره.' })
		}
		const changed = value.intent === 'mark-present' ? await markPresent(db, id, value.member, user) : await unmarkPresent(db, id, value.member)
		if (!changed) throw data('الاجتماع أو العضو غير موجود', { status: 404 })
		noteAudit(context, { data: { intent: value.intent, meeting: id, member: changed.name } })
		return redirectWithFlash(`/admin/meetings/${id}`, { tone: 'success', message: value.intent === 'mark-present' ? `سُجّل ${changed.name} حاضراً.` : `حُذف ${changed.name} من الحاضرين.` })
	} catch (error) {
		if (error instanceof MeetingRefused) return data({ errors: [error.message] }, { status: 409 })
		throw error
	}
}

export default function Meeting({ loaderData: m, actionData }: Route.ComponentProps) {
	const busy = useNavigation().state !== 'idle'
	return (
		<>
			<PageTitle title={m.minutes.title} error={Boolean(actionData)} />
			<h1 className="text-2xl font-bold text-brand-900">
				اجتماع لجنة الصرف رقم {m.id} {m.closed ? <span className="text-base font-semibold text-stone-700">(مغلق)</span> : <span className="text-base font-semibold text-gold-700">(مفتوح)</span>}
			</h1>
			<FlashNotice notice={m.notice} live className="mt-4" />
			<ErrorList errors={actionData?.errors} />
			<dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-xl border border-stone-200 bg-white p-4">
				{m.minutes.lines.map((line) => (
					<div key={line.label} className="contents">
						<dt className="text-stone-700">{line.label}</dt>
						<dd className="font-semibold">{line.value}</dd>
					</div>
				))}
			</dl>
			{m.closed ? (
				<p className="mt-4">
					<Link to={`/admin/meetings/${m.id}/minutes`} reloadDocument className="btn-primary inline-flex">
						تنزيل المحضر للطباعة والتوقيع (PDF)
					</Link>
				</p>
			) : null}

			<section aria-labelledby="present-title" className="mt-6">
				<h2 id="present-title" className="text-xl font-bold text-brand-900">
					الحاضرون: {m.presentCount}
				</h2>
				{m.closed ? null : <p className="mt-1 text-stone-700">النصاب العام لاعتماد ما زاد على حد الاعتماد: {m.quorum} (وللبرنامج نصابه إن حدده المدير في صفحة الاجتماعات).</p>}
				{m.present.length === 0 ? (
					<p className="mt-2 rounded-xl border border-stone-200 bg-white p-4">لم يُسجَّل حاضر بعد.</p>
				) : (
					<ul className="mt-2 space-y-2">
						{m.present.map((member) => (
							<li key={member.id} className="flex flex-wrap items-center gap-3 rounded-xl border border-stone-200 bg-white p-3">
								<span className="font-semibold">{member.name}</span>
								{m.closed || m.decided ? null : (
									<Form method="post" className="ms-auto">
										<input type="hidden" name="intent" value="mark-absent" />
										<input type="hidden" name="member" value={member.id} />
										<button type="submit" disabled={busy} className="link inline-flex min-h-11 items-center text-red-800">
											حذف من الحاضرين<span className="sr-only"> {member.name}</span>
										</button>
									</Form>
								)}
							</li>
						))}
					</ul>
				)}
				{!m.closed && m.absent.length ? (
					<Form method="post" className="mt-3 flex flex-wrap items-end gap-3 rounded-xl border border-brand-200 bg-brand-50 p-4">
						<input type="hidden" name="intent" value="mark-present" />
						<div>
							<label htmlFor="member" className="block font-semibold">
								عضو حاضر
							</label>
							<select id="member" name="member" className="field-input mt-1">
								{m.absent.map((user) => (
									<option key={user.id} value={user.id}>
										{user.active ? user.name : `${user.name} (الحساب موقوف)`}
									</option>
								))}
							</select>
						</div>
						<button type="submit" disabled={busy} className="btn-secondary">
							تسجيل حاضراً
						</button>
					</Form>
				) : null}
			</section>

			<section aria-labelledby="decisions-title" className="mt-6">
				<h2 id="decisions-title" className="text-xl font-bold text-brand-900">
					القرارات في الاجتماع
				</h2>
				{m.minutes.rows.length === 0 ? (
					<p className="mt-2 rounded-xl border border-stone-200 bg-white p-4">لا قرارات في هذا الاجتماع بعد.</p>
				) : (
					<DataTable label="جدول قرارات الاجتماع" caption="القرارات في الاجتماع" headings={m.minutes.headings} headCellClassName="p-2 text-start" className="mt-2">
						{m.minutes.rows.map((row) => (
							<tr key={row.id} className="border-t border-stone-100">
								<th scope="row" className="p-2 text-start font-semibold">
									<Link to={`/admin/cases/${row.reference}`} className="link">
										<bdi dir="ltr">{row.reference}</bdi>
									</Link>
								</th>
								<td className="p-2">{row.name}</td>
								<td className="p-2">{row.programme}</td>
								<td className="p-2">{row.decision}</td>
								<td className="p-2">{row.amount}</td>
								<td className="p-2">{row.fund}</td>
								<td className="p-2">{row.decider}</td>
							</tr>
						))}
					</DataTable>
				)}
			</section>

			{m.agenda ? (
				<section aria-labelledby="agenda-title" className="mt-6">
					<h2 id="agenda-title" className="text-xl font-bold text-brand-900">
						جدول الأعمال: الطلبات بانتظار القرار ({m.agenda.count})
					</h2>
					<p className="mt-1 text-stone-700">
						يقرر الأعضاء الحاضرون في كل طلب من صفحته، أو يعتمدون عدة طلبات معاً من{' '}
						<Link to="/admin/decisions" className="link">
							قرارات لجنة الصرف
						</Link>
						؛ وكل قرار يتخذه عضو حاضر يُسجَّل في هذا الاجتماع.
					</p>
					{m.agenda.rows.length ? (
						<ul className="mt-2 space-y-1">
							{m.agenda.rows.map((row) => (
								<li key={row.reference}>
									<Link to={`/admin/cases/${row.reference}`} className="link inline-flex min-h-11 items-center gap-2">
										<bdi dir="ltr">{row.reference}</bdi> {row.name}
									</Link>{' '}
									<span className="text-sm text-stone-700">
										{row.programme}
										{row.proposal ? ' (بانتظار اعتماد ثانٍ)' : ''}
									</span>
								</li>
							))}
						</ul>
					) : null}
				</section>
			) : null}

			{m.closed ? null : (
				<Form method="post" className="mt-8 rounded-xl border border-red-200 bg-red-50 p-4">
					<input type="hidden" name="intent" value="close-meeting" />
					<p className="font-semibold">إغلاق الاجتماع يكتب محضره بقراراته وحاضريه، ولا يُضاف إليه بعد ذلك شيء ولا يُغيَّر.</p>
					<button type="submit" disabled={busy} className="btn-primary mt-3">
						إغلاق الاجتماع وكتابة المحضر
					</button>
				</Form>
			)}
		</>
	)
}
