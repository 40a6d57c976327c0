import { describe, expect, test } from 'vitest'
import type { ApplicationDef, FieldDef, Option, SectionDef } from './definition.ts'
import * as lists from './options.ts'
import { applicationDefinitions } from './registry.ts'

// The option lists and the required answers of every programme, held against the older system's
// specification (docs/product.md#applications): its enumerations in its order, its defaults, and
// its required fields. The expected Arabic labels are written out here, derived from the
// specification's English names, so a list edited by mistake fails here and not in front of a
// family. Where we ask more or less than the older system did, the table below says so and why.

type Pairs = readonly (readonly [value: string, label: string])[]

interface ExpectedList {
	name: string
	list: readonly Option[]
	/** The specification's words for this list, or why the specification has none. */
	spec: string
	options: Pairs
}

const expectedLists: readonly ExpectedList[] = [
	// ── Enumerations of the specification (§3 Entities) ──
	{
		name: 'genders',
		list: lists.genders,
		spec: 'gender male/female',
		options: [
			['male', 'ذكر'],
			['female', 'أنثى'],
		],
	},
	{
		name: 'socialStatuses',
		list: lists.socialStatuses,
		spec: 'social status married, single, divorced, widowed, child',
		options: [
			// Offered for a woman as well as a man, so both forms (issue 24 §5.16).
			['married', 'متزوج / متزوجة'],
			['single', 'أعزب / عزباء'],
			['divorced', 'مطلق / مطلقة'],
			['widowed', 'أرمل / أرملة'],
			['child', 'طفل / طفلة'],
		],
	},
	{
		name: 'careers',
		list: lists.careers,
		spec: 'career private sector employee, public sector employee, retired, unemployed',
		options: [
			['private_employee', 'موظف / موظفة في القطاع الخاص'],
			['public_employee', 'موظف / موظفة في القطاع الحكومي'],
			['retired', 'متقاعد / متقاعدة'],
			['unemployed', 'لا يعمل / لا تعمل'],
		],
	},
	{
		name: 'familyRoles',
		list: lists.familyRoles,
		spec: 'family role family head, not family head, other',
		options: [
			['head', 'رب / ربة الأسرة'],
			['not_head', 'ليس رب / ليست ربة الأسرة'],
			['other', 'أخرى'],
		],
	},
	{
		name: 'housingStatuses',
		list: lists.housingStatuses,
		spec: 'housing status owned/rented',
		options: [
			['owned', 'ملك'],
			['rented', 'إيجار'],
		],
	},
	{
		name: 'housingTypes',
		list: lists.housingTypes,
		spec: 'housing type villa, popular house, apartment',
		options: [
			['villa', 'فيلا'],
			['popular_house', 'بيت شعبي'],
			['apartment', 'شقة'],
		],
	},
	{
		name: 'housingConditions',
		list: lists.housingConditions,
		spec: 'Housing_Status (good/medium/dilapidated)',
		options: [
			['good', 'جيد'],
			['medium', 'متوسط'],
			['dilapidated', 'متهالك'],
		],
	},
	{
		name: 'yesNo',
		list: lists.yesNo,
		spec: 'Housing_look (needs maintenance yes/no)',
		options: [
			['yes', 'نعم'],
			['no', 'لا'],
		],
	},
	{
		name: 'housingCostBands',
		list: lists.housingCostBands,
		spec: 'Housing_Cost (500-1500, 1500-5000, 5000-15000, more than 15000)',
		options: [
			['500-1500', 'من 500 إلى 1,500 ريال'],
			['1500-5000', 'من 1,500 إلى 5,000 ريال'],
			['5000-15000', 'من 5,000 إلى 15,000 ريال'],
			['15000+', 'أكثر من 15,000 ريال'],
		],
	},
	{
		name: 'banks',
		list: lists.banks,
		spec: 'banks: about 11 Saudi banks, default the first (names not given)',
		options: [
			['snb', 'البنك الأهلي السعودي'],
			['alrajhi', 'مصرف الراجحي'],
			['riyad', 'بنك الرياض'],
			['sab', 'البنك السعودي الأول (ساب)'],
			['bsf', 'البنك السعودي الفرنسي'],
			['anb', 'البنك العربي الوطني'],
			['albilad', 'بنك البلاد'],
			['aljazira', 'بنك الجزيرة'],
			['alinma', 'مصرف الإنماء'],
			['saib', 'البنك السعودي للاستثمار'],
			['gib', 'بنك الخليج الدولي - السعودية'],
		],
	},
	{
		name: 'referrerTypes',
		list: lists.referrerTypes,
		spec: 'RelatedPerson (tribe sheikh, village head, in front of nearest mosque, other)',
		options: [
			['tribe_sheikh', 'شيخ القبيلة'],
			['village_head', 'عمدة الحي أو القرية'],
			['mosque_imam', 'إمام أقرب مسجد'],
			['other', 'أخرى'],
		],
	},
	{
		name: 'familyServices',
		list: lists.familyServices,
		spec: 'Services wanted: Food_Gift, BillS, Physiotherapy, Medical_Supplies, Financial_Support, House_Rent, BillS_Serves, WinterClothing',
		options: [
			['food_basket', 'سلة غذائية'],
			['bills', 'سداد 50% من الفواتير'],
			['physiotherapy', 'علاج طبيعي'],
			['medical_supplies', 'مستلزمات طبية'],
			['financial_support', 'دعم مالي'],
			['house_rent', 'إيجار مسكن'],
			['service_bills', 'فواتير الخدمات'],
			['winter_clothing', 'كسوة شتوية'],
		],
	},
	{
		name: 'patientServices',
		list: lists.patientServices,
		spec: '4-8: financial support, 50% bill payment, house rent, food basket, medical supplies, service bills, physiotherapy, winter clothing',
		options: [
			['financial_support', 'دعم مالي'],
			['bills', 'سداد 50% من الفواتير'],
			['house_rent', 'إيجار مسكن'],
			['food_basket', 'سلة غذائية'],
			['medical_supplies', 'مستلزمات طبية'],
			['service_bills', 'فواتير الخدمات'],
			['physiotherapy', 'علاج طبيعي'],
			['winter_clothing', 'كسوة شتوية'],
		],
	},
	{
		name: 'otherProviders',
		list: lists.otherProviders,
		spec: 'Other providers: Al_Ber_Charity_Association, Medical_Authority, Al_Rajhi_Charitable_Society, Sanad_Association_Riyadh, Comprehensive_Rehabilitation_Center, Social_Insurance',
		options: [
			['al_ber', 'جمعية البر الخيرية'],
			['medical_authority', 'جهة طبية'],
			['al_rajhi', 'جمعية الراجحي الخيرية'],
			['sanad', 'جمعية سند (الرياض)'],
			['rehabilitation', 'مركز التأهيل الشامل'],
			['social_insurance', 'الضمان الاجتماعي'],
		],
	},
	// PatientHealth
	{
		name: 'remedies',
		list: lists.remedies,
		spec: 'Remedies (none/surgical/chemical/radiation)',
		options: [
			['none', 'لا يوجد'],
			['surgical', 'جراحي'],
			['chemical', 'كيميائي'],
			['radiation', 'إشعاعي'],
		],
	},
	{
		name: 'currentRemedies',
		list: lists.currentRemedies,
		spec: 'Current_Remedies (none/supporting treatments/chemo sessions/radiation sessions)',
		options: [
			['none', 'لا يوجد'],
			['supporting', 'علاجات مساندة'],
			['chemo_sessions', 'جلسات كيميائية'],
			['radiation_sessions', 'جلسات إشعاعية'],
		],
	},
	{
		name: 'patientConditions',
		list: lists.patientConditions,
		spec: 'Patient_Condition (good/average/looks tired/bedridden)',
		options: [
			['good', 'جيدة'],
			['average', 'متوسطة'],
			// «looks tired», agreeing with «حالة المريض» whoever the patient is (issue 24 §5.16).
			['tired', 'متعبة'],
			['bedridden', 'طريح / طريحة الفراش'],
		],
	},
	{
		name: 'selfService',
		list: lists.selfService,
		spec: 'Self_Service (serves self/needs some help/cannot)',
		options: [
			['self', 'يخدم نفسه / تخدم نفسها'],
			['some_help', 'بحاجة إلى بعض المساعدة'],
			['cannot', 'لا يستطيع خدمة نفسه / لا تستطيع خدمة نفسها'],
		],
	},
	{
		name: 'homeCare',
		list: lists.homeCare,
		spec: 'Home_Care (none/nursing/periodic medical checkup/psychological services)',
		options: [
			['none', 'لا يوجد'],
			['nursing', 'تمريض منزلي'],
			['checkup', 'متابعة طبية دورية'],
			['psychological', 'خدمات نفسية'],
		],
	},
	{
		name: 'sensesSpeech',
		list: lists.sensesSpeech,
		spec: 'Senses_Speech_Integrity (sound/hearing/vision/speech problems)',
		options: [
			['sound', 'سليمة'],
			['hearing', 'مشكلات في السمع'],
			['vision', 'مشكلات في البصر'],
			['speech', 'مشكلات في النطق'],
		],
	},
	{
		name: 'otherDiseases',
		list: lists.otherDiseases,
		spec: 'Other_Diseases (none/chronic/infectious/emergency)',
		options: [
			['none', 'لا يوجد'],
			['chronic', 'أمراض مزمنة'],
			['infectious', 'أمراض معدية'],
			['emergency', 'حالات طارئة'],
		],
	},
	// PatientNeeds
	{
		name: 'educationalNeeds',
		list: lists.educationalNeeds,
		spec: 'Educational_Needs (none/private teacher/private school/school transport)',
		options: [
			['none', 'لا يوجد'],
			['private_teacher', 'معلم خاص'],
			['private_school', 'مدرسة خاصة'],
			['school_transport', 'نقل مدرسي'],
		],
	},
	{
		name: 'appointmentNeeds',
		list: lists.appointmentNeeds,
		spec: 'External_Meetings_Appointments (none/transport only/housing/transport and housing)',
		options: [
			['none', 'لا يوجد'],
			['transport', 'نقل فقط'],
			['housing', 'سكن'],
			['transport_housing', 'نقل وسكن'],
		],
	},
	{
		name: 'medicalCentreVisits',
		list: lists.medicalCentreVisits,
		spec: 'Medical_Centers_Review (alone/one companion/several companions)',
		options: [
			['alone', 'بمفرده'],
			['one_companion', 'مع مرافق واحد'],
			['companions', 'مع عدة مرافقين'],
		],
	},
	{
		name: 'hospitalDifficulties',
		list: lists.hospitalDifficulties,
		spec: 'Difficulties_In_Hospital (appointment arrangement/long wait/treatment costs/transfer to hospital)',
		options: [
			['appointments', 'ترتيب المواعيد'],
			['long_wait', 'طول الانتظار'],
			['costs', 'تكاليف العلاج'],
			['transfer', 'التحويل إلى المستشفى'],
		],
	},
	{
		name: 'medicalNeeds',
		list: lists.medicalNeeds,
		spec: 'Health_Medical_Needs (none/nurse/medical checkup/continuous supervision)',
		options: [
			['none', 'لا يوجد'],
			['nurse', 'ممرض'],
			['checkup', 'فحص طبي'],
			['supervision', 'إشراف مستمر'],
		],
	},
	{
		name: 'supportServices',
		list: lists.supportServices,
		spec: 'Support_Services (none/physiotherapy/speech training/psychological clinic)',
		options: [
			['none', 'لا يوجد'],
			['physiotherapy', 'علاج طبيعي'],
			['speech', 'تدريب على النطق'],
			['psychological', 'عيادة نفسية'],
		],
	},
	{
		name: 'auxiliaryDevices',
		list: lists.auxiliaryDevices,
		spec: 'Auxiliary_Devices (none/wheelchair/other)',
		options: [
			['none', 'لا يوجد'],
			['wheelchair', 'كرسي متحرك'],
			['other', 'أخرى'],
		],
	},
	{
		name: 'psychologicalSupport',
		list: lists.psychologicalSupport,
		spec: 'Psychological_Support (none/needs/other)',
		options: [
			['none', 'لا يوجد'],
			['needs', 'يحتاج'],
			['other', 'أخرى'],
		],
	},
	// OtherPatientConditions
	{
		name: 'homeModes',
		list: lists.homeModes,
		spec: 'Home_Mode (spacious and suitable/needs maintenance/narrow/unsuitable)',
		options: [
			['suitable', 'واسع ومناسب'],
			['maintenance', 'يحتاج إلى صيانة'],
			['narrow', 'ضيق'],
			['unsuitable', 'غير مناسب'],
		],
	},
	{
		name: 'patientSupplies',
		list: lists.patientSupplies,
		spec: 'Special_Patient_Supplies (available and suitable/average/poor/unsuitable)',
		options: [
			['suitable', 'متوفرة ومناسبة'],
			['average', 'متوسطة'],
			['poor', 'ضعيفة'],
			['unsuitable', 'غير مناسبة'],
		],
	},
	{
		name: 'patientTravel',
		list: lists.patientTravel,
		spec: 'Patient_Travel_Outside (family/taxis/foundation/other party)',
		options: [
			['family', 'الأسرة'],
			['taxi', 'سيارات الأجرة'],
			['foundation', 'المؤسسة'],
			['other_party', 'جهة أخرى'],
		],
	},
	{
		name: 'nutrition',
		list: lists.nutrition,
		spec: 'Nutrition_Food (unrestricted/special diet/special food/regimen)',
		options: [
			['unrestricted', 'بلا قيود'],
			['special_diet', 'حمية خاصة'],
			['special_food', 'أغذية خاصة'],
			['regimen', 'نظام غذائي علاجي'],
		],
	},
	// Associations and institutions
	{
		name: 'healthSupportTypes',
		list: lists.healthSupportTypes,
		spec: 'Health support type: logistical_Support, Strategic_Partnerships, Training_Qualification, Direct_Services, Media_Support, Incentive_Awards, Awareness_Resources',
		options: [
			['logistical_Support', 'الدعم اللوجستي'],
			['Strategic_Partnerships', 'الشراكات الاستراتيجية'],
			['Training_Qualification', 'التدريب والتأهيل'],
			['Direct_Services', 'الخدمات المباشرة'],
			['Media_Support', 'الدعم الإعلامي'],
			['Incentive_Awards', 'الجوائز التحفيزية'],
			['Awareness_Resources', 'الموارد التوعوية'],
		],
	},
	{
		name: 'institutionTypes',
		list: lists.institutionTypes,
		spec: 'InstitutionType (1 educational, 2 sponsorship, 3 well digging)',
		options: [
			['1', 'تعليمية'],
			['2', 'كفالة'],
			['3', 'حفر آبار'],
		],
	},

	// ── Lists the specification names but does not enumerate: held as they are ──
	{
		name: 'nationalities',
		list: lists.nationalities,
		spec: 'Nationalty: values not given',
		options: [
			['saudi', 'سعودي / سعودية'],
			['resident', 'مقيم / مقيمة (غير سعودي)'],
		],
	},
	{
		name: 'relationships',
		list: lists.relationships,
		spec: 'RelationShip: values not given',
		options: [
			['husband', 'زوج'],
			['wife', 'زوجة'],
			['son', 'ابن'],
			['daughter', 'ابنة'],
			['father', 'أب'],
			['mother', 'أم'],
			['brother', 'أخ'],
			['sister', 'أخت'],
			['other', 'أخرى'],
		],
	},
	{
		name: 'educationLevels',
		list: lists.educationLevels,
		spec: 'Level_Edu: values not given',
		options: [
			['under_school_age', 'دون سن الدراسة'],
			['none', 'غير متعلم / غير متعلمة'],
			['primary', 'ابتدائي'],
			['intermediate', 'متوسط'],
			['secondary', 'ثانوي'],
			['diploma', 'دبلوم'],
			['university', 'جامعي'],
			['postgraduate', 'دراسات عليا'],
		],
	},
	{
		name: 'healthStatuses',
		list: lists.healthStatuses,
		spec: 'Health_Status: values not given',
		options: [
			['healthy', 'سليم / سليمة'],
			['chronic', 'مرض مزمن'],
			['disability', 'إعاقة'],
			['other', 'أخرى'],
		],
	},
	{
		name: 'associationSpecialties',
		list: lists.associationSpecialties,
		spec: 'AssemblySpecialty: values not given',
		options: [
			['social', 'اجتماعية'],
			['health', 'صحية'],
			['educational', 'تعليمية'],
			['quran', 'تحفيظ القرآن الكريم'],
			['orphans', 'رعاية الأيتام'],
			['disabled', 'رعاية الأشخاص ذوي الإعاقة'],
			['elderly', 'رعاية كبار السن'],
			['youth', 'شبابية'],
			['environmental', 'بيئية'],
			['other', 'أخرى'],
		],
	},
]

