import fs from 'node:fs'
import path from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { imageUpload } from '#app/images/pipeline.server.ts'
import { declaredTooLarge, receiveUpload, receiveUploads } from '#app/storage/upload-stream.server.ts'
import { temporaryStorage } from '#tests/storage.ts'
import { videoUpload } from '#app/content/gallery/video.server.ts'

const { dir, storage, remove } = temporaryStorage('video-upload')
afterAll(remove)

/** Nothing kept and no temp file left: the storage's folders are empty. */
function storedFiles(): string[] {
	return ['tmp', 'files'].flatMap((sub) => (fs.existsSync(path.join(dir, sub)) ? fs.readdirSync(path.join(dir, sub), { recursive: true }).map(String) : []))
}

/** What file-type needs to call a file MP4: an `ftyp` box (size, «ftyp», brand isom). */
function mp4(size: number): Uint8Array<ArrayBuffer> {
	const bytes = new Uint8Array(size)
	const view = new DataView(bytes.buffer)
	view.setUint32(0, 32)
	bytes.set(new TextEncoder().encode('ftypisom'), 4)
	view.setUint32(12, 512)
	bytes.set(new TextEncoder().encode('isomiso2avc1mp41'), 16)
	return bytes
}

function videoForm(bytes: Uint8Array<ArrayBuffer>, name = 'clip.mp4'): Request {
	const data = new FormData()
	data.append('title', 'فيديو')
	data.append('video', new File([bytes], name, { type: 'video/mp4' }))
	return new Request('http://localhost/x', { method: 'POST', body: data })
}

const limits = { maxFileBytes: 1000, stopWhenTooLarge: true }

test('an MP4, judged by its bytes, is kept as video/mp4', async () => {
	const result = await receiveUpload(videoForm(mp4(800)), storage, limits, videoUpload)
	expect(result.ok && result.file?.mime).toBe('video/mp4')
	if (result.ok && result.file) fs.rmSync(result.file.tempPath)
	expect(storedFiles()).toEqual([])
})

test.each([
	['HTML', new TextEncoder().encode('<!doctype html><html><body><script>alert(1)</script></body></html>')],
	['a Windows executable', new Uint8Array([0x4d, 0x5a, ...new Array(200).fill(0)])],
])('%s named .mp4 is refused as not a video, and nothing is stored', async (_, bytes) => {
	const result = await receiveUpload(videoForm(new Uint8Array(bytes), 'clip.mp4'), storage, limits, videoUpload)
	expect(result).toMatchObject({ ok: false, error: 'not-video' })
	expect(storedFiles()).toEqual([])
})

test('a video over the limit sent without a Content-Length stops the reading at the limit: too-large, nothing stored', async () => {
	const chunk = mp4(256)
	let sent = 0
	const boundary = 'bench-boundary'
	const head = new TextEncoder().encode(`--${boundary}\r\nContent-Disposition: form-data; name="video"; filename="big.mp4"\r\nContent-Type: video/mp4\r\n\r\n`)
	// A body that would go on for 100 000 chunks (25 MB) if anyone kept reading it.
	const body = new ReadableStream<Uint8Array>({
		pull(controller) {
			if (sent === 0) controller.enqueue(head)
			if (sent++ > 100_000) controller.close()
			else controller.enqueue(chunk)
		},
	})
	const request = new Request('http://localhost/x', { method: 'POST', body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, duplex: 'half' } as RequestInit)
	expect(declaredTooLarge(request, limits.maxFileBytes)).toBe(false)
	const result = await receiveUpload(request, storage, limits, videoUpload)
	expect(result).toMatchObject({ ok: false, error: 'too-large' })
	expect(sent).toBeLessThan(100)
	expect(storedFiles()).toEqual([])
})

test('a Content-Length over the limit is refused before the body is read', () => {
	const request = new Request('http://localhost/x', { method: 'POST', body: 'x', headers: { 'content-length': String(600_000_000) } })
	expect(declaredTooLarge(request, 500_000_000)).toBe(true)
	expect(declaredTooLarge(new Request('http://localhost/x', { method: 'POST', body: 'x', headers: { 'content-length': '400000000' } }), 500_000_000)).toBe(false)
})

test('beside a video, an image keeps its own smaller limit (the kind’s maxBytes)', async () => {
	const data = new FormData()
	data.append('video', new File([mp4(900)], 'clip.mp4'))
	data.append('poster', new File([new Uint8Array(500)], 'poster.png'))
	const result = await receiveUploads(
		new Request('http://localhost/x', { method: 'POST', body: data }),
		storage,
		{ maxFileBytes: 1000 },
		{ video: videoUpload, poster: { ...imageUpload, maxBytes: 100 } },
	)
	expect(result.ok && result.parts.poster).toMatchObject({ ok: false, error: 'too-large' })
	expect(result.ok && result.parts.video?.ok).toBe(true)
	if (result.ok && result.parts.video?.ok) fs.rmSync(result.parts.video.file.tempPath)
	expect(storedFiles()).toEqual([])
})

test('a form stopped because its poster passed the poster’s limit says which file it was', async () => {
	const data = new FormData()
	data.append('poster', new File([new Uint8Array(500)], 'poster.png'))
	data.append('video', new File([mp4(900)], 'clip.mp4'))
	const result = await receiveUploads(new Request('http://localhost/x', { method: 'POST', body: data }), storage, limits, { video: videoUpload, poster: { ...imageUpload, maxBytes: 100 } })
	expect(result).toMatchObject({ ok: false, error: 'too-large', part: 'poster' })
	expect(storedFiles()).toEqual([])
})
