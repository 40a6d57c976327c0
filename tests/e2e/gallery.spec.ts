import sharp from 'sharp'
import type { Locator } from '@playwright/test'
import { expect, expectNoAxeViolations, test, unique } from './utils.ts'

// The photo and video galleries (docs/product.md#photo-and-video-galleries): visitors on the seeded
// demo albums and videos; staff on an album of their own, under a unique name.

const demoAlbum = '/gallery/ramadan-food-baskets'

/** The photo of a view has arrived (its variants are encoded on the first request: give it time). */
async function expectLoaded(image: Locator) {
	await expect.poll(() => image.evaluate((element: HTMLImageElement) => (element.complete ? element.naturalWidth : 0)), { timeout: 20_000 }).toBeGreaterThan(0)
}

async function png(hue: number): Promise<Buffer> {
	return sharp({ create: { width: 320, height: 240, channels: 3, background: `hsl(${hue}, 50%, 50%)` } })
		.png()
		.toBuffer()
}

test('the gallery and an album ship no JavaScript file; a photo opens in a modal viewer that the arrow keys move and Escape closes', async ({ page }) => {
	await page.goto('/gallery')
	// Counted before axe-core is injected as a script of its own.
	expect(await page.locator('script').count(), 'scripts on /gallery').toBe(0)
	await expectNoAxeViolations(page)
	for (const title of ['توزيع السلال الغذائية في رمضان', 'مبادرة ترميم المنازل', 'فعاليات اليوم الوطني']) await expect(page.getByRole('heading', { level: 2, name: title })).toBeVisible()
	await page.getByRole('link', { name: 'توزيع السلال الغذائية في رمضان' }).click()
	await expect(page).toHaveURL(demoAlbum)
	// One inline script (the viewer's), no script file: the page does not hydrate.
	expect(await page.locator('script[src]').count(), `script files on ${demoAlbum}`).toBe(0)
	expect(await page.locator('script').count(), `inline scripts on ${demoAlbum}`).toBe(1)
	await expectNoAxeViolations(page)

	const thumbnails = page.locator('main a[data-photo]')
	await expect(thumbnails).toHaveCount(7)
	await thumbnails.first().click()
	const viewer = page.getByRole('dialog', { name: 'عارض الصور' })
	await expect(viewer).toBeVisible()
	expect(await viewer.evaluate((dialog) => dialog.matches(':modal')), 'shown with showModal()').toBe(true)
	// The script keeps the address: no #photo-1, so the page's own :target view stays hidden.
	await expect(page).toHaveURL(demoAlbum)
	await expect(viewer.getByText('الصورة 1 من 7', { exact: true })).toBeVisible()
	await expect(viewer.getByRole('figure')).toContainText('سلة غذائية جاهزة للتوزيع')
	await expectLoaded(viewer.getByRole('img'))
	await expect(viewer.getByRole('img', { name: 'سلة غذائية جاهزة للتوزيع' })).toBeVisible()
	const close = viewer.getByRole('link', { name: 'إغلاق' })
	await expect(close).toBeFocused()
	await expectNoAxeViolations(page)

	// In Arabic the next photo is to the left: ArrowLeft moves on, ArrowRight back, round the ends.
	await page.keyboard.press('ArrowLeft')
	await expect(viewer.getByText('الصورة 2 من 7', { exact: true })).toBeVisible()
	await page.keyboard.press('ArrowRight')
	await page.keyboard.press('ArrowRight')
	await expect(viewer.getByText('الصورة 7 من 7', { exact: true })).toBeVisible()
	// The focus stays on the close link as the photo changes; Tab goes on to previous and next, and
	// the next link keeps the focus as the photo changes.
	await expect(close).toBeFocused()
	await page.keyboard.press('Tab')
	await page.keyboard.press('Tab')
	const next = viewer.getByRole('link', { name: 'الصورة التالية' })
	await expect(next).toBeFocused()
	await page.keyboard.press('Enter')
	await expect(viewer.getByText('الصورة 1 من 7', { exact: true })).toBeVisible()
	await expect(next).toBeFocused()
	// A swipe to the right is the next photo in RTL.
	await viewer.evaluate((dialog) => {
		const touch = (clientX: number) => new Touch({ identifier: 1, target: dialog, clientX, clientY: 300 })
		dialog.dispatchEvent(new TouchEvent('touchstart', { touches: [touch(100)], changedTouches: [touch(100)], bubbles: true }))
		dialog.dispatchEvent(new TouchEvent('touchend', { touches: [], changedTouches: [touch(220)], bubbles: true }))
	})
	await expect(viewer.getByText('الصورة 2 من 7', { exact: true })).toBeVisible()
	await page.keyboard.press('Escape')
	await expect(viewer).toBeHidden()
	// Focus returns to the photo last seen: the second.
	await expect(thumbnails.nth(1)).toBeFocused()
	await expect(page).toHaveURL(demoAlbum)

	// A link to one photo shows its view, as without JavaScript (axe-core needs JavaScript to run).
	await page.goto(`${demoAlbum}#photo-3`)
	const third = page.getByRole('region', { name: 'الصورة 3 من 7: ليلة من ليالي رمضان' })
	await expect(third).toBeVisible()
	await expectLoaded(third.getByRole('img'))
	await expectNoAxeViolations(page)
})