// ─── Reading definitions ────────────────────────────────────────────────────────────────────────

const definitionOf = (type: string): ApplicationDef => {
	const definition = applicationDefinitions.find((candidate) => candidate.type === type)
	if (!definition) throw new Error(`no definition "${type}" in the registry`)
	return definition
}

const sectionOf = (type: string, key: string): SectionDef => {
	const section = definitionOf(type).sections.find((candidate) => candidate.key === key)
	if (!section) throw new Error(`${type}: no section "${key}"`)
	return section
}

/** Every field of a section, a group's rows named «group.field». */
function flatFields(section: SectionDef): { name: string; field: FieldDef }[] {
	return section.fields.flatMap((field) => (field.kind === 'group' ? field.fields.map((row) => ({ name: `${field.name}.${row.name}`, field: row as FieldDef })) : [{ name: field.name, field }]))
}

const fieldOf = (type: string, key: string, name: string): FieldDef => {
	const found = flatFields(sectionOf(type, key)).find((candidate) => candidate.name === name)
	if (!found) throw new Error(`${type} › ${key}: no field "${name}"`)
	return found.field
}

const defaultOf = (field: FieldDef) => (field.kind === 'select' || field.kind === 'radio' ? field.default : undefined)

/**
 * What a section always requires: its required fields (rows as «group.field») and its required file
 * slots («file:slot»). A field asked only under a condition (`when`, «اذكر» after «أخرى») is ours, not the spec's.
 */
