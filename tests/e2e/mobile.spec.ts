import { expect, test } from '@playwright/test'
import { expectNoAxeViolations } from './utils.ts'

test('at 375px the menu folds behind one button that opens by touch and by keyboard', async ({ page }) => {
	await page.goto('/')
	expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
	const desktopNav = page.getByRole('navigation', { name: 'القائمة الرئيسية' })
	// The desktop menu is not shown at this width, and the folded one is closed.
	await expect(desktopNav).toHaveCount(0)
	const menu = page.locator('summary', { hasText: 'القائمة' })
	await expect(menu).toBeVisible()

	await menu.tap()
	await expect(desktopNav).toHaveCount(1)
	await page.locator('details[name="main-menu"] > summary', { hasText: 'عن المؤسسة' }).tap()
	await page.getByRole('link', { name: 'نبذة عن المؤسسة' }).tap()
	await expect(page).toHaveURL('/about')
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('نبذة عن المؤسسة')

	// Keyboard: focus the menu button, open it and a group with Enter, follow a link.
	await page.goto('/')
	await menu.focus()
	await page.keyboard.press('Enter')
	const reports = page.locator('details[name="main-menu"] > summary', { hasText: 'التقارير' })
	await reports.focus()
	await page.keyboard.press('Enter')
	await page.getByRole('link', { name: 'التقارير المالية' }).focus()
	await page.keyboard.press('Enter')
	await expect(page).toHaveURL('/reports/financial')
	await expectNoAxeViolations(page)
})

test('the sign-in page fits a 375px screen', async ({ page }) => {
	await page.goto('/login')
	expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
	await expectNoAxeViolations(page)
})

test('at 375px a pinch on a photo in the viewer zooms it, a swipe then moves the photo rather than change it, and a pinch back undoes it', async ({ page }) => {
	await page.goto('/gallery/ramadan-food-baskets')
	await page.locator('main a[data-photo]').first().tap()
	const viewer = page.getByRole('dialog', { name: 'عارض الصور' })
	await expect(viewer.getByRole('button', { name: 'تكبير الصورة' })).toBeEnabled()
	const image = viewer.getByRole('img')
	await expect.poll(() => image.evaluate((element: HTMLImageElement) => (element.complete ? element.naturalWidth : 0)), { timeout: 20_000 }).toBeGreaterThan(0)
	const width = () => image.evaluate((element) => element.getBoundingClientRect().width)
	const fitted = await width()
	// Two fingers on the photo, moving apart (or together) by the given factor.
	const pinch = (factor: number) =>
		image.evaluate((element, factor) => {
			const box = element.getBoundingClientRect()
			const [x, y] = [box.left + box.width / 2, box.top + box.height / 2]
			const fingers = (gap: number) => [-1, 1].map((side, identifier) => new Touch({ identifier, target: element, clientX: x + side * gap, clientY: y }))
			element.dispatchEvent(new TouchEvent('touchstart', { touches: fingers(40), changedTouches: fingers(40), bubbles: true }))
			element.dispatchEvent(new TouchEvent('touchmove', { touches: fingers(40 * factor), changedTouches: fingers(40 * factor), bubbles: true }))
			element.dispatchEvent(new TouchEvent('touchend', { touches: [], changedTouches: fingers(40 * factor), bubbles: true }))
		}, factor)
	// To the right: the next photo in RTL.
	const swipe = () =>
		viewer.evaluate((dialog) => {
			const touch = (clientX: number) => new Touch({ identifier: 1, target: dialog, clientX, clientY: 300 })
			dialog.dispatchEvent(new TouchEvent('touchstart', { touches: [touch(100)], changedTouches: [touch(100)], bubbles: true }))
			dialog.dispatchEvent(new TouchEvent('touchend', { touches: [], changedTouches: [touch(220)], bubbles: true }))
		})
	await pinch(2)
	await expect(viewer.getByRole('button', { name: 'تصغير الصورة' })).toBeVisible()
	await expect.poll(width).toBeCloseTo(2 * fitted, 0)
	expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
	await expectNoAxeViolations(page)
	await swipe()
	await expect(viewer.getByText('الصورة 1 من 7', { exact: true })).toBeVisible()
	await pinch(0.5)
	await expect(viewer.getByRole('button', { name: 'تكبير الصورة' })).toBeVisible()
	await expect.poll(width).toBeCloseTo(fitted, 0)
	// Unzoomed, the same swipe moves on.
	await swipe()
	await expect(viewer.getByText('الصورة 2 من 7', { exact: true })).toBeVisible()
})
