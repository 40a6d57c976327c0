import { defineContentType, type ContentField, type ContentType } from './definition.ts'

const generic = { added: 'تمت الإضافة بنجاح', updated: 'تم تحديث البيانات بنجاح', deleted: 'تم الحذف بنجاح' }

/** Board members (docs/product.md#public-site: grid of image, name, position; admin list 5 per page). */
export const members = defineContentType({
	type: 'members',
	dashboard: 'إضافة الأعضاء وتعديلهم وحذفهم.',
	kind: 'collection',
	singular: 'عضو',
	plural: 'أعضاء مجلس الإدارة',
	fields: [
		{ kind: 'text', name: 'memberName', label: 'الاسم', required: true, maxLength: 120 },
		{ kind: 'text', name: 'memberPosition', label: 'المنصب', required: true, maxLength: 120 },
		{ kind: 'image', name: 'memberImg', label: 'الصورة', required: true },
		{ kind: 'number', name: 'order', label: 'الترتيب', hint: 'الأصغر يظهر أولاً', min: 0, max: 999 },
	],
	listColumns: ['memberName', 'memberPosition'],
	perPage: 5,
	publicPath: '/board-members',
	messages: { added: 'تمت إضافة العضو بنجاح', updated: 'تم تحديث بيانات العضو بنجاح', deleted: 'تم حذف العضو', imageRequired: 'الرجاء اختيار صورة' },
})

/** The six committees (docs/product.md#public-site: accordion; each lists members and duties). */
export const committees = defineContentType({
	type: 'committees',
	dashboard: 'اللجان وأعضاؤها ومهامها.',
	kind: 'collection',
	singular: 'لجنة',
	plural: 'اللجان',
	fields: [
		{ kind: 'text', name: 'name', label: 'اسم اللجنة', required: true, maxLength: 150 },
		{ kind: 'textarea', name: 'members', label: 'الأعضاء', hint: 'عضو في كل سطر', required: true, rows: 5, maxLength: 3000 },
		{ kind: 'richtext', name: 'duties', label: 'المهام', required: true },
		{ kind: 'number', name: 'order', label: 'الترتيب', hint: 'الأصغر يظهر أولاً', min: 0, max: 999 },
	],
	listColumns: ['name'],
	perPage: 10,
	publicPath: '/committees',
	messages: generic,
})

/** The chairman's speech (docs/product.md#content-that-staff-edit: speech and portrait; the speech is required). */
export const chairmanSpeech = defineContentType({
	type: 'chairman-speech',
	dashboard: 'نص الكلمة والصورة الشخصية.',
	kind: 'singleton',
	singular: 'كلمة رئيس مجلس الإدارة',
	plural: 'كلمة رئيس مجلس الإدارة',
	fields: [
		{ kind: 'text', name: 'chairmanName', label: 'اسم رئيس مجلس الإدارة', required: true, maxLength: 120 },
		{ kind: 'richtext', name: 'CEOspeechDetails', label: 'نص الكلمة', required: true },
		{ kind: 'image', name: 'portrait', label: 'الصورة الشخصية' },
	],
	listColumns: [],
	perPage: 1,
	publicPath: '/chairman-speech',
	messages: generic,
})

export const programmeIcons = [
	{ value: 'family', label: 'أسرة' },
	{ value: 'home', label: 'منزل' },
	{ value: 'medical', label: 'رعاية صحية' },
	{ value: 'food', label: 'سلة غذائية' },
	{ value: 'clothing', label: 'كسوة' },
	{ value: 'bill', label: 'فاتورة' },
] as const

export const programmeColours = [
	{ value: 'brand', label: 'أخضر' },
	{ value: 'gold', label: 'ذهبي' },
	{ value: 'sky', label: 'أزرق' },
	{ value: 'rose', label: 'وردي' },
] as const

