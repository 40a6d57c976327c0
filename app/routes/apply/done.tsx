import { Link, redirect } from 'react-router'
import type { Route } from './+types/done'
import { getDb } from '#app/db/database.server.ts'
import { loadApplication } from './+applicant.server.ts'
import { getIntake } from '#app/cases/intake-state.server.ts'
import { PageTitle } from '#app/components/forms.tsx'
import { lookupKeys } from './+lookup-keys.ts'

export async function loader({ request, params }: Route.LoaderArgs) {
	const { row, definition } = await loadApplication(request, params.token)
	if (!row.submittedAt) throw redirect(`/apply/r/${params.token}`)
	const intake = await getIntake(await getDb(), definition.type)
	return {
		title: definition.title,
		reference: row.reference,
		paused: intake.state === 'paused' ? intake.pausedNotice : null,
		token: params.token,
		afterSubmit: definition.afterSubmit,
		organisation: definition.kind === 'association',
		hasAccount: Boolean(definition.createsAccount),
	}
}

export default function Done({ loaderData }: Route.ComponentProps) {
	return (
		<div className="mx-auto max-w-2xl space-y-6 px-4 py-8">
			<PageTitle title={`تم إرسال الطلب - ${loaderData.title}`} />
			<div className="rounded-xl bg-brand-700 p-6 text-center text-white">
				<h1 className="text-2xl font-bold">تم إرسال طلبك</h1>
				<p className="mt-3">رقم الطلب</p>
				<p className="text-3xl font-bold tracking-wider" dir="ltr">
					{loaderData.reference}
				</p>
			</div>
			{loaderData.paused ? (
				<p role="status" className="rounded-lg border-s-4 border-gold-500 bg-gold-100 p-4 font-semibold text-gold-700">
					{loaderData.paused}
				</p>
			) : null}
			<section aria-labelledby="next" className="rounded-xl border border-stone-200 bg-white p-5">
				<h2 id="next" className="text-xl font-bold text-brand-900">
					ماذا بعد؟
				</h2>
				<ol className="mt-3 list-decimal space-y-2 ps-6">
					{loaderData.afterSubmit.map((line) => (
						<li key={line}>{line}</li>
					))}
				</ol>
				<p className="mt-4">
					تابع حالة طلبك في أي وقت من{' '}
					<Link to="/apply/status" className="link">
						صفحة الاستعلام عن طلب
					</Link>{' '}
					{lookupKeys(loaderData.organisation)}، أو من{' '}
					<Link to={`/apply/r/${loaderData.token}`} className="link">
						رابط طلبك الخاص
					</Link>
					{loaderData.hasAccount ? (
						<>
							، أو من{' '}
							<Link to="/account/login" className="link">
								دخول المؤسسات
							</Link>
						</>
					) : null}
					.
				</p>
			</section>
		</div>
	)
}
