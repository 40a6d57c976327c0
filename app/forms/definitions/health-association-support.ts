import type { ApplicationDef, SectionDef } from '../definition.ts'
import { healthSupportTypes } from '../options.ts'
import { associationSection, associationSupport } from './association-support.ts'

/** The association's details, its specialty starting on «صحية». */
function healthAssociationBasic(): SectionDef {
	const basic = associationSection('basic', '6-1')
	return { ...basic, fields: basic.fields.map((field) => (field.name === 'AssemblySpecialty' && field.kind === 'select' ? { ...field, required: true as const, default: 'health' } : field)) }
}

/**
 * Health-association support type (docs/product.md#health-association-support-type): steps 6-1 …
 * 6-5. The association flow without its bank section and attachments, with the support it wants.
 */
export const healthAssociationSupport: ApplicationDef = {
	type: 'health-association-support',
	kind: 'association',
	title: 'طلب دعم جمعية صحية',
	reportTitle: 'طلب دعم جمعية صحية',
	summary: 'دعم الجمعيات الصحية المرخصة في مشاريعها: دعم لوجستي وشراكات وتدريب وخدمات مباشرة وإعلام وجوائز وموارد توعوية.',
	eligibility: ['جمعية صحية مسجلة لدى وزارة الموارد البشرية والتنمية الاجتماعية بترخيص ساري', 'مشروع صحي بأهداف ومراحل وفئة مستهدفة واضحة', 'ميزانية تقديرية للمشروع مفصلة بنداً بنداً'],
	prepare: ['رقم ترخيص الجمعية، وبيانات مشروعها وميزانيته التقديرية'],
	applicant: associationSupport.applicant,
	acknowledgement: 'أقر بصفتي ممثلاً للجمعية بأن جميع البيانات المقدمة صحيحة، وأتحمل مسؤولية أي معلومة غير صحيحة.',
	afterSubmit: [
		'يدرس فريق المؤسسة طلب الجمعية ومشروعها ونوع الدعم المطلوب.',
		'قد نتصل بممثل الجمعية على رقم جواله لاستكمال البيانات أو لمناقشة المشروع.',
		'إن احتاج الطلب إلى استكمال فستجد رسالة منا في رابط الطلب، ويمكنك تعديله وإرساله من جديد.',
	],
	sections: [
		healthAssociationBasic(),
		associationSection('projects', '6-2'),
		associationSection('details', '6-3'),
		associationSection('budget', '6-4'),
		{
			key: 'support',
			code: '6-5',
			title: 'نوع الدعم المطلوب',
			fields: [{ kind: 'checkboxes', name: 'SupportType', label: 'أنواع الدعم التي تحتاجها الجمعية', hint: 'اختر كل ما ينطبق', options: healthSupportTypes }],
		},
	],
}
