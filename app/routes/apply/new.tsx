import { parseWithZod } from '@conform-to/zod/v4'
import { data, Link, redirect } from 'react-router'
import type { Route } from './+types/new'
import { getDb } from '#app/db/database.server.ts'
import { DuplicateApplicantError, startCase } from '#app/cases/case-store.server.ts'
import { readIdChecksumOverride, getCaseStaff } from './+applicant.server.ts'
import { sealPasswords, secretFields } from '#app/runner/answers.server.ts'
import { checkAnswers, DUPLICATE_APPLICANT } from '#app/runner/steps.server.ts'
import { newDraftChecks } from '#app/runner/draft-limits.ts'
import { accountPrefill } from '#app/runner/institution.server.ts'
import { getInstitution, startAccountCase } from '#app/accounts/institution-accounts.server.ts'
import { privateLink } from '#app/cases/tokens.server.ts'
import { recordAudit } from '#app/audit/audit-trail.server.ts'
import { addressCheck, countDone, countHits, publicLimits, reachedLimit, type IpLimited } from '#app/http/ip-limit.server.ts'
import { getIntake } from '#app/cases/intake-state.server.ts'
import { getNotifier } from '#app/notify/notifier.server.ts'
import { codeSentMessage, sendCaseCode, verificationOn } from '#app/verify/case-verification.server.ts'
import { sendProblem } from '#app/verify/codes.server.ts'
import { clientIp } from '#app/utils/origin.server.ts'
import { redirectWithFlash } from '#app/http/flash.server.ts'
import { findDefinition } from '#app/forms/registry.ts'
import { identifierLabel } from '#app/forms/definition.ts'
import { formDefaults } from '#app/forms/form-values.ts'
import { stepLabel } from '#app/cases/journey.ts'
import { sectionSchema } from '#app/forms/schema.ts'
import { isHoneypotFilled, TOO_MANY_TRIES } from '#app/components/forms.tsx'
import { SectionForm } from '#app/forms/section-form.tsx'
import { PrivacyLine } from '#app/privacy/privacy-line.tsx'
import { actionHeaders } from '#app/utils/action-headers.ts'

export const handle = { hydrate: true }

/** A refusal for too many new drafts says when to come back (Retry-After), on the page as in the answer. */
export const headers = actionHeaders

/** The same refusal to an institution signed in to its account: the open request is in the account. */
export const ACCOUNT_DUPLICATE_MESSAGE = 'لمؤسستك طلب دعم مفتوح لم يُبتّ فيه بعد.'

async function openDefinition(type: string) {
	const definition = findDefinition(type)
	if (!definition) throw data(null, { status: 404 })
	const intake = await getIntake(await getDb(), definition.type)
	if (intake.state === 'closed') throw redirect(`/apply/${definition.type}`)
	return { definition, intake }
}

/** A signed-in staff member starting a form for a walk-in or phone applicant (?paper=1). */
async function paperIntakeBy(request: Request) {
	if (new URL(request.url).searchParams.get('paper') !== '1') return null
	return (await getCaseStaff(request)) ?? null
}

/** A signed-in institution starting a request its account may start (one with a `prefill`): the case is then tied to the account. */
async function institutionFor(request: Request, definition: { prefill?: unknown }) {
	return definition.prefill ? await getInstitution(request) : null
}

export async function loader({ params, request }: Route.LoaderArgs) {
	const { definition, intake } = await openDefinition(params.type)
	const institution = await institutionFor(request, definition)
	return {
		type: definition.type,
		pausedNotice: intake.state === 'paused' ? intake.pausedNotice : null,
		staff: Boolean(await getCaseStaff(request)),
		paper: Boolean(await paperIntakeBy(request)),
		// From the account (/account): filled in from the registration; nothing is stored until saved.
		prefilled: institution ? await accountPrefill(await getDb(), definition, institution.id, definition.sections[0]!.key) : null,
		fromAccount: Boolean(institution),
		// Sent here once a proven mobile turned out to have an open case of this programme already (verify.tsx).
		duplicate: new URL(request.url).searchParams.get('duplicate') === '1' ? provenDuplicate(identifierLabel(definition)) : null,
	}
}

