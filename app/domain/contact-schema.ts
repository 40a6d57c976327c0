import { z } from 'zod'
import { maxCharacters } from '#app/text/messages.ts'
import { emailField, saudiMobileField } from './validators.ts'

// The contact form (docs/product.md#other-forms): every field required; e-mail pattern; mobile 10 digits
// (05…). Messages: docs/product.md#messages.

const required = (message: string, max: number) => z.string({ error: message }).trim().min(1, message).max(max, maxCharacters(max))

export const contactSchema = z.object({
	UserName: required('الرجاء كتابة الاسم', 100),
	Email: emailField({ required: true }),
	Mobile: saudiMobileField(),
	Subject: required('الرجاء كتابة الموضوع', 150),
	InquiryText: required('الرجاء كتابة التفاصيل', 3000),
})