/** The foundation's programmes (docs/product.md#content-that-staff-edit: name, details, icon, colour, link). */
export const programmesType = defineContentType({
	type: 'programmes',
	dashboard: 'برامج المؤسسة التي تظهر في الصفحة الرئيسية وصفحة الخدمات.',
	kind: 'collection',
	singular: 'برنامج',
	plural: 'البرامج',
	fields: [
		{ kind: 'text', name: 'Name', label: 'اسم البرنامج', required: true, maxLength: 120 },
		{ kind: 'text', name: 'slug', label: 'المعرّف في الرابط', hint: 'مثل food-basket', required: true, maxLength: 60, slug: true },
		{ kind: 'textarea', name: 'summary', label: 'وصف مختصر', required: true, rows: 2, maxLength: 300 },
		{ kind: 'richtext', name: 'Deatils', label: 'التفاصيل', required: true },
		{ kind: 'select', name: 'Icon', label: 'الأيقونة', options: programmeIcons },
		{ kind: 'select', name: 'ColorIcon', label: 'اللون', options: programmeColours },
		{ kind: 'url', name: 'Link', label: 'رابط التقديم', hint: 'مثل /apply/needy-families' },
		{ kind: 'number', name: 'order', label: 'الترتيب', hint: 'الأصغر يظهر أولاً', min: 0, max: 999 },
	],
	listColumns: ['Name', 'slug'],
	perPage: 10,
	publicPath: '/services',
	messages: generic,
})

// Staff paste the video's address from YouTube's address bar or its share button (app/domain/embeds.ts).
const youtubeHint = 'انسخ رابط الفيديو من شريط العنوان في يوتيوب أو من زر المشاركة، مثل https://www.youtube.com/watch?v=…'

const videoFields = [1, 2, 3, 4].flatMap((n) => [
	{ kind: 'url', name: `video${n}Url`, label: `الفيديو ${n}: رابط يوتيوب`, hint: youtubeHint, youtube: true },
	{ kind: 'text', name: `video${n}Caption`, label: `الفيديو ${n}: الوصف`, maxLength: 150 },
] as const)

/** The home page's blocks and the about page (docs/product.md#public-site, Home and About). */
export const homePage = defineContentType({
	type: 'home',
	dashboard: 'العبارة الترحيبية والرؤية والرسالة والقيم والأهداف والفيديوهات وبطاقة المدير.',
	kind: 'singleton',
	singular: 'محتوى الصفحة الرئيسية',
	plural: 'محتوى الصفحة الرئيسية',
	fields: [
		{ kind: 'text', name: 'heroTitle', label: 'العبارة الترحيبية', required: true, maxLength: 120 },
		{ kind: 'textarea', name: 'heroText', label: 'النص التعريفي', required: true, rows: 3, maxLength: 600 },
		{ kind: 'url', name: 'introVideo', label: 'فيديو تعريفي (رابط يوتيوب)', hint: youtubeHint, youtube: true },
		{ kind: 'textarea', name: 'vision', label: 'الرؤية', required: true, rows: 2, maxLength: 500 },
		{ kind: 'textarea', name: 'mission', label: 'الرسالة', required: true, rows: 2, maxLength: 500 },
		{ kind: 'textarea', name: 'values', label: 'القيم', hint: 'قيمة في كل سطر', required: true, rows: 5, maxLength: 1000 },
		{ kind: 'textarea', name: 'goals', label: 'الأهداف', hint: 'هدف في كل سطر', required: true, rows: 5, maxLength: 2000 },
		...videoFields,
		{ kind: 'url', name: 'socialTimeline', label: 'رابط الحساب على منصات التواصل (الخط الزمني)' },
		{ kind: 'text', name: 'directorName', label: 'المدير التنفيذي المكلف: الاسم', required: true, maxLength: 120 },
		{ kind: 'text', name: 'directorPhone', label: 'المدير التنفيذي المكلف: الهاتف', required: true, maxLength: 20 },
		{ kind: 'text', name: 'directorEmail', label: 'المدير التنفيذي المكلف: البريد الإلكتروني', required: true, maxLength: 120 },
	],
	listColumns: [],
	perPage: 1,
	publicPath: '/',
	messages: generic,
})

/** The home page's announcement popup, shown only inside its date window (docs/product.md#content-that-staff-edit). */
export const announcement = defineContentType({
	type: 'announcement',
	dashboard: 'صورة الإعلان ورابطه وفترة ظهوره.',
	kind: 'singleton',
	singular: 'الإعلان المنبثق',
	plural: 'الإعلان المنبثق',
	fields: [
		{ kind: 'boolean', name: 'active', label: 'الإعلان مفعّل' },
		{ kind: 'image', name: 'image', label: 'صورة الإعلان', required: true },
		{ kind: 'text', name: 'title', label: 'عنوان الإعلان (للقارئ الصوتي)', required: true, maxLength: 150 },
		{ kind: 'url', name: 'link', label: 'رابط عند الضغط (اختياري)' },
		{ kind: 'date', name: 'startDate', label: 'يظهر من تاريخ', required: true },
		{ kind: 'date', name: 'endDate', label: 'حتى تاريخ (شاملاً)', required: true },
	],
	listColumns: [],
	perPage: 1,
	publicPath: '/',
	messages: generic,
})

