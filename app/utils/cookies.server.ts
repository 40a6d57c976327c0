export interface CookieOptions {
	maxAge?: number
	secure: boolean
	httpOnly?: boolean
	sameSite?: 'Lax' | 'Strict'
}

export function serializeCookie(name: string, value: string, options: CookieOptions): string {
	const parts = [`${name}=${encodeURIComponent(value)}`, 'Path=/', `SameSite=${options.sameSite ?? 'Lax'}`]
	if (options.httpOnly !== false) parts.push('HttpOnly')
	if (options.secure) parts.push('Secure')
	if (options.maxAge !== undefined) parts.push(`Max-Age=${Math.floor(options.maxAge)}`)
	return parts.join('; ')
}

export function readCookie(request: Request, name: string): string | undefined {
	const header = request.headers.get('Cookie')
	if (!header) return undefined
	for (const part of header.split(';')) {
		const index = part.indexOf('=')
		if (index === -1) continue
		if (part.slice(0, index).trim() === name) {
			try {
				return decodeURIComponent(part.slice(index + 1).trim())
			} catch {
				return undefined
			}
		}
	}
	return undefined
}