test('without JavaScript a thumbnail opens its photo’s view, with previous, next, close and the full image', async ({ pageAs }) => {
	const page = await pageAs('visitor', { javaScriptEnabled: false })
	await page.goto(demoAlbum)
	const thumbnails = page.locator('main a[data-photo]')
	await thumbnails.first().click()
	await expect(page).toHaveURL(`${demoAlbum}#photo-1`)
	const first = page.getByRole('region', { name: 'الصورة 1 من 7: سلة غذائية جاهزة للتوزيع' })
	await expect(first).toBeVisible()
	await expect(first).toBeFocused()
	await expectLoaded(first.getByRole('img'))
	await expect(first.getByRole('img', { name: 'سلة غذائية جاهزة للتوزيع' })).toBeVisible()
	await expect(page.getByRole('dialog')).toBeHidden()

	await first.getByRole('link', { name: 'الصورة التالية' }).click()
	await expect(page).toHaveURL(`${demoAlbum}#photo-2`)
	await expect(first).toBeHidden()
	const second = page.getByRole('region', { name: /^الصورة 2 من 7/ })
	await expect(second).toContainText('تجهيز الطرود في المستودع')
	await second.getByRole('link', { name: 'الصورة السابقة' }).click()
	await first.getByRole('link', { name: 'الصورة السابقة' }).click()
	await expect(page).toHaveURL(`${demoAlbum}#photo-7`)

	// By keyboard: the view takes the focus, Tab reaches its links, and close gives the focus back to the thumbnail.
	const seventh = page.getByRole('region', { name: /^الصورة 7 من 7/ })
	await expect(seventh).toBeFocused()
	await page.keyboard.press('Tab')
	await expect(seventh.getByRole('link', { name: 'الحجم الكامل' })).toBeFocused()
	await page.keyboard.press('Tab')
	await expect(seventh.getByRole('link', { name: 'إغلاق' })).toBeFocused()
	await page.keyboard.press('Enter')
	await expect(page).toHaveURL(`${demoAlbum}#thumb-7`)
	await expect(seventh).toBeHidden()
	await expect(thumbnails.nth(6)).toBeFocused()

	// The full image, from a view now hidden.
	const href = await page.locator('#photo-1 a[data-nav="full"]').getAttribute('href')
	const image = await page.request.get(href!)
	expect(image.status()).toBe(200)
	expect(image.headers()['content-type']).toBe('image/webp')
})