/** The PDF a certificate page offers beside its image (docs/product.md#public-site «with a PDF to download when there is one»). */
const certificatePdf = { kind: 'document', name: 'pdf', label: 'نسخة PDF (اختياري)', hint: 'تظهر للزوار رابطاً لتنزيل الشهادة.' } as const

/** A page that is one image, with a caption and, for a certificate, its PDF. */
const imagePage = <const Extra extends readonly ContentField[]>(type: string, singular: string, publicPath: string, dashboard: string, extra: Extra) =>
	defineContentType({
		type,
		kind: 'singleton',
		singular,
		plural: singular,
		dashboard,
		fields: [{ kind: 'image', name: 'image', label: 'الصورة', required: true }, ...extra, { kind: 'textarea', name: 'caption', label: 'وصف مختصر', rows: 2, maxLength: 500 }],
		listColumns: [],
		perPage: 1,
		publicPath,
		messages: { ...generic, imageRequired: 'الرجاء اختيار صورة' },
	})

export const organizationChart = imagePage('organization-chart', 'الهيكل التنظيمي', '/organization-chart', 'صورة الهيكل التنظيمي.', [])
export const registrationCertificate = imagePage('registration-certificate', 'شهادة التسجيل', '/certificates/registration', 'صورة شهادة التسجيل ونسختها PDF.', [certificatePdf])
export const qualityCertificate = imagePage('quality-certificate', 'شهادة الجودة', '/certificates/quality', 'صورة شهادة الجودة ونسختها PDF.', [certificatePdf])
/** The job-ads image the footer links to (docs/product.md#public-site). */
export const jobAds = imagePage('job-ads', 'الوظائف المتاحة', '/jobs', 'صورة إعلان الوظائف التي يفتح عليها رابط «الوظائف المتاحة».', [])

/** Links staff keep in the footer: satisfaction surveys, the job ads, partners (docs/product.md#public-site). */
export const externalLinks = defineContentType({
	type: 'links',
	dashboard: 'روابط التذييل: استبيانات الرضا والوظائف والشركاء.',
	kind: 'collection',
	singular: 'رابط',
	plural: 'روابط مهمة',
	fields: [
		{ kind: 'text', name: 'label', label: 'النص', required: true, maxLength: 80 },
		{ kind: 'url', name: 'url', label: 'الرابط', required: true },
		{ kind: 'number', name: 'order', label: 'الترتيب', min: 0, max: 999 },
	],
	listColumns: ['label', 'url'],
	perPage: 10,
	publicPath: '/',
	messages: generic,
})

/** The visual identity page: the guide's text, the colours and the logo to download. */
export const visualIdentity = defineContentType({
	type: 'visual-identity',
	dashboard: 'نص دليل الهوية والألوان والشعار.',
	kind: 'singleton',
	singular: 'الهوية البصرية',
	plural: 'الهوية البصرية',
	fields: [
		{ kind: 'richtext', name: 'text', label: 'نص دليل الهوية', required: true },
		{ kind: 'textarea', name: 'colours', label: 'الألوان', hint: 'لون في كل سطر: الاسم ثم الرمز، مثل: الأخضر #0f6251', required: true, rows: 4, maxLength: 1000 },
		{ kind: 'image', name: 'logo', label: 'الشعار (للتنزيل)', required: true },
	],
	listColumns: [],
	perPage: 1,
	publicPath: '/visual-identity',
	messages: { ...generic, imageRequired: 'الرجاء اختيار صورة' },
})

