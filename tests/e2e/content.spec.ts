import { expect, test } from '@playwright/test'
import { minimalPdf } from '../fixtures/pdf.ts'
import { expectNoAxeViolations, signIn } from './utils.ts'

// One at a time: the foundation-info test changes what every page's footer shows.
test.describe.configure({ mode: 'serial' })

test('the contact form explains its errors, stores the message, and staff read and handle it in the inbox', async ({ page, browser }) => {
	const subject = `استفسار عن موعد الصرف ${Date.now()}`
	await page.goto('/contact')
	await expectNoAxeViolations(page)
	await page.getByRole('button', { name: 'إرسال' }).click()
	const summary = page.getByRole('alert').filter({ hasText: 'يوجد خطأ في البيانات المدخلة' })
	for (const message of ['الرجاء كتابة الاسم', 'الرجاء كتابة البريد الإلكتروني', 'الرجاء كتابة رقم الجوال', 'الرجاء كتابة الموضوع', 'الرجاء كتابة التفاصيل']) {
		await expect(summary).toContainText(message)
	}
	await expect(page).toHaveTitle(/^خطأ: /)
	await page.getByLabel('الاسم').fill('أم محمد <script>alert(1)</script>')
	await page.getByLabel('البريد الإلكتروني').fill('UM.Mohammed@Example.org')
	await page.getByLabel('رقم الجوال').fill('12345')
	await page.getByLabel('الموضوع').fill(subject)
	await page.getByLabel('الرسالة').fill('متى يبدأ صرف السلال الغذائية لهذا الشهر؟')
	await page.getByRole('button', { name: 'إرسال' }).click()
	await expect(summary).toContainText('رقم الجوال يجب أن يكون 10 أرقام ويبدأ بـ 05')
	await expect(page.getByLabel('الموضوع')).toHaveValue(subject)
	await page.getByLabel('رقم الجوال').fill('0551234567')
	await page.getByRole('button', { name: 'إرسال' }).click()
	await expect(page.getByRole('status')).toHaveText('تم إرسال الرسالة بنجاح')
	await expect(page.getByLabel('الموضوع')).toHaveValue('')

	const staffContext = await browser.newContext()
	const staff = await staffContext.newPage()
	await signIn(staff, undefined, '/admin/inquiries')
	await expectNoAxeViolations(staff)
	await staff.getByLabel('بحث في الرسائل').fill(subject)
	await staff.getByRole('button', { name: 'بحث' }).click()
	const item = staff.getByRole('link', { name: new RegExp(subject) })
	await expect(item).toContainText('جديدة')
	await item.click()
	await expect(staff.getByRole('heading', { level: 1 })).toHaveText(subject)
	// What the visitor typed is shown as text, never run.
	await expect(staff.getByText('أم محمد <script>alert(1)</script>')).toBeVisible()
	await expect(staff.getByText('um.mohammed@example.org')).toBeVisible()
	await expectNoAxeViolations(staff)
	await staff.getByRole('button', { name: 'تمت المعالجة' }).click()
	await expect(staff.getByRole('status')).toContainText('تمت المعالجة في')
	await staff.goto(`/admin/inquiries?q=${encodeURIComponent(subject)}`)
	await expect(staff.getByRole('link', { name: new RegExp(subject) })).not.toContainText('جديدة')
	await expect(staff.getByRole('link', { name: new RegExp(subject) })).toContainText('تمت المعالجة')
	await staffContext.close()
})

