// A needy-families application from the programme's page to «تم إرسال طلبك», as a family sends it:
// every step as the pages come (the consent step included), a family member and two PDFs whose pages
// carry markers of the test's own. The log test (operations/logs.spec.ts) searches the server's log
// for these values; the cluster test (cluster/cluster.spec.ts) sends it through a load balancer.
import { randomBytes } from 'node:crypto'
import type { Page } from '@playwright/test'
import { markedPdf } from '#tests/fixtures/marked-pdf.ts'
import { nationalIdWithCheckDigit, saudiIbanFromBban } from '#app/domain/validators.ts'
import { fillReferrer, next } from './apply-steps.ts'
import { expect } from './utils.ts'

export interface Planted {
	name: string
	nationalId: string
	iban: string
	mobile: string
	email: string
	identityMarker: string
	familyMarker: string
}

/**
 * A needy-families application from the programme's page to «تم إرسال طلبك», step by step as the
 * pages come (the consent step included); returns the private link's token and the reference.
 * `attach` gives the attachments step its files; by default a PDF each to the identity and the
 * family record.
 */
export async function applyForNeedyFamilies(page: Page, planted: Planted, options: { attach?: (page: Page) => Promise<void> } = {}): Promise<{ token: string; reference: string }> {
	await page.goto('/apply/needy-families')
	await page.getByRole('link', { name: 'ابدأ الطلب' }).click()
	let token = ''
	let reference = ''
	const heading = page.getByRole('heading', { level: 1 })
	await expect(heading).toHaveText('البيانات الأساسية')
	for (let pages = 0; pages < 20; pages++) {
		await page.waitForLoadState('domcontentloaded')
		// Its path: adding a family member or a file comes back to the same step with a query of its own.
		const address = new URL(page.url()).pathname
		const title = (await heading.textContent())?.trim() ?? ''
		// The step asking for consent to health and bank data (docs/product.md#privacy-and-consent).
		const consent = page.locator('button[name="consent"][value="given"]')
		if (await consent.count()) {
			await consent.click()
		} else if (title === 'البيانات الأساسية') {
			await page.getByLabel('الاسم الرباعي').fill(planted.name)
			await page.getByLabel('رقم الهوية أو الإقامة').fill(planted.nationalId)
			await page.getByLabel('رقم الجوال', { exact: true }).fill(planted.mobile)
			await page.getByLabel('البريد الإلكتروني (اختياري)').fill(planted.email)
			await page.getByLabel('المدينة').fill('الرياض')
			await next(page)
			// The case exists: its private link is shown once.
			await expect(page.getByRole('status')).toContainText('تم حفظ بياناتك وإنشاء طلبك')
			const privateUrl = (await page.getByText(/\/apply\/r\//).textContent())!.trim()
			token = privateUrl.split('/apply/r/')[1]!.split(/[/?#]/)[0]!
			reference = (await page.locator('strong[dir="ltr"]').textContent())!.trim()
			const created = new URL(page.url()).pathname
			await page.getByRole('link', { name: 'متابعة الطلب' }).click()
			await page.waitForURL((url) => url.pathname !== created)
			await expect(heading).not.toHaveText(title)
			continue
		} else if (title === 'البيانات البنكية') {
			// The IBAN is at Al Rajhi (bank code 80): the bank chosen beside it must be that bank.
			await page.getByLabel('البنك', { exact: true }).selectOption({ label: 'مصرف الراجحي' })
			await page.getByLabel('رقم الحساب (الآيبان)').fill(planted.iban)
			await next(page)
		} else if (title === 'الوضع المالي') {
			await page.getByLabel(/صافي دخل الأسرة الشهري/).fill('2500')
			await next(page)
		} else if (title === 'أفراد الأسرة') {
			await page.getByLabel('الاسم').fill('نورة')
			await page.getByLabel('صلة القرابة').selectOption({ label: 'زوجة' })
			await page.getByRole('button', { name: 'إضافة', exact: true }).click()
			await expect(page.getByText('أفراد الأسرة (1)')).toBeVisible()
			await next(page)
		} else if (title === 'بيانات المعرّفين') {
			await fillReferrer(page, 1, 'الشيخ فهد العتيبي', 'شيخ القبيلة')
			await fillReferrer(page, 2, 'صديق العائلة', 'أخرى')
			await fillReferrer(page, 3, 'قريب', 'أخرى')
			await next(page)
		} else if (title === 'الخدمات المطلوبة') {
			await page.getByLabel('سلة غذائية').check()
			await next(page)
		} else if (title === 'المرفقات ورسالة المستفيد' && options.attach) {
			await options.attach(page)
			await next(page)
		} else if (title === 'المرفقات ورسالة المستفيد') {
			for (const [slot, name, marker] of [
				[/صورة الهوية أو الإقامة/, 'هوية.pdf', planted.identityMarker],
				[/سجل الأسرة/, 'سجل.pdf', planted.familyMarker],
			] as const) {
				const region = page.getByRole('region', { name: slot })
				await region.getByLabel(/اختر ملف PDF/).setInputFiles({ name, mimeType: 'application/pdf', buffer: markedPdf(marker) })
				await region.getByRole('button', { name: 'رفع الملف' }).click()
				await expect(region.getByRole('listitem').filter({ hasText: name })).toBeVisible()
			}
			await next(page)
		} else if (title === 'راجع بياناتك قبل الإرسال') {
			await page.getByLabel(/أقر بأن جميع البيانات/).check()
			await page.getByRole('button', { name: 'إرسال الطلب' }).click()
		} else if (title === 'تم إرسال طلبك') {
			expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
			return { token, reference }
		} else if (await page.getByRole('link', { name: 'متابعة الطلب' }).count()) {
			// The private link's own page (its steps and where they stand): on to the next step.
			await page.getByRole('link', { name: 'متابعة الطلب' }).click()
		} else {
			throw new Error(`an application page this test does not know: «${title}» at ${page.url()}`)
		}
		// The next page, not this one again (a refused step would stay and fail here). The pages hydrate:
		// the address changes as the next page's data arrives, its heading once it is drawn.
		await page.waitForURL((url) => url.pathname !== address)
		await expect(heading).not.toHaveText(title)
	}
	throw new Error('the application did not end in 20 pages')
}

/** An applicant whose every value is new: a valid national ID and IBAN, a mobile, an e-mail, two file markers. */
export function plantedApplicant(id: string): Planted {
	const digits = String(Date.now() % 1e8).padStart(8, '0')
	return {
		name: `عبدالله محمد سعد آل${id}`,
		nationalId: nationalIdWithCheckDigit(`1${digits}`),
		iban: saudiIbanFromBban(`80${digits}${String(Math.floor(Math.random() * 1e10)).padStart(10, '0')}`),
		mobile: `05${digits}`,
		email: `family-${id}@example.org`,
		identityMarker: `IDENTITY-MARKER-${randomBytes(12).toString('hex')}`,
		familyMarker: `FAMILY-MARKER-${randomBytes(12).toString('hex')}`,
	}
}
