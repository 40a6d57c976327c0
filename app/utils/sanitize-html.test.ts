import { describe, expect, test } from 'vitest'
import { htmlToPlainText, sanitizeRichText } from './sanitize-html.server.ts'

describe('sanitizeRichText', () => {
	test('keeps the allowed formatting as it is', () => {
		const html =
			'<h2>عن المؤسسة</h2><h3>رؤيتنا</h3><h4>قيمنا</h4><p><strong>عطاء</strong> <b>و</b> <em>نماء</em> <i>و</i> <u>أثر</u><br>سطر</p>' +
			'<ul><li>أ</li></ul><ol><li>ب</li></ol><blockquote>قول</blockquote><hr>'
		// sanitize-html writes void elements as <br /> and <hr />.
		expect(sanitizeRichText(html)).toBe(html.replace('<br>', '<br />').replace('<hr>', '<hr />'))
	})

	test('leaves Arabic text untouched', () => {
		const html = '<p>بسم الله الرحمن الرحيم، مؤسسة عطاء الخيرية «تُعنى» بالأسر المحتاجة ١٢٣ 2024م.</p>'
		expect(sanitizeRichText(html)).toBe(html)
	})

	test('removes script together with its content', () => {
		const out = sanitizeRichText('<p>قبل</p><script>alert(1)</script><p>بعد</p>')
		expect(out).toBe('<p>قبل</p><p>بعد</p>')
		expect(out).not.toContain('alert')
	})

	test('removes images with event handlers', () => {
		expect(sanitizeRichText('<p>نص<img src=x onerror=alert(1)></p>')).toBe('<p>نص</p>')
	})

	test('keeps a paragraph but drops event handlers and style', () => {
		expect(sanitizeRichText('<p onclick="x" style="color:red" class="c" id="i">نص</p>')).toBe('<p>نص</p>')
	})

	test.each(['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'java&#x09;script:alert(1)', ' javascript:alert(1)', 'data:text/html;base64,PHNjcmlwdD4=', 'vbscript:x', '//evil.example', '/\\evil.example', 'contact'])(
		'a link to %s loses its href',
		(href) => {
			const out = sanitizeRichText(`<p><a href="${href}">رابط</a></p>`)
			expect(out).toBe('<p><a rel="noopener noreferrer">رابط</a></p>')
		},
	)

	test('an external link opens in a new tab without an opener', () => {
		expect(sanitizeRichText('<a href="https://example.org" title="مثال">مثال</a>')).toBe(
			'<a href="https://example.org" title="مثال" target="_blank" rel="noopener noreferrer">مثال</a>',
		)
		expect(sanitizeRichText('<a href="http://example.org" target="_self" rel="opener">مثال</a>')).toBe(
			'<a href="http://example.org" target="_blank" rel="noopener noreferrer">مثال</a>',
		)
	})

	test('internal, mail and phone links stay in the same tab', () => {
		expect(sanitizeRichText('<a href="/contact" target="_blank">تواصل</a>')).toBe('<a href="/contact" rel="noopener noreferrer">تواصل</a>')
		expect(sanitizeRichText('<a href="mailto:info@ataa.org.sa">بريد</a>')).toBe('<a href="mailto:info@ataa.org.sa" rel="noopener noreferrer">بريد</a>')
		expect(sanitizeRichText('<a href="tel:+966500000000">هاتف</a>')).toBe('<a href="tel:+966500000000" rel="noopener noreferrer">هاتف</a>')
	})

	test.each([
		['<iframe src="https://evil.example">داخل</iframe>', ''],
		['<svg><script>alert(1)</script><circle r="1"/></svg>', ''],
		['<svg><g/><text>نص</text></svg><p>بعد</p>', '<p>بعد</p>'],
		['<math><mi xlink:href="javascript:alert(1)">x</mi></math>', ''],
		['<p>أ<!-- تعليق --></p><!--[if IE]><script>alert(1)</script><![endif]-->', '<p>أ</p>'],
		['<style>p{color:red}</style><p>ب</p>', '<p>ب</p>'],
		['<object data="x.swf">بديل</object><embed src="x.swf">', ''],
		['<form action="/x"><input name="a"><button>زر</button></form>', 'زر'],
		['<noscript><p>ن</p></noscript>', ''],
	])('drops %s', (html, expected) => {
		expect(sanitizeRichText(html)).toBe(expected)
	})

	test.each(['<scr<script>ipt>alert(1)</script>', '<scr<script>ipt>alert(1)</scr</script>ipt>', '<<script>script>alert(1)<</script>/script>', '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>', '<textarea><script>alert(1)</script></textarea>', '<xmp><script>alert(1)</script></xmp>'])(
		'nested tricks never produce a script tag: %s',
		(html) => {
			const out = sanitizeRichText(html)
			expect(out).not.toMatch(/<\s*script/i)
			expect(out).not.toMatch(/<(?!\/?(p|br|strong|b|em|i|u|h[234]|ul|ol|li|blockquote|a|hr)[\s>])/)
		},
	)

	test('keeps dir only with the values rtl, ltr and auto', () => {
		expect(sanitizeRichText('<p dir="rtl">ع</p><p dir="ltr">English</p><h2 dir="auto">ع</h2>')).toBe('<p dir="rtl">ع</p><p dir="ltr">English</p><h2 dir="auto">ع</h2>')
		expect(sanitizeRichText('<p dir="evil">ع</p><strong dir="rtl">ق</strong>')).toBe('<p>ع</p><strong>ق</strong>')
		expect(sanitizeRichText('<p dir=" RTL ">ع</p><p dir="">ع</p>')).toBe('<p dir="rtl">ع</p><p>ع</p>')
	})

	test('turns editor markup into allowed markup and drops empty paragraphs', () => {
		expect(sanitizeRichText('<h1>عنوان</h1><div>سطر</div><p><br></p><p> </p><span style="font-weight:bold">نص</span>')).toBe('<h2>عنوان</h2><p>سطر</p>نص')
	})
})

describe('htmlToPlainText', () => {
	test('strips tags, decodes entities and collapses whitespace', () => {
		expect(htmlToPlainText('<h2>عن  المؤسسة</h2><p>عطاء &amp; نماء&nbsp;&lt;معاً&gt;</p>\n<ul><li>أ</li><li>ب</li></ul>')).toBe('عن المؤسسة عطاء & نماء <معاً> أ ب')
	})

	test('drops script and style content', () => {
		expect(htmlToPlainText('<style>p{}</style><p>نص</p><script>alert(1)</script>')).toBe('نص')
	})

	test('leaves short text whole', () => {
		expect(htmlToPlainText('<p>نص قصير</p>', 120)).toBe('نص قصير')
	})

	test('cuts a long Arabic paragraph at a word boundary with an ellipsis', () => {
		const paragraph =
			'<p>تأسست مؤسسة عطاء الخيرية بهدف خدمة المجتمع ودعم الأسر المحتاجة في مختلف مناطق المملكة العربية السعودية، وتعمل المؤسسة على تنفيذ برامج تنموية مستدامة تسهم في تحسين جودة الحياة وتمكين المستفيدين من الاعتماد على أنفسهم.</p>'
		const excerpt = htmlToPlainText(paragraph, 120)
		expect(excerpt.length).toBeLessThanOrEqual(121)
		expect(excerpt.endsWith('…')).toBe(true)
		const words = excerpt.slice(0, -1).split(' ')
		// Every word in the excerpt is a whole word of the original text.
		const original = htmlToPlainText(paragraph).split(' ')
		expect(words.every((word, index) => original[index]?.replace(/،$/, '') === word.replace(/،$/, ''))).toBe(true)
	})

	test('cuts a single long word mid-word', () => {
		expect(htmlToPlainText('ا'.repeat(50), 10)).toBe(`${'ا'.repeat(10)}…`)
	})
})