/** The home page's slider (docs/product.md#public-site, Home). */
export const slides = defineContentType({
	type: 'slides',
	dashboard: 'الشرائح المتحركة في أعلى الصفحة الرئيسية.',
	kind: 'collection',
	singular: 'شريحة',
	plural: 'شرائح العرض في الصفحة الرئيسية',
	fields: [
		{ kind: 'image', name: 'image', label: 'الصورة', required: true },
		{ kind: 'text', name: 'title', label: 'العنوان', required: true, maxLength: 100 },
		{ kind: 'textarea', name: 'text', label: 'النص', rows: 2, maxLength: 250 },
		{ kind: 'url', name: 'link', label: 'الرابط (اختياري)' },
		{ kind: 'number', name: 'order', label: 'الترتيب', min: 0, max: 999 },
	],
	listColumns: ['title'],
	perPage: 10,
	publicPath: '/',
	messages: { ...generic, imageRequired: 'الرجاء اختيار صورة' },
})

/** News (docs/product.md#public-site: 6 cards a page, search, detail with sidebar and archive by month; admin cards 6 a page). */
export const news = defineContentType({
	type: 'news',
	kind: 'collection',
	singular: 'خبر',
	plural: 'الأخبار',
	dashboard: 'إضافة الأخبار وتعديلها ونشرها وحذفها.',
	fields: [
		{ kind: 'date', name: 'NewsDate', label: 'تاريخ الخبر', required: true },
		{ kind: 'text', name: 'title', label: 'عنوان الخبر', required: true, maxLength: 200 },
		{ kind: 'richtext', name: 'details', label: 'تفاصيل الخبر', required: true },
		{ kind: 'image', name: 'img', label: 'صورة الخبر', required: true },
		{ kind: 'boolean', name: 'IsPublish', label: 'منشور في الموقع', hint: 'الخبر غير المنشور لا يراه الزوار.' },
	],
	listColumns: ['title', 'NewsDate'],
	perPage: 6,
	publicPath: '/news',
	searchFields: ['title', 'details'],
	publishedField: 'IsPublish',
	dateField: 'NewsDate',
	listStyle: 'cards',
	messages: { added: 'تمت إضافة الخبر بنجاح', updated: 'تم تحديث بيانات الخبر بنجاح', deleted: 'تم حذف الخبر', imageRequired: 'الرجاء إضافة صورة للخبر' },
})

/** The documents library's sections, each a public page (docs/product.md#public-site). */
export const documentCategories = [
	{ value: 'policies', label: 'السياسات واللوائح', path: '/policies' },
	{ value: 'financial', label: 'التقارير المالية', path: '/reports/financial' },
	{ value: 'workshops', label: 'تقارير ورش العمل', path: '/reports/workshops' },
	{ value: 'yearly', label: 'التقارير السنوية', path: '/reports/yearly' },
	{ value: 'governance-2022', label: 'الحوكمة 2022', path: '/governance/2022' },
	{ value: 'governance-2023', label: 'الحوكمة 2023', path: '/governance/2023' },
	{ value: 'governance-2024', label: 'الحوكمة 2024', path: '/governance/2024' },
	{ value: 'projects-2022', label: 'المشاريع المدعومة 2022', path: '/projects/2022' },
	{ value: 'projects-2023', label: 'المشاريع المدعومة 2023', path: '/projects/2023' },
] as const

export type DocumentCategory = (typeof documentCategories)[number]['value']

/** One PDF of the library: a policy, a report, a governance item, a supported project. */
export const libraryDocuments = defineContentType({
	type: 'documents',
	kind: 'collection',
	singular: 'مستند',
	plural: 'مكتبة المستندات',
	dashboard: 'السياسات والتقارير المالية والسنوية وتقارير الورش وأدلة الحوكمة والمشاريع المدعومة (ملفات PDF).',
	fields: [
		// Each option also names its public page (`path`): the admin list's «عرض في الموقع» leads there.
		{ kind: 'select', name: 'category', label: 'القسم', options: documentCategories },
		{ kind: 'text', name: 'title', label: 'العنوان', required: true, maxLength: 200 },
		{ kind: 'number', name: 'year', label: 'السنة', hint: 'مثل 2024، أو اتركه فارغاً', min: 0, max: 2100 },
		{ kind: 'number', name: 'number', label: 'رقم البند', hint: 'في جداول الحوكمة: يبقى كما هو ولا يعاد الترقيم', min: 0, max: 999 },
		{ kind: 'textarea', name: 'summary', label: 'وصف مختصر', hint: 'يظهر في بطاقات المشاريع المدعومة', rows: 2, maxLength: 400 },
		{ kind: 'document', name: 'file', label: 'الملف (PDF)', required: true },
		{ kind: 'number', name: 'order', label: 'الترتيب', hint: 'الأصغر يظهر أولاً', min: 0, max: 999 },
	],
	listColumns: ['title', 'category', 'year', 'number', 'order'],
	perPage: 8,
	publicPath: '/policies',
	filterField: 'category',
	bulkUpload: { file: 'file', title: 'title' },
	messages: { added: 'تمت إضافة الملف بنجاح', updated: 'تم تحديث البيانات بنجاح', deleted: 'تم حذف الملف', imageRequired: 'الرجاء اختيار ملف PDF' },
})

