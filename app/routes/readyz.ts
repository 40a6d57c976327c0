import { pingDatabase } from '#app/db/database.server.ts'
import { getFileStorage } from '#app/storage/file-storage.server.ts'
import { isDraining } from '#app/utils/draining.server.ts'
import { describeError, logger } from '#app/utils/log.server.ts'

const plain = (body: string, status: number) => new Response(body, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } })

/**
 * For load balancers: 200 while this instance should get requests (its database answers and its
 * file storage takes writes), 503 while it stops or when either is out of reach. Says nothing more.
 */
export async function loader() {
	if (isDraining()) return plain('draining', 503)
	try {
		await pingDatabase()
	} catch (error) {
		logger.error({ error: describeError(error) }, 'readyz: database unreachable')
		return plain('database unreachable', 503)
	}
	if (!(await getFileStorage().writable())) return plain('storage unreachable', 503)
	return plain('ready', 200)
}