const requiredOf = (section: SectionDef) =>
	[
		...flatFields(section)
			.filter(({ field }) => field.required === true && field.when === undefined)
			.map(({ name }) => name),
		...(section.files ?? []).filter((slot) => slot.required).map((slot) => `file:${slot.slot}`),
	].sort()

// ─── Option lists ───────────────────────────────────────────────────────────────────────────────

describe('option lists match the specification, in its order', () => {
	test.each(expectedLists.map((expected) => [expected.name, expected] as const))('%s', (_, { list, spec, options }) => {
		expect(
			list.map((option) => [option.value, option.label]),
			spec,
		).toEqual(options)
	})

	test('every option list a definition uses is checked here', () => {
		const checked = new Set<readonly Option[]>(expectedLists.map((expected) => expected.list))
		const unchecked: string[] = []
		for (const definition of applicationDefinitions) {
			for (const section of definition.sections) {
				for (const { name, field } of flatFields(section)) {
					if ((field.kind === 'select' || field.kind === 'radio' || field.kind === 'checkboxes') && !checked.has(field.options)) {
						unchecked.push(`${definition.type} › ${section.key}.${name}`)
					}
				}
			}
		}
		expect(unchecked).toEqual([])
	})

	test('the Saudi banks are eleven, and every required bank choice starts on the first', () => {
		expect(lists.banks).toHaveLength(11)
		const problems: string[] = []
		for (const definition of applicationDefinitions) {
			for (const section of definition.sections) {
				for (const { name, field } of flatFields(section)) {
					if (field.kind !== 'select' || field.options !== lists.banks) continue
					const expected = field.required ? lists.banks[0]!.value : undefined
					if (field.default !== expected) problems.push(`${definition.type} › ${section.key}.${name}: default ${String(field.default)}, expected ${String(expected)}`)
				}
			}
		}
		expect(problems).toEqual([])
	})
})

