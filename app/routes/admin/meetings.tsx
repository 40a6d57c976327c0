import { data, Form, Link, useNavigation } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/meetings'
import { requireRole } from '#app/auth/user-context.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { areaRoles, hasRole } from '#app/db/roles.ts'
import { DEFAULT_QUORUM, listMeetings, listQuorums, MeetingRefused, members, MEETINGS_PAGE_SIZE, openMeeting, openMeetingNow, removeQuorum, setQuorum } from '#app/aid/meetings.server.ts'
import { meetingPlace } from '#app/aid/minutes.ts'
import { applicationDefinitions, findDefinition } from '#app/forms/registry.ts'
import { flashContext, notices, redirectWithFlash } from '#app/http/flash.server.ts'
import { countOf } from '#app/text/arabic-count.ts'
import { formatDate, isCalendarDay, todayInRiyadh, toWesternDigits } from '#app/text/format.ts'
import { noteAudit, audited } from '#app/audit/audit-trail.server.ts'
import { ErrorList, Field, FlashNotice, PageTitle, SelectField } from '#app/components/forms.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import { Pager } from '#app/components/pager.tsx'
import type { AdminHandle } from './layout.tsx'

// The committee's meetings (docs/product.md#committee-meetings): the list, opening one (a member of
// the committee, at most one open at a time), and the quorum an admin keeps: the default and a
// programme's own. Each change is in the audit trail.

export const handle: AdminHandle = { breadcrumb: 'اجتماعات لجنة الصرف' }

export const middleware = [audited({ read: false, write: { byIntent: { 'open-meeting': 'meetings.open', quorum: 'quorum.change', 'remove-quorum': 'quorum.change' } } })]

const QUORUM_RANGE = 'النصاب عدد صحيح من عضو واحد إلى 50 عضواً'

const schema = z.discriminatedUnion('intent', [
	z.object({
		intent: z.literal('open-meeting'),
		heldOn: z
			.string({ error: 'الرجاء اختيار تاريخ الاجتماع' })
			.transform((value) => toWesternDigits(value).trim())
			.refine(isCalendarDay, 'الرجاء اختيار تاريخ الاجتماع'),
		place: z.string().trim().max(200, 'المكان: 200 حرف على الأكثر').default(''),
		online: z
			.string()
			.optional()
			.transform((value) => value === 'on'),
	}),
	z.object({
		intent: z.literal('quorum'),
		programme: z.string().refine((value) => value === 'default' || findDefinition(value) !== undefined, 'الرجاء اختيار البرنامج'),
		quorum: z.preprocess((value) => (typeof value === 'string' ? toWesternDigits(value).trim() || undefined : value), z.coerce.number({ error: QUORUM_RANGE }).int(QUORUM_RANGE).min(1, QUORUM_RANGE).max(50, QUORUM_RANGE)),
	}),
	z.object({ intent: z.literal('remove-quorum'), id: z.coerce.number().int() }),
])

const meetingsNoun = { one: 'اجتماع واحد', two: 'اجتماعان', few: 'اجتماعات', many: 'اجتماعاً', other: 'اجتماع', none: 'لا اجتماعات' }
const decisionsNoun = { one: 'قرار واحد', two: 'قراران', few: 'قرارات', many: 'قراراً', other: 'قرار', none: 'لا قرارات' }

export async function loader({ request, context }: Route.LoaderArgs) {
	const user = requireRole(context, areaRoles.decisions)
	const db = await getDb()
	const page = Math.max(1, Math.min(10_000, Number.parseInt(new URL(request.url).searchParams.get('page') ?? '1', 10) || 1))
	const [list, open, quorums] = await Promise.all([listMeetings(db, page), openMeetingNow(db), listQuorums(db)])
	const pages = Math.max(1, Math.ceil(list.total / MEETINGS_PAGE_SIZE))
	const defaultQuorum = quorums.find((quorum) => quorum.programme === null)?.quorum ?? DEFAULT_QUORUM
	return {
		notice: context.get(flashContext),
		canChangeQuorum: hasRole(user, 'admin'),
		today: todayInRiyadh(),
		open: open ? { id: open.id, heldOn: formatDate(open.heldOn) } : null,
		count: countOf(list.total, meetingsNoun),
		meetings: list.rows.map(({ meeting, present, decisions }) => ({
			id: meeting.id,
			heldOn: formatDate(meeting.heldOn),
			place: meetingPlace(meeting),
			present: countOf(present, members),
			decisions: countOf(decisions, decisionsNoun),
			closed: Boolean(meeting.closedAt),
		})),
		defaultQuorum: countOf(defaultQuorum, members),
		quorums: quorums.map((quorum) => ({ id: quorum.id, programme: quorum.programme ? (findDefinition(quorum.programme)?.title ?? quorum.programme) : 'النصاب العام (كل البرامج)', quorum: countOf(quorum.quorum, members) })),
		programmes: applicationDefinitions.filter((definition) => !definition.createsAccount).map((definition) => ({ value: definition.type, label: definition.title })),
		previous: page > 1 ? `?page=${page - 1}` : null,
		next: page < pages ? `?page=${page + 1}` : null,
		pageLabel: `الصفحة ${page} من ${pages}`,
	}
}

