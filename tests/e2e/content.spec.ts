import { minimalPdf } from '../fixtures/pdf.ts'
import { expect, expectNoAxeViolations, test, unique } from './utils.ts'

// Staff work through the content editor's stored session (pageAs('content_editor')); `page` is a
// visitor. Collections get new rows under unique names; a singleton (one record the site shows
// once) is changed only where no other test looks. The announcement, which every visitor of the
// home page meets, is tested in site-wide.spec.ts.

test('the contact form explains its errors, stores the message, and staff read and handle it in the inbox', async ({ page, pageAs }) => {
	const subject = `استفسار عن موعد الصرف ${unique()}`
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

	const staff = await pageAs('content_editor')
	await staff.goto('/admin/inquiries')
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
})

test('the contact form works without JavaScript', async ({ pageAs }) => {
	const page = await pageAs('visitor', { javaScriptEnabled: false })
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
})

test('staff edit the foundation info and the public pages show it; injected HTML is made inert', async ({ page, pageAs }) => {
	// The foundation info is one record, shown in every page's footer. This test changes only what
	// no other test reads: the second phone, the map link and the about text (public.spec.ts reads
	// the first phone and the e-mail from the footer; other visits to /about read only its heading).
	const suffix = unique()
	const phone2 = `05${String(Date.now()).slice(-8)}`
	const about = `نبذة محدثة عن المؤسسة ${suffix}`
	const mapUrl = `https://www.google.com/maps/embed?pb=!1m18!1m12!${suffix}`

	const staff = await pageAs('content_editor')
	await staff.goto('/admin/foundation')
	await expectNoAxeViolations(staff)
	await staff.getByLabel('الهاتف الثاني (الجوال)').fill('')
	await staff.getByLabel('رابط الخريطة (اختياري)').fill('https://evil.example/maps/embed?x=1')
	await staff.getByRole('button', { name: 'حفظ' }).click()
	const summary = staff.getByRole('alert')
	await expect(summary).toContainText('الرجاء كتابة رقم الهاتف الثاني')
	await expect(summary).toContainText('رابط الخريطة يجب أن يكون رابط تضمين من خرائط Google')

	await staff.getByLabel('الهاتف الثاني (الجوال)').fill(phone2)
	await staff.getByLabel('رابط الخريطة (اختياري)').fill(mapUrl)
	// The editor posts HTML; a script or an event handler never survives the server.
	await staff.evaluate((text) => {
		const field = document.querySelector<HTMLInputElement | HTMLTextAreaElement>('[name="about"]')!
		field.value = `<p>${text}</p><script>window.hacked = true</script><img src=x onerror="window.hacked = true">`
		document.querySelector<HTMLElement>('[role="textbox"]')?.replaceChildren()
	}, about)
	await staff.getByRole('button', { name: 'حفظ' }).click()
	await expect(staff.getByRole('status')).toHaveText('تم تحديث البيانات بنجاح')

	await page.goto('/about')
	await expect(page.getByText(about)).toBeVisible()
	expect(await page.evaluate(() => (window as unknown as { hacked?: boolean }).hacked)).toBeUndefined()
	expect(await page.locator('main img, main script').count()).toBe(0)
	await expect(page.getByRole('contentinfo')).toContainText(phone2)
	await page.goto('/contact')
	// The map loads only when asked for.
	await expect(page.locator('iframe')).toBeHidden()
	await page.getByText('عرض موقعنا على الخريطة').click()
	await expect(page.locator('iframe')).toHaveAttribute('src', mapUrl)
})

