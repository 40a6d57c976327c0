import { createHash } from 'node:crypto'
import fsp from 'node:fs/promises'
import sharp from 'sharp'
import type { Database } from '#app/db/client.server.ts'
import { makeDocument } from '#app/pdf/page-pdf.server.ts'
import { storeDocument } from '#app/documents/documents-library.server.ts'
import { seedPicture } from '#app/images/deferred.server.ts'
import type { FileStorage } from '#app/storage/file-storage.server.ts'
import type { ContentType } from './definition.ts'
import { countEntries, saveEntry } from './store.server.ts'
import { demoDocuments, documentFileName, documentSvg, REGULATION_PAGES, regulationPageSvg } from './seed-library.ts'
import { seedNews } from './seed-news.server.ts'
import { seedGallery } from '#app/content/gallery/seed-gallery.server.ts'
import {
	announcement,
	chairmanSpeech,
	committees,
	externalLinks,
	homePage,
	jobAds,
	libraryDocuments,
	members,
	organizationChart,
	programmesType,
	qualityCertificate,
	registrationCertificate,
	regulationPages,
	slides,
	visualIdentity,
} from './types.ts'

// Demo content for a first start: realistic Arabic for a Saudi charity, with portrait placeholders
// drawn here (no photo of anyone real). Types that already have entries are left alone.

/** A neutral portrait placeholder: a silhouette on a soft colour. */
function portraitSvg(hue: number): string {
	return `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="480" viewBox="0 0 480 480">
<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="hsl(${hue},35%,88%)"/><stop offset="1" stop-color="hsl(${hue},35%,74%)"/></linearGradient></defs>
<rect width="480" height="480" fill="url(#g)"/>
<circle cx="240" cy="185" r="88" fill="hsl(${hue},22%,42%)"/>
<path d="M80 480c0-104 72-170 160-170s160 66 160 170z" fill="hsl(${hue},22%,42%)"/>
</svg>`
}

const portrait = (db: Database, storage: FileStorage, hue: number, alt: string) => picture(db, storage, portraitSvg(hue), alt)

const boardMembers = [
	['د. عبدالرحمن بن صالح العتيبي', 'رئيس مجلس الإدارة'],
	['أ. فهد بن محمد القحطاني', 'نائب رئيس مجلس الإدارة'],
	['أ. نورة بنت عبدالله الدوسري', 'المشرفة المالية'],
	['م. خالد بن سعد الشهري', 'أمين الصندوق'],
	['أ. سارة بنت فيصل الحربي', 'عضو مجلس الإدارة'],
	['د. ماجد بن علي الغامدي', 'عضو مجلس الإدارة'],
	['أ. هيا بنت ناصر المطيري', 'عضو مجلس الإدارة'],
	['أ. تركي بن عبدالعزيز السبيعي', 'عضو مجلس الإدارة'],
] as const

const committeeList = [
	['اللجنة التنفيذية', ['أ. فهد القحطاني (رئيساً)', 'م. خالد الشهري', 'أ. هيا المطيري'], ['متابعة تنفيذ قرارات مجلس الإدارة', 'إقرار الخطط التشغيلية ومتابعة مؤشرات الأداء', 'رفع التقارير الدورية إلى المجلس']],
	['لجنة إدارة المخاطر', ['د. ماجد الغامدي (رئيساً)', 'أ. سارة الحربي', 'أ. تركي السبيعي'], ['تحديد المخاطر التشغيلية والمالية وتقييمها', 'اقتراح سياسات الحد من المخاطر', 'متابعة خطط استمرارية الأعمال']],
	['لجنة المراجعة والتدقيق الداخلي', ['أ. نورة الدوسري (رئيسة)', 'د. ماجد الغامدي'], ['مراجعة القوائم المالية قبل اعتمادها', 'متابعة أعمال المراجع الخارجي', 'التحقق من الالتزام باللوائح والأنظمة']],
	['لجنة متابعة الجودة والأداء', ['أ. سارة الحربي (رئيسة)', 'أ. هيا المطيري'], ['قياس رضا المستفيدين والشركاء', 'متابعة مؤشرات جودة الخدمات', 'اقتراح فرص التحسين المستمر']],
	['لجنة الموارد المالية', ['م. خالد الشهري (رئيساً)', 'أ. فهد القحطاني', 'أ. تركي السبيعي'], ['تنمية موارد المؤسسة وتنويعها', 'بناء الشراكات مع الجهات المانحة', 'الإشراف على حملات جمع التبرعات']],
	['لجنة التخطيط والتطوير', ['د. عبدالرحمن العتيبي (رئيساً)', 'أ. نورة الدوسري'], ['إعداد الخطة الاستراتيجية ومتابعتها', 'دراسة احتياجات المجتمع المحلي', 'تطوير البرامج والمبادرات الجديدة']],
] as const

