import type { DocumentCategory } from './types.ts'

// Demo content of the documents library and the basic regulation (docs/product.md#documents-library):
// realistic titles for a Saudi charity, and small drawings the seed turns into one-page PDFs and page
// images. The drawings are few and small, and only their text changes, so the first start stays quick.

export interface DemoDocument {
	category: DocumentCategory
	title: string
	year: number
	number: number
	summary: string
}

const policies = [
	'سياسة تعارض المصالح',
	'سياسة الإبلاغ عن المخالفات وحماية المبلغين',
	'سياسة الاحتفاظ بالوثائق وإتلافها',
	'سياسة خصوصية البيانات وحمايتها',
	'سياسة جمع التبرعات',
	'سياسة المشتريات والتعاقدات',
	'سياسة إدارة المخاطر',
	'سياسة الصلاحيات المالية والإدارية',
	'سياسة التطوع وإدارة المتطوعين',
	'سياسة العلاقة مع المستفيدين',
	'سياسة الشكاوى والمقترحات',
	'سياسة مكافحة غسل الأموال وتمويل الإرهاب',
	'سياسة الاستثمار وتنمية الموارد',
	'سياسة الموارد البشرية',
	'سياسة السفر والانتدابات',
	'سياسة الإفصاح والشفافية',
	'سياسة الهدايا والضيافة',
	'سياسة استخدام الأصول والممتلكات',
	'سياسة أمن المعلومات',
	'لائحة عمل مجلس الإدارة',
]

const quarters = ['الربع الأول', 'الربع الثاني', 'الربع الثالث', 'الربع الرابع']

const workshopTopics = [
	'بناء القدرات المؤسسية للجمعيات الأهلية',
	'قياس الأثر الاجتماعي للبرامج',
	'الحوكمة والشفافية في القطاع غير الربحي',
	'إدارة التطوع وتحفيز المتطوعين',
	'التخطيط الاستراتيجي للمنظمات الخيرية',
	'تنمية الموارد المالية والاستدامة',
	'التحول الرقمي في العمل الخيري',
	'دراسة الحالات الاجتماعية وأساليب البحث',
	'الشراكات بين القطاعين الخيري والخاص',
	'التمكين الاقتصادي للأسر المنتجة',
]

const governanceItems = [
	'النظام الأساسي المعتمد للمؤسسة',
	'محاضر اجتماعات مجلس الأمناء',
	'محاضر اجتماعات مجلس الإدارة',
	'الخطة الاستراتيجية والخطة التشغيلية',
	'القوائم المالية المدققة',
	'الموازنة التقديرية المعتمدة',
	'تقرير لجنة المراجعة',
	'سجل الإفصاح عن تعارض المصالح',
	'دليل السياسات والإجراءات',
	'الهيكل التنظيمي المعتمد',
	'تقرير قياس رضا المستفيدين',
	'تقرير الالتزام بمعايير الحوكمة',
	'سجل الأصول والممتلكات',
]

const projects2022 = [
	['مشروع السلة الغذائية الرمضانية', 'توزيع ألفي سلة غذائية على الأسر المسجلة في أحياء جنوب الرياض خلال شهر رمضان.'],
	['مشروع ترميم منازل الأسر المتعففة', 'ترميم خمسة وعشرين منزلاً وتأهيلها بالأثاث والأجهزة الأساسية.'],
	['مشروع كسوة العيد', 'كسوة ألف وخمسمئة طفل من أبناء الأسر المستفيدة قبل عيد الفطر.'],
	['مشروع سداد فواتير الكهرباء', 'سداد نصف فواتير الكهرباء المتأخرة عن ثلاثمئة أسرة خلال فصل الصيف.'],
] as const

const projects2023 = [
	['مشروع دعم الجمعيات الصحية', 'دعم تشغيلي لجمعيتين صحيتين لتوفير الأجهزة الطبية والعلاج الطبيعي للمرضى المحتاجين.'],
	['مشروع تمكين الجمعيات الأهلية الناشئة', 'منح لبناء القدرات وتأهيل الكوادر في خمس جمعيات أهلية ناشئة في منطقة الرياض.'],
] as const

/** Every demo document, in each category's order. */
export function demoDocuments(): DemoDocument[] {
	const doc = (category: DocumentCategory, title: string, year = 0, number = 0, summary = ''): DemoDocument => ({ category, title, year, number, summary })
	return [
		...policies.map((title) => doc('policies', title, 2024)),
		...[2024, 2023].flatMap((year) => [
			...quarters.map((quarter) => doc('financial', `القوائم المالية الأولية — ${quarter} ${year}`, year)),
			doc('financial', `القوائم المالية السنوية المدققة ${year}`, year),
		]),
		...[2024, 2023, 2022].flatMap((year) => workshopTopics.map((topic) => doc('workshops', `تقرير ورشة عمل: ${topic}`, year))),
		...[2024, 2023, 2022, 2021].map((year) => doc('yearly', `التقرير السنوي لأعمال المؤسسة ${year}`, year)),
		// 2023 and 2024 have no item 12: the numbers are the ministry's, kept as they are.
		...[2022, 2023, 2024].flatMap((year) =>
			governanceItems.flatMap((item, index) => (year > 2022 && index + 1 === 12 ? [] : [doc(`governance-${year}` as DocumentCategory, `${item} ${year}`, year, index + 1)])),
		),
		...projects2022.map(([title, summary]) => doc('projects-2022', title, 2022, 0, summary)),
		...projects2023.map(([title, summary]) => doc('projects-2023', title, 2023, 0, summary)),
	]
}

