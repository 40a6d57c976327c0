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

/** An approved aid's schedule as its family reads it (app/aid/describe.ts describeSchedule), on the private link and the lookup. */
export function AidScheduleBox({ aids }: { aids: readonly { id: number; what: string; monthly: boolean; paid: string; left: string | null; next: string | null; hold: string | null }[] }) {
	if (!aids.length) return null
	return (
		<div className="mt-3 space-y-2">
			{aids.map((aid) => (
				<div key={aid.id} className="rounded-lg border border-brand-200 bg-brand-50 p-3">
					<p className="font-semibold text-brand-900">الدعم المعتمد: {aid.what}</p>
					<dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
						<dt className="text-stone-700">{aid.monthly ? 'صُرف منه' : 'الصرف'}</dt>
						<dd>{aid.paid}</dd>
						{aid.left ? (
							<>
								<dt className="text-stone-700">بقي منه</dt>
								<dd>{aid.left}</dd>
							</>
						) : null}
						{aid.next ? (
							<>
								<dt className="text-stone-700">الدفعة التالية</dt>
								<dd>{aid.next}</dd>
							</>
						) : null}
					</dl>
					{aid.hold ? <p className="mt-2 font-semibold text-gold-700">{aid.hold}</p> : null}
				</div>
			))}
		</div>
	)
}