const speech = `<p>بسم الله والحمد لله، والصلاة والسلام على رسول الله، أما بعد:</p>
<p>فإن مؤسسة عطاء الخيرية تمضي بعون الله في رسالتها نحو تمكين الأسر المحتاجة والوقوف إلى جانب المرضى وترميم مساكن المتعففين، إيماناً بأن العطاء مسؤولية مشتركة يتكامل فيها المحسنون والمتطوعون والجهات الحكومية والأهلية.</p>
<p>وقد حرصنا على أن تصل خدماتنا إلى مستحقيها بيسر وكرامة، فأتحنا التقديم الإلكتروني ومتابعة الطلبات، والتزمنا بمعايير الحوكمة والشفافية في كل ما نقدمه.</p>
<p>أسأل الله أن يبارك في الجهود، وأن يجزي الداعمين والشركاء خير الجزاء.</p>`

const font = `font-family="DejaVu Sans, Noto Kufi Arabic, sans-serif"`

/** The organisation chart drawn as boxes and lines. */
function orgChartSvg(): string {
	const box = (x: number, y: number, w: number, label: string, fill = '#0f6251') =>
		`<rect x="${x}" y="${y}" width="${w}" height="64" rx="12" fill="${fill}"/><text x="${x + w / 2}" y="${y + 40}" ${font} font-size="22" fill="#fff" text-anchor="middle">${label}</text>`
	const departments = ['إدارة البرامج', 'إدارة الموارد المالية', 'إدارة الشؤون الإدارية', 'إدارة التطوع والشراكات']
	return `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="720" viewBox="0 0 1600 720" direction="rtl">
<rect width="1600" height="720" fill="#f8faf9"/>
<g stroke="#8a5f14" stroke-width="4" fill="none"><path d="M800 124v56M800 284v56M200 400h1200M200 400v56M600 400v56M1000 400v56M1400 400v56M800 340v60"/></g>
${box(600, 60, 400, 'الجمعية العمومية', '#8a5f14')}
${box(600, 180, 400, 'مجلس الإدارة')}
${box(600, 284, 400, 'المدير التنفيذي', '#137a64')}
${departments.map((label, i) => box(40 + i * 400, 456, 320, label, '#0b3f36')).join('')}
<text x="800" y="640" ${font} font-size="20" fill="#57534e" text-anchor="middle">اللجان: التنفيذية، المخاطر، المراجعة، الجودة، الموارد المالية، التخطيط والتطوير</text>
</svg>`
}