test('the contact form works without JavaScript', async ({ browser }) => {
	const context = await browser.newContext({ javaScriptEnabled: false })
	const page = await context.newPage()
	await page.goto('/contact')
	await page.getByLabel('الاسم').fill('سعد')
	await page.getByLabel('البريد الإلكتروني').fill('not-an-email')
	await page.getByLabel('رقم الجوال').fill('0551234567')
	await page.getByLabel('الموضوع').fill('سؤال')
	await page.getByLabel('الرسالة').fill('نص الرسالة')
	await page.getByRole('button', { name: 'إرسال' }).click()
	await expect(page.getByRole('alert')).toContainText('صيغة البريد الإلكتروني غير صحيحة')
	await expect(page.getByLabel('الرسالة')).toHaveValue('نص الرسالة')
	await page.getByLabel('البريد الإلكتروني').fill('saad@example.org')
	await page.getByRole('button', { name: 'إرسال' }).click()
	await expect(page.getByRole('status')).toHaveText('تم إرسال الرسالة بنجاح')
	await context.close()
})

test('staff edit the foundation info and the public pages show it; injected HTML is made inert', async ({ page, browser }) => {
	await signIn(page, undefined, '/admin/foundation')
	await expectNoAxeViolations(page)
	// The second phone only: other files' tests read the first one from the footer.
	const phone2 = page.getByLabel('الهاتف الثاني (الجوال)')
	const original = { phone2: await phone2.inputValue() }
	await phone2.fill('')
	await page.getByLabel('رابط الخريطة (اختياري)').fill('https://evil.example/maps/embed?x=1')
	await page.getByRole('button', { name: 'حفظ' }).click()
	const summary = page.getByRole('alert')
	await expect(summary).toContainText('الرجاء كتابة رقم الهاتف الثاني')
	await expect(summary).toContainText('رابط الخريطة يجب أن يكون رابط تضمين من خرائط Google')

	await phone2.fill('0556667788')
	await page.getByLabel('رابط الخريطة (اختياري)').fill('https://www.google.com/maps/embed?pb=!1m18!1m12')
	// The editor posts HTML; a script or an event handler never survives the server.
	await page.evaluate(() => {
		const field = document.querySelector<HTMLInputElement | HTMLTextAreaElement>('[name="about"]')!
		field.value = '<p>نبذة محدثة عن المؤسسة</p><script>window.hacked = true</script><img src=x onerror="window.hacked = true">'
		document.querySelector<HTMLElement>('[role="textbox"]')?.replaceChildren()
	})
	await page.getByRole('button', { name: 'حفظ' }).click()
	await expect(page.getByRole('status')).toHaveText('تم تحديث بيانات بنجاح')

	const visitor = await (await browser.newContext()).newPage()
	await visitor.goto('/about')
	await expect(visitor.getByText('نبذة محدثة عن المؤسسة')).toBeVisible()
	expect(await visitor.evaluate(() => (window as unknown as { hacked?: boolean }).hacked)).toBeUndefined()
	expect(await visitor.locator('main img, main script').count()).toBe(0)
	await expect(visitor.getByRole('contentinfo')).toContainText('0556667788')
	await visitor.goto('/contact')
	// The map loads only when asked for.
	await expect(visitor.locator('iframe')).toBeHidden()
	await visitor.getByText('عرض موقعنا على الخريطة').click()
	await expect(visitor.locator('iframe')).toHaveAttribute('src', 'https://www.google.com/maps/embed?pb=!1m18!1m12')
	await visitor.close()

	// Put the seeded values back for the other tests.
	await phone2.fill(original.phone2)
	await page.getByLabel('رابط الخريطة (اختياري)').fill('')
	await page.getByRole('button', { name: 'حفظ' }).click()
	await expect(page.getByRole('status')).toHaveText('تم تحديث بيانات بنجاح')
})

