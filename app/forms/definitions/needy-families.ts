import type { ApplicationDef, SectionDef } from '../definition.ts'
import {
	banks,
	careers,
	educationLevels,
	familyRoles,
	familyServices,
	genders,
	healthStatuses,
	housingStatuses,
	housingTypes,
	nationalities,
	referrerTypes,
	relationships,
	socialStatuses,
} from '../options.ts'

/** Needy families, one-off («cut-off») support (docs/product.md#needy-families): steps 1-1 … 1-7. */
export const needyFamilies: ApplicationDef = {
	type: 'needy-families',
	kind: 'individual',
	title: 'طلب دعم الأسر المحتاجة (الدعم المقطوع)',
	reportTitle: 'طلب دعم مقطوع',
	summary: 'دعم مقطوع للأسر المحتاجة يعينها على متطلبات الحياة الأساسية، بعد دراسة حالتها من باحثي المؤسسة.',
	eligibility: [
		'أسرة مقيمة في منطقة خدمة المؤسسة',
		'دخل الأسرة لا يكفي لاحتياجاتها الأساسية',
		'ثلاثة معرّفين بالأسرة، أحدهم على الأقل معرّف رسمي (شيخ القبيلة أو عمدة الحي أو إمام المسجد)',
	],
	applicant: { name: 'Full_Name', nationalId: 'Identify_Id', mobile: 'Phone', email: 'Email', nationality: 'Nationalty', city: 'city', household: 'members' },
	acknowledgement: 'أقر بأن جميع البيانات والمرفقات المقدمة صحيحة، وأتحمل مسؤولية أي معلومة غير صحيحة.',
	afterSubmit: [
		'يدرس أحد باحثي المؤسسة طلبك ومرفقاته.',
		'قد نتصل بك على رقم جوالك لاستكمال البيانات أو لزيارة الأسرة.',
		'إن احتاج الطلب إلى استكمال فستجد رسالة منا في رابط طلبك، ويمكنك تعديله وإرساله من جديد.',
	],
	sections: [
		{
			key: 'basic',
			code: '1-1',
			title: 'البيانات الأساسية',
			fields: [
				{ kind: 'text', name: 'Full_Name', label: 'الاسم الرباعي', required: true, autoComplete: 'name' },
				{ kind: 'text', name: 'Identify_Id', label: 'رقم الهوية أو الإقامة', hint: '10 أرقام كما في البطاقة', format: 'nationalId', required: true },
				{ kind: 'radio', name: 'Gander', label: 'الجنس', options: genders, default: 'male', required: true },
				{ kind: 'select', name: 'Nationalty', label: 'الجنسية', options: nationalities, default: 'saudi', required: true },
				{ kind: 'date', name: 'BirthDate', label: 'تاريخ الميلاد', past: true, hijri: true },
				{ kind: 'age', name: 'age', label: 'العمر بالسنوات', hint: 'لمن لا يعرف تاريخ ميلاده؛ يُحسب العمر من تاريخ الميلاد إن كُتب', birthDate: 'BirthDate' },
				{ kind: 'select', name: 'Social_Situation', label: 'الحالة الاجتماعية', options: socialStatuses, default: 'married', required: true },
				{ kind: 'select', name: 'Career', label: 'العمل', options: careers, default: 'private_employee', required: true },
				{ kind: 'money', name: 'Salary', label: 'الراتب الشهري' },
				{ kind: 'text', name: 'Income_Source', label: 'مصدر الدخل' },
				{ kind: 'select', name: 'Family_Role', label: 'الصفة في الأسرة', options: familyRoles, default: 'head', required: true },
				{ kind: 'text', name: 'Phone', label: 'رقم الجوال', hint: 'مثل 0551234567', format: 'mobile', required: true, autoComplete: 'tel' },
				{ kind: 'text', name: 'Email', label: 'البريد الإلكتروني (اختياري)', hint: 'للتواصل معك بشأن طلبك، ولإرسال رابط طلبك إليه متى أمكن', format: 'email', autoComplete: 'email' },
				{ kind: 'select', name: 'Housing_Status', label: 'ملكية السكن', options: housingStatuses, default: 'owned', required: true },
				{ kind: 'select', name: 'Housing_Type', label: 'نوع السكن', options: housingTypes, default: 'villa', required: true },
				{ kind: 'text', name: 'city', label: 'المدينة' },
				{ kind: 'text', name: 'Neighborhood', label: 'الحي' },
			],
		},
		{
			key: 'bank',
			code: '1-2',
			title: 'البيانات البنكية',
			description: 'الحساب الذي يُحوَّل إليه الدعم، باسم المتقدم.',
			// A person's bank account: asked only with the applicant's consent (docs/product.md#privacy-and-consent).
			sensitive: 'bank',
			fields: [
				{ kind: 'select', name: 'Bank_Name_1', label: 'البنك', options: banks, default: banks[0]!.value, required: true },
				{ kind: 'text', name: 'Bank_No_1', label: 'رقم الحساب (الآيبان)', hint: 'يبدأ بـ SA ويتبعه 22 رقماً', format: 'iban', default: 'SA', required: true },
				{ kind: 'select', name: 'Bank_Name_2', label: 'البنك الثاني (اختياري)', options: banks, onlyWith: 'Bank_No_2' },
				{ kind: 'text', name: 'Bank_No_2', label: 'رقم الحساب الثاني (اختياري)', format: 'iban', default: 'SA' },
			],
		},
		{
			key: 'financial',
			code: '1-3',
			title: 'الوضع المالي',
			description: 'المبالغ الشهرية بالريال السعودي.',
			fields: [
				{ kind: 'money', name: 'Net_Income', label: 'صافي دخل الأسرة الشهري', required: true },
				{ kind: 'money', name: 'Salary', label: 'الراتب' },
				{ kind: 'money', name: 'Retirement', label: 'التقاعد' },
				{ kind: 'money', name: 'Social_Insurance', label: 'الضمان الاجتماعي' },
				{ kind: 'money', name: 'Social_Insurance_2', label: 'التأمينات الاجتماعية' },
				{ kind: 'money', name: 'Subsidies', label: 'الإعانات' },
				{ kind: 'money', name: 'Other_Money_Sources', label: 'مصادر دخل أخرى' },
			],
		},
		{
			key: 'family',
			code: '1-4',
			title: 'أفراد الأسرة',
			description: 'أضف أفراد الأسرة الذين يعيشون معك، فرداً فرداً.',
			fields: [
				{
					kind: 'group',
					name: 'members',
					label: 'أفراد الأسرة',
					itemLabel: 'فرد',
					emptyText: 'لم تُضف أحداً بعد.',
					counted: { one: 'فرد واحد', two: 'فردين', few: 'أفراد', many: 'فرداً', other: 'فرد' },
					min: 1,
					max: 20,
					fields: [
						{ kind: 'text', name: 'FamilyName', label: 'الاسم', required: true },
						{ kind: 'select', name: 'RelationShip', label: 'صلة القرابة', options: relationships, required: true },
						{ kind: 'text', name: 'Identify_Id', label: 'رقم الهوية (اختياري)', format: 'nationalId' },
						{ kind: 'number', name: 'Age', label: 'العمر', min: 0, max: 120 },
						{ kind: 'radio', name: 'Gander', label: 'الجنس', options: genders },
						{ kind: 'select', name: 'Level_Edu', label: 'المستوى التعليمي', options: educationLevels },
						{ kind: 'select', name: 'Social_Status', label: 'الحالة الاجتماعية', options: socialStatuses },
						{ kind: 'select', name: 'Health_Status', label: 'الحالة الصحية', options: healthStatuses },
					],
				},
			],
		},
		{
			key: 'referrers',
			code: '1-5',
			// Read after «تغيير» on the check page too, so a form that stays right there (not «تغيير المعرّفون»).
			title: 'بيانات المعرّفين',
			description:
				'ثلاثة أشخاص يعرفون الأسرة، أحدهم على الأقل معرّف رسمي: شيخ القبيلة أو عمدة الحي أو إمام أقرب مسجد. اطبع نموذج المعرّف ليوقّعه ثم أرفقه مع المستندات.',
			links: [{ to: '/apply/referrer-form', label: 'نموذج المعرّف للطباعة', newTab: true }],
			fields: [
				{
					kind: 'group',
					name: 'persons',
					label: 'المعرّفون',
					itemLabel: 'المعرّف',
					emptyText: 'لم تُضف معرّفاً بعد.',
					counted: { one: 'معرّف واحد', two: 'معرّفَين', few: 'معرّفين', many: 'معرّفاً', other: 'معرّف' },
					min: 3,
					max: 3,
					fields: [
						{ kind: 'text', name: 'Name', label: 'الاسم', required: true },
						{ kind: 'text', name: 'NationalAddress', label: 'العنوان الوطني', required: true },
						{ kind: 'text', name: 'PhoneNumber', label: 'رقم الجوال (اختياري)', format: 'mobile' },
						{ kind: 'select', name: 'RelatedPerson', label: 'صفة المعرّف', options: referrerTypes, required: true },
					],
				},
			],
			rules: [
				{
					check: (values) => {
						const persons = (values.persons ?? []) as { RelatedPerson?: string }[]
						return persons.some((person) => person.RelatedPerson && person.RelatedPerson !== 'other')
							? null
							: { path: ['persons'], message: 'يجب أن يكون أحد المعرّفين على الأقل معرّفاً رسمياً (شيخ القبيلة أو عمدة الحي أو إمام المسجد)' }
					},
				},
			],
		},
		{
			key: 'services',
			code: '1-6',
			title: 'الخدمات المطلوبة',
			fields: [
				{ kind: 'checkboxes', name: 'services', label: 'الخدمات التي تحتاجها الأسرة', hint: 'اختر كل ما ينطبق', options: familyServices, other: { label: 'خدمات أخرى' } },
			],
		},
		{
			key: 'files',
			code: '1-7',
			title: 'المرفقات ورسالة المستفيد',
			description: 'صوّر كل مستند بكاميرا الجوال صفحةً بعد صفحة، أو أرسله ملف PDF.',
			files: [
				{ slot: 'identity', label: 'صورة الهوية أو الإقامة', required: true },
				{ slot: 'family_report', label: 'سجل الأسرة', required: true },
				{ slot: 'proof_of_residence', label: 'إثبات السكن' },
				{ slot: 'bank_statement', label: 'كشف حساب بنكي', sensitive: 'bank' },
				{ slot: 'referrer_form', label: 'نموذج المعرّف موقعاً' },
				{ slot: 'other', label: 'مرفقات أخرى', multiple: true },
			],
			fields: [{ kind: 'textarea', name: 'PatientMassage', label: 'رسالة المستفيد (اختياري)', hint: 'ما تريد أن يعرفه الباحث عن حالة الأسرة', maxLength: 2000 }],
		},
	],
}

/**
 * One of these sections under another programme's step code: the person, bank and income
 * questions are the same in home restoration and the medical case.
 */
export function needyFamiliesSection(key: string, code: string): SectionDef {
	return { ...needyFamilies.sections.find((section) => section.key === key)!, code }
}