test('a board member is added with a photo, edited and deleted, and the public page follows', async ({ page, pageAs }) => {
	const sharp = (await import('sharp')).default
	const photo = await sharp({ create: { width: 600, height: 600, channels: 3, background: '#2a7f62' } }).jpeg().toBuffer()
	const name = `أ. ريم بنت سعود العنزي ${unique()}`

	const staff = await pageAs('content_editor')
	await staff.goto('/admin/content/members')
	await expect(staff.getByRole('heading', { level: 1 })).toHaveText('أعضاء مجلس الإدارة')
	// Five members a page (docs/product.md).
	await expect(staff.getByRole('table').getByRole('row')).toHaveCount(6)
	await expect(staff.getByRole('navigation', { name: 'التنقل بين الصفحات' })).toBeVisible()
	await expectNoAxeViolations(staff)

	await staff.getByRole('link', { name: 'إضافة عضو' }).click()
	const crumbs = staff.getByRole('navigation', { name: 'مسار التنقل' })
	await expect(crumbs.getByRole('link', { name: 'أعضاء مجلس الإدارة' })).toHaveAttribute('href', '/admin/content/members')
	await expect(crumbs.locator('[aria-current="page"]')).toHaveText('إضافة عضو')
	await staff.getByRole('button', { name: 'حفظ' }).click()
	await expect(staff.getByRole('alert')).toContainText('الرجاء كتابة الاسم')
	await staff.getByLabel('الاسم').fill(name)
	await staff.getByLabel('المنصب').fill('عضو مجلس الإدارة')
	await staff.getByLabel('الصورة').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from('not an image at all') })
	await staff.getByRole('button', { name: 'حفظ' }).click()
	await expect(staff.getByRole('alert')).toContainText('الملف ليس صورة')
	await expect(staff.getByLabel('الاسم')).toHaveValue(name)
	await staff.getByLabel('الصورة').setInputFiles({ name: 'photo.jpg', mimeType: 'image/jpeg', buffer: photo })
	await staff.getByLabel('الترتيب').fill('0')
	await staff.getByRole('button', { name: 'حفظ' }).click()
	await expect(staff.getByRole('status')).toHaveText('تمت إضافة العضو بنجاح')

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

	await staff.goto('/admin/content/members')
	await staff.getByRole('row', { name }).getByRole('link', { name: /تعديل/ }).click()
	await staff.getByLabel('المنصب').fill('المستشارة القانونية')
	await staff.getByLabel('الصورة').setInputFiles({ name: 'new.png', mimeType: 'image/png', buffer: await sharp({ create: { width: 500, height: 500, channels: 3, background: '#c08a2b' } }).png().toBuffer() })
	await staff.getByRole('button', { name: 'حفظ' }).click()
	await expect(staff.getByRole('status')).toHaveText('تم تحديث بيانات العضو بنجاح')
	await page.goto('/board-members')
	const edited = page.getByRole('listitem').filter({ hasText: name })
	await expect(edited).toContainText('المستشارة القانونية')
	// The new photo is shown; the replaced one is deleted, not left behind.
	const newSrc = await edited.locator('img').getAttribute('src')
	expect(newSrc).not.toBe(src)
	expect((await page.request.get(newSrc!)).status()).toBe(200)
	expect((await page.request.get(src!)).status()).toBe(404)

	await staff.goto('/admin/content/members')
	await staff.getByRole('row', { name }).getByRole('link', { name: /حذف/ }).click()
	await expect(staff.getByRole('heading', { level: 1 })).toContainText(name)
	await staff.getByRole('button', { name: 'نعم، احذف' }).click()
	await expect(staff.getByRole('status')).toHaveText('تم حذف العضو')
	await page.goto('/board-members')
	await expect(page.getByText(name)).toHaveCount(0)
})