test.describe('with the page’s own Content-Security-Policy enforced', () => {
	test.use({ bypassCSP: false })

	test('the album page is kept by the page cache and its viewer script runs, allowed by its hash', async ({ page }) => {
		const refused: string[] = []
		page.on('console', (message) => {
			if (/Content Security Policy|Refused/i.test(message.text())) refused.push(message.text())
		})
		for (const expected of [/^(miss|hit)$/, /^hit$/]) {
			// Other tests may have had the page kept first. The second visit may be the browser's own
			// copy, confirmed by a 304: a hit as well.
			const response = await page.goto(demoAlbum)
			expect(response?.headers()['x-ataa-cache']).toMatch(expected)
			await page.locator('main a[data-photo]').nth(2).click()
			const viewer = page.getByRole('dialog', { name: 'عارض الصور' })
			await expect(viewer.getByText('الصورة 3 من 7', { exact: true })).toBeVisible()
			await page.keyboard.press('Escape')
			await expect(viewer).toBeHidden()
			await expect(page.locator('main a[data-photo]').nth(2)).toBeFocused()
		}
		expect(refused).toEqual([])
	})

	test('the viewer’s zoom, enabled once the photo has shown for 300 ms, doubles the photo; a drag or the arrow keys move it, and another photo starts unzoomed', async ({ page }) => {
		const refused: string[] = []
		page.on('console', (message) => {
			if (/Content Security Policy|Refused/i.test(message.text())) refused.push(message.text())
		})
		await page.goto(demoAlbum)
		const viewer = page.getByRole('dialog', { name: 'عارض الصور' })
		const zoomIn = viewer.getByRole('button', { name: 'تكبير الصورة' })
		const zoomOut = viewer.getByRole('button', { name: 'تصغير الصورة' })
		const image = viewer.getByRole('img')
		const pan = viewer.locator('[data-pan]')
		const width = () => image.evaluate((element) => element.getBoundingClientRect().width)
		// Read in the task that shows the photo, so no timer can have run: disabled, and a click then does nothing.
		const atFirst = await page.evaluate(() => {
			document.querySelector<HTMLElement>('main a[data-photo]')!.click()
			const button = document.querySelector<HTMLButtonElement>('#photo-viewer [data-nav="zoom"]')!
			button.click()
			return { disabled: button.getAttribute('aria-disabled'), zoomed: document.querySelector('#photo-viewer [data-zoomed]') !== null }
		})
		expect(atFirst).toEqual({ disabled: 'true', zoomed: false })
		await expect(zoomIn).toBeVisible()
		await expect(zoomIn).toBeEnabled()
		const box = await zoomIn.boundingBox()
		expect(box!.height, 'a 44 px touch target').toBeGreaterThanOrEqual(44)
		await expectLoaded(image)
		const fitted = await width()

		await zoomIn.click()
		await expect(zoomOut).toBeFocused()
		await expect.poll(width).toBeCloseTo(2 * fitted, 0)
		// The photo's middle stays in view: the zoomed photo is scrolled away from its start.
		const scrolled = () => pan.evaluate((element) => ({ left: element.scrollLeft, top: element.scrollTop }))
		const middle = await scrolled()
		expect(middle.top).toBeGreaterThan(0)
		// A drag moves the photo, keeps the viewer open and the same photo. (axe-core, an inline script,
		// cannot run under this policy: mobile.spec.ts checks the zoomed viewer.)
		const area = (await pan.boundingBox())!
		const at = { x: area.x + area.width / 2, y: area.y + area.height / 2 }
		await page.mouse.move(at.x, at.y)
		await page.mouse.down()
		await page.mouse.move(at.x + 60, at.y + 80, { steps: 4 })
		await page.mouse.up()
		await expect(viewer).toBeVisible()
		await expect.poll(async () => (await scrolled()).top).toBeCloseTo(middle.top - 80, 0)
		expect((await scrolled()).left).toBeCloseTo(middle.left - 60, 0)
		// Zoomed, the arrow keys move the photo instead of changing it.
		await zoomOut.focus()
		await page.keyboard.press('ArrowDown')
		await expect.poll(async () => (await scrolled()).top).toBeGreaterThan(middle.top - 80)
		await page.keyboard.press('ArrowLeft')
		await expect(viewer.getByText('الصورة 1 من 7', { exact: true })).toBeVisible()

		await zoomOut.click()
		await expect(zoomIn).toBeFocused()
		await expect.poll(width).toBeCloseTo(fitted, 0)
		// A double click zooms too; the next photo starts unzoomed.
		await image.dblclick()
		await expect(zoomOut).toBeVisible()
		await expect.poll(width).toBeCloseTo(2 * fitted, 0)
		await viewer.getByRole('link', { name: 'الصورة التالية' }).click()
		await expect(viewer.getByText('الصورة 2 من 7', { exact: true })).toBeVisible()
		await expect(zoomIn).toBeVisible()
		await expect(zoomOut).toHaveCount(0)
		expect(await viewer.locator('[data-zoomed]').count()).toBe(0)
		expect(refused).toEqual([])
	})
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
	await expect(staff.getByRole('status')).toHaveText('تمت إضافة الألبوم بنجاح')
	await staff.getByRole('link', { name: `الصور ${title}` }).click()
	await expectNoAxeViolations(staff)

	await staff.getByLabel('إضافة صور إلى الألبوم').setInputFiles([
		{ name: 'الأولى.png', mimeType: 'image/png', buffer: await png(20) },
		{ name: 'الثانية.png', mimeType: 'image/png', buffer: await png(200) },
	])
	await staff.getByRole('button', { name: 'رفع الصور' }).click()
	await expect(staff.getByRole('status')).toHaveText('تمت إضافة صورتين بنجاح.')
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
	await expect(visitor.locator('main li figure')).toHaveCount(1)
	await expect(visitor.locator('main li figcaption')).toHaveText('صورة الغلاف الجديدة')
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
