// The public sections of the URL map (docs/product.md#url-map) and how the header groups them.
// Every page here has its own route (app/site/site-map.test.ts checks), so a link cannot point nowhere.

import { applicationDefinitions } from '#app/forms/registry.ts'

export interface SiteLink {
	to: string
	label: string
}

export interface SiteGroup {
	label: string
	links: SiteLink[]
}

/** The programmes' forms, in the registry's order and by their own titles: the one programme list (app/forms/registry.ts). */
export const applicationForms: readonly SiteLink[] = applicationDefinitions.map((definition) => ({ to: `/apply/${definition.type}`, label: definition.title }))

export interface SectionPage {
	path: string
	title: string
	/** One line that says what the page is for. */
	lead: string
	/** Child pages listed on this page. */
	links?: readonly SiteLink[]
}

/** The public site's pages as the header and the tests know them: path, title, lead and child links. */
export const sectionPages: readonly SectionPage[] = [
	{ path: '/chairman-speech', title: 'كلمة رئيس مجلس الإدارة', lead: 'كلمة رئيس مجلس إدارة المؤسسة إلى المستفيدين والشركاء والداعمين.' },
	{ path: '/organization-chart', title: 'الهيكل التنظيمي', lead: 'الهيكل التنظيمي للمؤسسة وإداراتها ولجانها.' },
	{ path: '/board-members', title: 'أعضاء مجلس الإدارة', lead: 'أعضاء مجلس إدارة المؤسسة ومناصبهم.' },
	{ path: '/committees', title: 'اللجان', lead: 'لجان المؤسسة الست: أعضاؤها ومهامها.' },
	{ path: '/basic-regulation', title: 'اللائحة الأساسية', lead: 'اللائحة الأساسية المعتمدة للمؤسسة.' },
	{ path: '/certificates/registration', title: 'شهادة التسجيل', lead: 'شهادة تسجيل المؤسسة لدى وزارة الموارد البشرية والتنمية الاجتماعية.' },
	{ path: '/certificates/quality', title: 'شهادة الجودة', lead: 'شهادة الجودة الحاصلة عليها المؤسسة.' },
	{ path: '/visual-identity', title: 'الهوية البصرية', lead: 'دليل الهوية البصرية للمؤسسة: الشعار والألوان والخطوط.' },
	{ path: '/policies', title: 'السياسات واللوائح', lead: 'السياسات واللوائح المعتمدة في المؤسسة.' },
	{ path: '/governance/2024', title: 'دليل الحوكمة 2024', lead: 'متطلبات الحوكمة لعام 2024 ووثائقها.' },
	{ path: '/governance/2023', title: 'دليل الحوكمة 2023', lead: 'متطلبات الحوكمة لعام 2023 ووثائقها.' },
	{ path: '/governance/2022', title: 'دليل الحوكمة 2022', lead: 'متطلبات الحوكمة لعام 2022 ووثائقها.' },
	{ path: '/reports/yearly', title: 'التقارير السنوية', lead: 'التقارير السنوية لأعمال المؤسسة وإنجازاتها.' },
	{ path: '/reports/financial', title: 'التقارير المالية', lead: 'القوائم المالية الربعية والسنوية للمؤسسة.' },
	{ path: '/reports/workshops', title: 'تقارير ورش العمل', lead: 'تقارير ورش العمل التي نظمتها المؤسسة أو شاركت فيها.' },
	{ path: '/projects/2023', title: 'المشاريع المدعومة 2023', lead: 'المشاريع التي دعمتها المؤسسة عام 2023.' },
	{ path: '/projects/2022', title: 'المشاريع المدعومة 2022', lead: 'المشاريع التي دعمتها المؤسسة عام 2022.' },
	{ path: '/impact', title: 'أثرنا', lead: 'الأسر والجهات التي دعمتها المؤسسة وما صرفته لها، حسب البرنامج والعام.' },
	{ path: '/news', title: 'الأخبار', lead: 'أخبار المؤسسة وفعالياتها.' },
	{ path: '/gallery', title: 'معرض الصور', lead: 'صور من برامج المؤسسة وفعالياتها.' },
	{ path: '/gallery/videos', title: 'معرض الفيديو', lead: 'مقاطع مرئية عن برامج المؤسسة وفعالياتها.' },
	{ path: '/services', title: 'خدماتنا', lead: 'برامج المؤسسة لخدمة المستفيدين.' },
	{
		path: '/apply',
		title: 'تقديم طلب',
		lead: 'اختر البرنامج الذي تريد التقديم عليه، أو استعلم عن طلب سابق.',
		links: [...applicationForms, { to: '/apply/status', label: 'الاستعلام عن طلب' }],
	},
	...applicationForms.map((form) => ({ path: form.to, title: form.label, lead: 'نموذج التقديم الإلكتروني لهذا البرنامج.' })),
	{ path: '/apply/status', title: 'الاستعلام عن طلب', lead: 'استعلم عن حالة طلبك برقم الهوية ورقم الجوال.' },
	{ path: '/privacy', title: 'إشعار الخصوصية', lead: 'كيف نجمع بياناتك الشخصية ونستخدمها ونحميها، وحقوقك عليها.' },
]

/** A link to a page of this map, labelled with the page's own title unless another label is given. */
function linkTo(path: string, label?: string): SiteLink {
	const title = label ?? sectionPages.find((page) => page.path === path)?.title
	if (!title) throw new Error(`site-map: no page at ${path}`)
	return { to: path, label: title }
}

export const navigation: readonly (SiteLink | SiteGroup)[] = [
	{ to: '/', label: 'الرئيسية' },
	{
		label: 'عن المؤسسة',
		links: [
			linkTo('/about', 'نبذة عن المؤسسة'),
			...['/chairman-speech', '/organization-chart', '/board-members', '/committees'].map((path) => linkTo(path)),
			...['/certificates/registration', '/certificates/quality', '/visual-identity'].map((path) => linkTo(path)),
		],
	},
	{
		label: 'الحوكمة',
		links: ['/basic-regulation', '/policies', '/governance/2024', '/governance/2023', '/governance/2022'].map((path) => linkTo(path)),
	},
	{
		label: 'التقارير',
		links: ['/impact', '/reports/yearly', '/reports/financial', '/reports/workshops', '/projects/2023', '/projects/2022'].map((path) => linkTo(path)),
	},
	{
		label: 'المركز الإعلامي',
		links: ['/news', '/gallery', '/gallery/videos'].map((path) => linkTo(path)),
	},
	{ to: '/services', label: 'خدماتنا' },
	{
		label: 'الطلبات',
		links: [linkTo('/apply'), ...applicationForms, linkTo('/apply/status')],
	},
	{ to: '/contact', label: 'تواصل معنا' },
]

export function findSectionPage(pathname: string): SectionPage | undefined {
	const path = pathname.replace(/\/+$/, '').toLowerCase() || '/'
	return sectionPages.find((page) => page.path === path)
}


/** Every public path the header links to. */
export function navigationPaths(): string[] {
	return navigation.flatMap((item) => ('links' in item ? item.links.map((link) => link.to) : [item.to]))
}
