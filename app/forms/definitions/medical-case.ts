import type { ApplicationDef, FieldDef, SectionDef } from '../definition.ts'
import {
	appointmentNeeds,
	auxiliaryDevices,
	currentRemedies,
	educationalNeeds,
	homeCare,
	homeModes,
	hospitalDifficulties,
	medicalCentreVisits,
	medicalNeeds,
	nutrition,
	otherDiseases,
	otherProviders,
	patientConditions,
	patientServices,
	patientSupplies,
	patientTravel,
	psychologicalSupport,
	remedies,
	selfService,
	sensesSpeech,
	supportServices,
} from '../options.ts'
import { needyFamilies, needyFamiliesSection } from './needy-families.ts'

/** The family list of the patient flow: no member's field is required, but the list is not empty (4-4). */
function patientFamily(): SectionDef {
	const family = needyFamiliesSection('family', '4-4')
	const relax = (field: FieldDef): FieldDef => {
		if (field.kind !== 'group') return field
		return { ...field, fields: field.fields.map((row) => (row.kind === 'select' || row.kind === 'radio' ? { ...row, required: false, default: undefined } : { ...row, required: false })) as typeof field.fields }
	}
	return { ...family, description: 'أضف أفراد أسرة المريض الذين يعيشون معه.', fields: family.fields.map(relax) }
}

/** A required choice that starts on its first option, as the old patient forms did. */
const firstOption = <T extends { value: string }>(options: readonly T[]) => ({ options, default: options[0]!.value, required: true as const })

