import { z } from 'zod'
import { toWesternDigits } from '#app/text/format.ts'
import { youtubeEmbedUrl, youtubeUrlMessage } from '#app/domain/embeds.ts'
import { numberOutOfRange, requiredChoice, requiredText, tooLong } from '#app/text/messages.ts'
import type { ContentField, ContentType } from './definition.ts'

function fieldSchema(field: ContentField): z.ZodType {
	switch (field.kind) {
		case 'text':
		case 'textarea':
		case 'richtext': {
			const max = field.kind === 'richtext' ? 50_000 : (field.maxLength ?? 500)
			const reserved = field.kind === 'text' ? (field.reserved ?? []) : []
			const text = z
				.string()
				.trim()
				.max(max, tooLong(field.label, max))
				.optional()
				.transform((value) => value ?? '')
				.refine((value) => !(field.kind === 'text' && field.slug) || /^[a-z0-9]+(-[a-z0-9]+)*$/.test(value), `${field.label}: أحرف لاتينية صغيرة وأرقام وشرطات فقط`)
				.refine((value) => !reserved.includes(value), `${field.label}: ${reserved.map((word) => `«${word}»`).join('، ')} محجوز لصفحة أخرى في الموقع، اختر غيره`)
			return field.required ? text.refine((value) => value !== '', requiredText(field.label)) : text
		}
		case 'number':
			return z
				.union([z.number(), z.string()])
				.optional()
				.transform((value, ctx) => {
					if (value === undefined || value === '') return 0
					const number = typeof value === 'number' ? value : Number(toWesternDigits(value))
					if (!Number.isInteger(number) || number < (field.min ?? 0) || number > (field.max ?? 1_000_000)) {
						ctx.addIssue({ code: 'custom', message: numberOutOfRange(field.label, field.min ?? 0, field.max ?? 1_000_000) })
						return z.NEVER
					}
					return number
				})
		case 'url': {
			if (field.youtube) {
				const video = z
					.string()
					.trim()
					.optional()
					.transform((value, ctx) => {
						if (!value) return ''
						const embed = youtubeEmbedUrl(value)
						if (embed) return embed
						ctx.addIssue({ code: 'custom', message: youtubeUrlMessage })
						return z.NEVER
					})
				return field.required ? video.refine((value) => value !== '', requiredText(field.label)) : video
			}
			const url = z
				.string()
				.trim()
				.optional()
				.transform((value) => value ?? '')
				// «/page» is ours; «//host» and «/\host» are other sites to a browser, so only https:// names one.
				.refine((value) => value === '' || /^\/(?![/\\])\S*$/.test(value) || /^https:\/\/[^\s]+$/.test(value), 'الرجاء كتابة رابط يبدأ بـ https:// أو /')
			return field.required ? url.refine((value) => value !== '', requiredText(field.label)) : url
		}
		case 'date': {
			const date = z
				.string()
				.optional()
				.transform((value) => value ?? '')
				.refine((value) => value === '' || (/^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value))), 'الرجاء كتابة تاريخ صحيح')
			return field.required ? date.refine((value) => value !== '', `الرجاء اختيار ${field.label}`) : date
		}
		case 'boolean':
			return z.union([z.boolean(), z.literal('on'), z.literal('true'), z.literal('false')]).optional().transform((value) => value === true || value === 'on' || value === 'true')
		case 'select': {
			const values = field.options.map((option) => option.value) as [string, ...string[]]
			return z.enum(values, { error: requiredChoice(field.label) })
		}
		case 'image':
		case 'document':
		case 'video':
			// The image's, document's or video's id (a new upload is stored as one before this runs).
			return z.string().uuid().optional()
	}
}

/** The schema of one entry's data. Required files are checked by the action, which knows about uploads. */
export function contentSchema(type: ContentType) {
	return z.object(Object.fromEntries(type.fields.map((field) => [field.name, fieldSchema(field)])))
}

/** A textarea field holding one item per line (values, goals, committee members, colours). */
export function textLines(value: unknown): string[] {
	return String(value ?? '')
		.split('\n')
		.map((line) => line.trim())
		.filter(Boolean)
}
