import sharp from 'sharp'
import { expect, expectNoAxeViolations, test, unique } from './utils.ts'

// The photo and video galleries (docs/product.md#photo-and-video-galleries): visitors on the seeded
// demo albums and videos; staff on an album of their own, under a unique name.

const demoAlbum = '/gallery/ramadan-food-baskets'

async function png(hue: number): Promise<Buffer> {
	return sharp({ create: { width: 320, height: 240, channels: 3, background: `hsl(${hue}, 50%, 50%)` } })
		.png()
		.toBuffer()
}

test('the gallery lists every album without JavaScript; an album opens its photos in a lightbox that zooms and closes with Escape', async ({ page }) => {
	await page.goto('/gallery')
	// Counted before axe-core is injected as a script of its own.
	expect(await page.locator('script').count(), 'scripts on /gallery').toBe(0)
	await expectNoAxeViolations(page)
	for (const title of ['توزيع السلال الغذائية في رمضان', 'مبادرة ترميم المنازل', 'فعاليات اليوم الوطني']) await expect(page.getByRole('heading', { level: 2, name: title })).toBeVisible()
	await page.getByRole('link', { name: 'توزيع السلال الغذائية في رمضان' }).click()
	await expect(page).toHaveURL(demoAlbum)
	await expectNoAxeViolations(page)

	const first = page.locator('main a[href^="/images/"]').first()
	await first.click()
	const lightbox = page.getByRole('dialog', { name: 'عارض الصور' })
	await expect(lightbox).toBeVisible()
	// The arrow keys move between the photos. The lightbox holds the shown one and two on each side
	// (the old gallery's preload): of 7 photos, the 4th and 5th from the first are not there yet.
	const farSlides = lightbox.getByRole('group', { name: /^الصورة (4|5) من 7$/ })
	await expect(farSlides).toHaveCount(0)
	await page.keyboard.press('ArrowLeft')
	await expect(farSlides).toHaveCount(1)
	await page.keyboard.press('ArrowRight')
	await expect(farSlides).toHaveCount(0)
	const zoomOut = lightbox.getByRole('button', { name: 'تصغير' })
	await expect(zoomOut).toBeDisabled()
	await lightbox.getByRole('button', { name: 'تكبير' }).click()
	await expect(zoomOut).toBeEnabled()
	await page.keyboard.press('Escape')
	await expect(lightbox).toBeHidden()
	// Focus returns to the photo last seen: the first again.
	await expect(first).toBeFocused()
})

test('without JavaScript a thumbnail opens the full image', async ({ pageAs }) => {
	const page = await pageAs('visitor', { javaScriptEnabled: false })
	await page.goto(demoAlbum)
	const href = await page.locator('main a[href^="/images/"]').first().getAttribute('href')
	const response = await Promise.all([page.waitForResponse((candidate) => candidate.url().endsWith(href!)), page.locator('main a[href^="/images/"]').first().click()]).then(([r]) => r)
	expect(response.status()).toBe(200)
	expect(response.headers()['content-type']).toBe('image/webp')
	await expect(page).toHaveURL(new RegExp(`${href}$`))
})

