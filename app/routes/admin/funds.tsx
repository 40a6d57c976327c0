import { data, Form, Link, useNavigation } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/funds'
import { requireRole } from '#app/auth/user-context.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { areaRoles, hasRole } from '#app/db/roles.ts'
import { addFund, budgetsOf, changeFund, listFunds, setBudget, setDebitAccount } from '#app/aid/funds.server.ts'
import { awaitingCount, fundBalances, fundSettingsOf, setGeneralOverdraft } from '#app/aid/receipts.server.ts'
import { fundLabel } from '#app/aid/aid-text.ts'
import { riyals } from '#app/cases/aid.ts'
import { CaseChangeError } from '#app/cases/status-changes.server.ts'
import { applicationDefinitions, findDefinition } from '#app/forms/registry.ts'
import { flashContext, notices, redirectWithFlash } from '#app/http/flash.server.ts'
import { formatMoney, todayInRiyadh } from '#app/text/format.ts'
import { noteAudit, audited } from '#app/audit/audit-trail.server.ts'
import { ErrorList, Field, FlashNotice, PageTitle, SelectField } from '#app/components/forms.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import type { AdminHandle } from './layout.tsx'

// Funds and budgets (docs/product.md#funds-and-budgets): the money aid is paid from, and what each
// programme may give in a year, with what is committed, paid and left. The committee and finance
// read it; an admin adds and renames funds and sets the budgets, each change in the audit trail.

export const handle: AdminHandle = { breadcrumb: 'الصناديق والميزانيات' }

export const middleware = [audited({ read: false, write: { byIntent: { 'add-fund': 'funds.change', 'rename-fund': 'funds.change', 'retire-fund': 'funds.change', 'restore-fund': 'funds.change', 'debit-account': 'funds.change', budget: 'budget.change', overdraft: 'funds.overdraft' } } })]

const name = z.string({ error: 'الرجاء كتابة اسم الصندوق' }).trim().min(3, 'الرجاء كتابة اسم الصندوق').max(120, 'الاسم أطول من 120 حرفاً')
const schema = z.discriminatedUnion('intent', [
	z.object({ intent: z.literal('add-fund'), name, zakat: z.literal('on').optional() }),
	z.object({ intent: z.literal('rename-fund'), id: z.coerce.number().int(), name }),
	z.object({ intent: z.enum(['retire-fund', 'restore-fund']), id: z.coerce.number().int() }),
	z.object({ intent: z.literal('overdraft'), allow: z.enum(['yes', 'no'], { error: 'الرجاء اختيار أحد الخيارين' }) }),
	z.object({ intent: z.literal('debit-account'), id: z.coerce.number().int(), debitAccount: z.string().max(60, 'الآيبان أطول من المعتاد').default('') }),
	z.object({
		intent: z.literal('budget'),
		programme: z.string({ error: 'الرجاء اختيار البرنامج' }).refine((value) => findDefinition(value) !== undefined, 'الرجاء اختيار البرنامج'),
		year: z.coerce.number({ error: 'الرجاء كتابة السنة' }).int().min(2020, 'سنة غير صحيحة').max(2100, 'سنة غير صحيحة'),
		fund: z.string().regex(/^(all|\d+)$/, 'الرجاء اختيار الصندوق'),
		allocated: z.union([z.literal('0'), riyals('الرجاء كتابة مبلغ الميزانية')]).transform(Number),
	}),
])

function yearOf(url: URL): number {
	const year = Number(url.searchParams.get('year'))
	return Number.isInteger(year) && year >= 2020 && year <= 2100 ? year : Number(todayInRiyadh().slice(0, 4))
}

