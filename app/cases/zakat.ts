// Zakat kept by its rules (docs/product.md#zakat): a study finds a family in one of the zakat
// categories (مصارف الزكاة) staff keep on /admin/reasons, with the reason, or in none (not eligible);
// only then may the committee approve zakat money, and the approval names the category.

/** A study found eligible before categories were recorded (drizzle/0045_zakat_categories.sql): completed by a new study before zakat is approved. */
export const UNSPECIFIED_ZAKAT_CATEGORY = 'غير محدد'

export const ZAKAT_NOT_ELIGIBLE = 'لا تُصرف أموال الزكاة إلا لحالة حددت دراستها مصرف الزكاة الذي تستحقه. اختر صندوقاً آخر، أو يسجل الباحث دراسة تحدد المصرف.'
export const ZAKAT_CATEGORY_UNSPECIFIED = 'وُجدت الحالة مستحقة للزكاة قبل تسجيل مصارفها، فمصرفها «غير محدد»: يسجل الباحث دراسة تحدد المصرف قبل الصرف من صندوق زكاة، أو اختر صندوقاً آخر.'

/** Whether a study's category lets zakat be approved: a category named (not «غير محدد»). */
export const zakatApprovable = (category: string | null | undefined): category is string => Boolean(category) && category !== UNSPECIFIED_ZAKAT_CATEGORY

/** «مصرف الزكاة: الفقراء», or that the study found the family not eligible. */
export const zakatCategoryText = (category: string | null | undefined) => (category ? `مصرف الزكاة: ${category}` : 'غير مستحقة للزكاة')

/** What the committee reads beside the fund: whether, and from which category, zakat may be approved. */
export function zakatDecisionHint(category: string | null | undefined): string {
	if (!category) return 'لم تحدد الدراسة مصرفاً للزكاة: لا يُصرف للأسرة من صندوق زكاة.'
	if (!zakatApprovable(category)) return ZAKAT_CATEGORY_UNSPECIFIED
	return `حددت الدراسة مصرف الزكاة: ${category}. يُسجَّل المصرف مع الاعتماد من صندوق زكاة.`
}
