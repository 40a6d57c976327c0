import type { foundationInfo } from '#app/db/schema.ts'
import { formatPhone } from '#app/text/format.ts'

export type FoundationInfo = typeof foundationInfo.$inferSelect

export const socialNetworks = [
	{ key: 'twitter', label: 'إكس (تويتر)' },
	{ key: 'linkedin', label: 'لينكدإن' },
	{ key: 'youtube', label: 'يوتيوب' },
	{ key: 'instagram', label: 'إنستغرام' },
	{ key: 'facebook', label: 'فيسبوك' },
] as const satisfies readonly { key: keyof FoundationInfo; label: string }[]

export interface ContactChannel {
	label: string
	value: string
	href: string
	/** Numbers read left to right inside Arabic text. */
	ltr?: boolean
}

/** The foundation's phones and e-mail, as the footer and the contact page list them. */
export function contactChannels(info: Pick<FoundationInfo, 'phone' | 'phone2' | 'email'>): ContactChannel[] {
	return [
		{ label: 'الهاتف', value: formatPhone(info.phone), href: `tel:${formatPhone(info.phone)}`, ltr: true },
		{ label: 'الجوال', value: formatPhone(info.phone2), href: `tel:${formatPhone(info.phone2)}`, ltr: true },
		{ label: 'البريد الإلكتروني', value: info.email, href: `mailto:${info.email}` },
	]
}