export async function loader({ request, context }: Route.LoaderArgs) {
	const user = requireRole(context, areaRoles.funds)
	const db = await getDb()
	const year = yearOf(new URL(request.url))
	const [funds, budgets, balances, settings, awaiting] = await Promise.all([listFunds(db, { withRetired: true }), budgetsOf(db, year), fundBalances(db), fundSettingsOf(db), awaitingCount(db)])
	return {
		notice: context.get(flashContext),
		canChange: hasRole(user, 'admin'),
		canReceive: hasRole(user, 'admin') || hasRole(user, 'finance'),
		year,
		generalOverdraft: settings.generalOverdraft,
		awaiting,
		balances: funds
			.filter((fund) => fund.active)
			.map((fund) => {
				const figures = balances.get(fund.id)!
				return { id: fund.id, name: fundLabel(fund), received: formatMoney(figures.received), committed: formatMoney(figures.committed), paid: formatMoney(figures.paid), balance: formatMoney(figures.balance), below: figures.balance < 0 }
			}),
		funds: funds.map(({ id, name, zakat, active, debitAccount }) => ({ id, name, zakat, active, debitAccount: debitAccount ?? '' })),
		programmes: applicationDefinitions.filter((definition) => !definition.createsAccount).map((definition) => ({ value: definition.type, label: definition.title })),
		budgets: budgets.map((budget) => ({
			id: budget.id,
			programme: budget.programmeTitle,
			fund: budget.fundName,
			allocated: formatMoney(budget.allocated),
			committed: formatMoney(budget.committed),
			paid: formatMoney(budget.paid),
			remaining: formatMoney(budget.remaining),
			overdrawn: budget.remaining < 0,
		})),
	}
}

