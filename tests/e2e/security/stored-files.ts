import { expect } from '@playwright/test'

const STORED_FILE_CSP = "sandbox; default-src 'none'"

/** The headers every stored file goes out with. */
export function expectStoredFileHeaders(headers: Record<string, string>, disposition: 'attachment' | 'inline', framedBy: 'self' | 'none' = 'none') {
	expect(headers['x-content-type-options']).toBe('nosniff')
	expect(headers['content-security-policy']).toBe(`${STORED_FILE_CSP}; frame-ancestors '${framedBy}'`)
	expect(headers['content-disposition']).toMatch(new RegExp(`^${disposition}; filename="[a-z]+\\.[a-z0-9]+"; filename\\*=UTF-8''[A-Za-z0-9%._~!-]+$`))
	expect(headers['content-type']).toMatch(/^(application\/pdf|image\/(webp|avif)|video\/(mp4|webm|quicktime))$/)
}
