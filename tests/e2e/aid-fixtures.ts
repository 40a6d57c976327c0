// Aid approved and paid over HTTP, as the committee's and finance's forms post them: a monthly aid on
// a studied case, and its first month paid through a batch sent to the bank.
import type { APIRequestContext } from '@playwright/test'
import { studiedCaseAs, type SubmittedCase } from './case-fixtures.ts'
import { expect, unique } from './utils.ts'

export const today = () => new Date(Date.now() + 3 * 3600_000).toISOString().slice(0, 10)

/**
 * A case studied by `officer`, approved by `approver` from a fund of its own (an admin adds it and
 * the programme's budget), `amount` a month for `months`.
 */
export async function approvedMonthly(requests: { officer: APIRequestContext; admin: APIRequestContext; approver: APIRequestContext }, options: { name: string; amount: number; months: number }): Promise<SubmittedCase> {
	const marker = unique()
	const family = await studiedCaseAs(requests.officer, { name: options.name })
	expect((await requests.admin.post('/admin/funds', { form: { intent: 'add-fund', name: `صندوق الدعم الشهري ${marker}` }, maxRedirects: 0 })).status()).toBe(302)
	expect((await requests.admin.post('/admin/funds', { form: { intent: 'budget', programme: 'needy-families', year: today().slice(0, 4), fund: 'all', allocated: '999999999' }, maxRedirects: 0 })).status()).toBe(302)
	const queue = await (await requests.approver.get('/admin/decisions')).text()
	const fund = new RegExp(`<option value="(\\d+)">صندوق الدعم الشهري ${marker}</option>`).exec(queue)?.[1] ?? ''
	expect(fund, 'the new fund is offered').not.toBe('')
	const decided = await requests.approver.post(`/admin/cases/${family.reference}`, { form: { intent: 'decide', outcome: 'approve', aidKind: 'cash', amount: String(options.amount), months: String(options.months), fund, note: '' }, maxRedirects: 0 })
	expect(decided.status()).toBe(302)
	return family
}

/** The transfer of `reference` that finance's list offers this month ('' when none is offered). */
export async function dueLine(finance: APIRequestContext, reference: string): Promise<string> {
	const due = (await (await finance.get('/admin/payments')).text()).split('<li')
	return /name="line"[^>]*value="(\d+)"|value="(\d+)"[^>]*name="line"/.exec(due.find((item) => item.includes(reference)) ?? '')?.slice(1).find(Boolean) ?? ''
}

/** Finance batches the line, marks the batch sent and records its payment: the batch's page. */
export async function payLine(finance: APIRequestContext, line: string, bankReference: string): Promise<string> {
	const made = await finance.post('/admin/payments', { form: { intent: 'batch', line, note: '' }, maxRedirects: 0 })
	expect(made.status()).toBe(302)
	const batchUrl = made.headers()['location']!.split('?')[0]!
	expect((await finance.post(batchUrl, { form: { intent: 'sent', sentOn: today() }, maxRedirects: 0 })).status()).toBe(302)
	expect((await finance.post(batchUrl, { form: { intent: 'record', instalment: line, bankReference, paidOn: today() }, maxRedirects: 0 })).status()).toBe(302)
	return batchUrl
}