test('a board member is added with a photo, edited and deleted, and the public page follows', async ({ page }) => {
	const sharp = (await import('sharp')).default
	const photo = await sharp({ create: { width: 600, height: 600, channels: 3, background: '#2a7f62' } }).jpeg().toBuffer()
	const name = `أ. ريم بنت سعود العنزي ${Date.now() % 1000}`

	await signIn(page, undefined, '/admin/content/members')
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('أعضاء مجلس الإدارة')
	// Spec §9: five members a page.
	await expect(page.getByRole('table').getByRole('row')).toHaveCount(6)
	await expect(page.getByRole('navigation', { name: 'التنقل بين الصفحات' })).toBeVisible()
	await expectNoAxeViolations(page)

	await page.getByRole('link', { name: 'إضافة عضو' }).click()
	const crumbs = page.getByRole('navigation', { name: 'مسار التنقل' })
	await expect(crumbs.getByRole('link', { name: 'أعضاء مجلس الإدارة' })).toHaveAttribute('href', '/admin/content/members')
	await expect(crumbs.locator('[aria-current="page"]')).toHaveText('إضافة عضو')
	await page.getByRole('button', { name: 'حفظ' }).click()
	await expect(page.getByRole('alert')).toContainText('الرجاء كتابة الاسم')
	await page.getByLabel('الاسم').fill(name)
	await page.getByLabel('المنصب').fill('عضو مجلس الإدارة')
	await page.getByLabel('الصورة').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from('not an image at all') })
	await page.getByRole('button', { name: 'حفظ' }).click()
	await expect(page.getByRole('alert')).toContainText('الملف ليس صورة')
	await expect(page.getByLabel('الاسم')).toHaveValue(name)
	await page.getByLabel('الصورة').setInputFiles({ name: 'photo.jpg', mimeType: 'image/jpeg', buffer: photo })
	await page.getByLabel('الترتيب').fill('0')
	await page.getByRole('button', { name: 'حفظ' }).click()
	await expect(page.getByRole('status')).toHaveText('تمت إضافة العضو بنجاح')

	await page.goto('/board-members')
	const card = page.getByRole('listitem').filter({ hasText: name })
	await expect(card).toContainText('عضو مجلس الإدارة')
	const img = card.locator('img')
	await expect(img).toHaveAttribute('loading', 'eager')
	const src = await img.getAttribute('src')
	const served = await page.request.get(src!)
	expect(served.headers()['content-type']).toBe('image/webp')
	expect(served.headers()['cache-control']).toContain('immutable')
	await expectNoAxeViolations(page)

	await page.goto('/admin/content/members')
	await page.getByRole('row', { name: new RegExp(name) }).getByRole('link', { name: /تعديل/ }).click()
	await page.getByLabel('المنصب').fill('المستشارة القانونية')
	await page.getByLabel('الصورة').setInputFiles({ name: 'new.png', mimeType: 'image/png', buffer: await sharp({ create: { width: 500, height: 500, channels: 3, background: '#c08a2b' } }).png().toBuffer() })
	await page.getByRole('button', { name: 'حفظ' }).click()
	await expect(page.getByRole('status')).toHaveText('تم تحديث بيانات العضو بنجاح')
	await page.goto('/board-members')
	const edited = page.getByRole('listitem').filter({ hasText: name })
	await expect(edited).toContainText('المستشارة القانونية')
	// The new photo is shown; the replaced one is deleted, not left behind.
	const newSrc = await edited.locator('img').getAttribute('src')
	expect(newSrc).not.toBe(src)
	expect((await page.request.get(newSrc!)).status()).toBe(200)
	expect((await page.request.get(src!)).status()).toBe(404)

	await page.goto('/admin/content/members')
	await page.getByRole('row', { name: new RegExp(name) }).getByRole('link', { name: /حذف/ }).click()
	await expect(page.getByRole('heading', { level: 1 })).toContainText(name)
	await page.getByRole('button', { name: 'نعم، احذف' }).click()
	await expect(page.getByRole('status')).toHaveText('تم حذف العضو')
	await page.goto('/board-members')
	await expect(page.getByText(name)).toHaveCount(0)
})

