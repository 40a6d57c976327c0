import { z } from 'zod'
import { emailField, saudiMobileField } from './validators.ts'

// Spec §5 contact form: every field required; e-mail pattern; mobile 10 digits (05…). Spec §8 messages.

const required = (message: string, max: number) => z.string({ error: message }).trim().min(1, message).max(max, `${max} حرف على الأكثر`)

export const contactSchema = z.object({
	UserName: required('الرجاء كتابة الاسم', 100),
	Email: emailField({ required: true }),
	Mobile: saudiMobileField(),
	Subject: required('الرجاء كتابة الموضوع', 150),
	InquiryText: required('الرجاء كتابة التفاصيل', 3000),
})
