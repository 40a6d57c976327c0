// The case statuses, shown to applicants and staff (docs/product.md#case-statuses).

export const caseStatuses = {
	1: { name: 'جديد', badge: 'bg-sky-100 text-sky-900', next: 'وصل طلبك وسيدرسه أحد باحثي المؤسسة، وقد نتواصل معك لاستكمال البيانات.' },
	2: { name: 'تمت الدراسة', badge: 'bg-amber-100 text-amber-900', next: 'دُرس طلبك وهو بانتظار قرار الصرف.' },
	3: { name: 'تم تقديم الدعم', badge: 'bg-emerald-100 text-emerald-900', next: 'صُرف الدعم لهذا الطلب.' },
	4: { name: 'غير مكتمل', badge: 'bg-orange-100 text-orange-900', next: 'طلبك بحاجة إلى استكمال. افتح رابط طلبك الخاص لتعديله ثم أرسله من جديد.' },
	5: { name: 'تم إيقاف الدعم', badge: 'bg-rose-100 text-rose-900', next: 'أوقف الدعم لهذا الطلب. يمكنك التواصل مع المؤسسة للاستفسار.' },
	// The old system's «archived»: one name, «مغلق», for staff and applicants alike (docs/product.md#case-statuses).
	6: { name: 'مغلق', badge: 'bg-stone-200 text-stone-800', next: 'أُغلق هذا الطلب.' },
	// The aid cycle's (docs/product.md#the-decision): the committee approved aid, finance has not yet paid it all; or it said no.
	7: { name: 'معتمد بانتظار الصرف', badge: 'bg-teal-100 text-teal-900', next: 'اعتُمد الدعم لطلبك، وسيُصرف لك قريباً.' },
	8: { name: 'مرفوض', badge: 'bg-red-100 text-red-900', next: 'نعتذر، لم تتم الموافقة على طلبك. سبب القرار في رسالة المؤسسة.' },
} as const satisfies Record<number, { name: string; badge: string; next: string }>

export type CaseStatus = keyof typeof caseStatuses

/** Statuses of a submitted case that block a second application of the same type (docs/product.md#one-open-application-per-programme). */
export const OPEN_STATUSES: readonly CaseStatus[] = [1, 2, 4, 7]

export const INCOMPLETE: CaseStatus = 4
export const STUDIED: CaseStatus = 2
export const SUPPORT_PROVIDED: CaseStatus = 3
export const ARCHIVED: CaseStatus = 6
export const APPROVED: CaseStatus = 7
export const REJECTED: CaseStatus = 8
export const NEW: CaseStatus = 1

/** The staff list's status filter, in the old system's words (docs/product.md#case-statuses). */
export const statusFilterLabels: Record<CaseStatus, string> = {
	1: 'طلب جديد',
	2: 'تحت الدراسة',
	3: 'تم تقديم الدعم',
	4: 'غير مكتمل',
	5: 'تم إيقاف الدعم',
	6: 'مغلق',
	7: 'معتمد بانتظار الصرف',
	8: 'مرفوض',
}

/** A status's name on staff screens, exports and history: the same name applicants see. */
export function staffStatusName(status: number): string {
	return statusInfo(status).name
}

export function statusInfo(status: number) {
	return caseStatuses[status as CaseStatus] ?? caseStatuses[1]
}
