import { randomBytes, randomUUID } from 'node:crypto'
import fs from 'node:fs'
import fsp from 'node:fs/promises'
import path from 'node:path'
import { Readable } from 'node:stream'
import { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, ListObjectsV2Command, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3'
import { Upload } from '@aws-sdk/lib-storage'
import { FileNotFoundError, sweepTempDir, tempDirWritable, type FileStorageDriver } from './file-storage.server.ts'

export interface S3StorageOptions {
	bucket: string
	/** An S3-compatible server's URL (MinIO, Garage, a test's s3rver); unset means AWS itself. */
	endpoint?: string
	region: string
	/** Bucket in the path (http://host/bucket/key), as most self-hosted servers want, not in the host name. */
	forcePathStyle: boolean
	/** Put before every object key, e.g. `ataa/`, to share a bucket. */
	prefix?: string
	/** Local directory for temp files: the upload pipeline writes there before adopt/place send them on. */
	tempDir: string
	/** Unset: the SDK's usual chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, a profile, an instance role). */
	credentials?: S3ClientConfig['credentials']
	/** How long the bucket may take; the defaults are in TIMEOUTS. */
	timeouts?: Partial<typeof TIMEOUTS>
}

/**
 * A bucket that stops answering must make a request fail, not hang (the SDK waits for ever by
 * default): /readyz then says 503 and the balancer sends people elsewhere.
 */
const TIMEOUTS = {
	/** To open a connection. */
	connectMs: 5_000,
	/** From sending a request (a part's 5 MB included) to the answer's headers. */
	answerMs: 30_000,
	/** A connection quiet this long is dropped, even mid-answer: a video left paused is asked for again when played. */
	idleMs: 120_000,
	/** /readyz's look at the bucket, whole. */
	readyMs: 3_000,
}

/**
 * Connections to the bucket at once. A streamed download holds one for as long as the person reads
 * (a video for minutes), so this is well above the SDK's 50: more waiting requests would queue.
 */
const MAX_SOCKETS = 500

const keyPattern = /^[0-9a-f]{64}$/

/** Multipart parts: S3's smallest part, two in flight, so an upload holds about 10 MB at most. */
const PART_SIZE = 5 * 1024 * 1024
const QUEUE_SIZE = 2

/**
 * Files in an S3-compatible bucket under the same 64-hex keys as the local storage
 * (files/ab/cd/<key>). Temp files stay on local disk; `adopt` and `place` stream them up in parts
 * and remove them. An object is replaced in one step by S3 itself (a PUT or a completed multipart
 * upload becomes visible whole), so a reader sees the old file or the new one.
 */
export function s3FileStorage(options: S3StorageOptions): FileStorageDriver {
	const timeouts = { ...TIMEOUTS, ...options.timeouts }
	const client = new S3Client({
		region: options.region,
		endpoint: options.endpoint,
		forcePathStyle: options.forcePathStyle,
		credentials: options.credentials,
		requestHandler: {
			connectionTimeout: timeouts.connectMs,
			requestTimeout: timeouts.answerMs,
			throwOnRequestTimeout: true,
			socketTimeout: timeouts.idleMs,
			httpAgent: { keepAlive: true, maxSockets: MAX_SOCKETS },
			httpsAgent: { keepAlive: true, maxSockets: MAX_SOCKETS },
		},
	})
	const { bucket } = options
	const prefix = options.prefix ?? ''
	const tmpDir = path.resolve(options.tempDir)

	// Keys come from URLs and the database: check them before they become object names.
	function objectKey(key: string): string {
		if (!keyPattern.test(key)) throw new FileNotFoundError('Not a file key.')
		return `${prefix}files/${key.slice(0, 2)}/${key.slice(2, 4)}/${key}`
	}

	async function place(tempPath: string, key: string): Promise<void> {
		// Only our own temp files: anything else would be removed from under its owner.
		if (path.dirname(path.resolve(tempPath)) !== tmpDir) throw new Error(`${tempPath} is not a temp file of this storage.`)
		const Key = objectKey(key)
		const { size } = await fsp.stat(tempPath)
		const upload = new Upload({
			client,
			params: { Bucket: bucket, Key, Body: fs.createReadStream(tempPath), ContentLength: size },
			partSize: PART_SIZE,
			queueSize: QUEUE_SIZE,
			leavePartsOnError: false,
		})
		await upload.done()
		await fsp.rm(tempPath, { force: true })
	}

	function notFound(error: unknown): boolean {
		const e = error as { name?: string; $metadata?: { httpStatusCode?: number } }
		return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404
	}

	return {
		kind: 's3',

		filePath() {
			throw new Error('Files kept in S3 have no local path (STORAGE_URL): this needs the local-disk storage.')
		},

		async *keys() {
			let ContinuationToken: string | undefined
			do {
				const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `${prefix}files/`, ContinuationToken }))
				for (const item of page.Contents ?? []) {
					const name = item.Key?.slice(item.Key.lastIndexOf('/') + 1) ?? ''
					if (keyPattern.test(name)) yield name
				}
				ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined
			} while (ContinuationToken)
		},

		async adopt(tempPath) {
			const key = randomBytes(32).toString('hex')
			await place(tempPath, key)
			return key
		},

		// S3 says a write is done only once it is stored durably, so `durable` asks nothing more.
		place: (tempPath, key) => place(tempPath, key),

		async read(key, range) {
			const Key = objectKey(key)
			try {
				const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }))
				if (!answer.Body) throw new Error(`S3 answered ${Key} without a body.`)
				const body = answer.Body instanceof Readable ? answer.Body : Readable.fromWeb(answer.Body.transformToWebStream() as Parameters<typeof Readable.fromWeb>[0])
				if (!range) return body
				if (!answer.ContentRange?.startsWith(`bytes ${range.start}-`)) {
					body.destroy()
					throw new Error(`S3 answered ${Key} bytes ${range.start}-${range.end} with ${answer.ContentRange ?? 'the whole object'}.`)
				}
				// Some S3-compatible servers answer more than asked (s3rver takes bytes=0-0 for all of it): never pass on more.
				return answer.ContentLength !== undefined && answer.ContentLength > range.end - range.start + 1 ? limit(body, range.end - range.start + 1) : body
			} catch (error) {
				if (notFound(error)) throw new FileNotFoundError(`No file ${key}.`)
				throw error
			}
		},

		async size(key) {
			const Key = objectKey(key)
			try {
				const answer = await client.send(new HeadObjectCommand({ Bucket: bucket, Key }))
				return answer.ContentLength ?? 0
			} catch (error) {
				if (notFound(error)) throw new FileNotFoundError(`No file ${key}.`)
				throw error
			}
		},

		async remove(key) {
			// S3 answers a delete of a missing object with success, as remove promises.
			await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKey(key) }))
		},

		tempPath() {
			fs.mkdirSync(tmpDir, { recursive: true })
			return path.join(tmpDir, randomUUID())
		},

		async writable() {
			if (!(await tempDirWritable(tmpDir))) return false
			try {
				await client.send(new HeadBucketCommand({ Bucket: bucket }), { abortSignal: AbortSignal.timeout(timeouts.readyMs) })
				return true
			} catch {
				return false
			}
		},

		sweepTemp: (maxAgeMs) => sweepTempDir(tmpDir, maxAgeMs),
	}
}

/** The first `length` bytes of `source`; the rest is not read. */
function limit(source: Readable, length: number): Readable {
	async function* take() {
		let left = length
		try {
			for await (const chunk of source) {
				const bytes = chunk as Buffer
				if (bytes.length >= left) {
					yield bytes.subarray(0, left)
					return
				}
				left -= bytes.length
				yield bytes
			}
		} finally {
			source.destroy()
		}
	}
	return Readable.from(take(), { objectMode: false })
}
