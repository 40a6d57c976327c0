// Steps of an application as an applicant takes them, shared by the application journeys.
import { expect, type Page } from '@playwright/test'
import { expectNoAxeViolations } from './utils.ts'

export async function expectErrors(page: Page, ...messages: string[]) {
	const summary = page.getByRole('alert').filter({ hasText: 'يوجد خطأ في البيانات المدخلة' })
	await expect(summary).toBeVisible()
	for (const message of messages) await expect(summary).toContainText(message)
	await expect(page).toHaveTitle(/^خطأ: /)
}

export const next = (page: Page) => page.getByRole('button', { name: 'حفظ ومتابعة' }).click()
export const onStep = (page: Page, title: string) => expect(page.getByRole('heading', { level: 1 })).toHaveText(title)

export async function fillBasic(page: Page, nationalId: string) {
	await page.getByLabel('الاسم الرباعي').fill('عبدالله محمد سعد القحطاني')
	await page.getByLabel('رقم الهوية أو الإقامة').fill(nationalId)
	await page.getByLabel('رقم الجوال', { exact: true }).fill('0551234567')
	await page.getByLabel('المدينة').fill('الرياض')
}

export async function fillReferrer(page: Page, index: number, name: string, type: string) {
	const person = page.getByRole('group', { name: `المعرّف ${index}` })
	await person.getByLabel('الاسم').fill(name)
	await person.getByLabel('العنوان الوطني').fill(`RRSA${1000 + index}`)
	await person.getByLabel('صفة المعرّف').selectOption({ label: type })
}

/**
 * The consent step before the bank (and health) sections (docs/product.md#privacy-and-consent):
 * the applicant agrees, and those sections follow, or declines, and they are skipped.
 */
export async function answerConsent(page: Page, answer: 'given' | 'declined' = 'given') {
	await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^الموافقة على /)
	await page.getByRole('button', answer === 'given' ? { name: 'أوافق', exact: true } : { name: 'لا أوافق، وأكمل دون هذه البيانات' }).click()
}

/** The status lookup by national ID and mobile, as an applicant does it. */
export async function lookUp(page: Page, nationalId: string, mobile = '0551234567') {
	await page.goto('/apply/status')
	await page.getByLabel('رقم الهوية أو رقم الترخيص').fill(nationalId)
	await page.getByLabel('رقم الجوال').fill(mobile)
	await page.getByRole('button', { name: 'استعلام' }).click()
}

/**
 * From a programme's page through the three steps every individual programme shares (the
 * person, the bank, the income), to the fourth step.
 */
export async function startWithSharedSteps(page: Page, type: string, options: { nationalId: string; netIncome: string; firstStepLabel: string }) {
	const { nationalId, netIncome, firstStepLabel } = options
	await page.goto(`/apply/${type}`)
	await expectNoAxeViolations(page)
	await page.getByRole('link', { name: 'ابدأ الطلب' }).click()
	await onStep(page, 'البيانات الأساسية')
	await expect(page.getByText(firstStepLabel)).toBeVisible()
	await fillBasic(page, nationalId)
	await next(page)
	await page.getByRole('link', { name: 'متابعة الطلب' }).click()
	await answerConsent(page)
	await onStep(page, 'البيانات البنكية')
	// The IBAN is at Al Rajhi (bank code 80): the bank chosen beside it must be that bank.
	await page.getByLabel('البنك', { exact: true }).selectOption({ label: 'مصرف الراجحي' })
	await page.getByLabel('رقم الحساب (الآيبان)').fill('SA0380000000608010167519')
	await next(page)
	await onStep(page, 'الوضع المالي')
	await page.getByLabel(/صافي دخل الأسرة الشهري/).fill(netIncome)
	await next(page)
}
