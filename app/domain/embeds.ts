// Third-party frames the site may show, only after a visitor asks for them. The CSP allows exactly
// these hosts; a map or video address outside them is refused when staff save it.

export const embedHosts = {
	map: ['https://www.google.com'],
	video: ['https://www.youtube-nocookie.com'],
} as const

export const frameSources = [...embedHosts.map, ...embedHosts.video]

/** A Google Maps «embed» address (Share → Embed a map), or null. */
export function isMapEmbedUrl(value: string): boolean {
	try {
		const url = new URL(value)
		return url.origin === 'https://www.google.com' && url.pathname.startsWith('/maps/embed')
	} catch {
		return false
	}
}