test('a committee added in the back office shows in the public accordion, which opens one at a time', async ({ page, pageAs }) => {
	const name = `لجنة الاستثمار والأوقاف ${unique()}`
	const staff = await pageAs('content_editor')
	await staff.goto('/admin/content/committees')
	await staff.getByRole('link', { name: 'إضافة لجنة' }).click()
	await staff.getByLabel('اسم اللجنة').fill(name)
	await staff.getByLabel('الأعضاء', { exact: true }).fill('د. ماجد الغامدي (رئيساً)\nأ. سارة الحربي\nأ. عبدالله الزهراني')
	await staff.getByRole('textbox', { name: 'المهام', exact: true }).fill('متابعة استثمار أوقاف المؤسسة وعوائدها.')
	await staff.getByRole('button', { name: 'حفظ' }).click()
	await expect(staff.getByRole('status')).toHaveText('تمت الإضافة بنجاح')
	await expect(staff.getByRole('row', { name })).toBeVisible()

	await page.goto('/committees')
	const added = page.locator('details').filter({ hasText: name })
	// A seeded committee that no test edits.
	const audit = page.locator('details').filter({ hasText: 'لجنة المراجعة والتدقيق الداخلي' })
	await added.locator('summary').click()
	await expect(added).toHaveAttribute('open', '')
	await expect(added).toContainText('أ. عبدالله الزهراني')
	await expect(added).toContainText('متابعة استثمار أوقاف المؤسسة وعوائدها.')
	await audit.locator('summary').click()
	await expect(audit).toHaveAttribute('open', '')
	await expect(added).not.toHaveAttribute('open', '')
	// Clicking the open one closes it.
	await audit.locator('summary').click()
	await expect(audit).not.toHaveAttribute('open', '')
	await expectNoAxeViolations(page)
})

test('the home page blocks and the organisation chart come from the back office', async ({ page, pageAs }) => {
	// The home page's blocks are one record. This test changes only the vision (shown on /about)
	// and the first video: no other test reads either.
	const suffix = unique()
	const vision = `رؤية محدثة للاختبار ${suffix}`
	const caption = `توزيع السلال الغذائية ${suffix}`
	const video = `https://www.youtube-nocookie.com/embed/${suffix}?start=60`
	const staff = await pageAs('content_editor')
	await staff.goto('/admin/content/home/edit')
	await expectNoAxeViolations(staff)
	await staff.getByLabel('الرؤية').fill(vision)
	// Another host is refused, what was typed kept; the address staff copy from YouTube's address bar is stored as its embed form.
	await staff.getByLabel('الفيديو 1: رابط يوتيوب').fill('https://vimeo.com/76979871')
	await staff.getByRole('button', { name: 'حفظ' }).click()
	await expect(staff.getByRole('alert')).toContainText('الرجاء نسخ رابط الفيديو من يوتيوب')
	await expect(staff.getByLabel('الفيديو 1: رابط يوتيوب')).toHaveValue('https://vimeo.com/76979871')
	await staff.getByLabel('الفيديو 1: رابط يوتيوب').fill(`https://www.youtube.com/watch?v=${suffix}&t=1m`)
	await staff.getByLabel('الفيديو 1: الوصف').fill(caption)
	await staff.getByRole('button', { name: 'حفظ' }).click()
	await expect(staff.getByRole('status')).toHaveText('تم تحديث البيانات بنجاح')
	// Stored as its embed form, which the form shows when opened again.
	await staff.goto('/admin/content/home/edit')
	await expect(staff.getByLabel('الفيديو 1: رابط يوتيوب')).toHaveValue(video)

	await page.goto('/about')
	await expect(page.getByText(vision)).toBeVisible()
	await page.goto('/')
	// The video loads from YouTube only once it is opened.
	await expect(page.locator(`iframe[src="${video}"]`)).toBeHidden()
	await page.getByText(`تشغيل الفيديو: ${caption}`).click()
	await expect(page.locator(`iframe[src="${video}"]`)).toBeVisible()

	await page.goto('/organization-chart')
	const chart = page.locator('main picture img')
	await expect(chart).toHaveAttribute('alt', 'الهيكل التنظيمي')
	await expect(chart).toHaveAttribute('width', /\d+/)
	await expectNoAxeViolations(page)
})

