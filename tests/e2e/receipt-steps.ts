import type { Page } from '@playwright/test'
import { expect } from './utils.ts'

// Money into a fund through the receipts screen (docs/product.md#money-in): one member of finance
// records a receipt, another confirms it, and only then does it count in the fund's balance.

/** Records a receipt of `amount` riyals into the fund labelled `fund` as `recorder`; its number. */
export async function recordReceiptAs(recorder: Page, fund: string, amount: string, details: { source?: string; donor?: string } = {}): Promise<string> {
	await recorder.goto('/admin/funds/receipts')
	const form = recorder.getByRole('region', { name: 'سند قبض جديد' })
	await form.getByLabel('الصندوق').selectOption({ label: fund })
	await form.getByLabel('المبلغ بالريال').fill(amount)
	await form.getByLabel('مصدر المبلغ').selectOption({ label: details.source ?? 'إيداع بنكي' })
	if (details.donor) await form.getByLabel('اسم المتبرع (إن ذُكر)').fill(details.donor)
	await form.getByRole('button', { name: 'تسجيل سند القبض' }).click()
	await expect(recorder.getByRole('status')).toContainText('سُجّل سند القبض')
	const row = recorder.getByRole('listitem').filter({ hasText: fund }).filter({ hasText: 'بانتظار التأكيد' }).first()
	return (await row.locator('bdi').first().textContent())!.trim()
}

/** Confirms the receipt numbered `number` as `confirmer` (another member of finance). */
export async function confirmReceiptAs(confirmer: Page, number: string) {
	await confirmer.goto('/admin/funds/receipts')
	await confirmer.getByRole('button', { name: `تأكيد السند ${number}` }).click()
	await expect(confirmer.getByRole('status')).toContainText('أُكِّد السند')
	await expect(confirmer.getByRole('listitem').filter({ hasText: number })).toContainText('مؤكد')
}
