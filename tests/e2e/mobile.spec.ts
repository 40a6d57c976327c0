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
	await page.locator('details[name="mobile-menu"] > summary', { hasText: 'عن المؤسسة' }).tap()
	await page.getByRole('link', { name: 'نبذة عن المؤسسة' }).tap()
	await expect(page).toHaveURL('/about')
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('نبذة عن المؤسسة')

	// Keyboard: focus the menu button, open it and a group with Enter, follow a link.
	await page.goto('/')
	await menu.focus()
	await page.keyboard.press('Enter')
	const reports = page.locator('details[name="mobile-menu"] > summary', { hasText: 'التقارير' })
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