/** The basic regulation's pages, one image each, shown one per page at /basic-regulation?page=N (docs/product.md#public-site). */
export const regulationPages = defineContentType({
	type: 'regulation-pages',
	kind: 'collection',
	singular: 'صفحة من اللائحة',
	plural: 'صفحات اللائحة الأساسية',
	dashboard: 'صور صفحات اللائحة الأساسية، صورة لكل صفحة.',
	fields: [
		{ kind: 'image', name: 'image', label: 'صورة الصفحة', required: true },
		{ kind: 'number', name: 'page', label: 'رقم الصفحة', hint: 'رقمها في اللائحة', min: 1, max: 999 },
		{ kind: 'number', name: 'order', label: 'الترتيب', hint: 'الأصغر يظهر أولاً', min: 0, max: 999 },
	],
	listColumns: ['page', 'order'],
	perPage: 8,
	publicPath: '/basic-regulation',
	messages: { ...generic, imageRequired: 'الرجاء اختيار صورة' },
})

/** Where staff manage an album's photos (app/routes/admin/album-photos.tsx). */
export const albumPhotosPath = (albumId: string) => `/admin/content/albums/${albumId}/photos`

/** Photo albums (docs/product.md#public-site: every album, not only the first; admin 8 a page). */
export const albums = defineContentType({
	type: 'albums',
	kind: 'collection',
	singular: 'ألبوم',
	plural: 'ألبومات الصور',
	dashboard: 'ألبومات معرض الصور وصورها وأغلفتها.',
	fields: [
		{ kind: 'text', name: 'title', label: 'عنوان الألبوم', required: true, maxLength: 150 },
		// `/gallery/videos` is the video gallery, not an album.
		{ kind: 'text', name: 'slug', label: 'المعرّف في الرابط', hint: 'مثل eid-clothing-2025، يظهر في رابط الألبوم', required: true, maxLength: 60, slug: true, reserved: ['videos'] },
		{ kind: 'textarea', name: 'description', label: 'وصف مختصر', rows: 2, maxLength: 500 },
		{ kind: 'date', name: 'date', label: 'تاريخ الألبوم', required: true },
		// The id of one of its photos, chosen on the album's photos screen; empty means its first photo.
		{ kind: 'text', name: 'cover', label: 'صورة الغلاف', maxLength: 36, adminHidden: true },
	],
	listColumns: ['title', 'date'],
	perPage: 8,
	publicPath: '/gallery',
	dateField: 'date',
	rowLinks: [{ label: 'الصور', path: albumPhotosPath }],
	messages: { added: 'تمت إضافة الألبوم بنجاح', updated: 'تم تحديث بيانات الألبوم بنجاح', deleted: 'تم حذف الألبوم' },
})

/**
 * One photo of an album. Not in `contentTypes`: photos are added, captioned and deleted only on
 * their album's screen, so the generic list and form never make one without its album.
 */
export const photos = defineContentType({
	type: 'photos',
	kind: 'collection',
	singular: 'صورة',
	plural: 'صور الألبوم',
	dashboard: 'صور الألبومات.',
	fields: [
		{ kind: 'text', name: 'album', label: 'الألبوم', required: true, maxLength: 36, adminHidden: true },
		{ kind: 'image', name: 'image', label: 'الصورة', required: true },
		{ kind: 'text', name: 'caption', label: 'وصف الصورة', maxLength: 200 },
		{ kind: 'number', name: 'order', label: 'الترتيب', hint: 'الأصغر يظهر أولاً', min: 0, max: 9999 },
	],
	listColumns: ['caption'],
	perPage: 8,
	publicPath: '/gallery',
	messages: { added: 'تمت إضافة الصور بنجاح', updated: 'تم تحديث وصف الصورة', deleted: 'تم حذف الصورة', imageRequired: 'الرجاء اختيار صورة' },
})

