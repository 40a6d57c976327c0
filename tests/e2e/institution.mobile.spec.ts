import type { Page } from '@playwright/test'
import { minimalPdf } from '#tests/fixtures/pdf.ts'
import { randomNationalId } from '#tests/fixtures/needy-families.ts'
import { expect, expectNoAxeViolations, test, unique } from './utils.ts'
import { expectErrors, next, onStep, startWithSharedSteps } from './apply-steps.ts'
import { INSTITUTION_USER_NAME_MESSAGE } from '#app/forms/definitions/institution-registration.ts'

const pdf = (name: string) => ({ name, mimeType: 'application/pdf', buffer: Buffer.from(minimalPdf()) })
const fakePdf = { name: 'fake.pdf', mimeType: 'application/pdf', buffer: Buffer.from('only text, dressed as a PDF') }
const documents = ['خطاب التفويض', 'شهادة الحساب البنكي', 'بيان المؤسسة', 'قرار تعيين المدير التنفيذي']
const TAKEN = 'اسم المستخدم هذا لحساب مؤسسة أخرى. اختر اسماً غيره.'

interface Institution {
	userName: string
	email: string
	password: string
	name: string
	permitNo: string
}

/** A new institution with a user name, an e-mail and a permit number no other test or run uses. */
function newInstitution(): Institution {
	const id = unique()
	return {
		userName: `inst.${id}`,
		email: `inst-${id}@e2e.test`,
		password: `Strong-Pass-${id.slice(-4)}9Z`,
		name: `جمعية البر الخيرية ${id}`,
		permitNo: `${Date.now()}${Math.floor(Math.random() * 1000)}`.slice(-16),
	}
}

const errorSummary = (page: Page) => page.getByRole('alert').filter({ hasText: 'يوجد خطأ في البيانات المدخلة' })

async function fillUser(page: Page, institution: Institution, password = institution.password, confirm = password) {
	await page.getByLabel('الاسم الكامل').fill('سارة عبدالرحمن العتيبي')
	await page.getByLabel('اسم المستخدم').fill(institution.userName)
	await page.getByLabel('البريد الإلكتروني').fill(institution.email)
	await page.getByLabel('رقم الجوال').fill('0551234567')
	await page.getByLabel('كلمة المرور', { exact: true }).fill(password)
	await page.getByLabel('تأكيد كلمة المرور').fill(confirm)
}

async function fillInstitution(page: Page, institution: Institution) {
	await page.getByLabel('اسم المؤسسة').fill(institution.name)
	await page.getByLabel('نوع المؤسسة').selectOption({ label: 'كفالة' })
	await page.getByLabel('رقم التصريح').fill(institution.permitNo)
	await page.getByLabel('تاريخ الإنشاء').fill('2015-03-01')
	await page.getByLabel('العنوان').fill('الرياض، حي النخيل')
	await page.getByLabel('اسم المدير التنفيذي').fill('خالد سعد الدوسري')
	await page.getByLabel('جوال المدير التنفيذي').fill('0559876543')
}

async function fillBank(page: Page, institution: Institution) {
	await page.getByLabel('الاسم في البنك').fill(institution.name)
	await page.getByLabel('البنك', { exact: true }).selectOption({ index: 1 })
	await page.getByLabel('رقم الحساب', { exact: true }).fill('608010167519')
	await page.getByLabel('الآيبان').fill('SA0380000000608010167519')
}

const slotRegion = (page: Page, slot: string) => page.getByRole('region', { name: new RegExp(slot) })

async function upload(page: Page, slot: string, file: { name: string; mimeType: string; buffer: Buffer }) {
	const region = slotRegion(page, slot)
	await region.getByLabel(/اختر ملف PDF/).setInputFiles(file)
	await region.getByRole('button', { name: 'رفع الملف' }).click()
}

async function uploadDocuments(page: Page) {
	for (const slot of documents) {
		await upload(page, slot, pdf(`${slot}.pdf`))
		const region = slotRegion(page, slot)
		await expect(region.getByRole('listitem').filter({ hasText: `${slot}.pdf` })).toBeVisible()
	}
}

/** The reference shown on the private link's page. */
async function referenceOn(page: Page): Promise<string> {
	const reference = (await page.locator('strong[dir="ltr"]').textContent())!.trim()
	expect(reference).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/)
	return reference
}

async function signInInstitution(page: Page, name: string, password: string) {
	await page.goto('/account/login')
	await page.getByLabel('اسم المستخدم أو البريد الإلكتروني').fill(name)
	await page.getByLabel('كلمة المرور').fill(password)
	await page.getByRole('button', { name: 'تسجيل الدخول' }).click()
}

