import { z } from 'zod'
import { toWesternDigits } from '#app/text/format.ts'
import { isMapEmbedUrl } from './embeds.ts'
import { maxCharacters } from '#app/text/messages.ts'
import { emailField } from './validators.ts'

// Foundation info (docs/product.md#content-that-staff-edit): about, e-mail, location, phone and phone2
// required; social links optional.

const requiredText = (message: string, max: number) => z.string({ error: message }).trim().min(1, message).max(max, maxCharacters(max))

const phone = (message: string) =>
	z
		.string({ error: message })
		.transform((value) => toWesternDigits(value).replace(/[\s-]/g, ''))
		.pipe(z.string().min(1, message).regex(/^\d{9,10}$/, 'رقم الهاتف يجب أن يكون 9 أو 10 أرقام'))

const link = z
	.string()
	.trim()
	.optional()
	.transform((value) => value ?? '')
	.refine((value) => value === '' || /^https:\/\/[^\s]+$/.test(value), 'الرجاء كتابة رابط يبدأ بـ https://')

export const foundationSchema = z.object({
	name: requiredText('الرجاء كتابة اسم المؤسسة', 120),
	about: requiredText('الرجاء كتابة نبذة عن المؤسسة', 20000),
	email: emailField({ required: true }),
	location: requiredText('الرجاء كتابة العنوان', 300),
	phone: phone('الرجاء كتابة رقم الهاتف'),
	phone2: phone('الرجاء كتابة رقم الهاتف الثاني'),
	twitter: link,
	linkedin: link,
	youtube: link,
	facebook: link,
	instagram: link,
	mapUrl: z
		.string()
		.trim()
		.optional()
		.transform((value) => value ?? '')
		.refine((value) => value === '' || isMapEmbedUrl(value), 'رابط الخريطة يجب أن يكون رابط تضمين من خرائط Google (يبدأ بـ https://www.google.com/maps/embed)'),
})

export type FoundationValues = z.output<typeof foundationSchema>
