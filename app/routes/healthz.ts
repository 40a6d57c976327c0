import { pingDatabase } from '#app/db/database.server.ts'
import { describeError, logger } from '#app/utils/log.server.ts'

/** For load balancers and scripts: 200 while the app can reach its database. */
export async function loader() {
	try {
		await pingDatabase()
		return new Response('ok', { headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } })
	} catch (error) {
		logger.error({ error: describeError(error) }, 'healthz: database unreachable')
		return new Response('database unreachable', { status: 503, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } })
	}
}
