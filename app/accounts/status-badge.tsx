import { statusInfo } from '#app/cases/case-statuses.ts'

export interface ApplicantStatus {
	name: string
	badge: string
	next: string
}

/** A case's status as the applicant sees it (/apply/status): a draft is «لم يُرسل بعد». */
export function applicantStatus(row: { status: number; submittedAt: Date | string | null }): ApplicantStatus {
	if (!row.submittedAt) return { name: 'لم يُرسل بعد', badge: 'bg-stone-100 text-stone-800', next: 'أكمل الطلب ثم أرسله.' }
	return statusInfo(row.status)
}

/** The status pill of the applicant's pages. */
export function StatusBadge({ status }: { status: Pick<ApplicantStatus, 'name' | 'badge'> }) {
	return <span className={`inline-block rounded-full px-3 py-1 text-sm font-bold whitespace-nowrap ${status.badge}`}>{status.name}</span>
}
