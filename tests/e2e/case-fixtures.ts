// A submitted needy-families case made over HTTP by a signed-in staff member (paper intake): the
// case-management journeys start from one without driving seven form pages each time.
import { expect, type APIRequestContext } from '@playwright/test'
import { minimalPdf } from '#tests/fixtures/pdf.ts'
import { basicAnswers, randomNationalId, validIban } from '#tests/fixtures/needy-families.ts'

export interface SubmittedCase {
	reference: string
	token: string
	name: string
	nationalId: string
	mobile: string
}

async function post(request: APIRequestContext, url: string, form: Record<string, string | string[]>) {
	const body = new URLSearchParams()
	for (const [key, value] of Object.entries(form)) for (const item of [value].flat()) body.append(key, item)
	const response = await request.post(url, { headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, data: body.toString() })
	expect(response.status(), `${url}: ${response.status()}`).toBeLessThan(400)
	return response
}

let counter = 0

/** Starts, fills, uploads and submits a case; `request` must carry a staff session. */
export async function submitCaseAsStaff(request: APIRequestContext, options: { name?: string; mobile?: string } = {}): Promise<SubmittedCase> {
	const name = options.name ?? 'عبدالله محمد سعد القحطاني'
	const nationalId = randomNationalId()
	const mobile = options.mobile ?? `05${String(Date.now() % 1e7).padStart(7, '0')}${counter++ % 10}`
	const started = await post(request, '/apply/needy-families/new?paper=1', { ...basicAnswers(nationalId, mobile), Full_Name: name })
	const token = /\/apply\/r\/([A-Za-z0-9_-]{43})/.exec(started.url())?.[1]
	expect(token, 'the private link after the first step').toBeTruthy()
	const base = `/apply/r/${token}`
	await post(request, `${base}/bank`, { Bank_Name_1: 'alrajhi', Bank_No_1: validIban })
	await post(request, `${base}/financial`, { Net_Income: '2500' })
	await post(request, `${base}/family`, { intent: 'add-row', FamilyName: 'نورة', RelationShip: 'wife', Age: '38' })
	await post(request, `${base}/family`, { intent: 'next' })
	await post(request, `${base}/referrers`, {
		'persons[0].Name': 'الشيخ فهد العتيبي',
		'persons[0].NationalAddress': 'RRSA2345',
		'persons[0].RelatedPerson': 'tribe_sheikh',
		'persons[1].Name': 'إمام مسجد الحي',
		'persons[1].NationalAddress': 'RRSB1234',
		'persons[1].RelatedPerson': 'mosque_imam',
		'persons[2].Name': 'جار الأسرة',
		'persons[2].NationalAddress': 'RRSC9876',
		'persons[2].RelatedPerson': 'other',
	})
	await post(request, `${base}/services`, { services: ['food_basket'] })
	for (const [slot, fileName] of [
		['identity', 'هوية-المتقدم.pdf'],
		['family_report', 'سجل-الأسرة.pdf'],
	]) {
		const response = await request.post(`${base}/files/upload`, {
			multipart: { slot: slot!, file: { name: fileName!, mimeType: 'application/pdf', buffer: Buffer.from(minimalPdf()) } },
		})
		expect(response.status()).toBeLessThan(400)
	}
	await post(request, `${base}/files`, { PatientMassage: 'نرجو النظر في حالتنا.' })
	const done = await post(request, `${base}/check`, { acknowledge: 'on' })
	expect(done.url()).toContain('/done')
	// The reference as the page shows it: in its body, not in the stylesheet the page carries.
	const html = await (await request.get(base)).text()
	const body = html.slice(html.indexOf('<body'))
	const reference = /[A-HJ-NP-Y2-9]{4}-[A-HJ-NP-Y2-9]{4}/.exec(body)?.[0]
	expect(reference).toBeTruthy()
	return { reference: reference!, token: token!, name, nationalId, mobile }
}
