// What «support provided» records (docs/product.md#support-provided): the kinds of aid.

export const aidKinds = [
	{ value: 'cash', label: 'دعم نقدي' },
	{ value: 'food_basket', label: 'سلة غذائية' },
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
