import { RouterContextProvider } from 'react-router'
import { expect, test } from 'vitest'
import { currentScreen } from '#app/http/screen.server.ts'
import { audited } from './audit-trail.server.ts'

// The money ledger notes the screen each entry comes from (docs/product.md#the-ledger): the audit
// middleware every back-office route runs sets it, as the page and its form's intent, for the request alone.

const seen = async (request: Request) => {
	let screen: string | undefined
	await audited({ read: false, write: false })({ request, context: new RouterContextProvider(), params: {}, url: new URL(request.url), pattern: '' } as never, async () => {
		screen = currentScreen()
		return new Response(null)
	})
	return screen
}

test('a change is on its page and intent, a read on its page; outside a request there is none', async () => {
	const form = new URLSearchParams({ intent: 'record', instalment: '7' })
	expect(await seen(new Request('http://localhost/admin/payments/12.data?x=1', { method: 'POST', body: form, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }))).toBe('/admin/payments/12#record')
	expect(await seen(new Request('http://localhost/admin/payments'))).toBe('/admin/payments')
	expect(currentScreen()).toBe('')
})
