import type { Option } from './definition.ts'

// The old system's option lists, shared by every application type. The first option is the default
// where that system named one (docs/product.md#rules-shared-by-every-programme).

const options = (pairs: readonly (readonly [string, string])[]): Option[] => pairs.map(([value, label]) => ({ value, label }))

export const genders = options([
	['male', 'ذكر'],
	['female', 'أنثى'],
])

export const nationalities = options([
	['saudi', 'سعودي / سعودية'],
	['resident', 'مقيم / مقيمة (غير سعودي)'],
])

export const socialStatuses = options([
	// Both forms: the same list is offered for a man and a woman (the applicant, a family member).
	['married', 'متزوج / متزوجة'],
	['single', 'أعزب / عزباء'],
	['divorced', 'مطلق / مطلقة'],
	['widowed', 'أرمل / أرملة'],
	['child', 'طفل / طفلة'],
])

// Lists offered for a woman as well as a man carry both forms, as socialStatuses does (issue 37
// part 2.6); the stored values never change, so old answers read the same.
export const careers = options([
	['private_employee', 'موظف / موظفة في القطاع الخاص'],
	['public_employee', 'موظف / موظفة في القطاع الحكومي'],
	['retired', 'متقاعد / متقاعدة'],
	['unemployed', 'لا يعمل / لا تعمل'],
])

export const familyRoles = options([
	['head', 'رب / ربة الأسرة'],
	['not_head', 'ليس رب / ليست ربة الأسرة'],
	['other', 'أخرى'],
])

export const housingStatuses = options([
	['owned', 'ملك'],
	['rented', 'إيجار'],
])

export const housingTypes = options([
	['villa', 'فيلا'],
	['popular_house', 'بيت شعبي'],
	['apartment', 'شقة'],
])

/** Saudi banks (eleven; the first is the default: docs/product.md#rules-shared-by-every-programme). */
export const banks = options([
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
])

export const relationships = options([
	['husband', 'زوج'],
	['wife', 'زوجة'],
	['son', 'ابن'],
	['daughter', 'ابنة'],
	['father', 'أب'],
	['mother', 'أم'],
	['brother', 'أخ'],
	['sister', 'أخت'],
	['other', 'أخرى'],
])

export const educationLevels = options([
	['under_school_age', 'دون سن الدراسة'],
	['none', 'غير متعلم / غير متعلمة'],
	['primary', 'ابتدائي'],
	['intermediate', 'متوسط'],
	['secondary', 'ثانوي'],
	['diploma', 'دبلوم'],
	['university', 'جامعي'],
	['postgraduate', 'دراسات عليا'],
])

export const healthStatuses = options([
	['healthy', 'سليم / سليمة'],
	['chronic', 'مرض مزمن'],
	['disability', 'إعاقة'],
	['other', 'أخرى'],
])

/** Who vouches for the family (docs/product.md#needy-families, 1-5); all but «other» are official referrers. */
export const referrerTypes = options([
	['tribe_sheikh', 'شيخ القبيلة'],
	['village_head', 'عمدة الحي أو القرية'],
	['mosque_imam', 'إمام أقرب مسجد'],
	['other', 'أخرى'],
])

/** Services wanted (docs/product.md#needy-families, 1-6). */
export const familyServices = options([
	['food_basket', 'سلة غذائية'],
	['bills', 'سداد 50% من الفواتير'],
	['physiotherapy', 'علاج طبيعي'],
	['medical_supplies', 'مستلزمات طبية'],
	['financial_support', 'دعم مالي'],
	['house_rent', 'إيجار مسكن'],
	['service_bills', 'فواتير الخدمات'],
	['winter_clothing', 'كسوة شتوية'],
])

/** Home restoration, housing information (docs/product.md#home-restoration, 3-4): the home's condition. */
export const housingConditions = options([
	['good', 'جيد'],
	['medium', 'متوسط'],
	['dilapidated', 'متهالك'],
])

export const yesNo = options([
	['yes', 'نعم'],
	['no', 'لا'],
])

/** The estimated cost of the works, in riyals (the old system's bands). */
export const housingCostBands = options([
	['500-1500', 'من 500 إلى 1,500 ريال'],
	['1500-5000', 'من 1,500 إلى 5,000 ريال'],
	['5000-15000', 'من 5,000 إلى 15,000 ريال'],
	['15000+', 'أكثر من 15,000 ريال'],
])

// Medical case (docs/product.md#medical-case): the patient's health (4-5), needs (4-6) and other
// conditions (4-7), in the old system's order; a required choice starts on its first option.

export const remedies = options([
	['none', 'لا يوجد'],
	['surgical', 'جراحي'],
	['chemical', 'كيميائي'],
	['radiation', 'إشعاعي'],
])

export const currentRemedies = options([
	['none', 'لا يوجد'],
	['supporting', 'علاجات مساندة'],
	['chemo_sessions', 'جلسات كيميائية'],
	['radiation_sessions', 'جلسات إشعاعية'],
])

export const patientConditions = options([
	['good', 'جيدة'],
	['average', 'متوسطة'],
	// Agrees with «حالة المريض» (feminine), whoever the patient is.
	['tired', 'متعبة'],
	['bedridden', 'طريح / طريحة الفراش'],
])