// ─── Defaults ───────────────────────────────────────────────────────────────────────────────────

describe('defaults are the specification’s', () => {
	// «Case defaults: male, married, private sector employee, family head, owned, villa.»
	test.each(['needy-families', 'home-restoration', 'medical-case'])('%s: the case defaults', (type) => {
		const defaults = Object.fromEntries(['Gander', 'Social_Situation', 'Career', 'Family_Role', 'Housing_Status', 'Housing_Type'].map((name) => [name, defaultOf(fieldOf(type, 'basic', name))]))
		expect(defaults).toEqual({ Gander: 'male', Social_Situation: 'married', Career: 'private_employee', Family_Role: 'head', Housing_Status: 'owned', Housing_Type: 'villa' })
	})

	test('home-restoration: housing defaults good, yes, 500-1500; ownership and kind are asked once, in the first step', () => {
		const housing = sectionOf('home-restoration', 'housing')
		expect(Object.fromEntries(housing.fields.map((field) => [field.name, defaultOf(field)]))).toEqual({
			Housing_Status: 'good',
			Housing_look: 'yes',
			Housing_Cost: '500-1500',
		})
		const labels = (key: string) => sectionOf('home-restoration', key).fields.map((field) => field.label)
		const asked = [...labels('basic'), ...labels('housing')]
		expect(asked.filter((label) => label === 'ملكية السكن')).toHaveLength(1)
		expect(asked.filter((label) => /نوع (السكن|المنزل)/.test(label))).toHaveLength(1)
	})

	test('medical-case: every patient-health choice starts on its first option', () => {
		const choices = sectionOf('medical-case', 'health').fields.filter((field) => field.kind === 'select')
		expect(choices.map((field) => field.name)).toEqual(['Remedies', 'Current_Remedies', 'Patient_Condition', 'Self_Service', 'Home_Care', 'Senses_Speech_Integrity', 'Other_Diseases'])
		for (const field of choices) expect(defaultOf(field), field.name).toBe(field.kind === 'select' ? field.options[0]!.value : undefined)
	})

	test('institution-registration: the institution type starts on 1 (educational)', () => {
		expect(defaultOf(fieldOf('institution-registration', 'institution', 'InstitutionType'))).toBe('1')
	})

	test('IBANs start on SA', () => {
		const problems: string[] = []
		for (const definition of applicationDefinitions) {
			for (const section of definition.sections) {
				for (const { name, field } of flatFields(section)) {
					if (field.kind === 'text' && field.format === 'iban' && field.default !== 'SA') problems.push(`${definition.type} › ${section.key}.${name}`)
				}
			}
		}
		expect(problems).toEqual([])
	})
})

