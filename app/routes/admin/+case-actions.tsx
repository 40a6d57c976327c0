// The decisions on a case (app/routes/admin/case.tsx): its status, who handles it, aid proposed to the committee,
// internal notes and messages to the applicant, the applicant's contact details, and deleting it.
import { Form, Link, useNavigation } from 'react-router'
import type { Route } from './+types/case'
import { Status } from '#app/cases/case-statuses.ts'
import { ErrorList } from '#app/components/forms.tsx'
import { NotesList, Panel, ProposalForm, ReopenChoices, type ActionErrors } from './+case-parts.tsx'

type LoaderData = Route.ComponentProps['loaderData']

export function CaseActions({ c, actionData }: { c: LoaderData; actionData: Route.ComponentProps['actionData'] }) {
	const errorsFor = (form: string): ActionErrors => (actionData?.form === form ? actionData.errors : {})
	const typedIn = (form: string) => (name: string) => (actionData?.form === form ? actionData.values[name] : undefined)
	// Busy while a form is sent: a second click must not record the aid or send the message twice.
	const busy = useNavigation().state !== 'idle'
	const internal = c.history.filter((event) => event.kind === 'internal_note' || (event.kind === 'status_changed' && event.note))
	const messages = c.history.filter((event) => event.kind === 'applicant_message')
	return (
		<aside className="min-w-0 space-y-6" aria-label="إجراءات الطلب">
			<Panel title="تغيير الحالة" id="status">
				{actionData?.form.startsWith('status-') && !c.targets.some((target) => actionData.form === `status-${target.id}`) ? (
					// Refused for a status this page no longer offers: said here, with the note as typed so it is not lost.
					<div role="alert" className="mt-2 rounded-lg border-s-4 border-red-700 bg-red-50 p-3 text-red-900">
						<ErrorList errors={errorsFor(actionData.form)['']} />
						{actionData.values.note ? <p className="mt-2 whitespace-pre-line text-stone-800">ملاحظتك كما كتبتها: {actionData.values.note}</p> : null}
					</div>
				) : null}
				{c.targets.length === 0 ? (
					<p className="mt-2 text-stone-700">لا يمكن تغيير حالة هذا الطلب من حالته الحالية.</p>
				) : (
					<div className="mt-2 space-y-2">
						{c.targets.map((target) => {
							const form = `status-${target.id}`
							const errors = errorsFor(form)
							return (
								<details key={target.id} open={actionData?.form === form} className="rounded-lg border border-stone-200">
									<summary className="flex min-h-11 cursor-pointer items-center px-3 font-semibold">إلى «{target.name}»</summary>
									<Form method="post" className="space-y-3 p-3">
										<input type="hidden" name="intent" value="status" />
										<input type="hidden" name="to" value={target.id} />
										<input type="hidden" name="from" value={c.status.id} />
										<ErrorList errors={errors['']} />
										{target.id === Status.Incomplete ? <ReopenChoices choices={c.reopenChoices} errors={errors} idPrefix={form} /> : null}
										{target.id === Status.Studied && c.studies && !c.study && c.status.id !== Status.Studied ? (
											<p className="rounded-lg border-s-4 border-gold-500 bg-gold-100 p-3 text-sm">
												سجّل الدراسة وتوصيتها أولاً:{' '}
												{c.studyHref ? (
													<Link to={c.studyHref} className="link">
														{c.studyTitle}
													</Link>
												) : null}
											</p>
										) : null}
										<div>
											<label htmlFor={`${form}-note`} className="block font-semibold">
												ملاحظة داخلية (سبب التغيير)
											</label>
											<ErrorList errors={errors.note} />
											<textarea id={`${form}-note`} name="note" rows={2} maxLength={2000} required defaultValue={typedIn(form)('note')} className="field-input mt-1" />
										</div>
										<div>
											<label htmlFor={`${form}-message`} className="block font-semibold">
												رسالة إلى المتقدم {target.id === Status.Incomplete ? '(ما المطلوب منه)' : '(اختياري)'}
											</label>
											<p className="text-sm text-stone-600">تظهر للمتقدم في رابط طلبه وفي الاستعلام، وتصله مع إشعار تغيير الحالة.</p>
											<ErrorList errors={errors.message} />
											<textarea id={`${form}-message`} name="message" rows={2} maxLength={2000} required={target.id === Status.Incomplete} defaultValue={typedIn(form)('message')} className="field-input mt-1" />
										</div>
										<button type="submit" disabled={busy} className="btn-primary">
											تغيير الحالة إلى «{target.name}»
										</button>
									</Form>
								</details>
							)
						})}
					</div>
				)}
			</Panel>

			{!c.deleted ? (
				<>
					{c.visits ? (
						<Panel title="زيارة الأسرة" id="visits">
							<ErrorList errors={errorsFor('cancel-visit')['']} />
							{c.visits.length ? (
								<ul className="mt-2 divide-y divide-stone-200">
									{c.visits.map((visit) => (
										<li key={visit.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
											<span>
												{visit.when}
												{visit.visitor ? ` — ${visit.visitor}` : ''}
											</span>
											<Form method="post">
												<input type="hidden" name="intent" value="cancel-visit" />
												<input type="hidden" name="visitId" value={visit.id} />
												<button type="submit" disabled={busy} className="link inline-flex min-h-11 items-center px-2 text-red-800">
													إلغاء الموعد<span className="sr-only"> {visit.when}</span>
												</button>
											</Form>
										</li>
									))}
								</ul>
							) : (
								<p className="mt-2 text-stone-700">لا موعد زيارة قائم.</p>
							)}
							{c.canPlanVisit ? (
								<details className="mt-3 rounded-lg border border-stone-200" open={actionData?.form === 'visit'}>
									<summary className="flex min-h-11 cursor-pointer items-center px-3 font-semibold">تحديد موعد زيارة</summary>
									<Form method="post" className="space-y-3 p-3">
										<input type="hidden" name="intent" value="visit" />
										<p className="text-sm text-stone-600">يُبلَّغ المتقدم بالموعد برسالة نصية وبالبريد، ويراه في رابط طلبه وفي الاستعلام.</p>
										<ErrorList errors={errorsFor('visit')['']} />
										<div>
											<label htmlFor="visit-on" className="block font-semibold">
												اليوم
											</label>
											<ErrorList errors={errorsFor('visit').visitOn} />
											<input id="visit-on" name="visitOn" type="date" required min={c.today} defaultValue={String(typedIn('visit')('visitOn') ?? c.today)} className="field-input mt-1" dir="ltr" />
										</div>
										<div>
											<label htmlFor="visit-at" className="block font-semibold">
												الساعة
											</label>
											<ErrorList errors={errorsFor('visit').visitAt} />
											<input id="visit-at" name="visitAt" type="time" required defaultValue={String(typedIn('visit')('visitAt') ?? '10:00')} className="field-input mt-1" dir="ltr" />
										</div>
										<div>
											<label htmlFor="visitor" className="block font-semibold">
												الباحث الذي يزور الأسرة
											</label>
											<ErrorList errors={errorsFor('visit').visitor} />
											<select
												id="visitor"
												name="visitor"
												defaultValue={String(typedIn('visit')('visitor') ?? c.assignedTo ?? (c.officers.some((officer) => officer.id === c.me) ? c.me : ''))}
												className="field-input mt-1"
											>
												<option value="">اختر</option>
												{c.officers.map((officer) => (
													<option key={officer.id} value={officer.id}>
														{officer.name}
													</option>
												))}
											</select>
										</div>
										<button type="submit" disabled={busy} className="btn-secondary">
											تحديد الموعد
										</button>
									</Form>
								</details>
							) : null}
						</Panel>
					) : null}

					<Panel title="الإسناد" id="assign">
						<Form method="post" className="mt-2 space-y-2">
							<input type="hidden" name="intent" value="assign" />
							<label htmlFor="officer" className="block font-semibold">
								الموظف المسؤول
							</label>
							<select id="officer" name="officer" defaultValue={c.assignedTo ?? 'none'} className="field-input">
								<option value="none">بلا إسناد</option>
								{c.officers.map((officer) => (
									<option key={officer.id} value={officer.id}>
										{officer.name}
									</option>
								))}
							</select>
							<button type="submit" disabled={busy} className="btn-secondary">
								حفظ الإسناد
							</button>
						</Form>
					</Panel>

					{c.proposes ? <ProposalForm c={c} errors={errorsFor('propose')} typed={typedIn('propose')} busy={busy} /> : null}

					<Panel title="ملاحظات داخلية" id="notes">
						<p className="text-sm text-stone-600">للموظفين فقط؛ لا يراها المتقدم.</p>
						<NotesList notes={internal} empty="لا توجد ملاحظات بعد." />
						<Form method="post" className="mt-3 space-y-2">
							<input type="hidden" name="intent" value="note" />
							<label htmlFor="note" className="block font-semibold">
								ملاحظة جديدة
							</label>
							<ErrorList errors={errorsFor('note').note} />
							<textarea id="note" name="note" rows={2} maxLength={2000} required defaultValue={typedIn('note')('note')} className="field-input" />
							<button type="submit" disabled={busy} className="btn-secondary">
								إضافة الملاحظة
							</button>
						</Form>
					</Panel>

					<Panel title="رسائل إلى المتقدم" id="messages">
						<p className="text-sm text-stone-600">يراها المتقدم في رابط طلبه وفي صفحة الاستعلام.</p>
						<NotesList notes={messages} empty="لم تُرسل رسائل بعد." />
						<Form method="post" className="mt-3 space-y-2">
							<input type="hidden" name="intent" value="message" />
							<label htmlFor="message" className="block font-semibold">
								رسالة جديدة
							</label>
							<ErrorList errors={errorsFor('message').message} />
							<textarea id="message" name="message" rows={2} maxLength={2000} required defaultValue={typedIn('message')('message')} className="field-input" />
							<button type="submit" disabled={busy} className="btn-secondary">
								إرسال الرسالة
							</button>
						</Form>
					</Panel>

					<Panel title="بيانات التواصل" id="contact">
						<dl className="mt-2 space-y-1 text-sm">
							<div>
								<dt className="inline text-stone-600">{c.idLabel}: </dt>
								<dd className="inline" dir="ltr">
									{c.nationalId}
								</dd>
							</div>
							<div>
								<dt className="inline text-stone-600">الجوال: </dt>
								<dd className="inline" dir="ltr">
									{c.mobile}
								</dd>
							</div>
							{c.email ? (
								<div>
									<dt className="inline text-stone-600">البريد: </dt>
									<dd className="inline" dir="ltr">
										{c.email}
									</dd>
								</div>
							) : null}
						</dl>
					</Panel>

					<details className="rounded-xl border border-red-200 bg-white p-4" open={actionData?.form === 'delete'}>
						<summary className="flex min-h-11 cursor-pointer items-center font-bold text-red-800">حذف الطلب</summary>
						<Form method="post" className="mt-2 space-y-3">
							<input type="hidden" name="intent" value="delete" />
							<p className="text-sm">يختفي الطلب من القوائم والاستعلام، ويبقى محفوظاً ليستعيده مدير النظام.</p>
							<label htmlFor="reason" className="block font-semibold">
								سبب الحذف
							</label>
							<ErrorList errors={errorsFor('delete').reason} />
							<textarea id="reason" name="reason" rows={2} maxLength={500} required defaultValue={typedIn('delete')('reason')} className="field-input" />
							<ErrorList errors={errorsFor('delete').confirm} />
							<div className="flex items-start gap-3">
								<input id="confirm" name="confirm" type="checkbox" required className="mt-1 size-5 shrink-0 accent-red-700" />
								<label htmlFor="confirm">أؤكد حذف هذا الطلب</label>
							</div>
							<button type="submit" disabled={busy} className="btn min-h-11 bg-red-700 px-4 text-white hover:bg-red-800">
								حذف الطلب
							</button>
						</Form>
					</details>
				</>
			) : null}
		</aside>
	)
}