export const selfService = options([
	['self', 'يخدم نفسه / تخدم نفسها'],
	['some_help', 'بحاجة إلى بعض المساعدة'],
	['cannot', 'لا يستطيع خدمة نفسه / لا تستطيع خدمة نفسها'],
])

export const homeCare = options([
	['none', 'لا يوجد'],
	['nursing', 'تمريض منزلي'],
	['checkup', 'متابعة طبية دورية'],
	['psychological', 'خدمات نفسية'],
])

export const sensesSpeech = options([
	['sound', 'سليمة'],
	['hearing', 'مشكلات في السمع'],
	['vision', 'مشكلات في البصر'],
	['speech', 'مشكلات في النطق'],
])

export const otherDiseases = options([
	['none', 'لا يوجد'],
	['chronic', 'أمراض مزمنة'],
	['infectious', 'أمراض معدية'],
	['emergency', 'حالات طارئة'],
])

export const educationalNeeds = options([
	['none', 'لا يوجد'],
	['private_teacher', 'معلم خاص'],
	['private_school', 'مدرسة خاصة'],
	['school_transport', 'نقل مدرسي'],
])

export const appointmentNeeds = options([
	['none', 'لا يوجد'],
	['transport', 'نقل فقط'],
	['housing', 'سكن'],
	['transport_housing', 'نقل وسكن'],
])

export const medicalCentreVisits = options([
	['alone', 'بمفرده'],
	['one_companion', 'مع مرافق واحد'],
	['companions', 'مع عدة مرافقين'],
])

export const hospitalDifficulties = options([
	['appointments', 'ترتيب المواعيد'],
	['long_wait', 'طول الانتظار'],
	['costs', 'تكاليف العلاج'],
	['transfer', 'التحويل إلى المستشفى'],
])

export const medicalNeeds = options([
	['none', 'لا يوجد'],
	['nurse', 'ممرض'],
	['checkup', 'فحص طبي'],
	['supervision', 'إشراف مستمر'],
])

export const supportServices = options([
	['none', 'لا يوجد'],
	['physiotherapy', 'علاج طبيعي'],
	['speech', 'تدريب على النطق'],
	['psychological', 'عيادة نفسية'],
])

export const auxiliaryDevices = options([
	['none', 'لا يوجد'],
	['wheelchair', 'كرسي متحرك'],
	['other', 'أخرى'],
])

export const psychologicalSupport = options([
	['none', 'لا يوجد'],
	['needs', 'يحتاج'],
	['other', 'أخرى'],
])

export const homeModes = options([
	['suitable', 'واسع ومناسب'],
	['maintenance', 'يحتاج إلى صيانة'],
	['narrow', 'ضيق'],
	['unsuitable', 'غير مناسب'],
])

export const patientSupplies = options([
	['suitable', 'متوفرة ومناسبة'],
	['average', 'متوسطة'],
	['poor', 'ضعيفة'],
	['unsuitable', 'غير مناسبة'],
])

export const patientTravel = options([
	['family', 'الأسرة'],
	['taxi', 'سيارات الأجرة'],
	['foundation', 'المؤسسة'],
	['other_party', 'جهة أخرى'],
])

export const nutrition = options([
	['unrestricted', 'بلا قيود'],
	['special_diet', 'حمية خاصة'],
	['special_food', 'أغذية خاصة'],
	['regimen', 'نظام غذائي علاجي'],
])

/** The foundation's services a patient may ask for (4-8). */
export const patientServices = options([
	['financial_support', 'دعم مالي'],
	['bills', 'سداد 50% من الفواتير'],
	['house_rent', 'إيجار مسكن'],
	['food_basket', 'سلة غذائية'],
	['medical_supplies', 'مستلزمات طبية'],
	['service_bills', 'فواتير الخدمات'],
	['physiotherapy', 'علاج طبيعي'],
	['winter_clothing', 'كسوة شتوية'],
])

/** Other bodies already helping the patient (4-9). */
export const otherProviders = options([
	['al_ber', 'جمعية البر الخيرية'],
	['medical_authority', 'جهة طبية'],
	['al_rajhi', 'جمعية الراجحي الخيرية'],
	['sanad', 'جمعية سند (الرياض)'],
	['rehabilitation', 'مركز التأهيل الشامل'],
	['social_insurance', 'الضمان الاجتماعي'],
])

// Association support (docs/product.md#association-support), health-association support type
// (docs/product.md#health-association-support-type) and institution registration
// (docs/product.md#institution-registration).

/** An association's field of work, as licensed by the Ministry of Human Resources (1-1 of association support). */
export const associationSpecialties = options([
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
])

/** The support a health association asks for: the old system's field names as values. */
export const healthSupportTypes = options([
	['logistical_Support', 'الدعم اللوجستي'],
	['Strategic_Partnerships', 'الشراكات الاستراتيجية'],
	['Training_Qualification', 'التدريب والتأهيل'],
	['Direct_Services', 'الخدمات المباشرة'],
	['Media_Support', 'الدعم الإعلامي'],
	['Incentive_Awards', 'الجوائز التحفيزية'],
	['Awareness_Resources', 'الموارد التوعوية'],
])

/** A registering institution's type: the old system's ids as values. */
export const institutionTypes = options([
	['1', 'تعليمية'],
	['2', 'كفالة'],
	['3', 'حفر آبار'],
])
