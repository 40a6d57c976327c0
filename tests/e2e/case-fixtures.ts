// Cases made over HTTP by a signed-in staff member: a needy-families case (paper intake), and an
// institution's registration, which opens the institution's own account. The case-management and
// security journeys start from them without driving the form pages each time.
import { expect, type APIRequestContext, type Page } from '@playwright/test'
import { minimalPdf } from '#tests/fixtures/pdf.ts'
import { basicAnswers, randomNationalId, validIban, studyForm } from '#tests/fixtures/needy-families.ts'
import { unique } from './utils.ts'

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

/** The reference as a page shows it (a private link's, say): in its body, not in the stylesheet the page carries. */
export async function referenceOn(request: APIRequestContext, path: string): Promise<string> {
	const html = await (await request.get(path)).text()
	const reference = /[A-HJ-NP-Y2-9]{4}-[A-HJ-NP-Y2-9]{4}/.exec(html.slice(html.indexOf('<body')))?.[0]
	expect(reference, `the reference on ${path}`).toBeTruthy()
	return reference!
}

const pdfPart = (name: string) => ({ name, mimeType: 'application/pdf', buffer: Buffer.from(minimalPdf()) })

async function upload(request: APIRequestContext, token: string, slot: string, fileName: string) {
	const response = await request.post(`/apply/r/${token}/files/upload`, { multipart: { slot, file: pdfPart(fileName) } })
	expect(response.status(), `upload to ${slot}`).toBeLessThan(400)
}

/**
 * Starts, fills, uploads and submits a case; `request` must carry a staff session. With
 * `submit: false` the case is complete but not sent: a draft whose check page would send it.
 * `consent`: the answer on the consent step (default «أوافق»); `basic`: more answers of the first step;
 * `beforeSubmit`: more done with the private link before it is sent.
 */
export async function submitCaseAsStaff(
	request: APIRequestContext,
	options: { name?: string; nationalId?: string; mobile?: string; email?: string; city?: string; submit?: boolean; consent?: 'given' | 'declined'; basic?: Record<string, string>; beforeSubmit?: (token: string) => Promise<void> } = {},
): Promise<SubmittedCase> {
	const name = options.name ?? 'عبدالله محمد سعد القحطاني'
	const nationalId = options.nationalId ?? randomNationalId()
	const mobile = options.mobile ?? `05${String(Date.now() % 1e7).padStart(7, '0')}${counter++ % 10}`
	const started = await post(request, '/apply/needy-families/new?paper=1', { ...basicAnswers(nationalId, mobile), Full_Name: name, ...(options.email ? { Email: options.email } : {}), ...(options.city ? { city: options.city } : {}), ...options.basic })
	const token = /\/apply\/r\/([A-Za-z0-9_-]{43})/.exec(started.url())?.[1]
	expect(token, 'the private link after the first step').toBeTruthy()
	const base = `/apply/r/${token}`
	// The applicant's answer on the consent step, before the bank details (docs/product.md#privacy-and-consent).
	await post(request, `${base}/consent`, { consent: options.consent ?? 'given' })
	// Declined: the bank step is not offered (the journey goes on to the income).
	if (options.consent !== 'declined') await post(request, `${base}/bank`, { Bank_Name_1: 'alrajhi', Bank_No_1: validIban })
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
	await upload(request, token!, 'identity', 'هوية-المتقدم.pdf')
	await upload(request, token!, 'family_report', 'سجل-الأسرة.pdf')
	await post(request, `${base}/files`, { PatientMassage: 'نرجو النظر في حالتنا.' })
	await options.beforeSubmit?.(token!)
	if (options.submit !== false) {
		const done = await post(request, `${base}/check`, { acknowledge: 'on' })
		expect(done.url()).toContain('/done')
	}
	return { reference: await referenceOn(request, `/apply/r/${token}`), token: token!, name, nationalId, mobile }
}

/** The ids of a case's files, from its page in the back office; `request` must carry a case officer's or an admin's session. */
export async function caseFileIds(request: APIRequestContext, reference: string): Promise<string[]> {
	const response = await request.get(`/admin/cases/${reference}`)
	expect(response.status(), `/admin/cases/${reference}`).toBe(200)
	const html = await response.text()
	return [...new Set([...html.matchAll(new RegExp(`/admin/cases/${reference}/files/([0-9a-f-]{36})`, 'g'))].map((match) => match[1]!))]
}

export interface RegisteredInstitution extends Omit<SubmittedCase, 'nationalId'> {
	userName: string
	email: string
	password: string
	/** The licence number it registered with. */
	permitNo: string
}

/**
 * An institution's registration, filled in and sent over HTTP, which opens its account (sign in
 * at /account/login with `userName` or `email` and `password`). `request` must carry a staff
 * session: staff are not held to the visitors' limits on new applications. `uploadOrder`: the
 * order its four documents are uploaded in (the form's own by default).
 */
