import type { Page } from '@playwright/test'
import { expect, expectNoAxeViolations, test, unique } from './utils.ts'

// News (docs/product.md#news). Visitors read the demo news seeded on first start (eleven published,
// one draft); staff add, edit, unpublish and delete their own, under unique titles, through the
// content editor's stored session. A view counts once per address and browser, so the tests
// that count views open the page as browsers of their own (another User-Agent).

const otherBrowser = (name: string) => `Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0 ${name}`

/** The cards of a news list page, by their title links. */
const cardTitles = (page: Page) => page.getByRole('main').getByRole('article').getByRole('heading')

async function expectNoScripts(page: Page) {
	expect(await page.locator('script').count(), `scripts on ${page.url()}`).toBe(0)
}

/** The number in «65 مشاهدةً», «مشاهدة واحدة», «مشاهدتان». */
function viewsIn(text: string): number {
	if (text.includes('واحدة')) return 1
	if (text.includes('مشاهدتان')) return 2
	return Number(/\d+/.exec(text)?.[0])
}

const viewsOn = async (page: Page) => viewsIn((await page.getByRole('main').locator('dd').filter({ hasText: /مشاهد/ }).textContent()) ?? '')

test('the news list: six cards a page, a search that ignores hamza and tā marbūṭa, a month filter, and no JavaScript', async ({ page }) => {
	expect((await page.goto('/news'))?.status()).toBe(200)
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('الأخبار')
	await expect(cardTitles(page)).toHaveCount(6)
	const first = page.getByRole('article').first()
	// A card: image, date in both calendars (docs/product.md#dates), author, views, title linking to the item, and an excerpt.
	await expect(first.locator('img')).toHaveAttribute('loading', 'eager')
	await expect(first.locator('time')).toHaveText(/^\d{1,2}\s\p{Script=Arabic}+\s\d{4}م \(\d{1,2}\s[\p{Script=Arabic}\s]+\s\d{4}هـ\)$/u)
	await expect(first).toContainText('إدارة الإعلام والتواصل')
	await expect(first).toContainText(/مشاهد/)
	await expect(first.getByRole('link')).toHaveAttribute('href', /^\/news\/[0-9a-f-]{36}$/)
	await expectNoScripts(page)
	await expectNoAxeViolations(page)

	// Page 2 exists with the demo news, and the pager keeps the search.
	const pager = page.getByRole('navigation', { name: 'التنقل بين الصفحات' })
	await pager.getByRole('link', { name: 'التالي' }).click()
	await expect(page).toHaveURL(/[?&]page=2/)
	expect(await cardTitles(page).count()).toBeGreaterThan(0)

	// Stored «انطلاق حملة السلال الرمضانية», typed with a hamza under the alef and ه for ة.
	await page.goto('/news')
	await page.getByRole('searchbox', { name: 'ابحث في الأخبار' }).fill('إنطلاق حمله السلال')
	await page.getByRole('button', { name: 'بحث' }).click()
	await expect(page).toHaveURL(/\/news\?q=/)
	await expect(cardTitles(page)).toHaveText(['انطلاق حملة السلال الرمضانية لألفي أسرة في منطقة الرياض'])
	await expect(page.getByRole('status')).toContainText('خبر واحد')
	await expectNoScripts(page)

	// A word of the body, with tashkeel, over several pages: the pager's links keep it.
	await page.goto(`/news?q=${encodeURIComponent('مُؤسَّسة')}`)
	await expect(cardTitles(page)).toHaveCount(6)
	await expect(page.getByRole('navigation', { name: 'التنقل بين الصفحات' }).getByRole('link', { name: 'التالي' })).toHaveAttribute('href', /q=.*page=2|page=2.*q=/)

	await page.goto('/news?q=%D9%83%D9%84%D9%85%D8%A9%D9%84%D8%A7%D8%AA%D9%88%D8%AC%D8%AF')
	await expect(page.getByRole('main')).toContainText('لا توجد أخبار تطابق')
	await expect(cardTitles(page)).toHaveCount(0)

	// The month the archive links to: its heading says so and the filter can be cleared.
	await page.goto('/news?month=2026-05')
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('أخبار شهر مايو 2026م (ذو القعدة–ذو الحجة 1447هـ)')
	await expect(cardTitles(page)).toHaveText(['كسوة عيد الأضحى وتوزيع لحوم الأضاحي على الأسر المسجلة', 'إنجاز ترميم خمسة وعشرين منزلاً لأسر متعففة'])
	await expectNoAxeViolations(page)
	await page.getByRole('link', { name: 'إلغاء التصفية وعرض جميع الأخبار' }).click()
	await expect(page).toHaveURL('/news')
	await page.goto('/news?month=2019-01')
	await expect(page.getByRole('main')).toContainText('لا توجد أخبار منشورة في يناير 2019م (ربيع الآخر–جمادى الأولى 1440هـ).')
})

