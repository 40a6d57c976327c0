// Steps of an application as an applicant takes them, shared by the application journeys.
import { expect, type Page } from '@playwright/test'

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
