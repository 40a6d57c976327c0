import { getCollectionProps, getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link } from 'react-router'
import type { z } from 'zod'
import type { Route } from './+types/case-study'
import { requireRole } from '#app/auth/user-context.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { areaRoles } from '#app/db/roles.ts'
import { aidKinds } from '#app/cases/aid.ts'
import { CaseChangeError } from '#app/cases/status-changes.server.ts'
import { findCaseByReference } from '#app/cases/case-store.server.ts'
import { housingSeen, recommendations, studySchema, type StudyKind } from '#app/cases/studies.ts'
import { listReasons } from '#app/cases/reasons.server.ts'
import { UNSPECIFIED_ZAKAT_CATEGORY } from '#app/cases/zakat.ts'
import { latestStudy, recordStudy, studyKindOf } from '#app/cases/studies.server.ts'
import { normaliseReference } from '#app/cases/tokens.server.ts'
import { findDefinition } from '#app/forms/registry.ts'
import { todayInRiyadh } from '#app/text/format.ts'
import { flashContext, redirectWithFlash } from '#app/http/flash.server.ts'
import { MAX_VISIT_PHOTOS, VISIT_PHOTO_SLOT } from '#app/cases/staff-files.ts'
import { listStaffFiles } from '#app/cases/staff-files.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { VisitPhotosForm } from './+visit-photos.tsx'
import { audited } from '#app/audit/audit-trail.server.ts'
import { ChoiceGroup, ErrorSummary, Field, PageTitle, SelectField, TextareaField, useSubmitCount, validationTiming } from '#app/components/forms.tsx'
import type { AdminHandle } from './layout.tsx'

// The social study of a case, made for a phone in a family's living room: the visit report (or a
// desk study for associations and institutions) and the recommendation (docs/product.md#the-social-study).
// Each save records a new study; the newest is the case's.

export const handle: AdminHandle = {
	breadcrumb: (loaderData) => {
		const { reference, heading } = loaderData as { reference: string; heading: string }
		return [{ to: `/admin/cases/${reference}`, label: reference }, { label: heading }]
	},
}

export const middleware = [audited({ read: 'case.view', write: 'case.study' })]

async function openCase(reference: string | undefined) {
	const db = await getDb()
	const normalised = normaliseReference(reference ?? '')
	const row = normalised ? await findCaseByReference(db, normalised) : undefined
	const definition = row ? findDefinition(row.type) : undefined
	// An institution's registration is reviewed, not studied for aid.
	if (!row || !definition || !row.submittedAt || row.deletedAt || definition.createsAccount) throw data('الطلب غير موجود', { status: 404 })
	if (row.purgedAt) throw data('أُتلفت بيانات هذا الطلب وفق مدة الاحتفاظ، فلا تُسجَّل عليه دراسة', { status: 409 })
	return { db, row, definition }
}

const headingOf = (kind: StudyKind) => (kind === 'visit' ? 'الدراسة الاجتماعية' : 'الدراسة المكتبية')