test('a committee is edited in the back office; the public accordion opens one at a time', async ({ page }) => {
	await signIn(page, undefined, '/admin/content/committees')
	await page.getByRole('row', { name: /لجنة إدارة المخاطر/ }).getByRole('link', { name: /تعديل/ }).click()
	await page.getByLabel('الأعضاء').fill('د. ماجد الغامدي (رئيساً)\nأ. سارة الحربي\nأ. عبدالله الزهراني')
	await page.getByRole('button', { name: 'حفظ' }).click()
	await expect(page.getByRole('status')).toHaveText('تم تحديث بيانات بنجاح')

	await page.goto('/committees')
	const risk = page.locator('details').filter({ hasText: 'لجنة إدارة المخاطر' })
	const audit = page.locator('details').filter({ hasText: 'لجنة المراجعة والتدقيق الداخلي' })
	await risk.locator('summary').click()
	await expect(risk).toHaveAttribute('open', '')
	await expect(risk).toContainText('أ. عبدالله الزهراني')
	await audit.locator('summary').click()
	await expect(audit).toHaveAttribute('open', '')
	await expect(risk).not.toHaveAttribute('open', '')
	// Clicking the open one closes it.
	await audit.locator('summary').click()
	await expect(audit).not.toHaveAttribute('open', '')
	await expectNoAxeViolations(page)
})

test('the announcement shows only inside its window, traps focus, and stays closed for the visit', async ({ page, browser }) => {
	const riyadh = (offsetDays: number) =>
		new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Riyadh', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(Date.now() + offsetDays * 86_400_000))
	const visitorContext = await browser.newContext()
	const visitor = await visitorContext.newPage()
	// The demo window (2025-09-22 to 2025-09-24) is over: no popup. The home page loads no script
	// bundle at all: only the slider's few inline lines.
	await visitor.goto('/')
	await expect(visitor.getByRole('dialog')).toHaveCount(0)
	expect(await visitor.locator('script[src], script[type="module"], link[rel="modulepreload"]').count()).toBe(0)
	expect(await visitor.locator('script').count()).toBe(1)

	await signIn(page, undefined, '/admin/content/announcement/edit')
	const setWindow = async (start: string, end: string) => {
		await page.getByLabel('يظهر من تاريخ').fill(start)
		await page.getByLabel('حتى تاريخ (شاملاً)').fill(end)
		await page.getByRole('button', { name: 'حفظ' }).click()
		await expect(page.getByRole('status')).toHaveText('تم تحديث بيانات بنجاح')
	}
	try {
		await setWindow(riyadh(-1), riyadh(0))
		await visitor.goto('/')
		const dialog = visitor.getByRole('dialog', { name: 'حملة اليوم الوطني: سلال غذائية لألف أسرة' })
		await expect(dialog).toBeVisible()
		// Modal: the page behind is inert, so Tab never reaches it (it may only pass to the browser's own UI).
		expect(await dialog.evaluate((element) => element.matches(':modal'))).toBe(true)
		for (let i = 0; i < 4; i++) {
			await visitor.keyboard.press('Tab')
			const outside = await visitor.evaluate(() => {
				const active = document.activeElement
				return Boolean(active && active !== document.body && !active.closest('dialog'))
			})
			expect(outside).toBe(false)
		}
		await expectNoAxeViolations(visitor)
		await dialog.getByRole('button', { name: 'إغلاق الإعلان' }).click()
		await expect(dialog).toBeHidden()
		await visitor.reload()
		await expect(visitor.getByRole('dialog')).toBeHidden()

		// Ended yesterday: gone for everyone.
		await setWindow(riyadh(-3), riyadh(-1))
		const fresh = await (await browser.newContext()).newPage()
		await fresh.goto('/')
		await expect(fresh.getByRole('dialog')).toHaveCount(0)
		await fresh.close()
	} finally {
		await page.goto('/admin/content/announcement/edit')
		await setWindow('2025-09-22', '2025-09-24')
		await visitorContext.close()
	}
})