test('a news item shows its dates, author and views; a visit counts once, a cache hit too, a bot never; the sidebar leads on', async ({ pageAs }) => {
	const title = 'ورشة عمل لتمكين الأسر المنتجة وتسويق منتجاتها'
	const reader = await pageAs('visitor', { userAgent: otherBrowser(`reader-${unique()}`) })
	await reader.goto('/news?month=2026-10')
	await reader.getByRole('link', { name: title }).click()
	await expect(reader.getByRole('heading', { level: 1 })).toHaveText(title)
	const dates = reader.getByRole('main').locator('dd').first()
	await expect(dates).toHaveText('8 أكتوبر 2026م (27 ربيع الآخر 1448هـ)')
	await expect(reader.getByRole('main')).toContainText('إدارة الإعلام والتواصل')
	await expect(reader.getByRole('main')).toContainText('وتأتي الورشة ضمن توجه المؤسسة')
	await expect(reader.getByRole('main').locator('img').first()).toHaveAttribute('loading', 'eager')
	expect(await viewsOn(reader)).toBeGreaterThanOrEqual(64)
	await expectNoScripts(reader)
	await expectNoAxeViolations(reader)

	// The page is kept by the page cache like any public page, and the count it shows is the one stored
	// when it was drawn; each visit, a hit included, is written within seconds. Staff signed in get the
	// page drawn afresh, with the stored count (a robot's browser here, so their own visits count nothing).
	const staff = await pageAs('content_editor', { userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' })
	const stored = async () => {
		await staff.goto(reader.url())
		return viewsOn(staff)
	}
	// The reader's own visit is written within 2 s (VIEW_FLUSH_MS in app/content/views.server.ts).
	await staff.waitForTimeout(3_000)
	const views = await stored()
	expect(views).toBeGreaterThan(64)
	// A hit: once kept, the page is served from the cache (another test's content change on this
	// server may empty the cache in between; the next visit keeps the page again).
	await expect.poll(async () => (await reader.reload())?.headers()['x-ataa-cache'], { timeout: 30_000 }).toBe('hit')
	// Another browser is another visitor, counted from a cache hit; the reader again is not counted again.
	const second = await pageAs('visitor', { userAgent: otherBrowser(`second-${unique()}`) })
	const hit = await second.goto(reader.url())
	expect(hit?.headers()['x-ataa-cache']).toBe('hit')
	// The tag the count goes by stays in the server.
	expect(hit?.headers()['x-ataa-view']).toBeUndefined()
	await expect.poll(stored, { timeout: 15_000 }).toBe(views + 1)
	// A search engine's robot is not counted: a third visitor after it makes two, not three.
	const robot = await pageAs('visitor', { userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' })
	await robot.goto(reader.url())
	const third = await pageAs('visitor', { userAgent: otherBrowser(`third-${unique()}`) })
	await third.goto(reader.url())
	await expect.poll(stored, { timeout: 15_000 }).toBeGreaterThanOrEqual(views + 2)
	expect(await stored()).toBe(views + 2)

	// The sidebar: the three latest others, a keyword search that leads to the list, the archive by month.
	const sidebar = reader.getByRole('region', { name: 'آخر الأخبار' })
	await expect(sidebar.locator('li a[href^="/news/"]')).toHaveCount(3)
	await expect(sidebar).not.toContainText(title)
	const archive = reader.getByRole('navigation', { name: 'أرشيف الأخبار' })
	await expect(archive.getByRole('link', { name: /مارس 2026/ })).toContainText('خبران')
	await archive.getByRole('link', { name: /مايو 2026/ }).click()
	await expect(reader).toHaveURL('/news?month=2026-05')
	await expect(reader.getByRole('heading', { level: 1 })).toHaveText('أخبار شهر مايو 2026م (ذو القعدة–ذو الحجة 1447هـ)')
	await reader.goBack()
	await sidebar.getByRole('searchbox').fill('الأضاحى')
	await sidebar.getByRole('button', { name: 'بحث' }).click()
	await expect(cardTitles(reader)).toHaveText(['كسوة عيد الأضحى وتوزيع لحوم الأضاحي على الأسر المسجلة'])

	// The old site's address reaches the page; a malformed or unknown id is the site's 404.
	const id = new URL(second.url()).pathname.split('/').at(-1)!
	const legacy = await reader.request.get(`/news/deatils/${id}`)
	expect(legacy.status()).toBe(200)
	expect(new URL(legacy.url()).pathname).toBe(`/news/${id}`)
	for (const path of ['/news/42', '/news/00000000-0000-4000-8000-000000000000']) {
		const response = await reader.goto(path)
		expect(response?.status(), path).toBe(404)
		await expect(reader.getByRole('heading', { level: 1 })).toHaveText('الصفحة غير موجودة')
	}
})

test('staff add news with an image, edit, unpublish and delete it, and the public pages follow', async ({ page, pageAs }) => {
	const sharp = (await import('sharp')).default
	const photo = await sharp({ create: { width: 1200, height: 750, channels: 3, background: '#137a64' } })
		.jpeg()
		.toBuffer()
	const token = unique()
	const title = `افتتاح مركز الأُسْرة المنتجة ${token}`
	const staff = await pageAs('content_editor')

	await staff.goto('/admin/content/news')
	await expect(staff.getByRole('heading', { level: 1 })).toHaveText('الأخبار')
	const cards = staff.getByRole('list', { name: /^الأخبار، الصفحة 1/ })
	await expect(cards.getByRole('listitem')).toHaveCount(6)
	await expect(staff.getByRole('navigation', { name: 'التنقل بين الصفحات' })).toBeVisible()
	// The seeded draft is marked.
	await expect(cards.getByRole('listitem').filter({ hasText: 'حملة الشتاء' })).toContainText('غير منشور')
	await expectNoAxeViolations(staff)

	await staff.getByRole('link', { name: 'إضافة خبر' }).click()
	await staff.getByRole('button', { name: 'حفظ' }).click()
	const summary = staff.getByRole('alert').first()
	for (const message of ['الرجاء كتابة عنوان الخبر', 'الرجاء كتابة تفاصيل الخبر']) await expect(summary).toContainText(message)
	await expectNoAxeViolations(staff)
	const details = 'افتتحت المؤسسة مركزاً لتدريب الأسر المنتجة على الخياطة والطهي وتسويق المنتجات.'
	await staff.getByLabel('عنوان الخبر').fill(title)
	await staff.getByRole('textbox', { name: 'تفاصيل الخبر', exact: true }).fill(details)
	await staff.getByRole('button', { name: 'حفظ' }).click()
	await expect(staff.getByRole('alert').first()).toContainText('الرجاء إضافة صورة للخبر')
	await expect(staff.getByLabel('عنوان الخبر')).toHaveValue(title)
	await staff.getByRole('textbox', { name: 'تفاصيل الخبر', exact: true }).fill(details)
	await staff.getByLabel('صورة الخبر').setInputFiles({ name: 'centre.jpg', mimeType: 'image/jpeg', buffer: photo })
	await staff.getByLabel('منشور في الموقع').check()
	await staff.getByRole('button', { name: 'حفظ' }).click()
	await expect(staff.getByRole('status')).toHaveText('تمت إضافة الخبر بنجاح')
	const card = staff.getByRole('listitem').filter({ hasText: title })
	await expect(card).not.toContainText('غير منشور')
	await expect(card.locator('img')).toBeVisible()

	// Found by a visitor who types «الاسره» (no hamza, ه for ة); the author is who added it.
	await page.goto(`/news?q=${encodeURIComponent(`مركز الاسره المنتجه ${token}`)}`)
	await expect(cardTitles(page)).toHaveText([title])
	await expect(page.getByRole('article')).toContainText('خالد السبيعي')
	await page.getByRole('link', { name: title }).click()
	await expect(page.getByRole('heading', { level: 1 })).toHaveText(title)
	const address = page.url()
	await expectNoAxeViolations(page)

	await staff.goto('/admin/content/news')
	await card.getByRole('link', { name: /تعديل/ }).click()
	await expect(staff.getByLabel('تاريخ الخبر')).toHaveValue(/^\d{4}-\d{2}-\d{2}$/)
	await expectNoAxeViolations(staff)
	await staff.getByLabel('عنوان الخبر').fill(`${title} الجديد`)
	await staff.getByRole('button', { name: 'حفظ' }).click()
	await expect(staff.getByRole('status')).toHaveText('تم تحديث بيانات الخبر بنجاح')
	await page.goto(address)
	await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${title} الجديد`)

	// Unpublished: gone from the list and a 404 for visitors; staff still see it, marked.
	await staff.getByRole('listitem').filter({ hasText: title }).getByRole('link', { name: /تعديل/ }).click()
	await staff.getByLabel('منشور في الموقع').uncheck()
	await staff.getByRole('button', { name: 'حفظ' }).click()
	await expect(staff.getByRole('status')).toHaveText('تم تحديث بيانات الخبر بنجاح')
	await expect(staff.getByRole('listitem').filter({ hasText: title })).toContainText('غير منشور')
	await page.goto(`/news?q=${encodeURIComponent(token)}`)
	await expect(cardTitles(page)).toHaveCount(0)
	await expect(page.getByRole('main')).toContainText('لا توجد أخبار تطابق')
	expect((await page.goto(address))?.status()).toBe(404)
	await staff.goto(address)
	await expect(staff.getByRole('heading', { level: 1 })).toHaveText(`${title} الجديد`)
	await expect(staff.getByRole('main')).toContainText('غير منشور')

	await staff.goto('/admin/content/news')
	await staff.getByRole('listitem').filter({ hasText: title }).getByRole('link', { name: /حذف/ }).click()
	await expect(staff.getByRole('heading', { level: 1 })).toContainText(title)
	await staff.getByRole('button', { name: 'نعم، احذف' }).click()
	await expect(staff.getByRole('status')).toHaveText('تم حذف الخبر')
	await expect(staff.getByText(title)).toHaveCount(0)
	expect((await staff.goto(address))?.status()).toBe(404)
})

test('the home page shows the two latest published news', async ({ page }) => {
	// Other tests add news meanwhile: compare with the list's first two, retried until both pages agree.
	await expect(async () => {
		await page.goto('/news')
		const latest = await cardTitles(page).allTextContents()
		await page.goto('/')
		const block = page.getByRole('region', { name: 'آخر الأخبار' })
		expect(await block.getByRole('article').getByRole('heading').allTextContents()).toEqual(latest.slice(0, 2))
	}).toPass({ timeout: 15_000 })
	const block = page.getByRole('region', { name: 'آخر الأخبار' })
	await expect(block.getByRole('article').first()).toContainText(/مشاهد/)
	await expect(block.getByRole('article').first().locator('img')).toBeVisible()
	await expect(block.getByRole('link', { name: 'جميع الأخبار' })).toHaveAttribute('href', '/news')
})
