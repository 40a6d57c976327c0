import type { ApplicationDef, SectionDef } from '../definition.ts'
import { associationSpecialties, banks } from '../options.ts'

/** Association support (docs/product.md#association-support): steps 5-1 … 5-6. */
export const associationSupport: ApplicationDef = {
	type: 'association-support',
	kind: 'association',
	title: 'طلب دعم جمعية',
	reportTitle: 'طلب دعم جمعية',
	summary: 'دعم مشاريع الجمعيات الأهلية المرخصة في مجال تخصصها، بعد دراسة المشروع وميزانيته التقديرية.',
	eligibility: [
		'جمعية أهلية مسجلة لدى وزارة الموارد البشرية والتنمية الاجتماعية بترخيص ساري',
		'مشروع في مجال تخصص الجمعية، بأهداف ومراحل وفئة مستهدفة واضحة',
		'ميزانية تقديرية للمشروع مفصلة بنداً بنداً',
	],
	applicant: { name: 'AssociationName', nationalId: 'LicenseNumber', mobile: 'RepresentativeMobile', email: 'Email', specialty: 'AssemblySpecialty' },
	// Started from a registered institution's account: filled in from its registration (institution-registration.ts).
	prefill: {
		basic: { AssociationName: 'name', LicenseNumber: 'permitNo', DateOfEstablishment: 'createDate', Email: 'email', RepresentativeName: 'fullName', RepresentativeMobile: 'phone' },
		bank: { Bank_Name_1: 'bankName', Bank_No_1: 'iban' },
	},
	acknowledgement: 'أقر بصفتي ممثلاً للجمعية بأن جميع البيانات والمرفقات المقدمة صحيحة، وأتحمل مسؤولية أي معلومة غير صحيحة.',
	afterSubmit: [
		'يدرس فريق المؤسسة طلب الجمعية ومشروعها وميزانيته التقديرية.',
		'قد نتصل بممثل الجمعية على رقم جواله لاستكمال البيانات أو لمناقشة المشروع.',
		'إن احتاج الطلب إلى استكمال فستجد رسالة منا في رابط الطلب، ويمكنك تعديله وإرساله من جديد.',
	],
	sections: [
		{
			key: 'basic',
			code: '5-1',
			title: 'بيانات الجمعية',
			description: 'بيانات الجمعية كما في ترخيصها، وممثلها الذي نتواصل معه بشأن الطلب.',
			fields: [
				{ kind: 'text', name: 'AssociationName', label: 'اسم الجمعية', required: true, autoComplete: 'organization' },
				{ kind: 'text', name: 'LicenseNumber', label: 'رقم الترخيص', hint: 'أرقام فقط، كما في ترخيص وزارة الموارد البشرية', format: 'licence', required: true },
				{ kind: 'select', name: 'AssemblySpecialty', label: 'تخصص الجمعية', options: associationSpecialties, required: true },
				{ kind: 'date', name: 'DateOfEstablishment', label: 'تاريخ التأسيس', past: true, required: true },
				{ kind: 'text', name: 'Email', label: 'البريد الإلكتروني للجمعية', hint: 'للتواصل معكم بشأن الطلب، ولإرسال رابط الطلب إليه', format: 'email', required: true, autoComplete: 'email' },
				{ kind: 'text', name: 'RepresentativeName', label: 'اسم ممثل الجمعية', required: true, autoComplete: 'name' },
				{ kind: 'text', name: 'RepresentativeMobile', label: 'جوال ممثل الجمعية', hint: 'مثل 0551234567', format: 'mobile', required: true, autoComplete: 'tel' },
				{ kind: 'number', name: 'ProjectsLastYear', label: 'عدد مشاريع العام الماضي (اختياري)', min: 0, max: 1000 },
				{ kind: 'number', name: 'ProjectsNextYear', label: 'عدد المشاريع المخطط لها العام القادم (اختياري)', min: 0, max: 1000 },
			],
		},
		{
			key: 'bank',
			code: '5-2',
			title: 'البيانات البنكية',
			description: 'حساب الجمعية الذي يُحوَّل إليه الدعم، باسم الجمعية.',
			// An association's account, not a person's: the PDPL's consent for credit data does not
			// apply, so there is no consent step in this form (docs/product.md#privacy-and-consent).
			fields: [
				{ kind: 'select', name: 'Bank_Name_1', label: 'البنك', options: banks, default: banks[0]!.value, required: true },
				{ kind: 'text', name: 'Bank_No_1', label: 'رقم الحساب (الآيبان)', hint: 'يبدأ بـ SA ويتبعه 22 رقماً', format: 'iban', default: 'SA', required: true },
				{ kind: 'select', name: 'Bank_Name_2', label: 'البنك الثاني (اختياري)', options: banks, onlyWith: 'Bank_No_2' },
				{ kind: 'text', name: 'Bank_No_2', label: 'رقم الحساب الثاني (اختياري)', format: 'iban', default: 'SA' },
			],
		},
		{
			key: 'projects',
			code: '5-3',
			title: 'المشاريع حسب التخصص',
			description: 'أضف مشاريع الجمعية في مجال تخصصها، مشروعاً مشروعاً.',
			fields: [
				{
					kind: 'group',
					name: 'projects',
					label: 'مشاريع الجمعية',
					itemLabel: 'مشروع',
					emptyText: 'لم تُضف مشروعاً بعد.',
					counted: { one: 'مشروع واحد', two: 'مشروعين', few: 'مشاريع', many: 'مشروعاً', other: 'مشروع' },
					min: 1,
					max: 20,
					fields: [
						{ kind: 'text', name: 'ProjectName', label: 'اسم المشروع', required: true },
						{ kind: 'number', name: 'BeneficiariesFromProject', label: 'عدد المستفيدين من المشروع', required: true },
						{ kind: 'text', name: 'ProjectPlace', label: 'مكان تنفيذ المشروع', required: true },
						{ kind: 'date', name: 'ProjectStartDate', label: 'تاريخ بداية المشروع', required: true },
						{ kind: 'date', name: 'ProjectEndDate', label: 'تاريخ نهاية المشروع', required: true, notBefore: 'ProjectStartDate' },
					],
				},
			],
		},
		{
			key: 'details',
			code: '5-4',
			title: 'تفاصيل المشروع',
			description: 'المشروع الذي تطلب الجمعية دعمه.',
			fields: [
				{ kind: 'text', name: 'ProjectName', label: 'اسم المشروع', required: true },
				{ kind: 'text', name: 'ProjectExecutionTime', label: 'مدة تنفيذ المشروع', hint: 'مثل: ستة أشهر', required: true },
				{ kind: 'textarea', name: 'ProjectGoals', label: 'أهداف المشروع', required: true, maxLength: 2000 },
				{ kind: 'textarea', name: 'ProjectStages', label: 'مراحل تنفيذ المشروع', required: true, maxLength: 2000 },
				{ kind: 'text', name: 'ProjectTargetGroup', label: 'الفئة المستهدفة', required: true },
				{ kind: 'number', name: 'ProjectTargetNumber', label: 'العدد المستهدف', required: true },
				{ kind: 'text', name: 'ProjectManager', label: 'مدير المشروع', required: true },
			],
		},
		{
			key: 'budget',
			code: '5-5',
			title: 'الميزانية التقديرية',
			description: 'أضف بنود الميزانية التقديرية للمشروع، بنداً بنداً. المبالغ بالريال السعودي.',
			fields: [
				{
					kind: 'group',
					name: 'budget',
					label: 'بنود الميزانية',
					itemLabel: 'بند',
					emptyText: 'لم تُضف بنداً بعد.',
					counted: { one: 'بند واحد', two: 'بندين', few: 'بنود', many: 'بنداً', other: 'بند' },
					min: 1,
					max: 30,
					fields: [
						{ kind: 'text', name: 'ProjectItem', label: 'البند', required: true },
						{ kind: 'money', name: 'ApproximatePrices', label: 'السعر التقريبي', required: true },
						{ kind: 'number', name: 'PercentageOfBudget', label: 'النسبة من الميزانية (%)', min: 0, max: 100, required: true },
						{ kind: 'money', name: 'AmountPercentageOfBudget', label: 'المبلغ حسب النسبة', required: true },
						{ kind: 'text', name: 'Notes', label: 'ملاحظات', required: true },
					],
					totals: [
						{ field: 'ApproximatePrices', label: 'مجموع الأسعار التقريبية' },
						{ field: 'PercentageOfBudget', label: 'مجموع النسب', expected: 100, warning: 'مجموع النسب لا يساوي 100%. راجع نسب البنود.' },
						{ field: 'AmountPercentageOfBudget', label: 'مجموع المبالغ' },
					],
				},
				{ kind: 'textarea', name: 'BudgetNotes', label: 'ملاحظات على الميزانية (اختياري)', maxLength: 2000 },
			],
		},
		{
			key: 'attachments',
			code: '5-6',
			title: 'المرفقات',
			description: 'صوّر كل مستند بكاميرا الجوال صفحةً بعد صفحة، أو أرسله ملف PDF.',
			offersGuide: true,
			files: [
				{ slot: 'ministry_licence', label: 'ترخيص وزارة الموارد البشرية', required: true },
				{ slot: 'council_decision', label: 'قرار تشكيل مجلس الإدارة', required: true },
				{ slot: 'chairman_speech', label: 'خطاب رئيس مجلس الإدارة' },
				{ slot: 'measurement_methods', label: 'طرق قياس أثر المشروع' },
			],
			fields: [],
		},
	],
}

/**
 * One of these sections under another programme's step code: the association, its projects, the
 * project's details and its budget are the same in the health-association support type.
 */
export function associationSection(key: string, code: string): SectionDef {
	return { ...associationSupport.sections.find((section) => section.key === key)!, code }
}
