import { Link } from 'react-router'
import type { Route } from './+types/dashboard'
import { staffContext } from '#app/auth/user-context.server.ts'
import { typesOfKind } from '#app/cases/case-lists.server.ts'
import { countsByStatusAndType, longestWaiting, newCasesPerWeek } from '#app/cases/case-statistics.server.ts'
import { caseStatuses, staffStatusName, Status, statusInfo, type CaseStatus } from '#app/cases/case-statuses.ts'
import { waitedFor } from '#app/cases/waited.ts'
import type { CaseKind } from '#app/cases/workflow.ts'
import { getDb } from '#app/db/database.server.ts'
import { areaRoles, userRoles, hasRole, type UserRole } from '#app/db/roles.ts'
import { aidHolderRoles } from '#app/aid/monthly-aid.ts'
import { contentCards } from '#app/content/types.ts'
import { applicationDefinitions, findDefinition } from '#app/forms/registry.ts'
import { formatNumber } from '#app/text/format.ts'
import { PageTitle } from '#app/components/forms.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import { WeeklyChart, weeksNoun } from '#app/components/weekly-chart.tsx'
import { countOf } from '#app/text/arabic-count.ts'
import { audited } from '#app/audit/audit-trail.server.ts'

interface Card {
	to: string
	title: string
	text: string
	roles: readonly UserRole[]
}