export async function loader({ params, context }: Route.LoaderArgs) {
	requireRole(context, areaRoles.cases)
	const { db, row, definition } = await openCase(params.reference)
	const kind = studyKindOf(row.type)
	const [last, reasons, categories, staffFiles] = await Promise.all([latestStudy(db, row.id), listReasons(db, 'study-reject'), listReasons(db, 'zakat-category'), kind === 'visit' ? listStaffFiles(db, row.id) : []])
	const reasonOptions = reasons.map((reason) => ({ value: String(reason.id), label: reason.label }))
	// A category is chosen by its words (what the study keeps), a reason by its id.
	const categoryOptions = categories.map((category) => ({ value: category.label, label: category.label }))
	return {
		notice: context.get(flashContext),
		// A visit's photos, kept apart from the report (each save of the report is a new study; the photos are the case's).
		photos: staffFiles.filter((file) => file.slot === VISIT_PHOTO_SLOT).map((file) => ({ id: file.id, name: file.originalName, href: `/admin/cases/${row.reference}/files/${file.id}` })),
		maxPhotos: MAX_VISIT_PHOTOS,
		maxBytes: getEnv().uploadMaxBytes,
		reasons: reasonOptions,
		categories: categoryOptions,
		// Found eligible before categories were recorded: the researcher names the category now.
		unspecified: last?.zakatCategory === UNSPECIFIED_ZAKAT_CATEGORY,
		reference: row.reference,
		name: row.applicantName,
		title: definition.title,
		kind,
		heading: headingOf(kind),
		// Home restoration: the works and the contractor's quote.
		asksWorks: definition.type === 'home-restoration',
		today: todayInRiyadh(),
		// A new study starts from the last one, to be revised.
		last: last
			? {
					// A revision is a new study: today, unless the researcher says otherwise.
					studiedOn: todayInRiyadh(),
					metWith: last.metWith,
					...last.housing,
					needs: last.needs,
					summary: last.summary,
					recommendation: last.recommendation,
					// The words it was given with, when still a reason in use.
					rejectReason: reasonOptions.find((reason) => reason.label === last.rejectReason)?.value,
					referTo: last.referTo,
					// The category it was given, when still one in use.
					zakatCategory: categoryOptions.find((category) => category.value === last.zakatCategory)?.value,
					zakatReason: last.zakatReason,
					aidKind: last.aidKind ?? undefined,
					aidAmount: last.aidAmount === null ? undefined : String(last.aidAmount),
					aidFrequency: last.aidKind ? (last.aidMonths ? 'monthly' : 'once') : undefined,
					aidMonths: last.aidMonths === null ? undefined : String(last.aidMonths),
					works: last.works,
					quote: last.quote === null ? undefined : String(last.quote),
					invoice: last.invoice === null ? undefined : String(last.invoice),
				}
			: null,
	}
}

export async function action({ params, request, context }: Route.ActionArgs) {
	const user = requireRole(context, areaRoles.cases)
	const { db, row } = await openCase(params.reference)
	const [reasons, categories] = await Promise.all([listReasons(db, 'study-reject'), listReasons(db, 'zakat-category')])
	const submission = parseWithZod(await request.formData(), {
		schema: studySchema(
			studyKindOf(row.type),
			reasons.map((reason) => ({ value: String(reason.id) })),
			categories.map((category) => ({ value: category.label })),
		),
	})
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	// A study keeps the reason's words as they are today (the zakat category is chosen by its words).
	const rejectReason = reasons.find((reason) => String(reason.id) === submission.value.rejectReason)?.label
	try {
		await recordStudy(db, row.id, { ...submission.value, rejectReason }, user)
	} catch (error) {
		if (!(error instanceof CaseChangeError)) throw error
		return data({ result: submission.reply({ formErrors: [error.message] }) }, { status: 409 })
	}
	return redirectWithFlash(`/admin/cases/${row.reference}#study`, { tone: 'success', message: 'تم تسجيل الدراسة' })
}

