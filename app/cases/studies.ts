// The social study's form (docs/product.md#the-social-study): what the researcher records after a
// home visit, or at a desk for associations and institutions, and the recommendation. Checked the
// same in the browser and on the server (app/cases/studies.server.ts stores it).
import { z } from 'zod'
import { aidKinds, riyals } from '#app/cases/aid.ts'
import { housingConditions, housingStatuses, housingTypes, yesNo } from '#app/forms/options.ts'
import { formatMoney, isCalendarDay, todayInRiyadh, toWesternDigits } from '#app/text/format.ts'

export type StudyKind = 'visit' | 'desk'

export const recommendations = [
	{ value: 'support', label: 'دعم الحالة' },
	{ value: 'reject', label: 'عدم الدعم' },
	{ value: 'refer', label: 'إحالة إلى جهة أخرى' },
] as const

export type Recommendation = (typeof recommendations)[number]['value']

export const recommendationLabel = (value: string) => recommendations.find((item) => item.value === value)?.label ?? value

/** The housing as seen on a visit, by the programmes' own options. */
export const housingSeen = [
	{ name: 'condition', label: 'حالة المسكن', options: housingConditions },
	{ name: 'type', label: 'نوع المسكن', options: housingTypes },
	{ name: 'ownership', label: 'ملكية المسكن', options: housingStatuses },
	{ name: 'needsMaintenance', label: 'يحتاج إلى صيانة', options: yesNo },
] as const

const text = (max: number) => z.string().trim().max(max, `النص أطول من ${max} حرف`).optional()
const choice = <T extends readonly { value: string }[]>(items: T, message: string) => z.enum(items.map((item) => item.value) as [T[number]['value'], ...T[number]['value'][]], { error: message })

/**
 * The study form's schema: a visit asks who was met; every study asks for its summary and
 * recommendation, and what goes with it. `rejectReasons` and `zakatCategories` are the reasons and
 * zakat categories staff keep in use (app/cases/reasons.server.ts): a reason by its id, a category
 * by its words; no category: not eligible for zakat.
 */
export function studySchema(kind: StudyKind, rejectReasons: readonly { value: string }[], zakatCategories: readonly { value: string }[]) {
	return z
		.object({
			studiedOn: z
				.string({ error: kind === 'visit' ? 'الرجاء كتابة تاريخ الزيارة' : 'الرجاء كتابة تاريخ الدراسة' })
				.refine(isCalendarDay, 'الرجاء كتابة تاريخ صحيح')
				.refine((day) => day <= todayInRiyadh(), 'التاريخ لا يكون بعد اليوم'),
			metWith: kind === 'visit' ? z.string({ error: 'الرجاء كتابة من قابلتم في الزيارة' }).trim().min(1, 'الرجاء كتابة من قابلتم في الزيارة').max(500) : text(500),
			condition: choice(housingConditions, 'الرجاء اختيار حالة المسكن').optional(),
			type: choice(housingTypes, 'الرجاء اختيار نوع المسكن').optional(),
			ownership: choice(housingStatuses, 'الرجاء اختيار ملكية المسكن').optional(),
			needsMaintenance: choice(yesNo, 'الرجاء الاختيار').optional(),
			needs: text(2000),
			summary: z.string({ error: 'الرجاء كتابة خلاصة الدراسة' }).trim().min(1, 'الرجاء كتابة خلاصة الدراسة').max(4000, 'النص أطول من 4000 حرف'),
			recommendation: choice(recommendations, 'الرجاء اختيار التوصية'),
			rejectReason: z
				.string({ error: 'الرجاء اختيار سبب عدم الدعم' })
				.refine((value) => rejectReasons.some((reason) => reason.value === value), 'الرجاء اختيار سبب عدم الدعم من القائمة')
				.optional(),
			referTo: text(200),
			zakatCategory: z
				.string()
				.refine((value) => zakatCategories.some((category) => category.value === value), 'الرجاء اختيار مصرف الزكاة من القائمة')
				.optional(),
			zakatReason: text(1000),
			aidKind: choice(aidKinds, 'الرجاء اختيار نوع المساعدة المقترحة').optional(),
			aidAmount: riyals('الرجاء كتابة مبلغ المساعدة المقترحة').optional(),
			aidFrequency: z.enum(['once', 'monthly'], { error: 'الرجاء اختيار: مرة واحدة أو شهرياً' }).optional(),
			aidMonths: z.preprocess((value) => (typeof value === 'string' ? toWesternDigits(value).trim() : value), z.coerce.number({ error: 'الرجاء كتابة عدد الأشهر' }).int('عدد الأشهر عدد صحيح').min(2, 'من شهرين إلى 24 شهراً').max(24, 'من شهرين إلى 24 شهراً')).optional(),
			works: text(2000),
			quote: riyals('الرجاء كتابة مبلغ عرض السعر').optional(),
			invoice: riyals('الرجاء كتابة مبلغ الفاتورة').optional(),
		})
		.superRefine((value, ctx) => {
			const need = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message })
			if (value.recommendation === 'reject' && !value.rejectReason) need('rejectReason', 'الرجاء اختيار سبب عدم الدعم')
			if (value.recommendation === 'refer' && !value.referTo) need('referTo', 'الرجاء كتابة الجهة المحال إليها')
			if (value.zakatCategory && !value.zakatReason) need('zakatReason', 'الرجاء كتابة سبب استحقاق الزكاة من هذا المصرف')
			if (value.recommendation !== 'support') return
			if (!value.aidKind) need('aidKind', 'الرجاء اختيار نوع المساعدة المقترحة')
			if (value.aidAmount === undefined) need('aidAmount', 'الرجاء كتابة مبلغ المساعدة المقترحة')
			if (!value.aidFrequency) need('aidFrequency', 'الرجاء اختيار: مرة واحدة أو شهرياً')
			if (value.aidFrequency === 'monthly' && value.aidMonths === undefined) need('aidMonths', 'الرجاء كتابة عدد الأشهر')
			// A bill is paid at half its amount (docs/product.md#the-social-study).
			if (value.aidKind === 'bill_payment') {
				if (value.aidFrequency === 'monthly') need('aidFrequency', 'تُسدَّد الفاتورة مرة واحدة')
				const half = value.invoice === undefined ? undefined : Math.floor(value.invoice * 50) / 100
				if (half === undefined) need('invoice', 'الرجاء كتابة مبلغ الفاتورة')
				else if (typeof value.aidAmount === 'number' && value.aidAmount > half) need('aidAmount', `لا يزيد المبلغ المقترح على نصف الفاتورة: ${formatMoney(half)}`)
			}
			// Also when other fields failed: every missing answer is named at once.
		}, { when: (payload) => typeof payload.value === 'object' && payload.value !== null })
}

export type StudyInput = z.output<ReturnType<typeof studySchema>>

/** «1,500 ريال شهرياً لمدة 6 أشهر»: the proposed aid in words (amounts formatted by the caller). */
export function proposedAidText(aid: { kind: string | null; amount: string | null; months: number | null }, kindLabel: (kind: string) => string, monthsCount: (count: number) => string): string {
	if (!aid.kind || !aid.amount) return ''
	return `${kindLabel(aid.kind)}: ${aid.amount}${aid.months ? ` شهرياً لمدة ${monthsCount(aid.months)}` : ' مرة واحدة'}`
}