/** Dashboard cards, one per back-office screen; each appears once its screen exists, and only to roles that may use it (docs/product.md#roles). */
const cards: readonly Card[] = [
	{ to: '/admin/users', title: 'المستخدمون', text: 'قائمة موظفي المؤسسة وصلاحياتهم وتفعيل حساباتهم.', roles: areaRoles.users },
	{ to: '/admin/users/new', title: 'إضافة مستخدم', text: 'إنشاء حساب لموظف جديد.', roles: areaRoles.users },
	{ to: '/admin/audit', title: 'سجل التدقيق', text: 'من دخل، ومن غيّر أو اطّلع على ماذا، ومتى، ومن أين.', roles: areaRoles.users },
	{ to: '/admin/retention', title: 'سجل الإتلاف', text: 'ما أُتلف من بيانات الطلبات المغلقة بعد انتهاء مدة الاحتفاظ، وما حان إتلافه.', roles: areaRoles.users },
	{ to: '/admin/subject-access', title: 'طلبات الاطلاع على البيانات', text: 'نسخة كاملة من بيانات شخص برقم هويته، يطلبها لنفسه.', roles: areaRoles.users },
	{ to: '/admin/account', title: 'حسابي', text: 'كلمة المرور، والتحقق بخطوتين، والأجهزة التي دخلت منها.', roles: userRoles },
	{ to: '/admin/foundation', title: 'بيانات المؤسسة', text: 'النبذة والعنوان والهواتف والبريد وحسابات التواصل والخريطة.', roles: areaRoles.content },
	{ to: '/admin/privacy', title: 'إشعار الخصوصية', text: 'نص إشعار الخصوصية المنشور في الموقع، وإصداراته السابقة.', roles: areaRoles.content },
	...contentCards().map((card) => ({ ...card, roles: areaRoles.content })),
	{ to: '/admin/inquiries', title: 'رسائل التواصل', text: 'الرسائل الواردة من نموذج التواصل.', roles: areaRoles.content },
	{ to: '/admin/cases', title: 'طلبات الأفراد', text: 'طلبات الدعم المرسلة من الأسر والمرضى والمستفيدين.', roles: areaRoles.cases },
	{ to: '/admin/associations', title: 'طلبات الجمعيات', text: 'طلبات الدعم المرسلة من الجمعيات والمؤسسات.', roles: areaRoles.cases },
	{ to: '/admin/visits', title: 'زياراتي', text: 'زيارات الأسر المحددة لك من اليوم: العنوان والجوال والدراسة الاجتماعية.', roles: areaRoles.cases },
	{ to: '/admin/decisions', title: 'قرارات لجنة الصرف', text: 'الطلبات المدروسة بانتظار القرار: اعتمادها من صندوق ضمن الميزانية، أو رفضها، أو إعادتها للدراسة.', roles: areaRoles.decisions },
	{ to: '/admin/meetings', title: 'اجتماعات لجنة الصرف', text: 'فتح اجتماع وتسجيل الحاضرين، والنصاب الذي يلزم لاعتماد ما زاد على حد الاعتماد، ومحاضر الاجتماعات المغلقة.', roles: areaRoles.decisions },
	{ to: '/admin/payments', title: 'صرف الدعم', text: 'التحويلات المستحقة ودفعات الصرف وملفات البنك ومراجعه، وتسليم المساعدات العينية.', roles: areaRoles.payments },
	{ to: '/admin/periods', title: 'الفترات المالية', text: 'إقفال الشهر والسنة بعد مطابقة الصرف مع البنك، فلا تتغير أرقامهما؛ وإعادة فتح الشهر بسبب.', roles: areaRoles.payments },
	{ to: '/admin/monthly-aid', title: 'الدعم الشهري', text: 'ما ينتهي أو تحين إعادة دراسته هذا الشهر، والدعم الموقوف أو المنتظر تأكيد استئنافه.', roles: aidHolderRoles },
	{ to: '/admin/reports', title: 'تقارير الدعم', text: 'أرقام العام لمجلس الإدارة والوزارة: الطلبات والقرارات والمصروف والمستفيدون، حسب البرنامج أو الصندوق أو الشهر أو المدينة.', roles: areaRoles.funds },
	{ to: '/admin/zakat', title: 'سجل الزكاة', text: 'كل ما صُرف من صناديق الزكاة باسم المستفيد ورقم هويته ومصرف الزكاة، لسنة هجرية أو ميلادية، للعرض والتنزيل.', roles: areaRoles.funds },
	{ to: '/admin/funds', title: 'الصناديق والميزانيات', text: 'صناديق الصرف (الزكاة والصدقات والمنح) وميزانية كل برنامج: المخصص والمعتمد والمصروف والمتبقي.', roles: areaRoles.funds },
	{ to: '/admin/cases/new', title: 'طلب ورقي جديد', text: 'بدء طلب لمستفيد حضر إلى المؤسسة أو اتصل هاتفياً.', roles: areaRoles.cases },
	{ to: '/admin/messages', title: 'نصوص الرسائل', text: 'ما يُقال للمتقدمين في الرسائل النصية والبريد عند كل حدث في طلباتهم، مع معاينته.', roles: areaRoles.users },
	{ to: '/admin/reasons', title: 'الأسباب ومصارف الزكاة', text: 'الأسباب التي يختار منها الباحث حين يوصي بعدم دعم حالة، واللجنة حين ترفض طلباً، وحين يوقَف دعم شهري؛ ومصارف الزكاة التي تحددها الدراسة.', roles: areaRoles.users },
	{ to: '/admin/intake', title: 'استقبال الطلبات', text: 'فتح التقديم على البرامج أو إيقافه مؤقتاً أو إغلاقه.', roles: areaRoles.users },
]

/** The weeks the chart of new cases covers. */
const CHART_WEEKS = 12

const statuses = Object.keys(caseStatuses).map(Number) as CaseStatus[]

const listBase: Record<CaseKind, string> = { individual: '/admin/cases', association: '/admin/associations' }
const newWaitingLabels: Record<CaseKind, string> = { individual: 'طلبات جديدة بانتظار الدراسة', association: 'طلبات جمعيات جديدة بانتظار الدراسة' }

export const middleware = [audited({ read: false, write: false })]