/** The video gallery (docs/product.md#public-site: 6 a page; admin 8 a page): an uploaded file or a YouTube embed. */
export const videos = defineContentType({
	type: 'videos',
	kind: 'collection',
	singular: 'فيديو',
	plural: 'معرض الفيديو',
	dashboard: 'مقاطع الفيديو المرفوعة وروابط يوتيوب.',
	fields: [
		{ kind: 'text', name: 'title', label: 'عنوان الفيديو', required: true, maxLength: 150 },
		{ kind: 'video', name: 'file', label: 'ملف الفيديو', hint: 'MP4 أو WebM أو MOV. أو اتركه فارغاً واكتب رابط يوتيوب.', poster: 'poster' },
		{ kind: 'url', name: 'url', label: 'أو رابط من يوتيوب', hint: youtubeHint, youtube: true },
		{ kind: 'image', name: 'poster', label: 'صورة الغلاف (اختياري)', hint: 'تظهر قبل تشغيل الفيديو المرفوع.' },
		{ kind: 'date', name: 'date', label: 'التاريخ', required: true },
	],
	listColumns: ['title', 'date'],
	perPage: 8,
	publicPath: '/gallery/videos',
	dateField: 'date',
	oneOf: { fields: ['file', 'url'], message: 'الرجاء رفع ملف فيديو أو كتابة رابط يوتيوب' },
	messages: { added: 'تمت إضافة الفيديو بنجاح', updated: 'تم تحديث بيانات الفيديو بنجاح', deleted: 'تم حذف الفيديو' },
})

/** The guidance manual an association downloads from association support's attachments step (docs/product.md#association-support). */
export const associationGuide = defineContentType({
	type: 'association-guide',
	dashboard: 'دليل إرشادي (PDF) تنزّله الجمعيات من خطوة المرفقات في طلب دعم الجمعيات.',
	kind: 'singleton',
	singular: 'دليل طلب دعم الجمعيات',
	plural: 'دليل طلب دعم الجمعيات',
	fields: [{ kind: 'document', name: 'pdf', label: 'الدليل الإرشادي (PDF)', hint: 'يظهر رابط تنزيله في خطوة المرفقات من طلب دعم الجمعيات.', required: true }],
	listColumns: [],
	perPage: 1,
	publicPath: '/apply/association-support',
	messages: generic,
})

/** «أثرنا»'s introduction (docs/product.md#our-impact): the figures below it are the aid ledger's. */
export const impactPage = defineContentType({
	type: 'impact',
	dashboard: 'مقدمة صفحة «أثرنا» العامة؛ أرقامها تُحسب من سجل الصرف.',
	kind: 'singleton',
	singular: 'مقدمة صفحة أثرنا',
	plural: 'مقدمة صفحة أثرنا',
	fields: [{ kind: 'richtext', name: 'intro', label: 'المقدمة', required: true }],
	listColumns: [],
	perPage: 1,
	publicPath: '/impact',
	messages: generic,
})

/** Every content type, in the order of their cards on the dashboard. */
export const contentTypes: readonly ContentType[] = [
	homePage,
	slides,
	programmesType,
	visualIdentity,
	externalLinks,
	jobAds,
	announcement,
	organizationChart,
	registrationCertificate,
	qualityCertificate,
	members,
	committees,
	chairmanSpeech,
	news,
	libraryDocuments,
	regulationPages,
	albums,
	videos,
	associationGuide,
	impactPage,
]

/** Where staff edit a type: a collection's list, a singleton's one form. */
export const contentAdminPath = (type: ContentType) => (type.kind === 'singleton' ? `/admin/content/${type.type}/edit` : `/admin/content/${type.type}`)

/** The dashboard's card of each content type. */
export const contentCards = () => contentTypes.map((type) => ({ to: contentAdminPath(type), title: type.kind === 'singleton' ? type.singular : type.plural, text: type.dashboard }))

export function findContentType(type: string): ContentType | undefined {
	return contentTypes.find((candidate) => candidate.type === type)
}

/** The admin breadcrumb back to a collection's list, for its add, edit and delete screens. */
export function contentCrumbs(typeName: string): { to: string; label: string }[] {
	const type = findContentType(typeName)
	return type?.kind === 'collection' ? [{ to: `/admin/content/${type.type}`, label: type.plural }] : []
}