/** Said on a proven mobile whose holder already has an open case of the programme: the draft just started went. */
const provenDuplicate = (idLabel: string) => `${DUPLICATE_APPLICANT}: تم تأكيد رقم جوالك، ولك طلب مفتوح في هذا البرنامج ب${idLabel} نفسه، فلم نُبقِ الطلب الجديد.`

/** What the applicant is told once the case exists: only what is true about the e-mail. */
function createdMessage(emailed: boolean | null): string {
	const created = 'تم حفظ بياناتك وإنشاء طلبك.'
	if (emailed === null) return created
	return emailed ? `${created} أرسلنا رابط طلبك الخاص إلى بريدك الإلكتروني.` : `${created} لم يُرسل الرابط إلى بريدك الإلكتروني، فانسخه الآن واحتفظ به.`
}

export async function action({ request, params }: Route.ActionArgs) {
	const { definition } = await openDefinition(params.type)
	const formData = await request.formData()
	const first = definition.sections[0]!
	const db = await getDb()
	// Visitors only (staff enter paper applications all day from one address). A refusal re-draws
	// the form with what was typed and says why and when to try again (docs/security.md#rate-limits).
	const visitor = !(await getCaseStaff(request))
	const typed = () => parseWithZod(formData, { schema: sectionSchema(first, { allowIdChecksumFailure: true }) }).reply({ hideFields: secretFields(first) })
	const refuse = (limited: IpLimited) => data({ result: { ...typed(), error: { '': [limited.message] } }, duplicate: false, limited: true }, { status: 429, headers: limited.headers })
	const ceiling = visitor ? await countHits(db, [addressCheck(request, publicLimits.start)]) : null
	if (ceiling) return refuse(ceiling)
	if (isHoneypotFilled(formData)) return data({ result: typed(), duplicate: false }, { status: 400 })
	// The first step is checked as every step is (app/runner/steps.server.ts); the case is then started with it.
	const override = await readIdChecksumOverride(request, formData)
	const checked = await checkAnswers(db, definition, first, formData, { allowIdChecksumFailure: false, override })
	if (!checked.ok) return data({ result: checked.outcome.kind === 'invalid' ? checked.outcome.result : typed(), duplicate: false }, { status: checked.outcome.kind === 'invalid' ? checked.outcome.status : 400 })
	const perApplicant = visitor ? newDraftChecks(definition, checked.values) : []
	const reached = await reachedLimit(db, perApplicant)
	if (reached) return refuse(reached)
	const paper = await paperIntakeBy(request)
	const institution = paper ? null : await institutionFor(request, definition)
	// With codes on, a visitor's draft is the applicant's only once its mobile is proven: then it
	// counts against its ID and e-mail, and an open case of the same ID is told to that mobile's
	// holder only (app/routes/apply/verify.tsx; docs/security.md#verified-mobile).
	const codeFirst = !paper && verificationOn()
	try {
		if (institution) {
			const { token } = await startAccountCase(db, institution.id, definition, checked.values)
			return redirectWithFlash(`/apply/r/${token}`, { tone: 'success', message: 'تم حفظ بياناتك وإنشاء طلبك. يمكنك متابعة تعبئته في أي وقت من حساب مؤسستك.', field: 'created' })
		}
		const { row, token } = await startCase(db, definition, await sealPasswords(first, checked.values, undefined), {
			override: override && override !== 'no-note' ? override : undefined,
			paperIntake: paper ? { actorId: paper.id } : undefined,
			duplicates: paper ? 'any' : codeFirst ? 'none' : 'same-mobile',
		})
		if (!codeFirst) await countDone(db, perApplicant)
		if (paper) await recordAudit(db, { actor: paper, action: 'case.create', caseReference: row.reference, request, data: { type: definition.type, mobileVerified: 'in-person' } })
		if (codeFirst) {
			// The mobile is proven before the link is issued: a code now, the link (and its e-mail) once it is typed.
			const sent = await sendCaseCode(db, row, clientIp(request))
			const said = sent.ok ? codeSentMessage(sent, row.mobile) : sendProblem(sent)
			return redirectWithFlash(`/apply/r/${token}/verify`, { tone: sent.ok ? 'success' : 'error', message: `تم حفظ بياناتك وإنشاء طلبك. ${said}` })
		}
		const emailed = row.email
			? await getNotifier().sendResumeLink({
					to: row.email,
					reference: row.reference,
					formTitle: definition.title,
					link: privateLink(token),
				})
			: null
		return redirectWithFlash(`/apply/r/${token}`, {
			tone: 'success',
			message: createdMessage(emailed),
			field: 'created',
		})
	} catch (error) {
		if (!(error instanceof DuplicateApplicantError)) throw error
		return data({ result: checked.reply({ formErrors: [institution ? ACCOUNT_DUPLICATE_MESSAGE : DUPLICATE_APPLICANT] }), duplicate: true }, { status: 409 })
	}
}

