import { data, Form, Link, redirect } from 'react-router'
import type { Route } from './+types/consent'
import { getCaseStaff, limitVisitor, loadApplication } from './+applicant.server.ts'
import { publicLimits } from '#app/http/ip-limit.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { consentAnchor, holdsSensitive } from '#app/forms/conditions.ts'
import { CHECK_STEP, CONSENT_STEP, nextOpenStep, previousStep, stepAccess, stepLabel } from '#app/cases/journey.ts'
import { consentTitle, monthsCount, sensitiveKinds } from '#app/privacy/consent-rules.ts'
import { currentNotice } from '#app/privacy/notice.server.ts'
import { ConsentLockedError, saveConsent } from '#app/privacy/consent-store.server.ts'
import { ErrorSummary, Honeypot, isHoneypotFilled, PageTitle } from '#app/components/forms.tsx'

// The consent step (docs/product.md#privacy-and-consent): before the first section holding health
// or bank data, the applicant (or staff, for a paper applicant) agrees or declines. Declining skips
// those sections and file slots; the answer can be changed here until the case is sent.

const NO_CHOICE = 'اختر «أوافق» أو «لا أوافق» للمتابعة.'

async function openConsent(request: Request, token: string) {
	const application = await loadApplication(request, token)
	const base = `/apply/r/${token}`
	const access = stepAccess(application.definition, application.row, application.state, CONSENT_STEP)
	if (!access.open) throw redirect(access.goTo ? `${base}/${access.goTo}` : base)
	return { ...application, base }
}

export async function loader({ params, request }: Route.LoaderArgs) {
	const { db, definition, row, state, base } = await openConsent(request, params.token)
	const returnToCheck = new URL(request.url).searchParams.get('return') === CHECK_STEP
	const previous = previousStep(definition, CONSENT_STEP, state.answers, state.consent)
	const notice = await currentNotice(db)
	// What the journey will ask with consent, from the section the step stands before on.
	const anchor = consentAnchor(definition, state.answers)!
	const from = definition.sections.indexOf(anchor)
	const items = definition.sections
		.slice(from)
		.filter(holdsSensitive)
		.flatMap((section) => (section.sensitive ? [section.title] : (section.files ?? []).filter((slot) => slot.sensitive).map((slot) => slot.label)))
	return {
		title: definition.title,
		heading: consentTitle(definition),
		kinds: sensitiveKinds(definition),
		items,
		stepLabel: stepLabel(definition, CONSENT_STEP, state.answers),
		backTo: returnToCheck ? `${base}/${CHECK_STEP}` : previous ? `${base}/${previous}` : base,
		returnToCheck,
		answer: row.consent,
		kept: monthsCount(getEnv().RETENTION_MONTHS),
		version: notice?.version ?? null,
		staff: Boolean(await getCaseStaff(request)),
	}
}

export async function action({ params, request }: Route.ActionArgs) {
	const { db, definition, row, state, base } = await openConsent(request, params.token)
	await limitVisitor(request, publicLimits.save)
	const formData = await request.formData()
	if (isHoneypotFilled(formData)) throw data('طلب غير صالح', { status: 400 })
	const answer = formData.get('consent')
	if (answer !== 'given' && answer !== 'declined') return data({ error: NO_CHOICE }, { status: 400 })
	const staff = await getCaseStaff(request)
	try {
		await saveConsent(db, row.id, answer, staff?.id)
	} catch (error) {
		if (!(error instanceof ConsentLockedError)) throw error
		throw redirect(base)
	}
	// The check page sends on to a section that became asked and is not yet filled in.
	if (new URL(request.url).searchParams.get('return') === CHECK_STEP) return redirect(`${base}/${CHECK_STEP}`)
	return redirect(`${base}/${nextOpenStep(definition, row, CONSENT_STEP, state.answers, answer)}`)
}

