/** Staff's message to the applicant (never an internal note), on the private link and the lookup. */
export function ApplicantMessage({ message }: { message: string | null }) {
	if (!message) return null
	return (
		<div className="mt-3 rounded-lg bg-gold-100 p-3">
			<p className="font-semibold text-gold-700">رسالة من المؤسسة</p>
			<p className="mt-1 whitespace-pre-line">{message}</p>
		</div>
	)
}

/** The home visit the applicant waits for (its day and hour in both calendars), on the private link and the lookup. */
export function PlannedVisit({ visit }: { visit: string | null }) {
	if (!visit) return null
	return (
		<div className="mt-3 rounded-lg border border-brand-200 bg-brand-50 p-3">
			<p className="font-semibold text-brand-900">موعد زيارة الباحث</p>
			<p className="mt-1">{visit}</p>
		</div>
	)
}