export async function action({ request, context }: Route.ActionArgs) {
	const user = requireRole(context, areaRoles.decisions)
	const formData = await request.formData()
	const typed = Object.fromEntries([...formData.entries()].filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
	const parsed = schema.safeParse(typed)
	if (!parsed.success) return data({ errors: parsed.error.issues.map((issue) => issue.message), typed }, { status: 400 })
	const db = await getDb()
	const value = parsed.data
	if (value.intent === 'open-meeting') {
		try {
			const meeting = await openMeeting(db, { heldOn: value.heldOn, place: value.place, online: value.online }, user)
			noteAudit(context, { data: { intent: 'open-meeting', meeting: meeting.id, online: value.online } })
			return redirectWithFlash(`/admin/meetings/${meeting.id}`, { tone: 'success', message: 'فُتح الاجتماع: سجّل الحاضرين من أعضاء اللجنة.' })
		} catch (error) {
			if (error instanceof MeetingRefused) return data({ errors: [error.message], typed }, { status: 409 })
			throw error
		}
	}
	// The quorum is the admin's.
	requireRole(context, ['admin'])
	if (value.intent === 'remove-quorum') {
		const removed = await removeQuorum(db, value.id)
		if (!removed) throw data('النصاب غير موجود', { status: 404 })
		noteAudit(context, { data: { intent: 'remove-quorum', programme: removed.programme, before: removed.quorum } })
		return redirectWithFlash('/admin/meetings', notices.deleted)
	}
	const programme = value.programme === 'default' ? null : value.programme
	const changed = await setQuorum(db, { programme, quorum: value.quorum }, user)
	noteAudit(context, { data: { intent: 'set-quorum', programme, before: changed.before, after: changed.after } })
	return redirectWithFlash('/admin/meetings', { tone: 'success', message: `تم حفظ النصاب: ${countOf(changed.after, members)}` })
}

export default function Meetings({ loaderData: m, actionData }: Route.ComponentProps) {
	const busy = useNavigation().state !== 'idle'
	const typed = (name: string) => actionData?.typed[name]
	const opening = !actionData || typed('intent') === 'open-meeting'
	return (
		<>
			<PageTitle title="اجتماعات لجنة الصرف" error={Boolean(actionData)} />
			<h1 className="text-2xl font-bold text-brand-900">اجتماعات لجنة الصرف</h1>
			<p className="mt-1 text-stone-700">
				ما زاد على حد الاعتماد لا يُعتمد إلا في اجتماع مفتوح للجنة حضره النصاب، ومن عضو حاضر فيه. وكل قرار يتخذه عضو حاضر والاجتماع مفتوح يُسجَّل في الاجتماع، وعند إغلاقه يُكتب محضره ولا يُضاف إليه شيء بعد ذلك. الاجتماعات: {m.count}.
			</p>
			<p className="mt-1 flex flex-wrap gap-x-4">
				<Link to="/admin/decisions" className="link inline-flex min-h-11 items-center">
					قرارات لجنة الصرف
				</Link>
				<Link to="/admin/funds/limits" className="link inline-flex min-h-11 items-center">
					حدود الاعتماد
				</Link>
			</p>
			<FlashNotice notice={m.notice} live className="mt-4" />

			{m.open ? (
				<p className="mt-4 rounded-xl border border-brand-200 bg-brand-50 p-4 font-semibold">
					اجتماع مفتوح الآن ({m.open.heldOn}):{' '}
					<Link to={`/admin/meetings/${m.open.id}`} className="link">
						الحاضرون وجدول الأعمال وإغلاق الاجتماع
					</Link>
				</p>
			) : (
				<Form method="post" className="mt-4 grid gap-3 rounded-xl border border-brand-200 bg-brand-50 p-4 sm:grid-cols-2 lg:grid-cols-4">
					<input type="hidden" name="intent" value="open-meeting" />
					<p className="font-semibold sm:col-span-2 lg:col-span-4">فتح اجتماع</p>
					{opening ? (
						<div className="sm:col-span-2 lg:col-span-4">
							<ErrorList errors={actionData?.errors} />
						</div>
					) : null}
					<Field label="تاريخ الاجتماع" inputProps={{ id: 'meeting-day', name: 'heldOn', type: 'date', required: true, dir: 'ltr', defaultValue: typed('heldOn') ?? m.today }} />
					<Field label="المكان (أو اسم رابط الاجتماع عن بعد)" inputProps={{ id: 'meeting-place', name: 'place', maxLength: 200, defaultValue: typed('place') }} />
					<div className="flex items-end">
						<label className="inline-flex min-h-11 items-center gap-2">
							<input type="checkbox" name="online" defaultChecked={typed('online') === 'on'} className="size-5" />
							اجتماع عن بعد
						</label>
					</div>
					<div className="flex items-end">
						<button type="submit" disabled={busy} className="btn-primary">
							فتح الاجتماع
						</button>
					</div>
				</Form>
			)}

			{m.meetings.length === 0 ? (
				<p className="mt-4 rounded-xl border border-stone-200 bg-white p-4">لا اجتماعات بعد.</p>
			) : (
				<DataTable label="جدول الاجتماعات" caption="الاجتماعات، الأحدث أولاً" headings={['الاجتماع', 'التاريخ', 'المكان', 'الحاضرون', 'القرارات', 'المحضر']} headCellClassName="p-2 text-start" className="mt-4">
					{m.meetings.map((meeting) => (
						<tr key={meeting.id} className="border-t border-stone-100">
							<th scope="row" className="p-2 text-start font-semibold">
								<Link to={`/admin/meetings/${meeting.id}`} className="link">
									اجتماع رقم {meeting.id}
								</Link>
								{meeting.closed ? null : <span className="ms-2 text-sm text-gold-700">(مفتوح)</span>}
							</th>
							<td className="p-2">{meeting.heldOn}</td>
							<td className="p-2">{meeting.place}</td>
							<td className="p-2">{meeting.present}</td>
							<td className="p-2">{meeting.decisions}</td>
							<td className="p-2">
								{meeting.closed ? (
									<Link to={`/admin/meetings/${meeting.id}/minutes`} reloadDocument className="link inline-flex min-h-11 items-center">
										المحضر (PDF)<span className="sr-only"> للاجتماع رقم {meeting.id}</span>
									</Link>
								) : (
									'يُكتب عند الإغلاق'
								)}
							</td>
						</tr>
					))}
				</DataTable>
			)}
			<Pager previous={m.previous} next={m.next} label={m.pageLabel} />

			<section aria-labelledby="quorum-title" className="mt-8">
				<h2 id="quorum-title" className="text-xl font-bold text-brand-900">
					النصاب
				</h2>
				<p className="mt-1 text-stone-700">النصاب عدد الأعضاء الحاضرين الذي يلزم الاجتماع ليعتمد ما زاد على حد الاعتماد. للبرنامج نصابه إن حُدد له، وإلا فالنصاب العام: {m.defaultQuorum}.</p>
				{m.quorums.length ? (
					<DataTable label="جدول النصاب" caption="النصاب" headings={['البرنامج', 'النصاب', ...(m.canChangeQuorum ? ['حذف'] : [])]} headCellClassName="p-2 text-start" className="mt-3">
						{m.quorums.map((quorum) => (
							<tr key={quorum.id} className="border-t border-stone-100">
								<th scope="row" className="p-2 text-start font-semibold">
									{quorum.programme}
								</th>
								<td className="p-2">{quorum.quorum}</td>
								{m.canChangeQuorum ? (
									<td className="p-2">
										<Form method="post">
											<input type="hidden" name="intent" value="remove-quorum" />
											<input type="hidden" name="id" value={quorum.id} />
											<button type="submit" disabled={busy} className="link inline-flex min-h-11 items-center text-red-800">
												حذف النصاب<span className="sr-only"> {quorum.programme}</span>
											</button>
										</Form>
									</td>
								) : null}
							</tr>
						))}
					</DataTable>
				) : null}
				{m.canChangeQuorum ? (
					<Form method="post" className="mt-3 grid gap-3 rounded-xl border border-brand-200 bg-brand-50 p-4 sm:grid-cols-3">
						<input type="hidden" name="intent" value="quorum" />
						<p className="font-semibold sm:col-span-3">تحديد النصاب أو تغييره</p>
						{opening ? null : (
							<div className="sm:col-span-3">
								<ErrorList errors={actionData?.errors} />
							</div>
						)}
						<SelectField label="البرنامج" options={[{ value: 'default', label: 'النصاب العام (كل البرامج)' }, ...m.programmes]} selectProps={{ id: 'quorum-programme', name: 'programme', defaultValue: typed('programme') ?? 'default' }} />
						<Field label="عدد الأعضاء الحاضرين" inputProps={{ id: 'quorum-count', name: 'quorum', inputMode: 'numeric', required: true, dir: 'ltr', defaultValue: typed('quorum') }} />
						<div className="flex items-end">
							<button type="submit" disabled={busy} className="btn-primary">
								حفظ النصاب
							</button>
						</div>
					</Form>
				) : null}
			</section>
		</>
	)
}