export async function loader({ context }: Route.LoaderArgs) {
	const user = context.get(staffContext)
	const shortcuts = cards.filter((card) => hasRole(user, ...card.roles)).map(({ to, title, text }) => ({ to, title, text }))
	// Case figures are for the roles that work on cases: nothing of them is read for anyone else.
	if (!hasRole(user, ...areaRoles.cases)) return { name: user.name, cards: shortcuts, cases: null }

	const db = await getDb()
	const now = new Date()
	const [counts, weeks, waiting, mine] = await Promise.all([countsByStatusAndType(db), newCasesPerWeek(db, CHART_WEEKS, now), longestWaiting(db, 5), longestWaiting(db, 10, user.id)])
	const tally = (type: string, status: number) => counts.find((row) => row.type === type && row.status === status)?.count ?? 0
	const caseRow = (row: Awaited<ReturnType<typeof longestWaiting>>[number]) => ({
		reference: row.reference,
		name: row.applicantName,
		programme: findDefinition(row.type)?.title ?? row.type,
		status: { name: staffStatusName(row.status), badge: statusInfo(row.status).badge },
		waited: waitedFor(row.statusChangedAt, now),
	})
	const kinds = (['individual', 'association'] as const).filter((kind) => typesOfKind(kind).length > 0)

	return {
		name: user.name,
		cards: shortcuts,
		cases: {
			// The headline: new cases nobody has studied yet, one figure per list (individuals, associations).
			newWaiting: kinds.map((kind) => ({
				label: newWaitingLabels[kind],
				count: typesOfKind(kind).reduce((sum, type) => sum + tally(type, 1), 0),
				to: `${listBase[kind]}?status=${Status.New}`,
			})),
			statuses: statuses.map((status) => ({ status, name: staffStatusName(status) })),
			programmes: applicationDefinitions.map((definition) => {
				const cells = statuses.map((status) => ({
					status,
					count: tally(definition.type, status),
					to: `${listBase[definition.kind]}?${new URLSearchParams({ status: String(status), type: definition.type })}`,
				}))
				return { type: definition.type, title: definition.title, cells, total: cells.reduce((sum, cell) => sum + cell.count, 0) }
			}),
			weeks,
			waiting: waiting.map(caseRow),
			mine: mine.map(caseRow),
		},
	}
}

type CaseLine = NonNullable<Awaited<ReturnType<typeof loader>>['cases']>['waiting'][number]

function CaseTable({ label, caption, rows }: { label: string; caption: string; rows: readonly CaseLine[] }) {
	return (
		<DataTable label={label} caption={caption} headings={['رقم الطلب', 'الاسم', 'البرنامج', 'الحالة', 'الانتظار']}>
			{rows.map((row) => (
				<tr key={row.reference} className="border-t border-stone-200 align-top">
					<td className="p-3 font-semibold whitespace-nowrap" dir="ltr">
						<Link to={`/admin/cases/${row.reference}`} className="link">
							{row.reference}
						</Link>
					</td>
					<td className="p-3">{row.name}</td>
					<td className="p-3">{row.programme}</td>
					<td className="p-3">
						<span className={`rounded-full px-3 py-1 text-xs font-bold whitespace-nowrap ${row.status.badge}`}>{row.status.name}</span>
					</td>
					<td className="p-3 whitespace-nowrap">{row.waited}</td>
				</tr>
			))}
		</DataTable>
	)
}

const panel = 'min-w-0 rounded-xl border border-stone-200 bg-white p-4 shadow-sm sm:p-5'