// ─── Required answers ───────────────────────────────────────────────────────────────────────────

interface Required {
	/** Required by the specification (§5 Validation rules, §2 Application screens). */
	spec?: readonly string[]
	/** Choices that start on a default: only a required choice may (app/forms/definition.ts). */
	defaulted?: readonly string[]
	/** Required by us beyond the specification; the comment beside each says why. */
	ours?: readonly string[]
	/** Required by the specification, optional here on purpose; the comment says why. */
	relaxed?: readonly string[]
}

const personBasic: Required = {
	spec: ['Full_Name', 'Identify_Id', 'Phone'],
	defaulted: ['Gander', 'Nationalty', 'Social_Situation', 'Career', 'Family_Role', 'Housing_Status', 'Housing_Type'],
}
const bank: Required = { spec: ['Bank_Name_1', 'Bank_No_1'], defaulted: ['Bank_Name_1'] }
const financial: Required = { spec: ['Net_Income'] }

const association: Record<'basic' | 'projects' | 'details' | 'budget', Required> = {
	basic: {
		spec: ['AssociationName', 'LicenseNumber', 'AssemblySpecialty', 'DateOfEstablishment', 'Email'],
		// The representative: whom the foundation calls, and the mobile the status lookup needs.
		ours: ['RepresentativeName', 'RepresentativeMobile'],
	},
	projects: { spec: ['projects.ProjectName', 'projects.BeneficiariesFromProject', 'projects.ProjectPlace', 'projects.ProjectStartDate', 'projects.ProjectEndDate'] },
	details: { spec: ['ProjectName', 'ProjectExecutionTime', 'ProjectGoals', 'ProjectStages', 'ProjectTargetGroup', 'ProjectTargetNumber', 'ProjectManager'] },
	budget: { spec: ['budget.ProjectItem', 'budget.ApproximatePrices', 'budget.PercentageOfBudget', 'budget.AmountPercentageOfBudget', 'budget.Notes'] },
}