test('the home page blocks and the organisation chart come from the back office', async ({ page }) => {
	await signIn(page, undefined, '/admin/content/home/edit')
	await expectNoAxeViolations(page)
	const vision = page.getByLabel('الرؤية')
	const original = await vision.inputValue()
	await vision.fill('رؤية محدثة للاختبار')
	await page.getByLabel('الفيديو 1: رابط التضمين').fill('https://www.youtube.com/watch?v=x')
	await page.getByRole('button', { name: 'حفظ' }).click()
	await expect(page.getByRole('alert')).toContainText('الرابط يجب أن يكون من https://www.youtube-nocookie.com/embed')
	await page.getByLabel('الفيديو 1: رابط التضمين').fill('https://www.youtube-nocookie.com/embed/abc123')
	await page.getByLabel('الفيديو 1: الوصف').fill('توزيع السلال الغذائية')
	await page.getByRole('button', { name: 'حفظ' }).click()
	await expect(page.getByRole('status')).toHaveText('تم تحديث بيانات بنجاح')
	try {
		await page.goto('/about')
		await expect(page.getByText('رؤية محدثة للاختبار')).toBeVisible()
		await page.goto('/')
		// The video loads from YouTube only once it is opened.
		await expect(page.locator('iframe[src*="youtube-nocookie"]')).toBeHidden()
		await page.getByText('تشغيل الفيديو: توزيع السلال الغذائية').click()
		await expect(page.locator('iframe[src="https://www.youtube-nocookie.com/embed/abc123"]')).toBeVisible()
	} finally {
		await page.goto('/admin/content/home/edit')
		await page.getByLabel('الرؤية').fill(original)
		await page.getByLabel('الفيديو 1: رابط التضمين').fill('')
		await page.getByLabel('الفيديو 1: الوصف').fill('')
		await page.getByRole('button', { name: 'حفظ' }).click()
		await expect(page.getByRole('status')).toHaveText('تم تحديث بيانات بنجاح')
	}

	await page.goto('/organization-chart')
	const chart = page.locator('main picture img')
	await expect(chart).toHaveAttribute('alt', 'الهيكل التنظيمي')
	await expect(chart).toHaveAttribute('width', /\d+/)
	await expectNoAxeViolations(page)
})

