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
