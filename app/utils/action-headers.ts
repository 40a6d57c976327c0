import type { HeadersArgs } from 'react-router'

/**
 * A route's `headers` export for pages whose action answers with headers of its own (Retry-After
 * on a 429): React Router sends an action's headers with the page only when the route says so.
 */
export function actionHeaders({ actionHeaders: fromAction }: HeadersArgs): Headers {
	const headers = new Headers()
	const retryAfter = fromAction.get('Retry-After')
	if (retryAfter) headers.set('Retry-After', retryAfter)
	return headers
}
