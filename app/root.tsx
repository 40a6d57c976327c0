import type { ReactNode } from 'react'
import {
	data,
	Link,
	Links,
	Meta,
	Outlet,
	Scripts,
	ScrollRestoration,
	useMatches,
	useRouteError,
	type LinksFunction,
	type MiddlewareFunction,
} from 'react-router'
import stylesUrl from './app.css?url'
import { useNonce } from '#app/utils/nonce.tsx'
import { useInlineCss } from '#app/utils/inline-css.tsx'
import { ErrorMessage } from '#app/components/error-message.tsx'
import { getEnv } from '#app/utils/env.server.ts'
import { prepare } from '#app/bootstrap.server.ts'
import { flashMiddleware } from '#app/http/flash.server.ts'
import { isSameOriginRequest } from '#app/utils/origin.server.ts'
import { FORM_BODY, NOT_A_FORM } from '#app/utils/request-guards.ts'
import { pageCacheMiddleware } from '#app/cache/page-cache.server.ts'
import { routeMiddleware } from '#app/utils/log.server.ts'

/** Route handles may ask for the client bundle; pages without anything interactive ship no JavaScript. */
export interface RouteHandle {
	hydrate?: boolean
}

// No font preload: text paints at once in a fallback scaled to the font's metrics, so the largest
// paint does not wait for the font (vite/font-subset.ts). The stylesheet is in the Layout.
export const links: LinksFunction = () => [{ rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' }]

/** Any request that can change something must come from our own pages (docs/product.md#old-system-defects-we-fix). */
const refuseCrossOrigin: MiddlewareFunction<Response> = ({ request }) => {
	if (!isSameOriginRequest(request, getEnv().APP_ORIGIN)) {
		throw new Response('طلب مرفوض: مصدر الطلب غير موثوق', { status: 403 })
	}
}

/**
 * A NUL byte is nothing a person types, and PostgreSQL refuses it in text: a request carrying one in
 * its address or its form is refused as malformed before anything reads it (docs/security.md#input).
 */
const refuseNulBytes: MiddlewareFunction<Response> = async ({ request }) => {
	const form = request.method !== 'GET' && request.method !== 'HEAD' && request.headers.get('Content-Type')?.startsWith('application/x-www-form-urlencoded')
	if (/%00/i.test(request.url) || (form && /%00/i.test(await request.clone().text()))) {
		throw data('في الطلب رموز غير مسموح بها. أعد كتابة ما أدخلته ثم أرسله مرة أخرى.', { status: 400 })
	}
}

/** A POST is a form: a JSON or other body is refused (415) before a route's request.formData() fails on it. */
const refuseOtherBodies: MiddlewareFunction<Response> = ({ request }) => {
	if (request.method === 'GET' || request.method === 'HEAD') return
	if (!FORM_BODY.test(request.headers.get('Content-Type') ?? '')) throw data(NOT_A_FORM, { status: 415 })
}

/** server.mjs prepares the database before it listens; under the dev server the first request does. */
const prepared: MiddlewareFunction<Response> = async () => {
	await prepare()
}

// routeMiddleware last, inside the page cache's: a kept page keeps its route for the log (app/utils/log.server.ts).
export const middleware: MiddlewareFunction<Response>[] = [refuseCrossOrigin, refuseOtherBodies, refuseNulBytes, prepared, flashMiddleware, pageCacheMiddleware, routeMiddleware]

export function Layout({ children }: { children: ReactNode }) {
	const nonce = useNonce()
	const inlineCss = useInlineCss()
	const matches = useMatches()
	const hydrate = import.meta.env.DEV || matches.some((match) => (match.handle as RouteHandle | undefined)?.hydrate)
	return (
		<html lang="ar" dir="rtl">
			<head>
				<meta charSet="utf-8" />
				<meta name="viewport" content="width=device-width, initial-scale=1" />
				<meta name="theme-color" content="#0f6251" />
				<Meta />
				{inlineCss ? <style dangerouslySetInnerHTML={{ __html: inlineCss }} /> : <link rel="stylesheet" href={stylesUrl} />}
				<Links />
			</head>
			<body className="min-h-dvh">
				{children}
				{hydrate ? (
					<>
						<ScrollRestoration nonce={nonce} />
						<Scripts nonce={nonce} />
					</>
				) : null}
			</body>
		</html>
	)
}

export default function App() {
	return <Outlet />
}

/** Errors a visitor can reach; the layouts below show most of them inside the site's frame. */
export function ErrorBoundary() {
	const error = useRouteError()
	return (
		<main className="mx-auto max-w-2xl p-8 text-center">
			<ErrorMessage error={error} />
			<Link to="/" className="btn-primary mt-6">
				العودة إلى الصفحة الرئيسية
			</Link>
		</main>
	)
}