export async function registerInstitutionAsStaff(request: APIRequestContext, options: { name?: string; uploadOrder?: readonly string[] } = {}): Promise<RegisteredInstitution> {
	const id = unique()
	const institution = {
		name: options.name ?? `جمعية البر الخيرية ${id}`,
		userName: `inst.${id}`,
		email: `inst-${id}@e2e.test`,
		password: `Strong-Pass-${id}`,
		mobile: `05${String(Date.now() % 1e7).padStart(7, '0')}${counter++ % 10}`,
		permitNo: `${Date.now()}${Math.floor(Math.random() * 1000)}`.slice(-16),
	}
	const started = await post(request, '/apply/institution-registration/new', {
		fullName: 'سارة عبدالرحمن العتيبي',
		userName: institution.userName,
		email: institution.email,
		phone: institution.mobile,
		password: institution.password,
		passwordConfirm: institution.password,
	})
	const token = /\/apply\/r\/([A-Za-z0-9_-]{43})/.exec(started.url())?.[1]
	expect(token, 'the private link after the first step').toBeTruthy()
	const base = `/apply/r/${token}`
	await post(request, `${base}/institution`, {
		name: institution.name,
		InstitutionType: '2',
		permitNo: institution.permitNo,
		createDate: '2015-03-01',
		address: 'الرياض، حي النخيل',
		CEOName: 'خالد سعد الدوسري',
		CEOPhone: '0559876543',
	})
	await post(request, `${base}/bank`, { nameAtBank: institution.name, bankName: 'alrajhi', accountNumber: '608010167519', iban: validIban })
	for (const slot of options.uploadOrder ?? ['authorization_letter', 'bank_certificate', 'institution_statement', 'ceo_appointment']) await upload(request, token!, slot, `${slot}.pdf`)
	await post(request, `${base}/documents`, {})
	const done = await post(request, `${base}/check`, { acknowledge: 'on' })
	expect(done.url()).toContain('/done')
	return { ...institution, reference: await referenceOn(request, `/apply/r/${token}`), token: token! }
}

/**
 * A support request started from a signed-in institution's account («طلب دعم جمعية جديد»): its
 * first step, as the account fills it in, saved. Returns the private link's path (/apply/r/<token>).
 */
export async function startAccountRequest(request: APIRequestContext, institution: RegisteredInstitution): Promise<string> {
	const response = await request.post('/apply/association-support/new', {
		form: {
			AssociationName: institution.name,
			LicenseNumber: institution.permitNo,
			AssemblySpecialty: 'social',
			DateOfEstablishment: '2015-03-01',
			Email: institution.email,
			RepresentativeName: 'سارة عبدالرحمن العتيبي',
			RepresentativeMobile: institution.mobile,
		},
		maxRedirects: 0,
	})
	expect(response.status(), 'a support request is started from the account').toBe(302)
	return response.headers()['location']!
}

/** Signs an institution in at /account/login on `request`, which then carries its session. */
export async function signInInstitution(request: APIRequestContext, institution: Pick<RegisteredInstitution, 'userName' | 'password'>) {
	const response = await request.post('/account/login', { form: { name: institution.userName, password: institution.password }, maxRedirects: 0 })
	expect(response.status(), 'the institution signs in').toBe(302)
	expect(response.headers()['location']).toBe('/account')
}

/** Records a study recommending support on a sent case, as a researcher's form posts it: «تمت الدراسة» needs one. */
export async function recordStudyAs(request: APIRequestContext, reference: string, overrides: Record<string, string> = {}) {
	await post(request, `/admin/cases/${reference}/study`, studyForm(overrides))
}

/** The researcher fills in the visit report on `page` (a staff member's), recommending support once; back on the case. */
export async function recordStudyInBrowser(page: Page, reference: string) {
	await page.goto(`/admin/cases/${reference}/study`)
	await page.getByLabel('من قابلتم').fill('الأم وابنها الأكبر')
	await page.getByLabel('خلاصة الدراسة').fill('أسرة تحتاج إلى دعم')
	await page.getByRole('radio', { name: 'دعم الحالة' }).check()
	await page.getByLabel('نوع المساعدة').selectOption({ label: 'دعم نقدي' })
	await page.getByLabel('المبلغ بالريال').fill('1500')
	await page.getByRole('radio', { name: 'مرة واحدة' }).check()
	await page.getByRole('button', { name: 'حفظ الدراسة' }).click()
	await expect(page.getByRole('status')).toContainText('تم تسجيل الدراسة')
}

/** A sent case, studied (eligible for zakat unless said) and moved to «تمت الدراسة» by `request`'s case officer. */
export async function studiedCaseAs(request: APIRequestContext, options: { zakat?: boolean; name?: string } = {}): Promise<SubmittedCase> {
	const made = await submitCaseAsStaff(request, { name: options.name ?? `فاطمة ${unique()}` })
	if (options.zakat === false) {
		const { zakatCategory: _category, zakatReason: _reason, ...notEligible } = studyForm()
		expect((await request.post(`/admin/cases/${made.reference}/study`, { form: notEligible, maxRedirects: 0 })).status()).toBe(302)
	} else await recordStudyAs(request, made.reference)
	expect((await request.post(`/admin/cases/${made.reference}`, { form: { intent: 'status', to: '2', note: 'زار الباحث الأسرة' }, maxRedirects: 0 })).status()).toBe(302)
	return made
}
