import type { Option } from './definition.ts'

// The old system's option lists, shared by every application type. The first option is the default
// where that system named one (docs/product.md#rules-shared-by-every-programme).

const options = (pairs: readonly (readonly [string, string])[]): Option[] => pairs.map(([value, label]) => ({ value, label }))

export const genders = options([
	['male', 'ذكر'],
	['female', 'أنثى'],
])

export const nationalities = options([
	['saudi', 'سعودي'],
	['resident', 'مقيم (غير سعودي)'],
])

export const socialStatuses = options([
	['married', 'متزوج'],
	['single', 'أعزب'],
	['divorced', 'مطلق'],
	['widowed', 'أرمل'],
	['child', 'طفل'],
])

export const careers = options([
	['private_employee', 'موظف قطاع خاص'],
	['public_employee', 'موظف قطاع حكومي'],
	['retired', 'متقاعد'],
	['unemployed', 'لا يعمل'],
])

export const familyRoles = options([
	['head', 'رب الأسرة'],
	['not_head', 'ليس رب الأسرة'],
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
	['none', 'غير متعلم'],
	['primary', 'ابتدائي'],
	['intermediate', 'متوسط'],
	['secondary', 'ثانوي'],
	['diploma', 'دبلوم'],
	['university', 'جامعي'],
	['postgraduate', 'دراسات عليا'],
])

export const healthStatuses = options([
	['healthy', 'سليم'],
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