test('a certificate offers its PDF for download; staff replace it (a disguised file is refused) and remove it', async ({ page }) => {
	await page.goto('/certificates/quality')
	const seededHref = (await page.getByRole('link', { name: /تنزيل شهادة الجودة/ }).getAttribute('href'))!
	const seeded = await page.request.get(seededHref)
	expect(seeded.status()).toBe(200)
	expect(seeded.headers()['content-type']).toBe('application/pdf')
	expect(seeded.headers()['content-disposition']).toMatch(/^attachment;.*filename\*=UTF-8''/)
	expect((await seeded.body()).subarray(0, 5).toString()).toBe('%PDF-')
	expect((await page.request.get('/documents/not-an-id')).status()).toBe(404)
	expect((await page.request.get('/documents/00000000-0000-4000-8000-000000000000')).status()).toBe(404)
	await expectNoAxeViolations(page)

	await signIn(page, undefined, '/admin/content/quality-certificate/edit')
	await expectNoAxeViolations(page)
	const caption = `شهادة نظام إدارة الجودة — تحديث ${Date.now() % 1000}`
	await page.getByLabel('وصف مختصر').fill(caption)
	const oldPicture = await page.request.get('/certificates/quality').then((response) => response.text())
	const sharp = (await import('sharp')).default
	await page.getByLabel('الصورة', { exact: true }).setInputFiles({ name: 'iso.png', mimeType: 'image/png', buffer: await sharp({ create: { width: 800, height: 560, channels: 3, background: '#fbf7ee' } }).png().toBuffer() })
	await page.getByLabel('نسخة PDF').setInputFiles({ name: 'scan.pdf', mimeType: 'application/pdf', buffer: Buffer.from('<html>not a pdf</html>') })
	await page.getByRole('button', { name: 'حفظ' }).click()
	await expect(page.getByRole('alert')).toContainText('الملف ليس PDF')
	await expect(page.getByLabel('وصف مختصر')).toHaveValue(caption)
	// The good picture sent beside the refused PDF is kept for the next try.
	await expect(page.getByText('تم رفع الصورة وسيُحفظ مع البيانات.')).toBeVisible()

	await page.getByLabel('نسخة PDF').setInputFiles({ name: 'شهادة الجودة 2026.pdf', mimeType: 'application/pdf', buffer: Buffer.from(minimalPdf()) })
	await page.getByRole('button', { name: 'حفظ' }).click()
	await expect(page.getByRole('status')).toHaveText('تم تحديث بيانات بنجاح')
	await expect(page.getByRole('link', { name: 'شهادة الجودة 2026.pdf' })).toBeVisible()

	await page.goto('/certificates/quality')
	await expect(page.getByText(caption)).toBeVisible()
	const newPicture = (await page.locator('main picture img').getAttribute('src'))!
	expect(oldPicture).not.toContain(newPicture.split('/')[2])
	const replacedHref = (await page.getByRole('link', { name: /تنزيل شهادة الجودة/ }).getAttribute('href'))!
	const replaced = await page.request.get(replacedHref)
	expect(replaced.headers()['content-disposition']).toContain(encodeURIComponent('شهادة الجودة 2026.pdf'))
	expect(new Uint8Array(await replaced.body())).toEqual(minimalPdf())
	// The replaced PDF is gone, not left behind.
	expect((await page.request.get(seededHref)).status()).toBe(404)

	await page.goto('/admin/content/quality-certificate/edit')
	await page.getByLabel('إزالة الملف الحالي').check()
	await page.getByRole('button', { name: 'حفظ' }).click()
	await expect(page.getByRole('status')).toHaveText('تم تحديث بيانات بنجاح')
	await page.goto('/certificates/quality')
	await expect(page.getByRole('link', { name: /تنزيل شهادة الجودة/ })).toHaveCount(0)
	expect((await page.request.get(replacedHref)).status()).toBe(404)
	// The picture stays: only the PDF was removed.
	await expect(page.locator('main picture img')).toBeVisible()
})

test('programmes come from the back office: a renamed programme shows on the home page, /services and its own page', async ({ page }) => {
	await signIn(page, undefined, '/admin/content/programmes')
	await page.getByRole('row', { name: /السلة الغذائية/ }).getByRole('link', { name: /تعديل/ }).click()
	const name = page.getByLabel('اسم البرنامج')
	await page.getByLabel('المعرّف في الرابط').fill('needy-families')
	await page.getByRole('button', { name: 'حفظ' }).click()
	await expect(page.getByRole('alert')).toContainText('المعرّف في الرابط: مستخدم في عنصر آخر')
	await page.getByLabel('المعرّف في الرابط').fill('food-basket')
	await name.fill('سلة الخير الغذائية')
	await page.getByRole('button', { name: 'حفظ' }).click()
	await expect(page.getByRole('status')).toHaveText('تم تحديث بيانات بنجاح')
	try {
		for (const path of ['/', '/services']) {
			await page.goto(path)
			await expect(page.getByRole('link', { name: /سلة الخير الغذائية/ })).toHaveAttribute('href', '/services/food-basket')
		}
		await page.goto('/services/food-basket')
		await expect(page.getByRole('heading', { level: 1 })).toHaveText('سلة الخير الغذائية')
		await expectNoAxeViolations(page)
	} finally {
		await page.goto('/admin/content/programmes')
		await page.getByRole('row', { name: /سلة الخير الغذائية/ }).getByRole('link', { name: /تعديل/ }).click()
		await page.getByLabel('اسم البرنامج').fill('السلة الغذائية')
		await page.getByRole('button', { name: 'حفظ' }).click()
		await expect(page.getByRole('status')).toHaveText('تم تحديث بيانات بنجاح')
	}
})
