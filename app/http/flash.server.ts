// One-time notices ("saved", "added", "deleted", "file added") carried across the redirect after a
// POST in a signed cookie, shown once by the page it lands on, then gone: not in the URL, so they
// do not come back on reload, on paged links or in a shared address.
import { appSecret } from '#app/db/app-secrets.server.ts'
import { createContext, createCookieSessionStorage, redirect, type MiddlewareFunction, type SessionStorage } from 'react-router'
import { z } from 'zod'
import { getDb } from '#app/db/database.server.ts'
import { readCookie } from '#app/utils/cookies.server.ts'
import { getEnv } from '#app/utils/env.server.ts'

const flashSchema = z.object({
	tone: z.enum(['success', 'error']),
	message: z.string().max(500),
	/** The control or slot the notice is about, when the page shows it beside one. */
	field: z.string().max(100).optional(),
	/** When it was issued: tells one notice from the next, so a form can start afresh after each. */
	issued: z.number().optional(),
})

export type Flash = z.infer<typeof flashSchema>

const KEY = 'flash'

/** `__Host-` pins the cookie to our host and path when it can be Secure (as the session cookie). */
const cookieName = () => (getEnv().cookieSecure ? '__Host-ataa_flash' : 'ataa_flash')
const SECRET_NAME = 'flash-cookie'

export const flashContext = createContext<Flash | null>(null)

const state = globalThis as typeof globalThis & { __ataaFlash?: Promise<SessionStorage> }

/** The cookie's signing key is made once and kept in the database, shared by every instance. */
async function signingKey(): Promise<string> {
	return appSecret(await getDb(), SECRET_NAME)
}

function storage(): Promise<SessionStorage> {
	state.__ataaFlash ??= signingKey()
		.then((secret) => {
			const secure = getEnv().cookieSecure
			return createCookieSessionStorage({
				cookie: { name: cookieName(), httpOnly: true, sameSite: 'lax', path: '/', secure, secrets: [secret], maxAge: 5 * 60 },
			})
		})
		.catch((error: unknown) => {
			state.__ataaFlash = undefined
			throw error
		})
	return state.__ataaFlash
}

/** The Set-Cookie header that carries `flash` to the next page. */
export async function flashCookie(flash: Flash): Promise<string> {
	const flashes = await storage()
	const session = await flashes.getSession()
	session.flash(KEY, { ...flash, issued: Date.now() })
	return flashes.commitSession(session)
}

/** A redirect after a POST that shows `flash` once on the page it leads to. */
export async function redirectWithFlash(url: string, flash: Flash, headers?: HeadersInit): Promise<Response> {
	const all = new Headers(headers)
	all.append('Set-Cookie', await flashCookie(flash))
	return redirect(url, { headers: all })
}

/**
 * Reads the notice on the GET that the redirect leads to and clears it in the same response; a GET
 * that itself redirects leaves it for the page at the end of the chain.
 */
export const flashMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
	if (request.method !== 'GET' || !readCookie(request, cookieName())) return next()
	const flashes = await storage()
	const session = await flashes.getSession(request.headers.get('Cookie'))
	const parsed = flashSchema.safeParse(session.get(KEY))
	context.set(flashContext, parsed.success ? parsed.data : null)
	const response = await next()
	if (response.status >= 300 && response.status < 400) return response
	const cleared = new Response(response.body, response)
	cleared.headers.append('Set-Cookie', await flashes.destroySession(session))
	return cleared
}

/** The usual notices, in the words staff and applicants already know. */
export const notices = {
	added: { tone: 'success', message: 'تمت الإضافة بنجاح' },
	updated: { tone: 'success', message: 'تم تحديث البيانات بنجاح' },
	deleted: { tone: 'success', message: 'تم الحذف بنجاح' },
} satisfies Record<string, Flash>