export default function CaseStudy({ loaderData: c, actionData }: Route.ComponentProps) {
	const schema = studySchema(c.kind, c.reasons, c.categories)
	const [form, fields] = useForm<z.input<ReturnType<typeof studySchema>>>({
		id: `study-${c.reference}`,
		lastResult: actionData?.result,
		// The stored study as the form shows it (strings); its fields' own types are the schema's.
		defaultValue: (c.last ?? { studiedOn: c.today }) as never,
		...validationTiming,
		onValidate: ({ formData }) => parseWithZod(formData, { schema }),
	})
	const [submitCount, countSubmit] = useSubmitCount()
	const order = ['studiedOn', 'metWith', 'condition', 'type', 'ownership', 'needsMaintenance', 'needs', 'summary', 'zakatCategory', 'zakatReason', 'recommendation', 'rejectReason', 'referTo', 'aidKind', 'aidAmount', 'aidFrequency', 'aidMonths', 'invoice', 'works', 'quote'] as const
	const summary = [...(form.errors ?? []).map((message) => ({ message })), ...order.flatMap((key) => (fields[key].errors ?? []).map((message) => ({ message, fieldId: fields[key].id })))]
	const failed = submitCount > 0 || actionData?.result.status === 'error'
	const choices = (field: Parameters<typeof getCollectionProps>[0], options: readonly { value: string; label: string }[]) =>
		getCollectionProps(field, { type: 'radio', options: options.map((option) => option.value) }).map((props) => ({ props, label: options.find((option) => option.value === props.value)!.label }))
	const pick = (label: string) => [{ value: '', label }]
	return (
		<div className="mx-auto max-w-2xl">
			<PageTitle title={`${c.heading} - ${c.reference}`} error={failed && summary.length > 0} />
			<Link to={`/admin/cases/${c.reference}`} className="link inline-flex min-h-11 items-center">
				<span aria-hidden="true">→</span>&nbsp;العودة إلى الطلب
			</Link>
			<p className="mt-2 text-sm font-semibold text-stone-600">
				{c.title} — {c.name}
			</p>
			<h1 className="text-2xl font-bold text-brand-900">{c.heading}</h1>
			<p className="mt-1 text-stone-700">للموظفين فقط؛ لا يراها المتقدم. كل حفظ يُسجَّل دراسةً جديدة، وأحدثها دراسة الطلب.</p>
			{failed ? <ErrorSummary key={submitCount} items={summary} /> : null}
			{c.kind === 'visit' ? <VisitPhotosForm reference={c.reference} photos={c.photos} notice={c.notice} maxPhotos={c.maxPhotos} maxBytes={c.maxBytes} /> : null}
			<Form method="post" {...getFormProps(form)} onSubmitCapture={countSubmit} noValidate className="mt-6 space-y-6">
				<section className="space-y-5 rounded-xl border border-stone-200 bg-white p-4">
					<h2 className="text-lg font-bold">{c.kind === 'visit' ? 'الزيارة' : 'الدراسة'}</h2>
					<Field label={c.kind === 'visit' ? 'تاريخ الزيارة' : 'تاريخ الدراسة'} errors={fields.studiedOn.errors} inputProps={{ ...getInputProps(fields.studiedOn, { type: 'date' }), max: c.today, dir: 'ltr' }} />
					<Field
						label={c.kind === 'visit' ? 'من قابلتم' : 'ما رُجع إليه ومن تُوصل معه (اختياري)'}
						hint={c.kind === 'visit' ? 'مثل: الأم وابنها الأكبر' : undefined}
						errors={fields.metWith.errors}
						inputProps={{ ...getInputProps(fields.metWith, { type: 'text' }), maxLength: 500 }}
					/>
					{c.kind === 'visit' ? (
						<>
							<SelectField label="حالة المسكن (اختياري)" errors={fields.condition.errors} selectProps={getSelectProps(fields.condition)} options={[...pick('اختر'), ...housingSeen[0].options]} />
							<SelectField label="نوع المسكن (اختياري)" errors={fields.type.errors} selectProps={getSelectProps(fields.type)} options={[...pick('اختر'), ...housingSeen[1].options]} />
							<SelectField label="ملكية المسكن (اختياري)" errors={fields.ownership.errors} selectProps={getSelectProps(fields.ownership)} options={[...pick('اختر'), ...housingSeen[2].options]} />
							<ChoiceGroup legend="هل يحتاج المسكن إلى صيانة؟ (اختياري)" errors={fields.needsMaintenance.errors} errorId={`${fields.needsMaintenance.id}-error`} choices={choices(fields.needsMaintenance, housingSeen[3].options)} inline />
							<TextareaField label="احتياجات الأسرة كما رُئيت (اختياري)" errors={fields.needs.errors} textareaProps={{ ...getTextareaProps(fields.needs), rows: 3, maxLength: 2000 }} />
						</>
					) : null}
					<TextareaField label="خلاصة الدراسة" errors={fields.summary.errors} textareaProps={{ ...getTextareaProps(fields.summary), rows: 5, maxLength: 4000 }} />
					<SelectField label="مصرف الزكاة" errors={fields.zakatCategory.errors} selectProps={getSelectProps(fields.zakatCategory)} options={[...pick('غير مستحقة للزكاة'), ...c.categories]} />
					{c.unspecified ? <p className="text-sm text-amber-800">وُجدت الأسرة مستحقة للزكاة قبل تسجيل المصارف، فمصرفها «غير محدد»: اختر مصرفها، فلا يُصرف لها من صندوق زكاة حتى يُحدد.</p> : null}
					<TextareaField label="سبب استحقاق الزكاة من هذا المصرف (مع اختيار مصرف)" errors={fields.zakatReason.errors} textareaProps={{ ...getTextareaProps(fields.zakatReason), rows: 2, maxLength: 1000 }} />
				</section>

				<section className="space-y-5 rounded-xl border border-brand-200 bg-brand-50 p-4">
					<h2 className="text-lg font-bold text-brand-900">التوصية</h2>
					<ChoiceGroup legend="توصية الباحث" errors={fields.recommendation.errors} errorId={`${fields.recommendation.id}-error`} choices={choices(fields.recommendation, recommendations)} />
					<div className="space-y-5 rounded-lg border border-stone-200 bg-white p-4">
						<h3 className="font-bold">مع «دعم الحالة»: المساعدة المقترحة</h3>
						<SelectField label="نوع المساعدة" errors={fields.aidKind.errors} selectProps={getSelectProps(fields.aidKind)} options={[...pick('اختر'), ...aidKinds]} />
						<Field label="المبلغ بالريال" hint="المبلغ كله، أو مبلغ كل شهر للمساعدة الشهرية" errors={fields.aidAmount.errors} inputProps={{ ...getInputProps(fields.aidAmount, { type: 'text' }), inputMode: 'decimal', dir: 'ltr' }} />
						<ChoiceGroup
							legend="تُصرف"
							errors={fields.aidFrequency.errors}
							errorId={`${fields.aidFrequency.id}-error`}
							choices={choices(fields.aidFrequency, [
								{ value: 'once', label: 'مرة واحدة' },
								{ value: 'monthly', label: 'شهرياً' },
							])}
							inline
						/>
						<Field
							label="مبلغ الفاتورة بالريال (لسداد الفواتير)"
							hint="تسدد المؤسسة نصف الفاتورة على الأكثر"
							errors={fields.invoice.errors}
							inputProps={{ ...getInputProps(fields.invoice, { type: 'text' }), inputMode: 'decimal', dir: 'ltr' }}
						/>
						<Field label="عدد الأشهر (للمساعدة الشهرية)" hint="من شهرين إلى 24 شهراً" errors={fields.aidMonths.errors} inputProps={{ ...getInputProps(fields.aidMonths, { type: 'text' }), inputMode: 'numeric', dir: 'ltr' }} />
						{c.asksWorks ? (
							<>
								<TextareaField label="أعمال الترميم المطلوبة (اختياري)" errors={fields.works.errors} textareaProps={{ ...getTextareaProps(fields.works), rows: 3, maxLength: 2000 }} />
								<Field label="مبلغ عرض السعر بالريال (اختياري)" errors={fields.quote.errors} inputProps={{ ...getInputProps(fields.quote, { type: 'text' }), inputMode: 'decimal', dir: 'ltr' }} />
							</>
						) : null}
					</div>
					<div className="space-y-5 rounded-lg border border-stone-200 bg-white p-4">
						<h3 className="font-bold">مع «عدم الدعم» أو «الإحالة»</h3>
						<SelectField label="سبب عدم الدعم" errors={fields.rejectReason.errors} selectProps={getSelectProps(fields.rejectReason)} options={[...pick('اختر'), ...c.reasons]} />
						<Field label="الجهة المحال إليها" errors={fields.referTo.errors} inputProps={{ ...getInputProps(fields.referTo, { type: 'text' }), maxLength: 200 }} />
					</div>
				</section>
				<button type="submit" className="btn-primary w-full sm:w-auto">
					حفظ الدراسة
				</button>
			</Form>
		</div>
	)
}
