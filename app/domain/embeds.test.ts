import { expect, test } from 'vitest'
import { isMapEmbedUrl } from './embeds.ts'
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