export default function Consent({ loaderData, actionData }: Route.ComponentProps) {
	const data = loaderData
	const error = actionData?.error
	const answered = data.answer === 'given' ? 'أوافق' : data.answer === 'declined' ? 'لا أوافق' : null
	return (
		<div className="mx-auto max-w-2xl px-4 py-6">
			<PageTitle title={`${data.heading} - ${data.title}`} error={Boolean(error)} />
			<Link to={data.backTo} className="link inline-flex min-h-11 items-center">
				<span aria-hidden="true">→</span>&nbsp;رجوع
			</Link>
			{error ? <ErrorSummary items={[{ message: error, fieldId: 'consent-given' }]} /> : null}
			<p className="mt-2 text-sm font-semibold text-stone-600">
				{data.title} — {data.stepLabel}
			</p>
			<h1 className="mt-1 text-2xl font-bold text-brand-900">{data.heading}</h1>
			{data.staff ? (
				<p className="mt-4 rounded-lg border-2 border-dashed border-gold-500 p-4 font-semibold text-gold-700">
					طلب ورقي: اقرأ على المتقدم ما في هذه الصفحة، ثم سجّل إجابته هو، لا إجابتك.
				</p>
			) : null}
			<div className="mt-4 space-y-5 rounded-xl border border-stone-200 bg-white p-5">
				<section aria-labelledby="consent-what">
					<h2 id="consent-what" className="text-lg font-bold text-brand-900">
						ما الذي نطلبه
					</h2>
					<p className="mt-2">تطلب الخطوات التالية بيانات لا نجمعها إلا بموافقتك الصريحة، وفق نظام حماية البيانات الشخصية:</p>
					<ul className="mt-2 list-disc space-y-1 ps-6 font-semibold">
						{data.items.map((item) => (
							<li key={item}>{item}</li>
						))}
					</ul>
				</section>
				<section aria-labelledby="consent-why">
					<h2 id="consent-why" className="text-lg font-bold text-brand-900">
						لماذا نطلبها
					</h2>
					<ul className="mt-2 list-disc space-y-1 ps-6">
						{data.kinds.includes('health') ? <li>البيانات الصحية والتقرير الطبي: ليدرس الباحث حالة المريض واحتياجاته، ويقرر الدعم المناسب له.</li> : null}
						{data.kinds.includes('bank') ? <li>الحساب البنكي وكشفه: لنحوّل إليك الدعم المعتمد، ونتحقق من وضعك المالي.</li> : null}
					</ul>
				</section>
				<section aria-labelledby="consent-who">
					<h2 id="consent-who" className="text-lg font-bold text-brand-900">
						من يطّلع عليها، وكم تُحفظ
					</h2>
					<p className="mt-2">
						لا يطّلع عليها إلا موظفو المؤسسة المختصون بدراسة الطلبات، ويُسجَّل كل اطلاع. لا نبيعها ولا نشاركها إلا بما يوجبه النظام. تُحفظ داخل المملكة طوال دراسة الطلب، ثم مدة {data.kept} بعد
						إغلاقه، ثم تُتلف.
					</p>
				</section>
				<section aria-labelledby="consent-no">
					<h2 id="consent-no" className="text-lg font-bold text-brand-900">
						إن لم توافق
					</h2>
					<p className="mt-2">
						تكمل طلبك دون هذه الأقسام، ولا نجمع هذه البيانات، وقد يحدّ ذلك من دراسة طلبك أو صرف الدعم. يمكنك تغيير إجابتك من هذه الصفحة ما دام الطلب لم يُرسل، ولك أن تسحب موافقتك لاحقاً
						بالتواصل معنا.
					</p>
				</section>
				<p>
					<Link to="/privacy" className="link">
						اقرأ إشعار الخصوصية كاملاً{data.version ? ` (الإصدار ${data.version})` : ''}
					</Link>
				</p>
			</div>
			{answered ? (
				<p role="status" className="mt-4 rounded-lg bg-brand-50 p-4 font-semibold text-brand-900">
					إجابتك المحفوظة: {answered}. يمكنك تغييرها.
				</p>
			) : null}
			<Form method="post" action={data.returnToCheck ? `?return=${CHECK_STEP}` : undefined} className="mt-6">
				<Honeypot />
				<fieldset>
					<legend className="text-lg font-bold">هل توافق على جمع هذه البيانات ومعالجتها لدراسة طلبك؟</legend>
					<div className="mt-4 flex flex-col gap-3 sm:flex-row">
						<button id="consent-given" type="submit" name="consent" value="given" className="btn-primary">
							أوافق
						</button>
						<button type="submit" name="consent" value="declined" className="btn-secondary">
							لا أوافق، وأكمل دون هذه البيانات
						</button>
					</div>
				</fieldset>
			</Form>
		</div>
	)
}
