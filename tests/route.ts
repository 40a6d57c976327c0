import { RouterContextProvider } from 'react-router'

// Runs a route's middleware and then its loader or action as React Router does, for tests that call
// route modules directly: each middleware's `next()` answers with a Response, an error thrown by the
// handler becomes that Response's status (as the error boundary's page would), and the thrown value
// is thrown again once every middleware has finished (so a test still sees the refusal).

type Middleware = (args: never, next: () => Promise<Response>) => unknown
type Handler<Result> = (args: never) => Promise<Result> | Result

export interface RouteCall {
	request: Request
	params?: Record<string, string>
	context?: RouterContextProvider
}

const statusOf = (thrown: unknown) => (thrown instanceof Response ? thrown.status : ((thrown as { init?: { status?: number } }).init?.status ?? 500))

export async function runRoute<Result>(middleware: readonly Middleware[], handler: Handler<Result>, call: RouteCall): Promise<Result> {
	const args = { request: call.request, params: call.params ?? {}, context: call.context ?? new RouterContextProvider(), url: new URL(call.request.url) }
	let result: Result | undefined
	let thrown: { value: unknown } | undefined
	const at = async (index: number): Promise<Response> => {
		const current = middleware[index]
		if (!current) {
			try {
				result = await handler(args as never)
				// `data(value, { status })` answers with its status, as React Router sends it.
				return result instanceof Response ? result : new Response(null, { status: (result as { init?: { status?: number } } | undefined)?.init?.status ?? 200 })
			} catch (error) {
				thrown = { value: error }
				return new Response(null, { status: statusOf(error) })
			}
		}
		let answered: Response | undefined
		const outcome = await current(args as never, async () => (answered = await at(index + 1)))
		return outcome instanceof Response ? outcome : (answered ?? (await at(index + 1)))
	}
	await at(0)
	if (thrown) throw thrown.value
	return result as Result
}
