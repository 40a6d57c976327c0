import type { Locator, Page } from '@playwright/test'
import { expect, test } from './utils.ts'
import { submitCaseAsStaff } from './case-fixtures.ts'
import { next, onStep } from './apply-steps.ts'
import { randomNationalId } from '#tests/fixtures/needy-families.ts'
import { formatDate, formatGregorian, formatHijri, todayInRiyadh } from '#app/text/format.ts'

const spaced = (text: string) => text.replace(/\u00a0/g, ' ')

// Dates as a Saudi reader expects them (docs/product.md#dates): day, month name, year, the
// Gregorian first and the Umm al-Qura date beside it; each calendar's date on one line, even at
// 375 px; a birth date typed in Hijri as on the ID card, without JavaScript.

const phone = { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true }

/** Each of `dates` is shown in `element`, every one on a single line (a line may break only between them). */
async function expectWhole(element: Locator, dates: string[]) {
	const lines = await element.evaluate((node, wanted) => {
		const text = node.textContent ?? ''
		const spaced = text.replace(/\u00a0/g, ' ')
		return wanted.map((date) => {
			const at = spaced.indexOf(date)
			if (at < 0) return { date, found: false, tops: [] as number[] }
			// The offsets in the text nodes under the element.
			const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT)
			const range = document.createRange()
			let seen = 0
			for (let current = walker.nextNode(); current; current = walker.nextNode()) {
				const length = current.textContent!.length
				if (seen <= at && at < seen + length) range.setStart(current, at - seen)
				if (seen < at + date.length && at + date.length <= seen + length) range.setEnd(current, at + date.length - seen)
				seen += length
			}
			return { date, found: true, tops: [...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)) }
		})
	}, dates)
	for (const { date, found, tops } of lines) {
		expect(found, `«${date}» in «${await element.textContent()}»`).toBe(true)
		expect(Math.max(...tops) - Math.min(...tops), `«${date}» on one line`).toBeLessThan(4)
	}
}

test('an applicant types a birth date in Hijri without JavaScript, is told when that day is not in Umm al-Qura, and sees it in both calendars', async ({ pageAs }) => {
	const page = await pageAs('visitor', { ...phone, javaScriptEnabled: false })
	await page.goto('/apply/needy-families/new')
	await onStep(page, 'البيانات الأساسية')
	await page.getByLabel('الاسم الرباعي').fill('عبدالله محمد سعد القحطاني')
	await page.getByLabel('رقم الهوية أو الإقامة').fill(randomNationalId())
	await page.getByLabel('رقم الجوال', { exact: true }).fill('0551234567')
	const calendar = page.getByRole('group', { name: 'تقويم تاريخ الميلاد' })
	// Hijri first, as on the national ID card.
	await expect(calendar.getByLabel('هجري')).toBeChecked()
	// Sha'ban 1447 had 29 days in Umm al-Qura: its 30th is refused, and what was typed stays.
	await page.getByLabel('تاريخ الميلاد').fill('30/08/1447')
	await next(page)
	await expect(page.getByRole('alert').filter({ hasText: 'يوجد خطأ' })).toContainText('لا يوجد يوم 30 في شهر شعبان 1447هـ بتقويم أم القرى: الشهر 29 يوماً')
	await expect(page.getByLabel('تاريخ الميلاد')).toHaveValue('30/08/1447')
	await expect(page.getByLabel('الاسم الرباعي')).toHaveValue('عبدالله محمد سعد القحطاني')
	await page.getByLabel('تاريخ الميلاد').fill('22/06/1405')
	await next(page)
	await expect(page.getByText('تم حفظ بياناتك وإنشاء طلبك.')).toBeVisible()
	const step = `/apply/r/${/\/apply\/r\/([\w-]+)/.exec(page.url())![1]}/basic`

	// Back on the step: the date as typed, in Hijri, and under it in both calendars.
	await page.goto(step)
	await onStep(page, 'البيانات الأساسية')
	await expect(page.getByLabel('تاريخ الميلاد')).toHaveValue('22/06/1405')
	await expect(calendar.getByLabel('هجري')).toBeChecked()
	const both = page.locator('output')
	await expect(both).toHaveText('تاريخ الميلاد بالتقويمين: 14 مارس 1985م (22 جمادى الآخرة 1405هـ)')
	await expectWhole(both, ['14 مارس 1985م', '22 جمادى الآخرة 1405هـ'])

	// The same day typed in Gregorian is the same answer.
	await calendar.getByLabel('ميلادي').check()
	await page.getByLabel('تاريخ الميلاد').fill('14/03/1985')
	await next(page)
	await page.goto(step)
	await expect(page.getByLabel('تاريخ الميلاد')).toHaveValue('14/03/1985')
	await expect(page.locator('output')).toHaveText('تاريخ الميلاد بالتقويمين: 14 مارس 1985م (22 جمادى الآخرة 1405هـ)')
})

async function caseView(page: Page, reference: string, name: string) {
	await page.goto(`/admin/cases/${reference}`)
	await expect(page.getByRole('heading', { level: 1 })).toHaveText(name)
}

test('the case view writes dates day, month, year in both calendars, never broken inside at 375 px', async ({ pageAs }) => {
	const staff = await pageAs('case_officer', phone)
	const submitted = await submitCaseAsStaff(staff.request, { basic: { BirthDate: '22/06/1405', BirthDateCalendar: 'hijri' } })
	await caseView(staff, submitted.reference, submitted.name)
	const birth = staff.locator('dt:text-is("تاريخ الميلاد") + dd')
	await expect(birth).toHaveText('14 مارس 1985م (22 جمادى الآخرة 1405هـ)')
	await expectWhole(birth, ['14 مارس 1985م', '22 جمادى الآخرة 1405هـ'])
	// The day it was sent, in the case's heading.
	const today = todayInRiyadh()
	const sent = staff.getByText(/^أُرسل في/)
	await expect(sent).toContainText(`أُرسل في ${spaced(formatDate(today))}`)
	await expectWhole(sent, [spaced(formatGregorian(today)), spaced(formatHijri(today))])
	// No date is written the old way (year-month-day with hyphens) anywhere on the page.
	await expect(staff.getByRole('main')).not.toContainText(/\d{4}-\S+-\d{2}/)
})

test('a news item shows its date in both calendars, on one line each at 375 px', async ({ pageAs }) => {
	const reader = await pageAs('visitor', phone)
	await reader.goto('/news?month=2026-10')
	await reader.getByRole('link', { name: 'ورشة عمل لتمكين الأسر المنتجة وتسويق منتجاتها' }).click()
	const date = reader.getByRole('main').locator('dd').first()
	await expect(date).toHaveText('8 أكتوبر 2026م (27 ربيع الآخر 1448هـ)')
	await expectWhole(date, ['8 أكتوبر 2026م', '27 ربيع الآخر 1448هـ'])
	// The archive's months with the Hijri months they span.
	await expect(reader.getByRole('navigation', { name: 'أرشيف الأخبار' })).toContainText('أكتوبر 2026م (ربيع الآخر–جمادى الأولى 1448هـ)')
})
