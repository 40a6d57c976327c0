import { addUser, expect, expectNoAxeViolations, signIn, staffState, test, unique } from './utils.ts'
import { studiedCaseAs } from './case-fixtures.ts'
import { confirmReceiptAs, recordReceiptAs } from './receipt-steps.ts'
import { saudiIbanFromBban } from '#app/domain/validators.ts'

// Money in, through the real server (docs/product.md#money-in): finance records a zakat receipt,
// another member of finance confirms it (the recorder may not), the fund's balance shows on the
// funds page and beside the approval, and an approval beyond it is refused with the figures while
// one within it passes.
test.use({ storageState: staffState('case_officer') })

const year = () => new Date(Date.now() + 3 * 3600_000).getUTCFullYear()
const today = () => new Date(Date.now() + 3 * 3600_000).toISOString().slice(0, 10)

test('a zakat receipt, recorded and confirmed by two members of finance, is the fund\'s balance: an approval beyond it is refused with the figures, one within it passes', async ({ page, pageAs }, testInfo) => {
	test.setTimeout(180_000)
	const marker = unique()
	const admin = await pageAs('admin')
	await admin.goto('/admin/funds')
	const fundName = `زكاة المقبوضات ${marker}`
	await admin.getByLabel('صندوق جديد').fill(fundName)
	await admin.getByLabel(/^أموال زكاة/).check()
	await admin.getByRole('button', { name: 'إضافة الصندوق' }).click()
	await expect(admin.getByRole('status')).toBeVisible()
	await admin.getByLabel('البرنامج').selectOption({ label: 'طلب دعم الأسر المحتاجة (الدعم المقطوع)' })
	await admin.getByLabel('الصندوق', { exact: true }).selectOption({ label: 'كل الصناديق' })
	await admin.getByLabel('المبلغ المخصص بالريال').fill('999999999')
	await admin.getByRole('button', { name: 'حفظ الميزانية' }).click()
	await expect(admin.getByRole('status')).toContainText(`لعام ${year()}`)
	const second = { name: `مراجع مالي ${marker}`, email: `finance-2-${marker}@e2e.test`, mobile: '0551000019', roles: ['finance'] as const, password: `Second-Finance-${marker}` }
	await addUser(admin, { ...second, roles: [...second.roles] })

	// Finance records 2,000 riyals of zakat from the Ehsan platform: numbered, both calendars, awaiting confirmation.
	const finance = await pageAs('finance')
	const fund = `${fundName} (زكاة)`
	const number = await recordReceiptAs(finance, fund, '2000', { source: 'تحويل من منصة إحسان', donor: `فاعل خير ${marker}` })
	expect(number).toMatch(new RegExp(`^ق-${year()}-\\d{6}$`))
	const row = finance.getByRole('listitem').filter({ hasText: number })
	await expect(row).toContainText('2,000.00')
	await expect(row).toContainText('تحويل من منصة إحسان')
	await expect(row).toContainText(`فاعل خير ${marker}`)
	await expect(row).toContainText(/\d{4}م \(.*هـ\)/)
	await expect(row).toContainText('يؤكده مسؤول مالي غيرك')
	await expectNoAxeViolations(finance)
	// The recorder's own confirmation, posted by hand, is refused: nothing counts yet.
	const id = (await row.getAttribute('id'))!.replace('receipt-', '')
	const own = await finance.request.post('/admin/funds/receipts', { form: { intent: 'confirm', id }, maxRedirects: 0 })
	expect(own.status()).toBe(403)
	expect(await own.text()).toContain('لا يؤكد السند من سجّله')
	await admin.goto('/admin/funds')
	const balance = admin.getByRole('table', { name: 'أرصدة الصناديق' }).getByRole('row').filter({ hasText: fund })
	await expect(balance).toContainText('0.00')

	// Another member of finance confirms it: the fund holds 2,000.
	const context = await page.context().browser()!.newContext({ storageState: { cookies: [], origins: [] } })
	const confirmer = await context.newPage()
	await signIn(confirmer, second)
	await confirmReceiptAs(confirmer, number)
	await context.close()
	await admin.reload()
	await expect(balance.getByRole('cell').last()).toContainText('2,000.00')
	await expectNoAxeViolations(admin)
	for (const width of [375, 1280]) {
		await finance.setViewportSize({ width, height: 900 })
		await finance.goto('/admin/funds/receipts')
		await finance.screenshot({ path: testInfo.outputPath(`receipts-${width}.png`), fullPage: true })
	}

	// The bank statement's credits: one into the fund's account becomes a receipt awaiting confirmation;
	// one into an account no fund names is listed with why.
	const account = saudiIbanFromBban(`80${String(Date.now()).slice(-12).padStart(18, '0')}`)
	await admin.getByLabel(new RegExp(`^حساب الخصم.*${fundName}`)).fill(account)
	await admin.getByRole('button', { name: `حفظ حساب الخصم لـ${fundName}` }).click()
	await expect(admin.getByRole('status')).toBeVisible()
	await finance.setViewportSize({ width: 1280, height: 900 })
	await finance.goto('/admin/funds/receipts')
	const statement = ['value_date,credit,debit,account,reference,depositor', `${today()},750.00,,${account},STM${marker},متبرع الكشف`, `${today()},90,,SA4420000001234567891234,STN${marker},`].join('\n')
	await finance.getByLabel('كشف الحساب', { exact: true }).setInputFiles({ name: 'statement.csv', mimeType: 'text/csv', buffer: Buffer.from(statement) })
	await finance.getByRole('button', { name: 'استيراد القيود الدائنة' }).click()
	const imported = finance.getByRole('status').filter({ hasText: 'سُجّل سند قبض واحد' })
	await expect(imported).toContainText(`السطر 3 (STN${marker}): الحساب «SA4420000001234567891234» لا يعود إلى صندوق`)
	await expect(finance.getByRole('listitem').filter({ hasText: 'متبرع الكشف' }).first()).toContainText('بانتظار التأكيد')

	// The committee: the balance beside the approval; 2,500 is refused with the figures, 1,500 passes.
	const family = await studiedCaseAs(page.request, { name: `أم سعود ${marker}` })
	const approver = await pageAs('approver')
	await approver.goto(`/admin/cases/${family.reference}`)
	const decision = approver.getByRole('region', { name: 'قرار لجنة الصرف' })
	await decision.locator('summary', { hasText: 'اعتماد الدعم' }).click()
	await expect(decision.getByRole('listitem').filter({ hasText: fund })).toContainText('2,000.00')
	await decision.getByLabel('المبلغ بالريال (للقسط الواحد)').fill('2500')
	await decision.getByLabel('الصندوق').selectOption({ label: fund })
	await decision.getByRole('button', { name: 'اعتماد الدعم' }).click()
	await expect(decision).toContainText(/يتجاوز المبلغ \([^)]*2,500\.00[^)]*\) رصيد/)
	await expect(decision).toContainText(/المقبوض [^،]*2,000\.00.*المعتمد غير المصروف [^،]*0\.00.*الرصيد [^.]*2,000\.00/)
	await expect(decision.getByLabel('المبلغ بالريال (للقسط الواحد)')).toHaveValue('2500')
	await expect(approver.locator('main header')).toContainText('تمت الدراسة')
	await decision.getByLabel('المبلغ بالريال (للقسط الواحد)').fill('1500')
	await decision.getByRole('button', { name: 'اعتماد الدعم' }).click()
	await expect(approver.locator('main header')).toContainText('معتمد بانتظار الصرف')
	await admin.reload()
	await expect(balance).toContainText('1,500.00')
	await expect(balance.getByRole('cell').last()).toContainText('500.00')
})
