import { eq } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { contentEntries } from '#app/db/schema.ts'
import { seedPicture } from '#app/images/deferred.server.ts'
import type { FileStorage } from '#app/storage/file-storage.server.ts'
import { countEntries, saveEntry } from './store.server.ts'
import { news } from './types.ts'

// The demo news (docs/product.md#news): a year of a Saudi charity's work over the months before
// the demo's «now» (November 2026), so the list has two pages and the archive several months.
// Each has an illustration drawn here: shapes in the brand colours, no person and no words.

const AUTHOR = 'إدارة الإعلام والتواصل'

type Scene = 'basket' | 'home' | 'ramadan' | 'clothes' | 'partners' | 'volunteers' | 'medical' | 'meeting' | 'school' | 'palm' | 'workshop' | 'winter'

const scenes: Record<Scene, string> = {
	basket:
		'<path d="M300 300h360l-40 190H340z" fill="#fbf1dc"/><path d="M360 300l60-110M600 300l-60-110" stroke="#c08a2b" stroke-width="14" fill="none"/><circle cx="420" cy="280" r="38" fill="#e7b85c"/><circle cx="500" cy="262" r="46" fill="#c08a2b"/><circle cx="570" cy="284" r="34" fill="#e7b85c"/>',
	home: '<path d="M300 320 480 170 660 320v170H300z" fill="#fbf1dc"/><rect x="440" y="380" width="80" height="110" fill="#c08a2b"/><rect x="340" y="350" width="60" height="50" fill="#a8e2d0"/><rect x="560" y="350" width="60" height="50" fill="#a8e2d0"/><path d="M640 200l60-60 20 20-60 60z" fill="#e7b85c"/>',
	ramadan:
		'<path d="M560 140a130 130 0 1 0 70 230 110 110 0 1 1-70-230z" fill="#fbf1dc"/><rect x="330" y="250" width="80" height="140" rx="16" fill="#c08a2b"/><path d="M330 250l40-50 40 50zM350 390h40v30h-40z" fill="#e7b85c"/><rect x="350" y="280" width="40" height="80" rx="8" fill="#fbf1dc" opacity=".8"/><circle cx="700" cy="160" r="8" fill="#fbf1dc"/><circle cx="250" cy="150" r="6" fill="#fbf1dc"/>',
	clothes:
		'<path d="M370 200l70-40h80l70 40 60 80-60 40-30-30v200H340V290l-30 30-60-40z" fill="#fbf1dc"/><path d="M440 160c10 30 70 30 80 0" fill="none" stroke="#c08a2b" stroke-width="10"/><rect x="600" y="330" width="110" height="110" rx="10" fill="#c08a2b"/><path d="M600 370h110M655 330v110" stroke="#fbf1dc" stroke-width="10"/>',
	partners:
		'<circle cx="410" cy="320" r="130" fill="#fbf1dc" opacity=".9"/><circle cx="550" cy="320" r="130" fill="#c08a2b" opacity=".85"/><path d="M420 330l50 40 90-90" fill="none" stroke="#0b3f36" stroke-width="18" stroke-linecap="round" stroke-linejoin="round"/>',
	volunteers:
		'<path d="M480 440s-170-100-170-210a90 90 0 0 1 170-40 90 90 0 0 1 170 40c0 110-170 210-170 210z" fill="#fbf1dc"/><circle cx="300" cy="460" r="30" fill="#c08a2b"/><circle cx="380" cy="480" r="24" fill="#e7b85c"/><circle cx="580" cy="480" r="24" fill="#e7b85c"/><circle cx="660" cy="460" r="30" fill="#c08a2b"/>',
	medical:
		'<rect x="300" y="180" width="240" height="240" rx="30" fill="#fbf1dc"/><path d="M390 230h60v60h60v60h-60v60h-60v-60h-60v-60h60z" fill="#c0392b" opacity=".85"/><circle cx="630" cy="400" r="70" fill="none" stroke="#fbf1dc" stroke-width="18"/><path d="M600 250v150h90" fill="none" stroke="#fbf1dc" stroke-width="18" stroke-linecap="round"/>',
	meeting:
		'<ellipse cx="480" cy="330" rx="220" ry="90" fill="#fbf1dc"/><g fill="#c08a2b"><circle cx="260" cy="330" r="28"/><circle cx="700" cy="330" r="28"/><circle cx="360" cy="220" r="28"/><circle cx="480" cy="205" r="28"/><circle cx="600" cy="220" r="28"/><circle cx="360" cy="440" r="28"/><circle cx="480" cy="455" r="28"/><circle cx="600" cy="440" r="28"/></g><rect x="430" y="300" width="100" height="60" rx="6" fill="#a8e2d0"/>',
	school:
		'<rect x="340" y="200" width="280" height="280" rx="40" fill="#fbf1dc"/><path d="M420 200v-30a60 60 0 0 1 120 0v30" fill="none" stroke="#fbf1dc" stroke-width="18"/><rect x="380" y="320" width="200" height="110" rx="20" fill="#c08a2b"/><path d="M380 360h200" stroke="#fbf1dc" stroke-width="8"/><rect x="660" y="260" width="30" height="200" rx="6" fill="#e7b85c"/><path d="M660 260l15-40 15 40z" fill="#fbf1dc"/>',
	palm: '<path d="M470 480c10-90 10-170 0-250h28c-8 80-8 160 6 250z" fill="#c08a2b"/><g fill="#fbf1dc"><path d="M484 230c-60-60-140-60-200-10 70-10 130 0 200 10z"/><path d="M484 230c60-60 140-60 200-10-70-10-130 0-200 10z"/><path d="M484 230c-40-70-100-100-170-90 60 20 110 50 170 90z"/><path d="M484 230c40-70 100-100 170-90-60 20-110 50-170 90z"/><path d="M484 230c-10-60-10-100 0-140 10 40 10 80 0 140z"/></g><circle cx="470" cy="250" r="12" fill="#e7b85c"/><circle cx="500" cy="252" r="12" fill="#e7b85c"/>',
	workshop:
		'<rect x="300" y="160" width="360" height="230" rx="14" fill="#fbf1dc"/><path d="M340 340l80-80 60 50 90-110 50 60" fill="none" stroke="#0f6251" stroke-width="14" stroke-linejoin="round"/><path d="M400 390l-40 100M560 390l40 100" stroke="#c08a2b" stroke-width="14"/><circle cx="700" cy="170" r="44" fill="#e7b85c"/><rect x="685" y="214" width="30" height="30" fill="#c08a2b"/>',
	winter:
		'<g stroke="#fbf1dc" stroke-width="12" stroke-linecap="round"><path d="M480 150v300M350 225l260 150M350 375l260-150"/><path d="M450 170l30 30 30-30M450 430l30-30 30 30"/></g><rect x="620" y="340" width="120" height="130" rx="14" fill="#c08a2b"/><path d="M620 380h120" stroke="#e7b85c" stroke-width="10"/>',
}

