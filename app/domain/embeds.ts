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

/** Said when a home or gallery video's address is not a YouTube video. */
export const youtubeUrlMessage = 'الرجاء نسخ رابط الفيديو من يوتيوب، مثل https://www.youtube.com/watch?v=… أو https://youtu.be/…'

const youtubeSites = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com'])
const nocookieSites = new Set(['youtube-nocookie.com', 'www.youtube-nocookie.com'])

/** «90», «90s», «1m30s», «1h2m3s» as seconds; 0 when absent or unreadable. */
function startSeconds(value: string | null): number {
	const parts = value ? /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s?)?$/.exec(value) : null
	if (!parts) return 0
	return Number(parts[1] ?? 0) * 3600 + Number(parts[2] ?? 0) * 60 + Number(parts[3] ?? 0)
}

/**
 * The privacy-enhanced embed address of a YouTube video, from any address staff copy: the address
 * bar (`youtube.com/watch?v=…`, `m.youtube.com`, `/shorts/…`), the share button (`youtu.be/…`,
 * `?t=` kept as the start) or an embed code. Null for anything else, other hosts included.
 */
export function youtubeEmbedUrl(value: string): string | null {
	let url: URL
	try {
		url = new URL(value.trim())
	} catch {
		return null
	}
	if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || url.port) return null
	const host = url.hostname.toLowerCase()
	let id: string | null | undefined
	if (host === 'youtu.be') id = url.pathname.slice(1)
	else if (youtubeSites.has(host)) id = url.pathname === '/watch' ? url.searchParams.get('v') : /^\/(?:embed|shorts|live)\/([^/]+)\/?$/.exec(url.pathname)?.[1]
	else if (nocookieSites.has(host)) id = /^\/embed\/([^/]+)\/?$/.exec(url.pathname)?.[1]
	if (!id || !/^[\w-]{1,64}$/.test(id)) return null
	const start = startSeconds(url.searchParams.get('t') ?? url.searchParams.get('start'))
	return `${embedHosts.video[0]}/embed/${id}${start ? `?start=${start}` : ''}`
}