/** A certificate placeholder: a framed sheet with the foundation's name. */
function certificateSvg(title: string, issuer: string): string {
	return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="850" viewBox="0 0 1200 850">
<rect width="1200" height="850" fill="#fbf7ee"/><rect x="30" y="30" width="1140" height="790" fill="none" stroke="#c08a2b" stroke-width="10"/>
<rect x="56" y="56" width="1088" height="738" fill="none" stroke="#0f6251" stroke-width="3"/>
<text x="600" y="210" ${font} font-size="56" fill="#0f6251" text-anchor="middle">${title}</text>
<text x="600" y="330" ${font} font-size="34" fill="#1c1917" text-anchor="middle">مؤسسة عطاء الخيرية</text>
<text x="600" y="420" ${font} font-size="26" fill="#57534e" text-anchor="middle">${issuer}</text>
<circle cx="600" cy="610" r="90" fill="none" stroke="#c08a2b" stroke-width="8"/><text x="600" y="622" ${font} font-size="28" fill="#8a5f14" text-anchor="middle">معتمد</text>
</svg>`
}

/** The job ads the footer's «الوظائف المتاحة» opens. */
function jobAdsSvg(): string {
	const jobs = ['باحث اجتماعي — دوام كامل — الرياض', 'محاسب — دوام كامل — الرياض', 'منسق تطوع وشراكات — دوام جزئي']
	return `<svg xmlns="http://www.w3.org/2000/svg" width="1080" height="1080" viewBox="0 0 1080 1080">
<rect width="1080" height="1080" fill="#fbf7ee"/><rect width="1080" height="260" fill="#0f6251"/>
<text x="540" y="150" ${font} font-size="72" fill="#fbf1dc" text-anchor="middle">انضم إلى فريق عطاء</text>
<text x="540" y="215" ${font} font-size="30" fill="#fff" text-anchor="middle">وظائف متاحة لعام ١٤٤٨هـ</text>
${jobs.map((job, i) => `<rect x="120" y="${340 + i * 170}" width="840" height="120" rx="20" fill="#fff" stroke="#c08a2b" stroke-width="4"/><text x="540" y="${412 + i * 170}" ${font} font-size="36" fill="#0b3f36" text-anchor="middle">${job}</text>`).join('')}
<text x="540" y="930" ${font} font-size="30" fill="#57534e" text-anchor="middle">أرسل سيرتك الذاتية إلى jobs@ataa.org.sa</text>
<text x="540" y="985" ${font} font-size="24" fill="#57534e" text-anchor="middle">آخر موعد للتقديم: نهاية الشهر الجاري</text>
</svg>`
}

/** The announcement image of the demo window, 2025-09-22 to 2025-09-24 (docs/product.md#business-constants). */
function announcementSvg(): string {
	return `<svg xmlns="http://www.w3.org/2000/svg" width="1120" height="800" viewBox="0 0 1120 800">
<rect width="1120" height="800" fill="#0f6251"/><circle cx="960" cy="120" r="220" fill="#137a64"/><circle cx="140" cy="720" r="200" fill="#0b3f36"/>
<text x="560" y="300" ${font} font-size="64" fill="#fbf1dc" text-anchor="middle">حملة اليوم الوطني</text>
<text x="560" y="400" ${font} font-size="36" fill="#fff" text-anchor="middle">سلال غذائية لألف أسرة في منطقة الرياض</text>
<text x="560" y="520" ${font} font-size="30" fill="#fbf1dc" text-anchor="middle">ساهم معنا — عطاؤك يصل إلى من يستحق</text>
</svg>`
}

// Recorded at once; the variants are made on first request or in the background after start-up.
const picture = (db: Database, storage: FileStorage, svg: string, alt: string) => seedPicture(db, storage, svg, alt)

/** A one-page PDF of the drawing, stored as a published document (a certificate's «scan»). */
async function pdfDocument(db: Database, storage: FileStorage, svg: string, name: string): Promise<string> {
	const data = await sharp(Buffer.from(svg)).flatten({ background: '#ffffff' }).jpeg({ quality: 85 }).toBuffer()
	const { pdf } = await makeDocument(name.replace(/\.pdf$/, ''), [{ kind: 'photo', bytes: data }])
	const tempPath = storage.tempPath()
	await fsp.writeFile(tempPath, pdf)
	const sha256 = createHash('sha256').update(pdf).digest('hex')
	return (await storeDocument(db, storage, { tempPath, originalName: name, size: pdf.length, sha256 }, null)).id
}

/** The foundation's six programmes (docs/product.md#content-that-staff-edit), with the application each one leads to. */
const programmeList = [
	['needy-families', 'دعم الأسر المحتاجة', 'دعم مقطوع للأسر المحتاجة يعينها على متطلبات الحياة الأساسية.', 'family', 'brand', '/apply/needy-families', ['دعم مالي مقطوع بعد دراسة الحالة', 'أولوية للأسر التي يعولها أرامل أو مطلقات', 'زيارة ميدانية من باحثي المؤسسة']],
	['home-restoration', 'ترميم المنازل', 'ترميم مساكن الأسر المتعففة وتأهيلها لتكون آمنة وصالحة للسكن.', 'home', 'gold', '/apply/home-restoration', ['إصلاح الأسقف والجدران والتسربات', 'تجديد دورات المياه والمطابخ', 'تأهيل التمديدات الكهربائية']],
	['medical-cases', 'دعم الحالات المرضية', 'مساندة المرضى في تكاليف العلاج والأجهزة والمستلزمات الطبية.', 'medical', 'sky', '/apply/medical-case', ['المساهمة في تكاليف العلاج', 'توفير الأجهزة الطبية المساندة', 'النقل إلى المواعيد الطبية']],
	['food-basket', 'السلة الغذائية', 'سلال غذائية شهرية تصل إلى الأسر المستحقة.', 'food', 'brand', '/apply/needy-families', ['سلة شهرية تكفي أسرة متوسطة', 'توزيع بالتنسيق مع الجمعيات الشريكة']],
	['eid-clothing', 'كسوة العيد', 'كسوة العيد لأبناء الأسر المستفيدة لإدخال الفرحة عليهم.', 'clothing', 'rose', '/apply/needy-families', ['بطاقات شراء من متاجر معتمدة', 'تُصرف قبل عيدي الفطر والأضحى']],
	['bill-payment', 'سداد فواتير المستفيدين', 'سداد 50% من فواتير الخدمات عن الأسر المستفيدة.', 'bill', 'gold', '/apply/needy-families', ['سداد 50% من فواتير الكهرباء والمياه', 'للأسر المسجلة لدى المؤسسة']],
] as const

/** A slide: a wide illustration in the brand colours (the words are on the page, not in the image). */
function slideSvg(hue: number, shape: 'home' | 'basket' | 'heart'): string {
	const shapes = {
		home: '<path d="M780 300 960 150 1140 300v170H780z" fill="#fbf1dc"/><rect x="930" y="360" width="60" height="110" fill="hsl(HUE,45%,30%)"/>',
		basket: '<path d="M760 260h400l-40 210H800z" fill="#fbf1dc"/><circle cx="880" cy="230" r="40" fill="#c08a2b"/><circle cx="980" cy="215" r="48" fill="#e7b85c"/><circle cx="1060" cy="235" r="36" fill="#c08a2b"/>',
		heart: '<path d="M960 470s-190-110-190-240a100 100 0 0 1 190-44 100 100 0 0 1 190 44c0 130-190 240-190 240z" fill="#fbf1dc"/>',
	}
	return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="500" viewBox="0 0 1200 500">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},45%,30%)"/><stop offset="1" stop-color="hsl(${hue},45%,18%)"/></linearGradient></defs>
<rect width="1200" height="500" fill="url(#g)"/><circle cx="200" cy="80" r="160" fill="#fff" opacity=".06"/><circle cx="420" cy="520" r="220" fill="#fff" opacity=".05"/>
${shapes[shape].replace('HUE', String(hue))}</svg>`
}