/** A wide illustration of the news item: a soft gradient in a hue of its own and the scene's shapes. */
function newsSvg(scene: Scene, hue: number): string {
	return `<svg xmlns="http://www.w3.org/2000/svg" width="960" height="600" viewBox="0 0 960 600">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},42%,34%)"/><stop offset="1" stop-color="hsl(${hue},46%,20%)"/></linearGradient></defs>
<rect width="960" height="600" fill="url(#g)"/><circle cx="120" cy="90" r="170" fill="#fff" opacity=".06"/><circle cx="860" cy="560" r="210" fill="#fff" opacity=".05"/>
${scenes[scene]}</svg>`
}

interface DemoNews {
	date: string
	title: string
	scene: Scene
	hue: number
	paragraphs: string[]
	views: number
	published?: false
}

const demoNews: DemoNews[] = [
	{
		date: '2026-03-04',
		title: 'انطلاق حملة السلال الرمضانية لألفي أسرة في منطقة الرياض',
		scene: 'ramadan',
		hue: 200,
		views: 412,
		paragraphs: [
			'أطلقت مؤسسة عطاء الخيرية حملتها السنوية لتوزيع السلال الرمضانية، مستهدفةً ألفي أسرة من الأسر المسجلة لديها في أحياء جنوب الرياض وشرقها.',
			'وتحتوي كل سلة على المواد الغذائية الأساسية التي تكفي الأسرة طوال الشهر الكريم، وجرى تجهيزها بالتعاون مع الجمعيات الشريكة ومتطوعي المؤسسة وفق جدول زمني يراعي كثافة الأحياء.',
			'وأوضحت إدارة البرامج أن التوزيع يتم على مراحل، ويُبلَّغ المستفيدون بموعد الاستلام عبر رسائل نصية، مع إيصال السلال إلى منازل كبار السن وذوي الإعاقة.',
		],
	},
	{
		date: '2026-03-15',
		title: 'توزيع كسوة عيد الفطر على أبناء الأسر المستفيدة',
		scene: 'clothes',
		hue: 340,
		views: 268,
		paragraphs: [
			'سلّمت المؤسسة بطاقات كسوة العيد لأكثر من تسعمئة طفل من أبناء الأسر المستفيدة، لشراء ملابس العيد من متاجر معتمدة بما يناسب أذواقهم ومقاساتهم.',
			'وتأتي المبادرة ضمن برنامج كسوة العيد الذي يسعى إلى إدخال الفرحة على الأطفال وحفظ كرامة أسرهم، إذ يختار كل طفل ملابسه بنفسه بدلاً من استلام قطع محددة سلفاً.',
		],
	},
	{
		date: '2026-04-12',
		title: 'توقيع اتفاقية شراكة مع بنك الطعام لتوسيع برنامج السلة الغذائية',
		scene: 'partners',
		hue: 170,
		views: 187,
		paragraphs: [
			'وقّعت مؤسسة عطاء الخيرية اتفاقية شراكة مع بنك الطعام، تتيح توسيع برنامج السلة الغذائية الشهرية ليشمل ثلاثمئة أسرة إضافية خلال العام الحالي.',
			'وتنص الاتفاقية على تبادل بيانات الاحتياج بين الطرفين بما يحفظ خصوصية المستفيدين، وتنسيق مواعيد التوزيع لتجنب الازدواجية وضمان وصول الدعم إلى الأسر الأشد حاجة.',
			'وعبّر رئيس مجلس الإدارة عن تقديره لهذه الشراكة، مؤكداً أن التكامل بين الجهات الخيرية يرفع أثر العطاء ويحسن استثمار موارد المحسنين.',
		],
	},
	{
		date: '2026-05-06',
		title: 'إنجاز ترميم خمسة وعشرين منزلاً لأسر متعففة',
		scene: 'home',
		hue: 30,
		views: 356,
		paragraphs: [
			'أنجزت المؤسسة المرحلة الأولى من مشروع ترميم المنازل لهذا العام، إذ جرى ترميم خمسة وعشرين منزلاً لأسر متعففة شملت إصلاح الأسقف ومعالجة التسربات وتجديد دورات المياه والتمديدات الكهربائية.',
			'وقام فريق هندسي بزيارة كل منزل قبل بدء الأعمال لتحديد الاحتياج بدقة، ثم تابع التنفيذ مع مقاولين معتمدين حتى التسليم النهائي للأسر.',
			'وتستقبل المؤسسة طلبات المرحلة الثانية عبر التقديم الإلكتروني في الموقع، وتُعطى الأولوية للأسر التي يهدد وضع مساكنها سلامة أفرادها.',
		],
	},
	{
		date: '2026-05-24',
		title: 'كسوة عيد الأضحى وتوزيع لحوم الأضاحي على الأسر المسجلة',
		scene: 'basket',
		hue: 140,
		views: 143,
		paragraphs: [
			'نفذت المؤسسة مشروع الأضاحي لهذا العام بالتعاون مع المحسنين، ووُزعت لحوم الأضاحي على الأسر المسجلة في الأيام الأولى من عيد الأضحى المبارك.',
			'كما صُرفت بطاقات الكسوة لأبناء الأسر المستفيدة قبل العيد، ليعيشوا فرحته كغيرهم من الأطفال.',
		],
	},
	{
		date: '2026-06-18',
		title: 'تسليم أجهزة طبية مساندة لأربعين مريضاً',
		scene: 'medical',
		hue: 190,
		views: 221,
		paragraphs: [
			'سلّمت المؤسسة ضمن برنامج دعم الحالات المرضية أجهزة طبية مساندة لأربعين مريضاً، منها كراسٍ متحركة وأسرّة طبية وأجهزة تركيز الأكسجين.',
			'وجرى اختيار المستفيدين بعد دراسة تقاريرهم الطبية والتحقق من حاجتهم، وقدّم فريق مختص تدريباً للأسر على استخدام الأجهزة وصيانتها.',
			'وتدعو المؤسسة المحسنين إلى الإسهام في هذا البرنامج، إذ ما زالت قائمة الانتظار تضم حالات تحتاج إلى أجهزة عاجلة.',
		],
	},
	{
		date: '2026-07-09',
		title: 'مجلس الإدارة يعتمد القوائم المالية ويناقش خطة النصف الثاني من العام',
		scene: 'meeting',
		hue: 160,
		views: 96,
		paragraphs: [
			'عقد مجلس إدارة المؤسسة اجتماعه الدوري برئاسة رئيس المجلس، واعتمد القوائم المالية المراجعة للعام الماضي بعد الاطلاع على تقرير المراجع الخارجي وتوصيات لجنة المراجعة.',
			'وناقش المجلس خطة النصف الثاني من العام ومؤشرات أداء البرامج، وأقرّ توسيع برنامج ترميم المنازل وزيادة عدد الأسر المستفيدة من السلة الغذائية.',
			'وأكد المجلس أهمية الالتزام بمعايير الحوكمة والشفافية، ونشر التقارير المالية والسنوية في موقع المؤسسة.',
		],
	},
	{
		date: '2026-08-22',
		title: 'يوم تطوعي بمشاركة مئة وخمسين متطوعاً ومتطوعة',
		scene: 'volunteers',
		hue: 20,
		views: 174,
		paragraphs: [
			'نظمت المؤسسة يوماً تطوعياً شارك فيه مئة وخمسون متطوعاً ومتطوعة، توزعوا على فرق لتجهيز السلال الغذائية وتغليف الحقائب المدرسية وزيارة كبار السن.',
			'وتضمن اليوم لقاءً تعريفياً بأخلاقيات العمل التطوعي وحفظ خصوصية المستفيدين، وكُرّم في ختامه المتطوعون الأكثر مشاركة خلال العام.',
		],
	},
	{
		date: '2026-08-30',
		title: 'الحقيبة المدرسية تصل إلى ستمئة طالب وطالبة',
		scene: 'school',
		hue: 215,
		views: 158,
		paragraphs: [
			'مع بداية العام الدراسي وزعت المؤسسة ستمئة حقيبة مدرسية مجهزة بالأدوات اللازمة على أبناء الأسر المستفيدة في المراحل الدراسية المختلفة.',
			'وراعت المؤسسة في تجهيز الحقائب احتياجات كل مرحلة، وجرى التوزيع في مقر المؤسسة وعبر الجمعيات الشريكة في الأحياء البعيدة.',
			'وتشكر المؤسسة الشركات والمحسنين الذين أسهموا في تمويل المبادرة.',
		],
	},
	{
		date: '2026-09-23',
		title: 'المؤسسة تحتفي باليوم الوطني بمبادرة «عطاء وطن»',
		scene: 'palm',
		hue: 150,
		views: 305,
		paragraphs: [
			'احتفت مؤسسة عطاء الخيرية باليوم الوطني بإطلاق مبادرة «عطاء وطن»، التي تضمنت توزيع ألف سلة غذائية على الأسر المستفيدة في منطقة الرياض.',
			'وشارك في المبادرة متطوعون من مختلف الأعمار، وعبّروا عن اعتزازهم بالمشاركة في خدمة المجتمع في هذه المناسبة الغالية.',
		],
	},
	{
		date: '2026-10-08',
		title: 'ورشة عمل لتمكين الأسر المنتجة وتسويق منتجاتها',
		scene: 'workshop',
		hue: 45,
		views: 64,
		paragraphs: [
			'عقدت المؤسسة ورشة عمل لثلاثين سيدة من الأسر المنتجة، تناولت تسعير المنتجات والتغليف والتسويق عبر المنصات الإلكترونية.',
			'وقدّم الورشة مختصون في ريادة الأعمال، وخرجت المشاركات بخطط عمل لمشاريعهن، على أن تتابع المؤسسة تنفيذها خلال الأشهر المقبلة.',
			'وتأتي الورشة ضمن توجه المؤسسة إلى الانتقال من الدعم المؤقت إلى تمكين الأسر من الاعتماد على نفسها.',
		],
	},
	{
		date: '2026-10-27',
		title: 'حملة الشتاء: تجهيز حقائب الدفء للأسر المحتاجة',
		scene: 'winter',
		hue: 210,
		views: 0,
		published: false,
		paragraphs: [
			'تستعد المؤسسة لإطلاق حملة الشتاء لهذا العام، التي تتضمن تجهيز حقائب الدفء من بطانيات وملابس شتوية ومدافئ آمنة للأسر المحتاجة.',
			'وتُعلن تفاصيل الحملة ومواعيد التوزيع بعد اكتمال التجهيز.',
		],
	},
]

/** The demo news with their illustrations, when there are no news yet. */
export async function seedNews(db: Database, storage: FileStorage): Promise<void> {
	if ((await countEntries(db, news)) > 0) return
	for (const item of demoNews) {
		// Recorded at once; the variants are made on first request or in the background after start-up.
		const img = await seedPicture(db, storage, newsSvg(item.scene, item.hue), '', { originalName: 'news.svg' })
		const details = item.paragraphs.map((paragraph) => `<p>${paragraph}</p>`).join('')
		const entry = await saveEntry(db, news, null, { NewsDate: item.date, title: item.title, details, img, IsPublish: item.published ?? true }, null, AUTHOR)
		if (item.views) await db.update(contentEntries).set({ views: item.views }).where(eq(contentEntries.id, entry.id))
	}
}
