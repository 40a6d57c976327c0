import { z } from 'zod'
import { toWesternDigits } from '#app/text/format.ts'
import type { CountedNoun } from '#app/text/arabic-count.ts'

// What «support provided» records (docs/product.md#support-provided): the kinds of aid.

export const aidKinds = [
	{ value: 'cash', label: 'دعم نقدي' },
	{ value: 'food_basket', label: 'سلة غذائية' },
	{ value: 'eid_clothing', label: 'كسوة العيد' },
	{ value: 'bill_payment', label: 'سداد فواتير' },
	{ value: 'rent', label: 'سداد إيجار' },
	{ value: 'restoration', label: 'أعمال ترميم' },
	{ value: 'medical', label: 'مستلزمات أو علاج طبي' },
	{ value: 'devices', label: 'أجهزة منزلية أو مساعدة' },
	{ value: 'other', label: 'أخرى' },
] as const

export type AidKind = (typeof aidKinds)[number]['value']

export function aidKindLabel(kind: string): string {
	return aidKinds.find((item) => item.value === kind)?.label ?? kind
}

/**
 * An amount in riyals as staff type it: Arabic or Western digits, thousands separators, up to two
 * decimals, more than zero. `missing` is said when it is left empty.
 */
export const riyals = (missing: string) =>
	z.preprocess(
		(value) => (typeof value === 'string' ? toWesternDigits(value).replace(/[\s,٬]/g, '').replace('٫', '.') : value),
		z
			.string({ error: missing })
			.regex(/^\d{1,9}(\.\d{1,2})?$/, 'الرجاء كتابة مبلغ صحيح بالريال، مثل 1500')
			.transform(Number)
			.refine((amount) => amount > 0, 'المبلغ يجب أن يكون أكبر من صفر'),
	)

/**
 * Aid handed over as goods or works (docs/product.md#payment): recorded as delivered, with who
 * handed it over and the receipt. Every other kind is paid by bank transfer, in a payment batch.
 */
export const inKindAid: readonly AidKind[] = ['food_basket', 'eid_clothing', 'devices', 'restoration', 'medical']

export const isInKind = (kind: string) => (inKindAid as readonly string[]).includes(kind)

/** The committee's decisions, as staff read them (the case view, the print, the export). */
export const outcomeLabels = { approve: 'اعتماد الدعم', reject: 'رفض الطلب', return: 'إعادة الطلب لدراسة أكثر' } as const

/** «صندوق الزكاة (زكاة)»: a fund's name as every list shows it. */
export const fundLabel = (fund: { name: string; zakat: boolean }) => (fund.zakat ? `${fund.name} (زكاة)` : fund.name)

/** An approved aid's remaining instalments over time: the states and actions of app/aid/monthly-aid.ts, in words. */
export const aidStates = ['active', 'suspended', 'stopped', 'resuming', 'restarting'] as const
export type AidState = (typeof aidStates)[number]

export const aidActions = ['suspend', 'stop', 'resume', 'confirm', 'decline'] as const
export type AidAction = (typeof aidActions)[number]

export const aidStateLabels: Record<AidState, string> = {
	active: 'يُصرف',
	suspended: 'موقوف مؤقتاً',
	stopped: 'موقوف نهائياً',
	resuming: 'موقوف مؤقتاً، واستئنافه بانتظار التأكيد',
	restarting: 'موقوف نهائياً، وإعادته بانتظار التأكيد',
}

export const aidActionLabels: Record<AidAction, string> = {
	suspend: 'إيقاف مؤقت',
	stop: 'إيقاف نهائي',
	resume: 'طلب الاستئناف',
	confirm: 'تأكيد الاستئناف',
	decline: 'رفض الاستئناف',
}

/** «قسطان»، «3 أقساط»: after countOf. */
export const instalmentsNoun: CountedNoun = { one: 'قسط واحد', two: 'قسطان', few: 'أقساط', many: 'قسطاً', other: 'قسط' }
