// An S3-compatible server on a loopback port for tests and demos: the `s3rver` npm package (files in a
// directory of its own, fixed credentials S3RVER/S3RVER). Never for real data: it keeps no versions
// and writes an object over the old one in place.
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'

// s3rver ships no types: only what is used of it.
interface S3rverServer {
	run(): Promise<AddressInfo>
	close(): Promise<void>
}
type S3rverClass = new (options: { address: string; port: number; silent: boolean; directory: string; configureBuckets: Array<{ name: string }> }) => S3rverServer
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass

export interface S3TestServer {
	endpoint: string
	port: number
	/** What s3rver accepts, as the AWS variables would give them. */
	credentials: { accessKeyId: string; secretAccessKey: string }
	close: () => Promise<void>
}

/** s3rver on 127.0.0.1 (a free port unless given), with `bucket` made, its objects under `directory`. */
export async function startS3Server(directory: string, bucket: string, port = 0): Promise<S3TestServer> {
	const server = new S3rver({ address: '127.0.0.1', port, silent: true, directory, configureBuckets: [{ name: bucket }] })
	const address = await server.run()
	let closed: Promise<void> | undefined
	return {
		endpoint: `http://127.0.0.1:${address.port}`,
		port: address.port,
		credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
		close: () => (closed ??= server.close()),
	}
}