export default function Dashboard({ loaderData }: Route.ComponentProps) {
	const figures = loaderData.cases
	return (
		<>
			<PageTitle title="لوحة التحكم" />
			<h1 className="text-2xl font-bold text-brand-900">أهلاً {loaderData.name}</h1>

			{figures ? (
				<>
					<ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
						{figures.newWaiting.map((item) => (
							<li key={item.to}>
								<Link to={item.to} className="block h-full rounded-xl border border-stone-200 bg-white p-5 shadow-sm hover:border-brand-600">
									<span className="block text-3xl font-bold text-brand-800">{formatNumber(item.count)}</span>
									<span className="mt-1 block text-stone-700">{item.label}</span>
								</Link>
							</li>
						))}
					</ul>

					<div className="mt-6 grid gap-6 lg:grid-cols-2">
						<section aria-labelledby="counts-heading" className={`${panel} lg:col-span-2`}>
							<h2 id="counts-heading" className="text-lg font-bold text-brand-900">
								الطلبات حسب الحالة والبرنامج
							</h2>
							<DataTable
								label="جدول أعداد الطلبات"
								caption="أعداد الطلبات المرسلة حسب البرنامج والحالة"
								headings={['البرنامج', ...figures.statuses.map((status) => status.name), 'المجموع']}
								className="mt-3"
							>
								{figures.programmes.map((programme) => (
									<tr key={programme.type} className="border-t border-stone-200">
										<th scope="row" className="p-3 text-start font-semibold">
											{programme.title}
										</th>
										{programme.cells.map((cell) => (
											<td key={cell.status} className="p-3">
												{/* An empty list is not worth a link: zero stays plain. */}
												{cell.count ? (
													<Link to={cell.to} className="link">
														{formatNumber(cell.count)}
													</Link>
												) : (
													<span className="text-stone-600">0</span>
												)}
											</td>
										))}
										<td className="p-3 font-bold">{formatNumber(programme.total)}</td>
									</tr>
								))}
							</DataTable>
						</section>

						<section aria-labelledby="weeks-heading" className={panel}>
							<h2 id="weeks-heading" className="text-lg font-bold text-brand-900">
								الطلبات الجديدة أسبوعياً
							</h2>
							<p className="mb-3 text-sm text-stone-700">آخر {countOf(figures.weeks.length, weeksNoun)}، يبدأ كل أسبوع يوم السبت؛ الأحدث على اليسار.</p>
							<WeeklyChart weeks={figures.weeks} />
						</section>

						<section aria-labelledby="waiting-heading" className={panel}>
							<h2 id="waiting-heading" className="text-lg font-bold text-brand-900">
								الأطول انتظاراً
							</h2>
							<p className="mb-3 text-sm text-stone-700">الطلبات المفتوحة التي مضى أطول وقت على آخر تغيير في حالتها.</p>
							{figures.waiting.length ? (
								<CaseTable label="جدول الطلبات الأطول انتظاراً" caption="الطلبات المفتوحة الأطول انتظاراً" rows={figures.waiting} />
							) : (
								<p className="text-stone-700">لا توجد طلبات مفتوحة تنتظر إجراءً.</p>
							)}
						</section>

						<section aria-labelledby="mine-heading" className={`${panel} lg:col-span-2`}>
							<div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
								<h2 id="mine-heading" className="text-lg font-bold text-brand-900">
									طلباتي
								</h2>
								<Link to="/admin/cases?assigned=me" className="link">
									عرض كل طلباتي
								</Link>
							</div>
							{figures.mine.length ? (
								<CaseTable label="جدول طلباتي المفتوحة" caption="الطلبات المفتوحة المسندة إليك، الأطول انتظاراً أولاً" rows={figures.mine} />
							) : (
								<p className="text-stone-700">لا توجد طلبات مفتوحة مسندة إليك حالياً.</p>
							)}
						</section>
					</div>

					<h2 className="mt-8 text-lg font-bold text-brand-900">اختصارات</h2>
				</>
			) : null}

			<p className="mt-1 text-stone-700">اختر ما تريد إدارته.</p>
			{loaderData.cards.length ? (
				<ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
					{loaderData.cards.map((card) => (
						<li key={card.to}>
							<Link to={card.to} className="block h-full rounded-xl border border-stone-200 bg-white p-5 shadow-sm hover:border-brand-600">
								<span className="block text-lg font-bold text-brand-800">{card.title}</span>
								<span className="mt-1 block text-sm text-stone-700">{card.text}</span>
							</Link>
						</li>
					))}
				</ul>
			) : (
				<p className="mt-4 rounded-xl bg-white p-5">لا توجد شاشات متاحة لدورك حالياً.</p>
			)}
		</>
	)
}
