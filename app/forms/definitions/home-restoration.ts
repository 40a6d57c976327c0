import type { ApplicationDef } from '../definition.ts'
import { housingConditions, housingCostBands, yesNo } from '../options.ts'
import { needyFamilies, needyFamiliesSection } from './needy-families.ts'

/** Home restoration (docs/product.md#home-restoration): steps 3-1 … 3-5; the first three are the needy families’ own. */
export const homeRestoration: ApplicationDef = {
	type: 'home-restoration',
	kind: 'individual',
	title: 'طلب ترميم منزل',
	reportTitle: 'طلب دعم ترميم مساكن',
	summary: 'ترميم مساكن الأسر المتعففة وتأهيلها لتكون آمنة وصالحة للسكن، بعد زيارة المنزل وتقدير الأعمال.',
	eligibility: ['أسرة مقيمة في منطقة خدمة المؤسسة', 'منزل يحتاج إلى ترميم أو صيانة لا تقدر الأسرة على كلفتها', 'المتقدم يسكن المنزل، مالكاً أو مستأجراً'],
	applicant: needyFamilies.applicant,
	acknowledgement: needyFamilies.acknowledgement,
	afterSubmit: [
		'يدرس أحد باحثي المؤسسة طلبك ومرفقاته وصور المنزل.',
		'قد نتصل بك على رقم جوالك لترتيب زيارة المنزل وتقدير الأعمال.',
		'إن احتاج الطلب إلى استكمال فستجد رسالة منا في رابط طلبك، ويمكنك تعديله وإرساله من جديد.',
	],
	sections: [
		needyFamiliesSection('basic', '3-1'),
		needyFamiliesSection('bank', '3-2'),
		needyFamiliesSection('financial', '3-3'),
		{
			key: 'housing',
			code: '3-4',
			title: 'بيانات السكن',
			description: 'حالة المنزل الذي تسكنه الأسرة وما يحتاج إليه.',
			// Its ownership and kind are asked once, in the first step (Housing_Status, Housing_Type): the
			// old form asked them again here with fresh defaults (docs/product.md#home-restoration).
			fields: [
				{ kind: 'select', name: 'Housing_Status', label: 'حالة المنزل', options: housingConditions, default: 'good', required: true },
				{ kind: 'radio', name: 'Housing_look', label: 'هل يحتاج المنزل إلى صيانة؟', options: yesNo, default: 'yes', required: true },
				{ kind: 'select', name: 'Housing_Cost', label: 'التكلفة التقديرية للترميم', options: housingCostBands, default: '500-1500', required: true },
			],
		},
		{
			key: 'files',
			code: '3-5',
			title: 'مرفقات السكن ورسالة المستفيد',
			description: 'صوّر المستندات بكاميرا الجوال أو أرسلها ملفات PDF، وصوّر المنزل من الجوال مباشرة.',
			files: [
				{ slot: 'identity', label: 'صورة الهوية أو الإقامة', required: true },
				{ slot: 'ownership', label: 'صك الملكية أو عقد الإيجار', required: true },
				{ slot: 'house_photos', label: 'صور المنزل', hint: 'صوّر الأجزاء التي تحتاج إلى ترميم', required: true, multiple: true, pictures: true },
				{ slot: 'quotation', label: 'عرض سعر الأعمال' },
				{ slot: 'other', label: 'مرفقات أخرى', multiple: true },
			],
			fields: [{ kind: 'textarea', name: 'PatientMassage', label: 'رسالة المستفيد (اختياري)', hint: 'ما تريد أن يعرفه الباحث عن حالة المنزل', maxLength: 2000 }],
		},
	],
}