test('a certificate offers its PDF for download; staff replace it (a disguised file is refused) and remove it', async ({ page, pageAs }) => {
	// The quality certificate is one record and only this test changes it (public.spec.ts reads
	// only the page's heading, which stays).
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
	const oldPicture = await page.content()

	const staff = await pageAs('content_editor')
	await staff.goto('/admin/content/quality-certificate/edit')
	await expectNoAxeViolations(staff)
	const caption = `شهادة نظام إدارة الجودة — تحديث ${unique()}`
	await staff.getByLabel('وصف مختصر').fill(caption)
	const sharp = (await import('sharp')).default
	await staff.getByLabel('الصورة', { exact: true }).setInputFiles({ name: 'iso.png', mimeType: 'image/png', buffer: await sharp({ create: { width: 800, height: 560, channels: 3, background: '#fbf7ee' } }).png().toBuffer() })
	await staff.getByLabel('نسخة PDF').setInputFiles({ name: 'scan.pdf', mimeType: 'application/pdf', buffer: Buffer.from('<html>not a pdf</html>') })
	await staff.getByRole('button', { name: 'حفظ' }).click()
	await expect(staff.getByRole('alert')).toContainText('الملف ليس PDF')
	await expect(staff.getByLabel('وصف مختصر')).toHaveValue(caption)
	// The good picture sent beside the refused PDF is kept for the next try.
	await expect(staff.getByText('تم رفع الصورة وسيُحفظ مع البيانات.')).toBeVisible()

	await staff.getByLabel('نسخة PDF').setInputFiles({ name: 'شهادة الجودة 2026.pdf', mimeType: 'application/pdf', buffer: Buffer.from(minimalPdf()) })
	await staff.getByRole('button', { name: 'حفظ' }).click()
	await expect(staff.getByRole('status')).toHaveText('تم تحديث البيانات بنجاح')
	await expect(staff.getByRole('link', { name: 'شهادة الجودة 2026.pdf' })).toBeVisible()

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

	await staff.goto('/admin/content/quality-certificate/edit')
	await staff.getByLabel('إزالة الملف الحالي').check()
	await staff.getByRole('button', { name: 'حفظ' }).click()
	await expect(staff.getByRole('status')).toHaveText('تم تحديث البيانات بنجاح')
	await page.goto('/certificates/quality')
	await expect(page.getByRole('link', { name: /تنزيل شهادة الجودة/ })).toHaveCount(0)
	expect((await page.request.get(replacedHref)).status()).toBe(404)
	// The picture stays: only the PDF was removed.
	await expect(page.locator('main picture img')).toBeVisible()
})

test('a programme added in the back office shows on the home page, /services and its own page', async ({ page, pageAs }) => {
	const suffix = unique()
	const name = `كسوة الشتاء ${suffix}`
	const slug = `winter-clothing-${suffix}`
	const staff = await pageAs('content_editor')
	await staff.goto('/admin/content/programmes')
	await staff.getByRole('link', { name: 'إضافة برنامج' }).click()
	await staff.getByLabel('اسم البرنامج').fill(name)
	await staff.getByLabel('وصف مختصر').fill('ملابس شتوية وبطانيات للأسر المتعففة قبل دخول البرد.')
	await staff.getByRole('textbox', { name: 'التفاصيل', exact: true }).fill('يوزَّع البرنامج في المدن الباردة أولاً.')
	await staff.getByLabel('الأيقونة').selectOption({ label: 'كسوة' })
	// A seeded programme's address, which no test changes.
	await staff.getByLabel('المعرّف في الرابط').fill('needy-families')
	await staff.getByRole('button', { name: 'حفظ' }).click()
	await expect(staff.getByRole('alert')).toContainText('المعرّف في الرابط: مستخدم في عنصر آخر')
	await staff.getByLabel('المعرّف في الرابط').fill(slug)
	await staff.getByRole('button', { name: 'حفظ' }).click()
	await expect(staff.getByRole('status')).toHaveText('تمت الإضافة بنجاح')

	for (const path of ['/', '/services']) {
		await page.goto(path)
		await expect(page.getByRole('link', { name })).toHaveAttribute('href', `/services/${slug}`)
	}
	await page.goto(`/services/${slug}`)
	await expect(page.getByRole('heading', { level: 1 })).toHaveText(name)
	await expect(page.getByText('يوزَّع البرنامج في المدن الباردة أولاً.')).toBeVisible()
	await expectNoAxeViolations(page)
})