async function seedType(db: Database, type: ContentType, create: () => Promise<void>): Promise<void> {
	if ((await countEntries(db, type)) === 0) await create()
}

export async function seedContent(db: Database, storage: FileStorage): Promise<void> {
	await seedType(db, homePage, async () => {
		await saveEntry(
			db,
			homePage,
			null,
			{
				heroTitle: 'عطاءٌ يصل إلى من يستحقه',
				heroText: 'نعمل مع المحسنين والشركاء على تمكين الأسر المحتاجة، ومساندة المرضى، وترميم مساكن المتعففين في منطقة الرياض، بشفافية وكرامة.',
				vision: 'أن نكون المؤسسة الخيرية الأقرب إلى الأسر المحتاجة والأكثر أثراً في تمكينها.',
				mission: 'تقديم دعم نوعي ومستدام للأسر المحتاجة والمرضى عبر برامج مدروسة وشراكات فاعلة وحوكمة رشيدة.',
				values: ['الأمانة', 'الشفافية', 'الإتقان', 'الرحمة', 'الشراكة'].join('\n'),
				goals: [
					'تلبية الاحتياجات الأساسية للأسر المحتاجة',
					'مساندة المرضى في تكاليف العلاج والرعاية',
					'ترميم مساكن الأسر المتعففة وتأهيلها',
					'تعزيز الشراكات مع الجهات المانحة والجمعيات',
					'رفع كفاءة العمل الخيري بالحوكمة والتقنية',
				].join('\n'),
				socialTimeline: 'https://x.com/ataa_charity',
				directorName: 'أ. محمد بن عبدالله الزهراني',
				directorPhone: '0501234567',
				directorEmail: 'director@ataa.org.sa',
			},
			null,
		)
	})
	await seedType(db, slides, async () => {
		const list = [
			[165, 'home', 'ترميم مئة منزل لأسر متعففة', 'شارك في إعادة الأمان إلى بيوت الأسر في أحياء الرياض.', '/services/home-restoration'],
			[35, 'basket', 'السلة الغذائية الشهرية', 'أكثر من ألف أسرة تصلها سلتها كل شهر بفضل الله ثم دعمكم.', '/services/food-basket'],
			[200, 'heart', 'قدّم طلب الدعم إلكترونياً', 'قدّم طلبك من جوالك وتابع حالته في أي وقت.', '/apply'],
		] as const
		for (const [index, [hue, shape, title, text, link]] of list.entries()) {
			const image = await picture(db, storage, slideSvg(hue, shape), title)
			await saveEntry(db, slides, null, { image, title, text, link, order: index + 1 }, null)
		}
	})
	await seedType(db, programmesType, async () => {
		for (const [index, [slug, Name, summary, Icon, ColorIcon, Link, points]] of programmeList.entries()) {
			// The summary is the page's lead already; the details say what the programme gives.
			const Deatils = `<p>ما يقدمه البرنامج:</p><ul>${points.map((point) => `<li>${point}</li>`).join('')}</ul>`
			await saveEntry(db, programmesType, null, { Name, slug, summary, Deatils, Icon, ColorIcon, Link, order: index + 1 }, null)
		}
	})
	await seedType(db, externalLinks, async () => {
		const links = [
			['استبيان رضا المستفيدين', 'https://forms.office.com/r/ataa-beneficiaries'],
			['استبيان رضا الشركاء والداعمين', 'https://forms.office.com/r/ataa-partners'],
			['الوظائف المتاحة', '/jobs'],
		] as const
		for (const [index, [label, url]] of links.entries()) await saveEntry(db, externalLinks, null, { label, url, order: index + 1 }, null)
	})
	await seedType(db, visualIdentity, async () => {
		const logo = await picture(
			db,
			storage,
			`<svg xmlns="http://www.w3.org/2000/svg" width="720" height="720" viewBox="0 0 48 48"><rect width="48" height="48" fill="#fff"/><circle cx="24" cy="24" r="23" fill="#0f6251"/><path d="M24 9c6 3.5 8.5 9 6.5 15-1.7-3.2-4.2-5.4-6.5-6.5-2.3 1.1-4.8 3.3-6.5 6.5C15.5 18 18 12.5 24 9Z" fill="#c08a2b"/><path d="M11 27.5c2.5-.8 4.6.3 6.2 2.2l2.6 3.1h6.7c1.3 0 2.2.9 2.2 2s-.9 2-2.2 2h-5.3m7.3-.4 6.4-4.6c1.1-.8 2.6-.6 3.4.5.8 1 .6 2.4-.4 3.2L31 42H17l-6-4.5" fill="none" stroke="#fff" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/></svg>`,
			'شعار مؤسسة عطاء الخيرية',
		)
		const text = '<p>يجمع شعار مؤسسة عطاء بين يدٍ مبسوطة بالعطاء وورقةٍ تنمو فوقها، رمزاً للخير الذي يثمر في حياة الأسر. يُستخدم الشعار على خلفية بيضاء أو على اللون الأخضر الأساسي، ولا يُغيَّر في ألوانه أو نسبه.</p><p>الخط المعتمد في المطبوعات والموقع: نوتو كوفي العربي.</p>'
		await saveEntry(db, visualIdentity, null, { text, colours: 'الأخضر الأساسي #0f6251\nالأخضر الداكن #0b3f36\nالذهبي #c08a2b\nالعاجي #fbf1dc', logo }, null)
	})
	await seedType(db, announcement, async () => {
		const image = await picture(db, storage, announcementSvg(), 'حملة اليوم الوطني: سلال غذائية لألف أسرة')
		await saveEntry(db, announcement, null, { active: true, image, title: 'حملة اليوم الوطني: سلال غذائية لألف أسرة', link: '/services/food-basket', startDate: '2025-09-22', endDate: '2025-09-24' }, null)
	})
	await seedType(db, jobAds, async () => {
		const image = await picture(db, storage, jobAdsSvg(), 'إعلان الوظائف المتاحة في مؤسسة عطاء: باحث اجتماعي، محاسب، منسق تطوع وشراكات')
		await saveEntry(db, jobAds, null, { image, caption: 'الوظائف المتاحة حالياً في المؤسسة وطريقة التقديم عليها.' }, null)
	})
	await seedType(db, organizationChart, async () => {
		const image = await picture(db, storage, orgChartSvg(), 'الهيكل التنظيمي لمؤسسة عطاء الخيرية')
		await saveEntry(db, organizationChart, null, { image, caption: 'الهيكل التنظيمي المعتمد من مجلس الإدارة.' }, null)
	})
	await seedType(db, registrationCertificate, async () => {
		const svg = certificateSvg('شهادة تسجيل', 'وزارة الموارد البشرية والتنمية الاجتماعية — رقم التسجيل 1234')
		const image = await picture(db, storage, svg, 'شهادة تسجيل المؤسسة')
		const pdf = await pdfDocument(db, storage, svg, 'شهادة تسجيل مؤسسة عطاء.pdf')
		await saveEntry(db, registrationCertificate, null, { image, pdf, caption: 'شهادة تسجيل المؤسسة لدى وزارة الموارد البشرية والتنمية الاجتماعية.' }, null)
	})
	await seedType(db, qualityCertificate, async () => {
		const svg = certificateSvg('شهادة الجودة', 'نظام إدارة الجودة ISO 9001:2015')
		const image = await picture(db, storage, svg, 'شهادة الجودة')
		const pdf = await pdfDocument(db, storage, svg, 'شهادة الجودة ISO 9001.pdf')
		await saveEntry(db, qualityCertificate, null, { image, pdf, caption: 'شهادة نظام إدارة الجودة.' }, null)
	})
	await seedType(db, members, async () => {
		for (const [index, [memberName, memberPosition]] of boardMembers.entries()) {
			const memberImg = await portrait(db, storage, 150 + index * 25, memberName)
			await saveEntry(db, members, null, { memberName, memberPosition, memberImg, order: index + 1 }, null)
		}
	})
	await seedType(db, committees, async () => {
		for (const [index, [name, people, duties]] of committeeList.entries()) {
			const html = `<ul>${duties.map((duty) => `<li>${duty}</li>`).join('')}</ul>`
			await saveEntry(db, committees, null, { name, members: people.join('\n'), duties: html, order: index + 1 }, null)
		}
	})
	await seedType(db, chairmanSpeech, async () => {
		const image = await portrait(db, storage, 160, boardMembers[0][0])
		await saveEntry(db, chairmanSpeech, null, { chairmanName: boardMembers[0][0], CEOspeechDetails: speech, portrait: image }, null)
	})
	// The documents library: every category filled with small one-page PDFs (docs/product.md#documents-library).
	await seedType(db, libraryDocuments, async () => {
		const list = demoDocuments()
		const files = await Promise.all(list.map((document) => pdfDocument(db, storage, documentSvg(document), documentFileName(document))))
		const placeInCategory = new Map<string, number>()
		for (const [index, document] of list.entries()) {
			const order = (placeInCategory.get(document.category) ?? 0) + 1
			placeInCategory.set(document.category, order)
			await saveEntry(db, libraryDocuments, null, { ...document, file: files[index], order }, null)
		}
	})
	await seedType(db, regulationPages, async () => {
		for (let page = 1; page <= REGULATION_PAGES; page++) {
			const image = await seedPicture(db, storage, regulationPageSvg(page), `صفحة ${page} من اللائحة الأساسية`)
			await saveEntry(db, regulationPages, null, { image, page, order: page }, null)
		}
	})
	await seedNews(db, storage)
	await seedGallery(db, storage)
}