const requiredBySection: Record<string, Record<string, Required>> = {
	'needy-families': {
		basic: personBasic,
		bank,
		financial,
		family: { spec: ['members.FamilyName', 'members.RelationShip'] },
		// The capacity decides the rule «at least one official referrer».
		referrers: { spec: ['persons.Name', 'persons.NationalAddress'], ours: ['persons.RelatedPerson'] },
		services: {},
		files: { spec: ['file:identity', 'file:family_report'] },
	},
	'home-restoration': {
		basic: personBasic,
		bank,
		financial,
		// The specification's Housing_Type (ownership) and Housing_Classification (kind) repeat the first step's.
		housing: {
			spec: ['Housing_Status', 'Housing_look', 'Housing_Cost'],
			defaulted: ['Housing_Status', 'Housing_look', 'Housing_Cost'],
		},
		// The specification names no required housing file; the study needs these.
		files: { ours: ['file:identity', 'file:ownership', 'file:house_photos'] },
	},
	'medical-case': {
		basic: personBasic,
		bank,
		financial,
		family: {},
		health: {
			spec: ['Disease_Type'],
			defaulted: ['Remedies', 'Current_Remedies', 'Patient_Condition', 'Self_Service', 'Home_Care', 'Senses_Speech_Integrity', 'Other_Diseases'],
		},
		needs: { spec: ['Educational_Needs', 'External_Meetings_Appointments'] },
		conditions: { spec: ['Home_Mode', 'Special_Patient_Supplies'] },
		services: {},
		providers: {},
		files: { spec: ['file:identity', 'file:medical_report'] },
	},
	'association-support': {
		...association,
		bank,
		// The licence and the board's decision are always shown; the last two «optionally shown».
		attachments: { ours: ['file:ministry_licence', 'file:council_decision'] },
	},
	'health-association-support': {
		...association,
		// A health association's specialty starts on «صحية».
		basic: { ...association.basic, defaulted: ['AssemblySpecialty'] },
		support: {},
	},
	'institution-registration': {
		user: { spec: ['fullName', 'userName', 'email', 'phone', 'password'] },
		institution: {
			spec: ['name', 'InstitutionType', 'permitNo', 'createDate', 'mainInstitution', 'address', 'CEOName', 'CEOPhone'],
			defaulted: ['InstitutionType'],
			// Not every institution is the branch of another.
			relaxed: ['mainInstitution'],
		},
		// The specification's step 3 sends nothing; the account the support is paid into is needed whole.
		bank: { ours: ['nameAtBank', 'bankName', 'accountNumber', 'iban'], defaulted: ['bankName'] },
		// The four uploads of step 4.
		documents: { ours: ['file:authorization_letter', 'file:bank_certificate', 'file:institution_statement', 'file:ceo_appointment'] },
	},
}

