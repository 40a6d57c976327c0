import { expect, test } from 'vitest'
import { isMapEmbedUrl, youtubeEmbedUrl, youtubeUrlMessage } from './embeds.ts'
import { contentSchema } from '#app/content/schema.ts'
import { homePage } from '#app/content/types.ts'
import { foundationSchema } from './foundation-schema.ts'

test('only Google Maps embed addresses are accepted for the map', () => {
	expect(isMapEmbedUrl('https://www.google.com/maps/embed?pb=!1m18')).toBe(true)
	expect(isMapEmbedUrl('https://evil.example/maps/embed?pb=1')).toBe(false)
	expect(isMapEmbedUrl('http://www.google.com/maps/embed?pb=1')).toBe(false)
	expect(isMapEmbedUrl('https://www.google.com.evil.example/maps/embed')).toBe(false)
	expect(isMapEmbedUrl('javascript:alert(1)')).toBe(false)
})

test('foundation info: required fields, phones of 9 or 10 digits, https links only', () => {
	const base = { name: 'مؤسسة عطاء الخيرية', about: '<p>نبذة</p>', email: 'info@ataa.org.sa', location: 'الرياض', phone: '٠١١٤٥٦٧٨٩٠', phone2: '920012345' }
	const ok = foundationSchema.parse(base)
	expect(ok.phone).toBe('0114567890')
	expect(ok.twitter).toBe('')
	const bad = foundationSchema.safeParse({ ...base, phone: '123', twitter: 'javascript:alert(1)', mapUrl: 'https://evil.example' })
	expect(bad.success).toBe(false)
	expect(bad.error!.issues.map((issue) => issue.message)).toEqual([
		'رقم الهاتف يجب أن يكون 9 أو 10 أرقام',
		'الرجاء كتابة رابط يبدأ بـ https://',
		'رابط الخريطة يجب أن يكون رابط تضمين من خرائط Google (يبدأ بـ https://www.google.com/maps/embed)',
	])
})

test('a YouTube address as staff copy it becomes its embed address (issue 24 §5.15)', () => {
	const embed = 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'
	for (const copied of [
		'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
		'https://youtube.com/watch?v=dQw4w9WgXcQ&list=PL123&index=2',
		'https://m.youtube.com/watch?v=dQw4w9WgXcQ',
		'https://youtu.be/dQw4w9WgXcQ',
		'https://youtu.be/dQw4w9WgXcQ?si=AbCdEf',
		'https://www.youtube.com/shorts/dQw4w9WgXcQ',
		'https://www.youtube.com/embed/dQw4w9WgXcQ',
		'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?si=x',
		'  https://www.youtube.com/watch?v=dQw4w9WgXcQ  ',
	]) {
		expect(youtubeEmbedUrl(copied), copied).toBe(embed)
	}
	expect(youtubeEmbedUrl('https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=90s')).toBe(`${embed}?start=90`)
	expect(youtubeEmbedUrl('https://youtu.be/dQw4w9WgXcQ?t=1m5s')).toBe(`${embed}?start=65`)
	expect(youtubeEmbedUrl('https://youtu.be/dQw4w9WgXcQ?t=42')).toBe(`${embed}?start=42`)
})

test('anything that is not a YouTube video is refused', () => {
	for (const refused of [
		'https://vimeo.com/123456',
		'https://www.youtube.com.evil.example/watch?v=dQw4w9WgXcQ',
		'https://evil.example/watch?v=dQw4w9WgXcQ',
		'https://www.youtube.com/watch',
		'https://www.youtube.com/',
		'https://www.youtube.com/channel/UC123',
		'https://youtu.be/',
		'https://www.youtube-nocookie.com/embed/x"onmouseover="alert(1)',
		'javascript:alert(1)',
		'youtube.com/watch?v=dQw4w9WgXcQ',
		'https://user@www.youtube.com/watch?v=dQw4w9WgXcQ',
	]) {
		expect(youtubeEmbedUrl(refused), refused).toBeNull()
	}
})

test('the home videos take an address-bar link and store the embed form; another host is refused in Arabic', () => {
	const video1Url = homePage.fields.find((field) => field.name === 'video1Url')!
	const schema = contentSchema({ ...homePage, fields: [video1Url] })
	expect(schema.parse({ video1Url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=10' })).toEqual({ video1Url: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?start=10' })
	expect(schema.parse({ video1Url: '' })).toEqual({ video1Url: '' })
	const refused = schema.safeParse({ video1Url: 'https://vimeo.com/1' })
	expect(refused.error?.issues.map((issue) => issue.message)).toEqual([youtubeUrlMessage])
})
