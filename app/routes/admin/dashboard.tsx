import { Link } from 'react-router'
import type { Route } from './+types/dashboard'
import { staffContext } from '#app/auth/user-context.server.ts'
import { areaRoles } from '#app/domain/roles.ts'
import { PageTitle } from '#app/components/forms.tsx'
import type { UserRole } from '#app/db/schema.ts'

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
	{ to: '/admin/foundation', title: 'بيانات المؤسسة', text: 'النبذة والعنوان والهواتف والبريد وحسابات التواصل والخريطة.', roles: areaRoles.content },
	{ to: '/admin/content/home/edit', title: 'الصفحة الرئيسية', text: 'العبارة الترحيبية والرؤية والرسالة والقيم والأهداف والفيديوهات وبطاقة المدير.', roles: areaRoles.content },
	{ to: '/admin/content/slides', title: 'شرائح العرض', text: 'الشرائح المتحركة في أعلى الصفحة الرئيسية.', roles: areaRoles.content },
	{ to: '/admin/content/programmes', title: 'البرامج', text: 'برامج المؤسسة التي تظهر في الصفحة الرئيسية وصفحة الخدمات.', roles: areaRoles.content },
	{ to: '/admin/content/visual-identity/edit', title: 'الهوية البصرية', text: 'نص دليل الهوية والألوان والشعار.', roles: areaRoles.content },
	{ to: '/admin/content/links', title: 'روابط مهمة', text: 'روابط التذييل: استبيانات الرضا والوظائف والشركاء.', roles: areaRoles.content },
	{ to: '/admin/content/announcement/edit', title: 'الإعلان المنبثق', text: 'صورة الإعلان ورابطه وفترة ظهوره.', roles: areaRoles.content },
	{ to: '/admin/content/organization-chart/edit', title: 'الهيكل التنظيمي', text: 'صورة الهيكل التنظيمي.', roles: areaRoles.content },
	{ to: '/admin/content/registration-certificate/edit', title: 'شهادة التسجيل', text: 'صورة شهادة التسجيل.', roles: areaRoles.content },
	{ to: '/admin/content/quality-certificate/edit', title: 'شهادة الجودة', text: 'صورة شهادة الجودة.', roles: areaRoles.content },
	{ to: '/admin/content/members', title: 'أعضاء مجلس الإدارة', text: 'إضافة الأعضاء وتعديلهم وحذفهم.', roles: areaRoles.content },
	{ to: '/admin/content/committees', title: 'اللجان', text: 'اللجان وأعضاؤها ومهامها.', roles: areaRoles.content },
	{ to: '/admin/content/chairman-speech/edit', title: 'كلمة رئيس مجلس الإدارة', text: 'نص الكلمة والصورة الشخصية.', roles: areaRoles.content },
	{ to: '/admin/inquiries', title: 'رسائل التواصل', text: 'الرسائل الواردة من نموذج التواصل.', roles: areaRoles.content },
	{ to: '/admin/cases', title: 'الطلبات', text: 'طلبات الدعم المرسلة من المستفيدين.', roles: areaRoles.cases },
	{ to: '/admin/intake', title: 'استقبال الطلبات', text: 'فتح التقديم على البرامج أو إيقافه مؤقتاً أو إغلاقه.', roles: areaRoles.users },
]

export function loader({ context }: Route.LoaderArgs) {
	const user = context.get(staffContext)
	return {
		name: user.name,
		cards: cards.filter((card) => card.roles.includes(user.role)).map(({ to, title, text }) => ({ to, title, text })),
	}
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
	return (
		<>
			<PageTitle title="لوحة التحكم" />
			<h1 className="text-2xl font-bold text-brand-900">أهلاً {loaderData.name}</h1>
			<p className="mt-1 text-stone-700">اختر ما تريد إدارته.</p>
			{loaderData.cards.length ? (
				<ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
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
				<p className="mt-6 rounded-xl bg-white p-5">لا توجد شاشات متاحة لدورك حالياً.</p>
			)}
		</>
	)
}
