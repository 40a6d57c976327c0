import { describe, expect, test } from 'vitest'
import { templateMail } from './messages.ts'
import { messageEvent, renderMessage } from './templates.ts'
import { unlinkable } from './unlinkable.ts'

describe('unlinkable', () => {
	test('an address typed as a name is bracketed where a mail program would see a link', () => {
		expect(unlinkable('https://phish.example/login')).toBe('https[:]//phish[.]example/login')
		expect(unlinkable('www.phish.example')).toBe('www[.]phish[.]example')
		expect(unlinkable('x@phish.example')).toBe('x@phish[.]example')
	})
	test('an Arabic name, its initials and its punctuation stay as typed', () => {
		expect(unlinkable('عبدالله م. القحطاني')).toBe('عبدالله م. القحطاني')
		expect(unlinkable('محمد بن سعد.')).toBe('محمد بن سعد.')
	})
})

test("the staff's notice links the case's address it holds, never the name the applicant typed", () => {
	const definition = messageEvent('new-submission')!
	const rendered = renderMessage(definition.defaults, { name: 'https://phish.example/x', reference: 'ABC123', programme: 'الأسر المحتاجة', link: 'https://ataa.example/admin/cases/ABC123' })
	const mail = templateMail(rendered.subject, rendered.body)
	expect(mail.text).not.toContain('https://phish')
	expect(mail.text).toContain('https[:]//phish[.]example/x')
	expect(mail.html).not.toContain('phish.example')
	expect(mail.html).toContain('<a href="https://ataa.example/admin/cases/ABC123"')
})
