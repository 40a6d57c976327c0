import { expect, test } from 'vitest'
import { formatMonth } from '#app/text/format.ts'
import { EXCERPT_LENGTH } from '#app/content/news-items.ts'
import { newsExcerpt, newsFilter } from '#app/content/news-store.server.ts'

const sentence = 'وزعت المؤسسة السلال الغذائية على الأسر المستفيدة في أحياء جنوب الرياض بالتعاون مع المتطوعين'

test('a short body is its plain text, whole, without markup or an ellipsis', () => {
	expect(newsExcerpt('<p>خبر <strong>قصير</strong> &amp; مفيد</p>')).toBe('خبر قصير & مفيد')
})

test('a long body is cut on a word, at most 120 characters, and ends in an ellipsis', () => {
	const html = `<p>${sentence}</p><ul><li>${sentence}</li></ul>`
	const excerpt = newsExcerpt(html)
	expect(excerpt.endsWith('…')).toBe(true)
	const text = excerpt.slice(0, -1)
	expect(text.length).toBeLessThanOrEqual(EXCERPT_LENGTH)
	// The cut falls between words: what is kept is a run of whole words of the text.
	const plain = `${sentence} ${sentence}`
	expect(plain.startsWith(text)).toBe(true)
	expect(plain[text.length]).toBe(' ')
	// Paragraph ends become spaces: the two paragraphs' words do not run together.
	expect(text).toContain('المتطوعين وزعت')
})

test('markup is never cut in half, even when a tag falls at the cut', () => {
	const html = `<p>${'كلمة '.repeat(22)}<a href="https://example.org/a-very-long-address">رابط طويل</a> <strong>نص</strong></p>`
	const excerpt = newsExcerpt(html)
	expect(excerpt).not.toMatch(/[<>]|href|strong/)
	expect(excerpt.length).toBeLessThanOrEqual(EXCERPT_LENGTH + 1)
})

test('the list filter takes a trimmed search and a valid month only', () => {
	expect(newsFilter(new URL('http://x/news?q=%20%D8%A3%D8%B3%D8%B1%D8%A9%20%20&month=2026-05'))).toEqual({ q: 'أسرة', month: '2026-05' })
	expect(newsFilter(new URL('http://x/news?month=2026-13'))).toEqual({ q: '', month: '' })
	expect(newsFilter(new URL(`http://x/news?q=${'ا'.repeat(300)}&month=x`)).q).toHaveLength(100)
})

test('an archive month reads as its Arabic name and year', () => {
	expect(formatMonth('2026-05').replace(/\u00a0/g, ' ')).toBe('مايو 2026م (ذو القعدة–ذو الحجة 1447هـ)')
	expect(formatMonth('2025-12').replace(/\u00a0/g, ' ')).toBe('ديسمبر 2025م (جمادى الآخرة–رجب 1447هـ)')
})
