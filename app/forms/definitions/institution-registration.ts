import { passwordHint } from '#app/text/messages.ts'
import type { ApplicationDef } from '../definition.ts'
import { banks, institutionTypes } from '../options.ts'

/** An institution account's user name (docs/product.md#institution-registration): checked by the step and again when the account opens. */
export const INSTITUTION_USER_NAME = /^[A-Za-z0-9._-]{3,40}$/
export const INSTITUTION_USER_NAME_MESSAGE = 'اسم المستخدم من 3 إلى 40 حرفاً: أحرف إنجليزية وأرقام، ويجوز فيه النقطة (.) والشرطة (-) والشرطة السفلية (_)'

/**
 * New-institution registration (docs/product.md#institution-registration): steps R-1 … R-4. Sending
 * it opens the institution's own account with the user of the first step.
 */
export const institutionRegistration: ApplicationDef = {
	type: 'institution-registration',
	kind: 'association',
	title: 'تسجيل مؤسسة جديدة',
	reportTitle: 'طلب تسجيل مؤسسة',
	summary: 'تسجيل مؤسستكم لدى المؤسسة، مع حساب خاص بها تتابعون منه التسجيل وطلبات الدعم.',
	eligibility: ['مؤسسة بتصريح ساري من الجهة المختصة', 'مستخدم مفوَّض من المؤسسة يتولى حسابها', 'حساب بنكي باسم المؤسسة'],
	// The case is the institution's (its name and permit number, from the second step), reached on
	// its user's mobile and e-mail (the first step).
	applicant: { name: 'name', nationalId: 'permitNo', mobile: 'phone', email: 'email' },
	createsAccount: { section: 'user', name: 'name', userName: 'userName', email: 'email', mobile: 'phone', password: 'password' },
	acknowledgement: 'أقر بصفتي مفوَّضاً من المؤسسة بأن جميع البيانات والمرفقات المقدمة صحيحة، وأتحمل مسؤولية أي معلومة غير صحيحة.',
	afterSubmit: [
		'تراجع المؤسسة بيانات التسجيل ومستنداته.',
		'يمكنك الدخول من «دخول المؤسسات» باسم المستخدم وكلمة المرور اللذين اخترتهما لمتابعة التسجيل.',
		'إن احتاج التسجيل إلى استكمال فستجد رسالة منا في حساب المؤسسة، ويمكنك تعديله وإرساله من جديد.',
	],
	sections: [
		{
			key: 'user',
			code: 'R-1',
			title: 'بيانات مستخدم المؤسسة',
			description: 'من يتولى حساب المؤسسة: يدخل به لمتابعة التسجيل وطلبات الدعم.',
			fields: [
				{ kind: 'text', name: 'fullName', label: 'الاسم الكامل', required: true, autoComplete: 'name' },
				{ kind: 'text', name: 'userName', label: 'اسم المستخدم', hint: 'من 3 إلى 40 حرفاً بالأحرف الإنجليزية والأرقام، للدخول إلى حساب المؤسسة', required: true, maxLength: 40, autoComplete: 'username' },
				{ kind: 'text', name: 'email', label: 'البريد الإلكتروني', format: 'email', required: true, autoComplete: 'email' },
				{ kind: 'text', name: 'phone', label: 'رقم الجوال', hint: 'مثل 0551234567', format: 'mobile', required: true, autoComplete: 'tel' },
				{
					kind: 'newPassword',
					name: 'password',
					label: 'كلمة المرور',
					hint: passwordHint,
					confirmLabel: 'تأكيد كلمة المرور',
					required: true,
				},
			],
			rules: [
				{
					check: (values) => (typeof values.userName !== 'string' || INSTITUTION_USER_NAME.test(values.userName) ? null : { path: ['userName'], message: INSTITUTION_USER_NAME_MESSAGE }),
				},
			],
		},
		{
			key: 'institution',
			code: 'R-2',
			title: 'بيانات المؤسسة',
			fields: [
				{ kind: 'text', name: 'name', label: 'اسم المؤسسة', required: true, autoComplete: 'organization' },
				{ kind: 'select', name: 'InstitutionType', label: 'نوع المؤسسة', options: institutionTypes, default: '1', required: true },
				{ kind: 'text', name: 'permitNo', label: 'رقم التصريح', hint: 'أرقام فقط، كما في تصريح المؤسسة', format: 'licence', required: true },
				{ kind: 'date', name: 'createDate', label: 'تاريخ الإنشاء', past: true, required: true },
				{ kind: 'text', name: 'mainInstitution', label: 'المؤسسة الرئيسية (اختياري)', hint: 'إن كانت المؤسسة فرعاً لمؤسسة أخرى' },
				{ kind: 'text', name: 'address', label: 'العنوان', required: true },
				{ kind: 'text', name: 'CEOName', label: 'اسم المدير التنفيذي', required: true },
				{ kind: 'text', name: 'CEOPhone', label: 'جوال المدير التنفيذي', hint: 'مثل 0551234567', format: 'mobile', required: true },
			],
		},
		{
			key: 'bank',
			code: 'R-3',
			title: 'البيانات البنكية',
			description: 'حساب المؤسسة الذي يُحوَّل إليه الدعم، باسم المؤسسة.',
			// An institution's account, not a person's: no consent step (docs/product.md#privacy-and-consent).
			fields: [
				{ kind: 'text', name: 'nameAtBank', label: 'الاسم في البنك', hint: 'اسم صاحب الحساب كما هو مسجل لدى البنك', required: true },
				{ kind: 'select', name: 'bankName', label: 'البنك', options: banks, default: banks[0]!.value, required: true },
				{ kind: 'text', name: 'accountNumber', label: 'رقم الحساب', required: true },
				{ kind: 'text', name: 'iban', label: 'الآيبان', hint: 'يبدأ بـ SA ويتبعه 22 رقماً', format: 'iban', default: 'SA', required: true },
			],
		},
		{
			key: 'documents',
			code: 'R-4',
			title: 'المستندات',
			description: 'صوّر كل مستند بكاميرا الجوال صفحةً بعد صفحة، أو أرسله ملف PDF.',
			files: [
				{ slot: 'authorization_letter', label: 'خطاب التفويض', required: true },
				{ slot: 'bank_certificate', label: 'شهادة الحساب البنكي', required: true },
				{ slot: 'institution_statement', label: 'بيان المؤسسة', required: true },
				{ slot: 'ceo_appointment', label: 'قرار تعيين المدير التنفيذي', required: true },
			],
			fields: [],
		},
	],
}