export async function action({ request, context }: Route.ActionArgs) {
	const user = requireRole(context, ['admin'])
	const formData = await request.formData()
	const typed = Object.fromEntries([...formData.entries()].filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
	const form = `${typed.intent ?? ''}-${typed.id ?? ''}`
	const parsed = schema.safeParse(typed)
	if (!parsed.success) return data({ form, errors: parsed.error.issues.map((issue) => issue.message), typed }, { status: 400 })
	const db = await getDb()
	const value = parsed.data
	const back = `/admin/funds${value.intent === 'budget' ? `?year=${value.year}` : ''}`
	try {
		switch (value.intent) {
			case 'add-fund': {
				const fund = await addFund(db, { name: value.name, zakat: value.zakat === 'on' })
				noteAudit(context, { data: { intent: value.intent, fund: fund.name, zakat: fund.zakat } })
				return redirectWithFlash(back, notices.added)
			}
			case 'rename-fund':
			case 'retire-fund':
			case 'restore-fund': {
				const changed = await changeFund(db, value.id, value.intent === 'rename-fund' ? { name: value.name } : { active: value.intent === 'restore-fund' })
				if (!changed) throw data('الصندوق غير موجود', { status: 404 })
				noteAudit(context, { data: { intent: value.intent, fund: changed.name } })
				return redirectWithFlash(back, notices.updated)
			}
			case 'overdraft': {
				const changed = await setGeneralOverdraft(db, value.allow === 'yes', user)
				noteAudit(context, { data: { before: changed.before, after: changed.after } })
				return redirectWithFlash(back, notices.updated)
			}
			case 'debit-account': {
				const changed = await setDebitAccount(db, value.id, value.debitAccount)
				if (!changed) throw data('الصندوق غير موجود', { status: 404 })
				noteAudit(context, { data: { intent: value.intent, fund: changed.fund.name, before: changed.before, after: changed.fund.debitAccount } })
				return redirectWithFlash(back, notices.updated)
			}
			case 'budget': {
				const fundId = value.fund === 'all' ? null : Number(value.fund)
				if (fundId !== null && !(await listFunds(db, { withRetired: true })).some((fund) => fund.id === fundId)) return data({ form, errors: ['الرجاء اختيار الصندوق'], typed }, { status: 400 })
				const changed = await setBudget(db, { programme: value.programme, year: value.year, fundId, allocated: value.allocated }, user)
				noteAudit(context, { data: { programme: value.programme, year: value.year, fundId, before: changed.before, after: changed.after } })
				return redirectWithFlash(back, { tone: 'success', message: `تم حفظ ميزانية «${findDefinition(value.programme)!.title}» لعام ${value.year}: ${formatMoney(changed.after)}` })
			}
		}
	} catch (error) {
		if (!(error instanceof CaseChangeError)) throw error
		return data({ form, errors: [error.message], typed }, { status: 409 })
	}
}

export default function Funds({ loaderData: f, actionData }: Route.ComponentProps) {
	const busy = useNavigation().state !== 'idle'
	const errorsFor = (form: string) => (actionData?.form === form ? actionData.errors : undefined)
	const typedIn = (form: string, name: string) => (actionData?.form === form ? actionData.typed[name] : undefined)
	return (
		<>
			<PageTitle title="الصناديق والميزانيات" error={Boolean(actionData)} />
			<h1 className="text-2xl font-bold text-brand-900">الصناديق والميزانيات</h1>
			<p className="mt-1 text-stone-700">كل دعم معتمد يُصرف من صندوق واحد، ضمن ميزانية برنامجه للعام. أموال الزكاة لا تُصرف إلا لحالة أثبتت دراستها استحقاقها. لكل صندوق حساب خصم: لا تجمع دفعة صرف حسابين، ولا الزكاة وغيرها.</p>
			<p className="mt-1">
				<Link to="/admin/funds/limits" className="link inline-flex min-h-11 items-center">
					حدود الاعتماد: ما يلزمه اعتماد ثانٍ من لجنة الصرف
				</Link>
			</p>
			<FlashNotice notice={f.notice} live className="mt-4" />

			<section aria-labelledby="balances" className="mt-6">
				<div className="flex flex-wrap items-center justify-between gap-3">
					<h2 id="balances" className="text-xl font-bold text-brand-900">
						أرصدة الصناديق
					</h2>
					{f.canReceive ? (
						<Link to="/admin/funds/receipts" className="link inline-flex min-h-11 items-center">
							المقبوضات: سندات القبض والمناقلات{f.awaiting ? ` (${f.awaiting} بانتظار التأكيد)` : ''}
						</Link>
					) : null}
				</div>
				<p className="mt-1 text-sm text-stone-700">
					الرصيد هو المقبوض المؤكد (بعد المناقلات والإلغاءات) مطروحاً منه المعتمد غير المصروف والمصروف. لا يُعتمد من صندوق زكاة أكثر من رصيده.{' '}
					{f.generalOverdraft ? 'يُسمح للصناديق العامة بالاعتماد بما يتجاوز رصيدها في حدود الميزانية.' : 'لا يُعتمد من الصناديق العامة أكثر من رصيدها.'}
				</p>
				<DataTable label="جدول أرصدة الصناديق" caption="أرصدة الصناديق" headings={['الصندوق', 'المقبوض', 'معتمد لم يُصرف', 'المصروف', 'الرصيد']} headCellClassName="p-2 text-start" className="mt-3">
					{f.balances.map((fund) => (
						<tr key={fund.id} className="border-t border-stone-100">
							<th scope="row" className="p-2 text-start font-semibold">
								{fund.name}
							</th>
							<td className="p-2">{fund.received}</td>
							<td className="p-2">{fund.committed}</td>
							<td className="p-2">{fund.paid}</td>
							<td className={`p-2 font-semibold ${fund.below ? 'text-red-800' : ''}`}>{fund.balance}</td>
						</tr>
					))}
				</DataTable>
				{f.canChange ? (
					<Form method="post" className="mt-4 space-y-2 rounded-xl border border-brand-200 bg-brand-50 p-4">
						<input type="hidden" name="intent" value="overdraft" />
						<ErrorList errors={errorsFor('overdraft-')} />
						<fieldset>
							<legend className="font-semibold">الاعتماد من الصناديق العامة (غير الزكاة)</legend>
							<div className="mt-2 flex items-start gap-3">
								<input id="overdraft-yes" type="radio" name="allow" value="yes" defaultChecked={f.generalOverdraft} className="mt-1 size-5 shrink-0" />
								<label htmlFor="overdraft-yes">يُسمح بتجاوز رصيد الصندوق في حدود الميزانيات</label>
							</div>
							<div className="mt-2 flex items-start gap-3">
								<input id="overdraft-no" type="radio" name="allow" value="no" defaultChecked={!f.generalOverdraft} className="mt-1 size-5 shrink-0" />
								<label htmlFor="overdraft-no">لا يُعتمد أكثر من رصيد الصندوق</label>
							</div>
						</fieldset>
						<button type="submit" disabled={busy} className="btn-secondary">
							حفظ إعداد الاعتماد
						</button>
					</Form>
				) : null}
			</section>

			<section aria-labelledby="budgets" className="mt-8">
				<div className="flex flex-wrap items-center justify-between gap-3">
					<h2 id="budgets" className="text-xl font-bold text-brand-900">
						ميزانيات عام {f.year}
					</h2>
					<nav aria-label="السنوات" className="flex gap-3">
						<Link to={`?year=${f.year - 1}`} className="link inline-flex min-h-11 items-center">
							ميزانيات {f.year - 1}
						</Link>
						<Link to={`?year=${f.year + 1}`} className="link inline-flex min-h-11 items-center">
							ميزانيات {f.year + 1}
						</Link>
					</nav>
				</div>
				{f.budgets.length === 0 ? (
					<p className="mt-3 rounded-xl border border-stone-200 bg-white p-4">لا ميزانيات لهذا العام بعد: لا يُعتمد دعم لبرنامج بلا ميزانية.</p>
				) : (
					<DataTable
						label="جدول الميزانيات"
						caption={`ميزانيات ${f.year}`}
						headings={['البرنامج', 'الصندوق', 'المخصص', 'معتمد لم يُصرف', 'المصروف', 'المتبقي']}
						headCellClassName="p-2 text-start"
						className="mt-3"
					>
						{f.budgets.map((budget) => (
							<tr key={budget.id} className="border-t border-stone-100">
								<th scope="row" className="p-2 text-start font-semibold">
									{budget.programme}
								</th>
								<td className="p-2">{budget.fund}</td>
								<td className="p-2">{budget.allocated}</td>
								<td className="p-2">{budget.committed}</td>
								<td className="p-2">{budget.paid}</td>
								<td className={`p-2 font-semibold ${budget.overdrawn ? 'text-red-800' : ''}`}>{budget.remaining}</td>
							</tr>
						))}
					</DataTable>
				)}
				{f.canChange ? (
					<Form method="post" className="mt-4 grid gap-3 rounded-xl border border-brand-200 bg-brand-50 p-4 sm:grid-cols-2 lg:grid-cols-4">
						<input type="hidden" name="intent" value="budget" />
						<input type="hidden" name="year" value={f.year} />
						<p className="font-semibold sm:col-span-2 lg:col-span-4">تحديد ميزانية أو رفعها لعام {f.year}</p>
						<div className="sm:col-span-2 lg:col-span-4">
							<ErrorList errors={errorsFor('budget-')} />
						</div>
						<SelectField
							label="البرنامج"
							options={[{ value: '', label: 'اختر' }, ...f.programmes]}
							selectProps={{ id: 'budget-programme', name: 'programme', required: true, defaultValue: typedIn('budget-', 'programme') ?? '' }}
						/>
						<SelectField
							label="الصندوق"
							options={[{ value: 'all', label: 'كل الصناديق' }, ...f.funds.filter((fund) => fund.active).map((fund) => ({ value: String(fund.id), label: fund.name }))]}
							selectProps={{ id: 'budget-fund', name: 'fund', defaultValue: typedIn('budget-', 'fund') ?? 'all' }}
						/>
						<Field label="المبلغ المخصص بالريال" inputProps={{ id: 'budget-allocated', name: 'allocated', inputMode: 'decimal', required: true, dir: 'ltr', defaultValue: typedIn('budget-', 'allocated') }} />
						<div className="flex items-end">
							<button type="submit" disabled={busy} className="btn-primary">
								حفظ الميزانية
							</button>
						</div>
					</Form>
				) : null}
			</section>

			<section aria-labelledby="funds" className="mt-8">
				<h2 id="funds" className="text-xl font-bold text-brand-900">
					الصناديق
				</h2>
				<ul className="mt-3 space-y-3">
					{f.funds.map((fund) => (
						<li key={fund.id} className={`rounded-xl border p-4 ${fund.active ? 'border-stone-200 bg-white' : 'border-stone-300 bg-stone-50'}`}>
							{f.canChange ? (
								<>
									<Form method="post" className="flex flex-wrap items-end gap-3">
										<input type="hidden" name="intent" value="rename-fund" />
										<input type="hidden" name="id" value={fund.id} />
										<div className="min-w-0 flex-1">
											<label htmlFor={`fund-${fund.id}`} className="block text-sm font-semibold">
												{fund.zakat ? 'صندوق زكاة' : 'صندوق'}
												{fund.active ? '' : ' (موقوف)'}
											</label>
											<ErrorList errors={errorsFor(`rename-fund-${fund.id}`)} />
											<input id={`fund-${fund.id}`} name="name" defaultValue={fund.name} required maxLength={120} className="field-input mt-1" />
										</div>
										<button type="submit" disabled={busy} className="btn-secondary">
											حفظ<span className="sr-only"> {fund.name}</span>
										</button>
									</Form>
									<Form method="post" className="mt-3 flex flex-wrap items-end gap-3">
										<input type="hidden" name="intent" value="debit-account" />
										<input type="hidden" name="id" value={fund.id} />
										<div className="min-w-0 flex-1">
											<label htmlFor={`debit-account-${fund.id}`} className="block text-sm font-semibold">
												حساب الخصم (آيبان حساب المؤسسة الذي يُصرف منه)<span className="sr-only"> لـ{fund.name}</span>
											</label>
											<ErrorList errors={errorsFor(`debit-account-${fund.id}`)} />
											<input id={`debit-account-${fund.id}`} name="debitAccount" defaultValue={typedIn(`debit-account-${fund.id}`, 'debitAccount') ?? fund.debitAccount} maxLength={60} dir="ltr" placeholder="SA" className="field-input mt-1" />
										</div>
										<button type="submit" disabled={busy} className="btn-secondary">
											حفظ حساب الخصم<span className="sr-only"> لـ{fund.name}</span>
										</button>
									</Form>
									<Form method="post" className="mt-2">
										<input type="hidden" name="intent" value={fund.active ? 'retire-fund' : 'restore-fund'} />
										<input type="hidden" name="id" value={fund.id} />
										<button type="submit" disabled={busy} className="link inline-flex min-h-11 items-center">
											{fund.active ? 'إيقاف' : 'إعادة'}
											<span className="sr-only"> {fund.name}</span>
										</button>
									</Form>
								</>
							) : (
								<p>
									<span className="font-semibold">{fund.name}</span>
									{fund.zakat ? ' — زكاة' : ''}
									{fund.active ? '' : ' (موقوف)'}
									{' — حساب الخصم: '}
									{fund.debitAccount ? <bdi dir="ltr">{fund.debitAccount}</bdi> : 'لم يُحدَّد'}
								</p>
							)}
						</li>
					))}
				</ul>
				{f.canChange ? (
					<Form method="post" className="mt-4 space-y-3 rounded-xl border border-brand-200 bg-brand-50 p-4">
						<input type="hidden" name="intent" value="add-fund" />
						<label htmlFor="new-fund" className="block font-semibold">
							صندوق جديد
						</label>
						<ErrorList errors={errorsFor('add-fund-')} />
						<input id="new-fund" name="name" required maxLength={120} defaultValue={typedIn('add-fund-', 'name')} className="field-input" />
						<div className="flex items-start gap-3">
							<input id="new-fund-zakat" name="zakat" type="checkbox" defaultChecked={typedIn('add-fund-', 'zakat') === 'on'} className="mt-1 size-5 shrink-0" />
							<label htmlFor="new-fund-zakat">أموال زكاة (لا تُصرف إلا لمستحقي الزكاة، ولا يتغير ذلك بعد الإضافة)</label>
						</div>
						<button type="submit" disabled={busy} className="btn-primary">
							إضافة الصندوق
						</button>
					</Form>
				) : null}
			</section>
		</>
	)
}