/** Medical case (patient) support (docs/product.md#medical-case): steps 4-1 … 4-10. Health data: staff who handle cases only. */
export const medicalCase: ApplicationDef = {
	type: 'medical-case',
	kind: 'individual',
	title: 'طلب دعم حالة مرضية',
	reportTitle: 'طلب دعم حالة مرضية',
	summary: 'دعم المرضى وأسرهم في العلاج والمستلزمات الطبية والتنقل والسكن، بعد دراسة حالة المريض وتقاريره الطبية.',
	eligibility: ['مريض مقيم في منطقة خدمة المؤسسة، أو من يتقدم عنه من أسرته', 'تقرير طبي حديث من جهة علاجية معتمدة', 'حاجة لا تغطيها جهة أخرى'],
	applicant: { ...needyFamilies.applicant, city: 'City' },
	acknowledgement: needyFamilies.acknowledgement,
	afterSubmit: [
		'يدرس أحد باحثي المؤسسة طلبك وتقاريره الطبية.',
		'قد نتصل بك على رقم جوالك لاستكمال البيانات أو لترتيب زيارة.',
		'إن احتاج الطلب إلى استكمال فستجد رسالة منا في رابط طلبك، ويمكنك تعديله وإرساله من جديد.',
	],
	sections: [
		needyFamiliesSection('basic', '4-1'),
		needyFamiliesSection('bank', '4-2'),
		needyFamiliesSection('financial', '4-3'),
		patientFamily(),
		// The patient's illness, treatment, needs and circumstances are health data: asked only with
		// consent, as the medical report is (docs/product.md#privacy-and-consent).
		{
			key: 'health',
			sensitive: 'health',
			code: '4-5',
			title: 'الحالة الصحية للمريض',
			fields: [
				{ kind: 'text', name: 'Disease_Type', label: 'نوع المرض', required: true },
				{ kind: 'date', name: 'Injury_Date', label: 'تاريخ الإصابة', past: true },
				{ kind: 'text', name: 'Hostiptal_Name', label: 'المستشفى المعالج' },
				{ kind: 'text', name: 'City', label: 'المدينة' },
				{ kind: 'text', name: 'File_No', label: 'رقم الملف الطبي' },
				{ kind: 'select', name: 'Remedies', label: 'العلاج المتلقى', ...firstOption(remedies) },
				{ kind: 'text', name: 'Past_Remedies', label: 'العلاجات السابقة' },
				{ kind: 'select', name: 'Current_Remedies', label: 'العلاج الحالي', ...firstOption(currentRemedies) },
				{ kind: 'select', name: 'Patient_Condition', label: 'حالة المريض', ...firstOption(patientConditions) },
				{ kind: 'select', name: 'Self_Service', label: 'خدمة المريض لنفسه', ...firstOption(selfService) },
				{ kind: 'select', name: 'Home_Care', label: 'الرعاية المنزلية', ...firstOption(homeCare) },
				{ kind: 'select', name: 'Senses_Speech_Integrity', label: 'سلامة الحواس والنطق', ...firstOption(sensesSpeech) },
				{ kind: 'select', name: 'Other_Diseases', label: 'أمراض أخرى', ...firstOption(otherDiseases) },
				{ kind: 'textarea', name: 'Brief_Medical_Description', label: 'وصف طبي مختصر', maxLength: 2000 },
			],
		},
		{
			key: 'needs',
			sensitive: 'health',
			code: '4-6',
			title: 'احتياجات المريض',
			fields: [
				{ kind: 'select', name: 'Educational_Needs', label: 'الاحتياجات التعليمية', options: educationalNeeds, required: true },
				{ kind: 'select', name: 'External_Meetings_Appointments', label: 'المواعيد خارج المدينة', options: appointmentNeeds, required: true },
				{ kind: 'select', name: 'Medical_Centers_Review', label: 'مراجعة المراكز الطبية', options: medicalCentreVisits },
				{ kind: 'select', name: 'Difficulties_In_Hospital', label: 'الصعوبات في المستشفى', options: hospitalDifficulties },
				{ kind: 'select', name: 'Health_Medical_Needs', label: 'الاحتياجات الصحية', options: medicalNeeds },
				{ kind: 'select', name: 'Support_Services', label: 'الخدمات المساندة', options: supportServices },
				{ kind: 'select', name: 'Auxiliary_Devices', label: 'الأجهزة المساعدة', options: auxiliaryDevices },
				{ kind: 'text', name: 'Auxiliary_Devices_Other', label: 'الجهاز المساعد الذي يحتاجه', hint: 'لمن اختار «أخرى» في الأجهزة المساعدة', required: true, when: { field: 'Auxiliary_Devices', is: ['other'] } },
				{ kind: 'select', name: 'Psychological_Support', label: 'الدعم النفسي', options: psychologicalSupport },
				{ kind: 'text', name: 'Psychological_Support_Other', label: 'الدعم النفسي الذي يحتاجه', hint: 'لمن اختار «أخرى» في الدعم النفسي', required: true, when: { field: 'Psychological_Support', is: ['other'] } },
				{ kind: 'text', name: 'Other_Needs', label: 'احتياجات أخرى' },
			],
		},
		{
			key: 'conditions',
			sensitive: 'health',
			code: '4-7',
			title: 'ظروف المريض الأخرى',
			fields: [
				{ kind: 'select', name: 'Home_Mode', label: 'وضع المنزل', options: homeModes, required: true },
				{ kind: 'select', name: 'Special_Patient_Supplies', label: 'مستلزمات المريض الخاصة', options: patientSupplies, required: true },
				{ kind: 'select', name: 'Patient_Travel_Outside', label: 'تنقل المريض خارج المنزل', options: patientTravel },
				{ kind: 'text', name: 'Patient_Travel_Outside_Other', label: 'الجهة التي تنقل المريض', hint: 'لمن اختار «جهة أخرى» في تنقل المريض', required: true, when: { field: 'Patient_Travel_Outside', is: ['other_party'] } },
				{ kind: 'select', name: 'Nutrition_Food', label: 'تغذية المريض', options: nutrition },
			],
		},
		{
			key: 'services',
			code: '4-8',
			title: 'خدمات المؤسسة المطلوبة',
			fields: [{ kind: 'checkboxes', name: 'services', label: 'الخدمات التي يحتاجها المريض', hint: 'اختر كل ما ينطبق', options: patientServices, other: { label: 'خدمات أخرى' } }],
		},
		{
			key: 'providers',
			code: '4-9',
			title: 'الجهات الأخرى المقدمة للخدمة',
			fields: [{ kind: 'checkboxes', name: 'providers', label: 'الجهات التي تقدم للمريض خدمة حالياً', hint: 'اختر كل ما ينطبق', options: otherProviders, other: { label: 'جهة أخرى' } }],
		},
		{
			key: 'files',
			code: '4-10',
			title: 'ملفات المريض ورسالة المستفيد',
			description: 'صوّر كل مستند بكاميرا الجوال صفحةً بعد صفحة، أو أرسله ملف PDF.',
			links: [{ to: '/apply/referrer-form', label: 'نموذج تعريف شيخ القبيلة للطباعة', newTab: true }],
			files: [
				{ slot: 'identity', label: 'صورة الهوية أو الإقامة', required: true },
				{ slot: 'medical_report', label: 'التقرير الطبي', required: true, sensitive: 'health' },
				{ slot: 'proof_of_residence', label: 'إثبات السكن' },
				{ slot: 'bank_statement', label: 'كشف حساب بنكي', sensitive: 'bank' },
				{ slot: 'clan_leader', label: 'تعريف شيخ القبيلة موقعاً' },
				{ slot: 'other', label: 'مرفقات أخرى', multiple: true },
			],
			fields: [{ kind: 'textarea', name: 'PatientMassage', label: 'رسالة المستفيد (اختياري)', hint: 'ما تريد أن يعرفه الباحث عن حالة المريض', maxLength: 2000 }],
		},
	],
}