test('the video gallery ships no script; an uploaded video answers Range with 206 and the player seeks', async ({ page }) => {
	await page.goto('/gallery/videos')
	expect(await page.locator('script').count(), 'scripts on /gallery/videos').toBe(0)
	await expectNoAxeViolations(page)
	// YouTube videos load nothing until opened.
	expect(await page.locator('iframe[src*="youtube-nocookie.com"]').count()).toBeGreaterThan(0)
	expect(await page.locator('details[open] iframe').count()).toBe(0)
	// The seed makes its clips with ffmpeg, which `npm test` installs (scripts/lib/test-machine.mjs).
	const video = page.locator('video').first()
	await expect(video, 'no uploaded demo video: is ffmpeg installed? (apt-get install ffmpeg)').toBeVisible()
	await expect(video).toHaveAttribute('preload', 'metadata')
	await expect(video).toHaveAttribute('controls', '')
	await expect(video).toHaveAttribute('poster', /^\/images\//)
	await expect(video).toContainText('متصفحك لا يدعم تشغيل الفيديو')
	const src = await video.locator('source').getAttribute('src')
	const part = await page.request.get(src!, { headers: { Range: 'bytes=0-99' } })
	expect(part.status()).toBe(206)
	expect(part.headers()['content-range']).toMatch(/^bytes 0-99\/\d+$/)
	expect((await part.body()).length).toBe(100)

	const seeked = await video.evaluate(
		(element: HTMLVideoElement) =>
			new Promise<number>((resolve, reject) => {
				const seek = () => {
					element.addEventListener('seeked', () => resolve(element.currentTime), { once: true })
					element.currentTime = 2
				}
				// With a <source> child, a failure is reported on the source, not the video.
				element.querySelector('source')?.addEventListener('error', () => reject(new Error('the video could not be loaded')), { once: true })
				if (element.readyState >= 1) return seek()
				element.addEventListener('loadedmetadata', seek, { once: true })
				element.load()
			}),
	)
	expect(seeked).toBeCloseTo(2, 0)
})

test('staff add two photos at once, caption one, make it the cover and delete the other', async ({ pageAs }) => {
	const staff = await pageAs('content_editor')
	const title = `ألبوم الاختبار ${unique()}`
	const slug = `test-${unique()}`
	await staff.goto('/admin/content/albums/new')
	await staff.getByLabel('عنوان الألبوم').fill(title)
	await staff.getByLabel('المعرّف في الرابط').fill(slug)
	await staff.getByLabel('تاريخ الألبوم').fill('2099-01-01')
	await staff.getByRole('button', { name: 'حفظ' }).click()
	await expect(staff.getByRole('status')).toHaveText('تم إضافة الألبوم بنجاح')
	await staff.getByRole('link', { name: `الصور ${title}` }).click()
	await expectNoAxeViolations(staff)

	await staff.getByLabel('إضافة صور إلى الألبوم').setInputFiles([
		{ name: 'الأولى.png', mimeType: 'image/png', buffer: await png(20) },
		{ name: 'الثانية.png', mimeType: 'image/png', buffer: await png(200) },
	])
	await staff.getByRole('button', { name: 'رفع الصور' }).click()
	await expect(staff.getByRole('status')).toHaveText('تم إضافة صورتين بنجاح.')
	await expect(staff.getByRole('list', { name: 'صور الألبوم' }).getByRole('listitem')).toHaveCount(2)

	await staff.getByLabel('وصف الصورة 2').fill('صورة الغلاف الجديدة')
	await staff.getByRole('button', { name: 'حفظ الوصف للصورة 2' }).click()
	await expect(staff.getByRole('status')).toHaveText('تم تحديث وصف الصورة')
	await staff.getByRole('button', { name: 'اجعلها الغلاف (الصورة 2)' }).click()
	await expect(staff.getByRole('status')).toHaveText('تم اختيار صورة الغلاف')
	await expect(staff.getByRole('list', { name: 'صور الألبوم' }).getByRole('listitem').nth(1)).toContainText('الغلاف')

	await staff.getByRole('link', { name: 'حذف الصورة 1' }).click()
	await expect(staff.getByRole('heading', { name: 'حذف الصورة' })).toBeVisible()
	await expectNoAxeViolations(staff)
	await staff.getByRole('button', { name: 'نعم، احذف الصورة' }).click()
	await expect(staff.getByRole('status')).toHaveText('تم حذف الصورة')
	await expect(staff.getByRole('list', { name: 'صور الألبوم' }).getByRole('listitem')).toHaveCount(1)
	await expect(staff.getByLabel('وصف الصورة 1')).toHaveValue('صورة الغلاف الجديدة')

	const visitor = await pageAs('visitor')
	await visitor.goto(`/gallery/${slug}`)
	await expect(visitor.locator('main figure')).toHaveCount(1)
	await expect(visitor.locator('main figcaption')).toHaveText('صورة الغلاف الجديدة')
})

test('a file named .mp4 whose bytes are HTML is refused with an Arabic message, with and without JavaScript', async ({ pageAs }) => {
	const fake = { name: 'clip.mp4', mimeType: 'video/mp4', buffer: Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>') }
	const staff = await pageAs('content_editor')
	await staff.goto('/admin/content/videos/new')
	await expectNoAxeViolations(staff)
	await staff.getByLabel('ملف الفيديو').setInputFiles(fake)
	await expect(staff.getByText('الملف ليس فيديو. اختر ملف فيديو بصيغة MP4 أو WebM أو MOV.')).toBeVisible()
	await expect(staff.locator('input[type=hidden][name=file]')).toHaveCount(0)

	const plain = await pageAs('content_editor', { javaScriptEnabled: false })
	await plain.goto('/admin/content/videos/new')
	await plain.getByLabel('عنوان الفيديو').fill(`فيديو مزيف ${unique()}`)
	await plain.getByLabel('ملف الفيديو').setInputFiles(fake)
	await plain.getByRole('button', { name: 'حفظ' }).click()
	await expect(plain.getByText('الملف ليس فيديو. اختر ملف فيديو بصيغة MP4 أو WebM أو MOV.').first()).toBeVisible()
	await expect(plain.locator('input[type=hidden][name=file]')).toHaveCount(0)
})