const font = `font-family="DejaVu Sans, Noto Kufi Arabic, sans-serif"`

/** The colour and heading of each category's drawing: a handful of looks, the title the only change. */
const looks: Record<string, { colour: string; heading: string }> = {
	policies: { colour: '#0f6251', heading: 'السياسات واللوائح' },
	financial: { colour: '#8a5f14', heading: 'التقارير المالية' },
	workshops: { colour: '#137a64', heading: 'تقارير ورش العمل' },
	yearly: { colour: '#0b3f36', heading: 'التقرير السنوي' },
	governance: { colour: '#4b5563', heading: 'متطلبات الحوكمة' },
	projects: { colour: '#9f1239', heading: 'المشاريع المدعومة' },
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;')

/** Splits a title into lines of at most ~`width` characters, on words. */
function lines(text: string, width: number): string[] {
	const out: string[] = []
	for (const word of text.split(' ')) {
		const last = out.at(-1)
		if (last !== undefined && last.length + word.length < width) out[out.length - 1] = `${last} ${word}`
		else out.push(word)
	}
	return out
}

/** A small A4-shaped cover page: the category's band, the title, the foundation's name. */
export function documentSvg(document: DemoDocument): string {
	const look = looks[document.category.replace(/-\d+$/, '')] ?? looks.policies!
	const title = lines(document.title, 26)
		.map((line, i) => `<text x="210" y="${250 + i * 34}" ${font} font-size="24" fill="#1c1917" text-anchor="middle">${escape(line)}</text>`)
		.join('')
	return `<svg xmlns="http://www.w3.org/2000/svg" width="420" height="594" viewBox="0 0 420 594">
<rect width="420" height="594" fill="#ffffff"/><rect width="420" height="120" fill="${look.colour}"/>
<text x="210" y="58" ${font} font-size="22" fill="#ffffff" text-anchor="middle">مؤسسة عطاء الخيرية</text>
<text x="210" y="94" ${font} font-size="16" fill="#fbf1dc" text-anchor="middle">${look.heading}</text>
${title}
${document.year ? `<text x="210" y="470" ${font} font-size="20" fill="#57534e" text-anchor="middle">${document.year}م</text>` : ''}
<rect x="40" y="530" width="340" height="4" fill="${look.colour}"/>
<text x="210" y="568" ${font} font-size="13" fill="#57534e" text-anchor="middle">الرياض — المملكة العربية السعودية</text>
</svg>`
}

/** The file name a demo PDF is offered under. */
export const documentFileName = (document: DemoDocument) => `${document.title.replace(/[\\/:*?"<>|]/g, '-')}.pdf`

/** The basic regulation's demo chapters: each page shows one article's heading and some lines. */
const chapters = ['التعريفات', 'اسم المؤسسة ومقرها', 'أهداف المؤسسة', 'موارد المؤسسة', 'مجلس الأمناء', 'مجلس الإدارة', 'اختصاصات المجلس', 'المدير التنفيذي', 'الشؤون المالية', 'أحكام ختامية']

export const REGULATION_PAGES = 20

/** Page `n` (1-based) of the basic regulation, as a drawn sheet. */
export function regulationPageSvg(n: number): string {
	const chapter = chapters[Math.floor((n - 1) / 2)] ?? chapters[0]!
	const rows = Array.from({ length: 12 }, (_, i) => `<rect x="${60 + (i % 3) * 20 + (i % 4) * 30}" y="${230 + i * 34}" width="${480 - (i % 3) * 20 - (i % 4) * 30}" height="10" rx="5" fill="#d6d3d1"/>`).join('')
	return `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="1131" viewBox="0 0 600 848">
<rect width="600" height="848" fill="#fffdf7"/><rect x="20" y="20" width="560" height="808" fill="none" stroke="#c08a2b" stroke-width="3"/>
<text x="300" y="90" ${font} font-size="26" fill="#0f6251" text-anchor="middle">اللائحة الأساسية لمؤسسة عطاء الخيرية</text>
<text x="300" y="170" ${font} font-size="24" fill="#1c1917" text-anchor="middle">الباب ${Math.ceil(n / 2)}: ${chapter}</text>
${rows}
<text x="300" y="790" ${font} font-size="18" fill="#57534e" text-anchor="middle">صفحة ${n} من ${REGULATION_PAGES}</text>
</svg>`
}