export default function NewApplication({ loaderData, actionData }: Route.ComponentProps) {
	const definition = findDefinition(loaderData.type)!
	const first = definition.sections[0]!
	// «رقم الهوية أو الإقامة» for a person, the licence number for an association: the duplicate rule's key.
	const idLabel = identifierLabel(definition)
	return (
		<SectionForm
			section={first}
			formTitle={definition.title}
			// Counted as the whole journey, health and bank sections included, until the consent step is answered.
			stepLabel={stepLabel(definition, first.key, {})}
			defaults={formDefaults(first, loaderData.prefilled ?? undefined)}
			lastResult={actionData?.result}
			errorTitle={actionData && 'limited' in actionData ? TOO_MANY_TRIES : undefined}
			backTo={loaderData.paper ? '/admin/cases/new' : loaderData.fromAccount ? '/account' : `/apply/${definition.type}`}
			staff={loaderData.staff}
			action={loaderData.paper ? '?paper=1' : undefined}
			intro={
				<>
					<PrivacyLine />
					{loaderData.paper ? (
						<p className="mt-4 rounded-lg border-2 border-dashed border-gold-500 p-4 font-semibold text-gold-700">
							طلب ورقي: تعبئه نيابة عن متقدم حضر أو اتصل. احتفظ برابط الطلب الخاص لتكمل بقية الخطوات، وأعطه للمتقدم إن أمكن.
						</p>
					) : null}
					{loaderData.pausedNotice ? (
						<p role="status" className="mt-4 rounded-lg border-s-4 border-gold-500 bg-gold-100 p-4 font-semibold text-gold-700">
							{loaderData.pausedNotice}
						</p>
					) : null}
					{loaderData.duplicate && !actionData ? (
						<p role="status" className="mt-4 rounded-lg bg-red-50 p-4 text-red-900">
							{`${loaderData.duplicate} `}
							<Link to="/apply/status" className="font-semibold underline">
								استعلم عن حالة طلبك
							</Link>
						</p>
					) : null}
					{actionData?.duplicate ? (
						<p className="mt-4 rounded-lg bg-red-50 p-4 text-red-900">
							{loaderData.fromAccount ? (
								<Link to="/account" className="font-semibold underline">
									تابع طلبك المفتوح من حساب المؤسسة
								</Link>
							) : (
								<>
									{`يوجد طلب مفتوح لهذا البرنامج ب${idLabel} نفسه.`}{' '}
									<Link to="/apply/status" className="font-semibold underline">
										استعلم عن حالة طلبك
									</Link>
								</>
							)}
						</p>
					) : null}
				</>
			}
		/>
	)
}