/** A whole registration without detours, from a step 1 already filled and valid; returns its reference. */
async function finishRegistration(page: Page, institution: Institution): Promise<string> {
	await next(page)
	const reference = await referenceOn(page)
	await page.getByRole('link', { name: 'متابعة الطلب' }).click()
	await onStep(page, 'بيانات المؤسسة')
	await fillInstitution(page, institution)
	await next(page)
	await onStep(page, 'البيانات البنكية')
	await fillBank(page, institution)
	await next(page)
	await onStep(page, 'المستندات')
	await uploadDocuments(page)
	await next(page)
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('راجع بياناتك قبل الإرسال')
	await page.getByLabel(/أقر بصفتي مفوَّضاً من المؤسسة/).check()
	await page.getByRole('button', { name: 'إرسال الطلب' }).click()
	await expect(page).toHaveURL(/\/done$/)
	return reference
}

test('an institution registers on a phone, signs in to its account, starts a request; its user name and cases stay its own', async ({ page, pageAs }) => {
	// Two registrations (four steps and four uploads each), two accounts: a long journey.
	test.setTimeout(180_000)
	const first = newInstitution()

	await page.goto('/apply/institution-registration')
	await expectNoAxeViolations(page)
	await page.getByRole('link', { name: 'ابدأ الطلب' }).click()

	// every required field is named once in the summary.
	await onStep(page, 'بيانات مستخدم المؤسسة')
	await expectNoAxeViolations(page)
	await next(page)
	const required = ['الرجاء كتابة الاسم الكامل', 'الرجاء كتابة اسم المستخدم', 'الرجاء كتابة البريد الإلكتروني', 'الرجاء كتابة رقم الجوال', 'الرجاء كتابة كلمة المرور']
	await expectErrors(page, ...required)
	for (const message of required) await expect(errorSummary(page).getByRole('link', { name: message, exact: true })).toHaveCount(1)
	await expectNoAxeViolations(page)

	// The password's rules, one at a time.
	await fillUser(page, first, 'Short1a')
	await next(page)
	await expectErrors(page, 'كلمة المرور يجب ألا تقل عن 12 حرفاً')
	// Long enough but on the list of leaked passwords: the server refuses it.
	await fillUser(page, first, 'qwerty123456')
	await next(page)
	await expectErrors(page, 'كلمة المرور هذه شائعة أو مسرّبة ويسهل تخمينها. اختر عبارة أطول من كلمات لا يجمعها غيرك.')
	await fillUser(page, first, first.password, `${first.password}x`)
	await next(page)
	await expectErrors(page, 'كلمتا المرور غير متطابقتين')
	await expect(errorSummary(page)).not.toContainText('يجب ألا تقل')

	// A user name in Arabic letters is refused by the step's own rule.
	await fillUser(page, { ...first, userName: 'جمعية_البر' })
	await next(page)
	await expectErrors(page, INSTITUTION_USER_NAME_MESSAGE)
	await expect(errorSummary(page)).not.toContainText('كلمتا المرور')
	// Too short: two letters (docs/product.md: 3 to 40).
	await fillUser(page, { ...first, userName: 'ab' })
	await next(page)
	await expectErrors(page, INSTITUTION_USER_NAME_MESSAGE)

	await fillUser(page, first)
	await next(page)
	const firstReference = await referenceOn(page)
	await expectNoAxeViolations(page)
	await page.getByRole('link', { name: 'متابعة الطلب' }).click()

	// the institution.
	await onStep(page, 'بيانات المؤسسة')
	await expect(page.getByLabel('نوع المؤسسة')).toHaveValue('1')
	await fillInstitution(page, first)
	await expectNoAxeViolations(page)
	await next(page)

	// back to R-2 keeps what was saved there.
	await onStep(page, 'البيانات البنكية')
	await expectNoAxeViolations(page)
	await page.getByRole('link', { name: 'رجوع' }).click()
	await onStep(page, 'بيانات المؤسسة')
	await expect(page.getByLabel('اسم المؤسسة')).toHaveValue(first.name)
	await expect(page.getByLabel('نوع المؤسسة')).toHaveValue('2')
	await expect(page.getByLabel('رقم التصريح')).toHaveValue(first.permitNo)
	await expect(page.getByLabel('تاريخ الإنشاء')).toHaveValue('2015-03-01')

	// R-1 again: the password is never filled back in, and left blank it is kept.
	await page.getByRole('link', { name: 'رجوع' }).click()
	await onStep(page, 'بيانات مستخدم المؤسسة')
	await expect(page.getByLabel('اسم المستخدم')).toHaveValue(first.userName)
	await expect(page.getByLabel('كلمة المرور', { exact: true })).toHaveValue('')
	await expect(page.getByLabel('تأكيد كلمة المرور')).toHaveValue('')
	expect(await page.content()).not.toContain(first.password)
	await next(page)
	await onStep(page, 'بيانات المؤسسة')
	await next(page)

	await onStep(page, 'البيانات البنكية')
	await fillBank(page, first)
	await next(page)

	// four PDFs, all required; a text file named .pdf is refused.
	await onStep(page, 'المستندات')
	await next(page)
	await expectErrors(page, ...documents.map((slot) => `الرجاء إرفاق ${slot}`))
	await expectNoAxeViolations(page)
	await upload(page, documents[0]!, fakePdf)
	await expect(slotRegion(page, documents[0]!).getByRole('alert')).toHaveText(/الملف ليس صورة ولا PDF/)
	await uploadDocuments(page)
	await expectNoAxeViolations(page)
	await next(page)

	// The check page shows the user, never the password (nor its hash).
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('راجع بياناتك قبل الإرسال')
	await expect(page.locator('main')).toContainText(first.userName)
	await expect(page.locator('main')).toContainText(first.name)
	await expect(page.locator('main')).toContainText('كفالة')
	const checkHtml = await page.content()
	expect(checkHtml).not.toContain(first.password)
	expect(checkHtml).not.toContain('scrypt$')
	await expectNoAxeViolations(page)
	await page.getByLabel(/أقر بصفتي مفوَّضاً من المؤسسة/).check()
	await page.getByRole('button', { name: 'إرسال الطلب' }).click()
	await expect(page).toHaveURL(/\/done$/)
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('تم إرسال طلبك')
	await expect(page.locator('main')).toContainText(firstReference)
	await expectNoAxeViolations(page)

	// Sign-in: a wrong password first, then the right one.
	await signInInstitution(page, first.userName, `${first.password}-wrong`)
	await expectErrors(page, 'الرجاء التحقق من بيانات الدخول')
	await expectNoAxeViolations(page)
	await signInInstitution(page, first.userName, first.password)
	await expect(page).toHaveURL(/\/account$/)
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('حساب المؤسسة')
	await expect(page.locator('main')).toContainText(first.name)
	const registration = page.getByRole('region', { name: 'تسجيل المؤسسة' })
	await expect(registration).toContainText(firstReference)
	await expect(registration).toContainText('جديد')
	await expectNoAxeViolations(page)

	// The institution's session is not a staff session.
	await page.goto('/admin')
	await expect(page).toHaveURL(/\/login\?redirectTo=%2Fadmin$/)
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('دخول الموظفين')
	await expectNoAxeViolations(page)

	// A support request starts from the account: its first step, filled in from the registration;
	// nothing is stored until that step is saved, then it has its own private link.
	await page.goto('/account')
	await page.getByRole('link', { name: 'طلب دعم جمعية جديد' }).click()
	await expect(page).toHaveURL(/\/apply\/association-support\/new$/)
	await expect(page.getByLabel('اسم الجمعية')).toHaveValue(first.name)
	await page.goto('/account')
	await expect(page.getByRole('region', { name: 'طلبات دعم الجمعيات' })).toContainText('لم تقدم مؤسستك أي طلب دعم بعد.')
	await page.getByRole('link', { name: 'طلب دعم جمعية جديد' }).click()
	await page.getByLabel('تخصص الجمعية').selectOption({ index: 1 })
	await next(page)
	await expect(page).toHaveURL(/\/apply\/r\/[\w-]+$/)
	await expect(page.getByRole('status')).toContainText('تم حفظ بياناتك وإنشاء طلبك')
	const supportReference = await referenceOn(page)
	const supportLink = page.url()
	await expectNoAxeViolations(page)
	await page.goto('/account')
	const requests = page.getByRole('region', { name: 'طلبات دعم الجمعيات' })
	await expect(requests).toContainText(supportReference)

	// An unsent draft can be deleted from the account, once confirmed; its link stops working.
	await requests.getByText(`حذف الطلب ${supportReference}`).first().click()
	await page.getByLabel(`أؤكد حذف الطلب ${supportReference}`).check()
	await expectNoAxeViolations(page)
	await requests.getByRole('button', { name: `حذف الطلب ${supportReference}` }).click()
	await expect(page.getByRole('status').filter({ hasText: 'تم حذف الطلب' })).toContainText(supportReference)
	// The notice names the deleted request; the list no longer holds it.
	await expect(requests).toContainText('لم تقدم مؤسستك أي طلب دعم بعد.')
	await expect(requests.getByRole('listitem')).toHaveCount(0)
	expect((await page.request.get(supportLink)).status()).toBe(404)

	// Signing out ends the session.
	await page.getByRole('button', { name: 'تسجيل الخروج' }).click()
	await expect(page).toHaveURL(/\/account\/login$/)
	await page.goto('/account')
	await expect(page).toHaveURL(/\/account\/login\?redirectTo=%2Faccount$/)

	// A second registration may not take the first one's user name.
	const second = newInstitution()
	const other = await pageAs('visitor')
	await other.goto('/apply/institution-registration/new')
	await onStep(other, 'بيانات مستخدم المؤسسة')
	await fillUser(other, { ...second, userName: first.userName })
	await next(other)
	await expectErrors(other, TAKEN)
	await expectNoAxeViolations(other)
	await fillUser(other, second)
	const secondReference = await finishRegistration(other, second)

	// Signed in, the second institution opens its own registration but none of the first one's cases.
	await signInInstitution(other, second.email, second.password)
	await expect(other).toHaveURL(/\/account$/)
	await expect(other.getByRole('region', { name: 'تسجيل المؤسسة' })).toContainText(secondReference)
	await expect(other.locator('main')).not.toContainText(firstReference)
	const own = await other.request.get(`/account/cases/${secondReference}`, { maxRedirects: 0 })
	expect(own.status()).toBe(302)
	expect(own.headers()['location']).toMatch(/^\/apply\/r\//)
	for (const reference of [firstReference, supportReference]) {
		const refused = await other.request.get(`/account/cases/${reference}`, { maxRedirects: 0 })
		expect(refused.status(), `/account/cases/${reference}`).toBe(404)
	}
})

test('conditional fields: the other device only with «أخرى», the age only without a birth date', async ({ page }) => {
	test.setTimeout(90_000)
	await startWithSharedSteps(page, 'medical-case', { nationalId: randomNationalId(), netIncome: '3200', firstStepLabel: 'طلب دعم حالة مرضية — الخطوة 1 من 11' })
	await onStep(page, 'أفراد الأسرة')
	await page.getByLabel('الاسم').fill('والدة المريض')
	await page.getByRole('button', { name: 'إضافة', exact: true }).click()
	await expect(page.getByText('أفراد الأسرة (1)')).toBeVisible()
	await next(page)
	await onStep(page, 'الحالة الصحية للمريض')
	await page.getByLabel('نوع المرض').fill('شلل نصفي')
	await next(page)

	// 4-6: the device is asked only when «أخرى» is chosen.
	await onStep(page, 'احتياجات المريض')
	const devices = page.getByLabel('الأجهزة المساعدة')
	const otherDevice = page.getByLabel('الجهاز المساعد الذي يحتاجه')
	await expect(otherDevice).toBeHidden()
	await expectNoAxeViolations(page)
	await page.getByLabel('الاحتياجات التعليمية').selectOption({ label: 'لا يوجد' })
	await page.getByLabel('المواعيد خارج المدينة').selectOption({ label: 'نقل فقط' })
	await devices.selectOption({ label: 'أخرى' })
	await expect(otherDevice).toBeVisible()
	await next(page)
	await expectErrors(page, 'الرجاء كتابة الجهاز المساعد الذي يحتاجه')
	await expectNoAxeViolations(page)
	await devices.selectOption({ label: 'كرسي متحرك' })
	await expect(otherDevice).toBeHidden()
	await next(page)
	await onStep(page, 'ظروف المريض الأخرى')

	// 1-1 of an individual programme: the age is asked only while the birth date is empty.
	await page.goto('/apply/needy-families/new')
	await onStep(page, 'البيانات الأساسية')
	const birthDate = page.getByLabel('تاريخ الميلاد')
	const age = page.getByLabel('العمر بالسنوات')
	await expect(birthDate).toHaveValue('')
	await expect(age).toBeVisible()
	await expectNoAxeViolations(page)
	// Typed before the page's script has run, a date would not hide the age yet: type it again until it does.
	await expect(async () => {
		await birthDate.fill('')
		await birthDate.fill('1985-04-12')
		await expect(age).toBeHidden({ timeout: 1_000 })
	}).toPass()
	await birthDate.fill('')
	await expect(age).toBeVisible()
})