describe('required answers match the specification', () => {
	test('every definition and every section is listed here', () => {
		expect(Object.keys(requiredBySection).sort()).toEqual(applicationDefinitions.map((definition) => definition.type).sort())
		for (const definition of applicationDefinitions) {
			expect(Object.keys(requiredBySection[definition.type] ?? {}).sort(), definition.type).toEqual(definition.sections.map((section) => section.key).sort())
		}
	})

	const rows = Object.entries(requiredBySection).flatMap(([type, sections]) => Object.entries(sections).map(([key, required]) => [`${type} › ${key}`, type, key, required] as const))

	test.each(rows)('%s', (_, type, key, { spec = [], defaulted = [], ours = [], relaxed = [] }) => {
		const section = sectionOf(type, key)
		const expected = [...new Set([...spec.filter((name) => !relaxed.includes(name)), ...defaulted, ...ours])].sort()
		expect(requiredOf(section)).toEqual(expected)
		for (const name of defaulted) expect(defaultOf(fieldOf(type, key, name)), `${name} starts on a default`).toBeDefined()
		for (const name of relaxed) expect(fieldOf(type, key, name).label, `${name} says it is optional`).toContain('(اختياري)')
	})

	test('lists that may not be empty: family members, referrers (exactly 3), projects and budget lines', () => {
		const bounds = (type: string, key: string, name: string) => {
			const field = sectionOf(type, key).fields.find((candidate) => candidate.name === name)
			return field?.kind === 'group' ? [field.min, field.max] : undefined
		}
		expect(bounds('needy-families', 'referrers', 'persons')).toEqual([3, 3])
		expect(bounds('needy-families', 'family', 'members')?.[0]).toBeGreaterThanOrEqual(1)
		expect(bounds('medical-case', 'family', 'members')?.[0]).toBeGreaterThanOrEqual(1)
		for (const type of ['association-support', 'health-association-support']) {
			expect(bounds(type, 'projects', 'projects')?.[0], type).toBeGreaterThanOrEqual(1)
			expect(bounds(type, 'budget', 'budget')?.[0], type).toBeGreaterThanOrEqual(1)
		}
	})
})
