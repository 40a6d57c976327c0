// The case statuses, shown to applicants and staff (docs/product.md#case-statuses).

/**
 * The statuses by name. The numbers are what the database stores (the old system's StatusId) and what
 * the staff list's `?status=` carries; code names a status, never its number.
 */
export const Status = {
	New: 1,
	Studied: 2,
	SupportProvided: 3,
	Incomplete: 4,
	SupportStopped: 5,
	Closed: 6,
	Approved: 7,
	Rejected: 8,
} as const

export type CaseStatus = (typeof Status)[keyof typeof Status]

export const caseStatuses = {
	[Status.New]: { name: 'جديد', badge: 'bg-sky-100 text-sky-900', next: 'وصل طلبك وسيدرسه أحد باحثي المؤسسة، وقد نتواصل معك لاستكمال البيانات.' },
	[Status.Studied]: { name: 'تمت الدراسة', badge: 'bg-amber-100 text-amber-900', next: 'دُرس طلبك وهو بانتظار قرار الصرف.' },
	[Status.SupportProvided]: { name: 'تم تقديم الدعم', badge: 'bg-emerald-100 text-emerald-900', next: 'صُرف الدعم لهذا الطلب.' },
	[Status.Incomplete]: { name: 'غير مكتمل', badge: 'bg-orange-100 text-orange-900', next: 'طلبك بحاجة إلى استكمال. افتح رابط طلبك الخاص لتعديله ثم أرسله من جديد.' },
	[Status.SupportStopped]: { name: 'تم إيقاف الدعم', badge: 'bg-rose-100 text-rose-900', next: 'أوقف الدعم لهذا الطلب. يمكنك التواصل مع المؤسسة للاستفسار.' },
	// The old system's «archived»: one name, «مغلق», for staff and applicants alike (docs/product.md#case-statuses).
	[Status.Closed]: { name: 'مغلق', badge: 'bg-stone-200 text-stone-800', next: 'أُغلق هذا الطلب.' },
	// The aid cycle's (docs/product.md#the-decision): the committee approved aid, finance has not yet paid it all; or it said no.
	[Status.Approved]: { name: 'معتمد بانتظار الصرف', badge: 'bg-teal-100 text-teal-900', next: 'اعتُمد الدعم لطلبك، وسيُصرف لك قريباً.' },
	[Status.Rejected]: { name: 'مرفوض', badge: 'bg-red-100 text-red-900', next: 'سبب القرار في رسالة المؤسسة.' },
} as const satisfies Record<CaseStatus, { name: string; badge: string; next: string }>

/** Statuses of a submitted case that block a second application of the same type (docs/product.md#one-open-application-per-programme). */
export const OPEN_STATUSES: readonly CaseStatus[] = [Status.New, Status.Studied, Status.Incomplete, Status.Approved]

/**
 * The staff list's status filter: each status by the one name its badge, the applicant's pages,
 * the exports and the history use (docs/product.md#case-statuses), in the statuses' order.
 */
export const statusFilterOptions: readonly { value: CaseStatus; label: string }[] = (Object.keys(caseStatuses) as `${CaseStatus}`[]).map((key) => {
	const value = Number(key) as CaseStatus
	return { value, label: caseStatuses[value].name }
})

/** A status's name as a message quotes it: «تمت الدراسة». */
export function quotedStatus(status: CaseStatus): string {
	return `«${caseStatuses[status].name}»`
}

/** A status's name on staff screens, exports and history: the same name applicants see. */
export function staffStatusName(status: number): string {
	return statusInfo(status).name
}

export function statusInfo(status: number) {
	return caseStatuses[status as CaseStatus] ?? caseStatuses[Status.New]
}
