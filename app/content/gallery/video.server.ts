import { spawn } from 'node:child_process'
import fsp from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { randomUUID } from 'node:crypto'
import type { Database } from '#app/db/client.server.ts'
import { KEPT_UPLOAD_MS } from '#app/content/media-sweep.server.ts'
import { findImage, InvalidImageError, processImage } from '#app/images/pipeline.server.ts'
import type { FileStorage } from '#app/storage/file-storage.server.ts'
import type { UploadKind, UploadLimits } from '#app/storage/upload-stream.server.ts'
import { getEnv } from '#app/utils/env.server.ts'

// Uploaded videos: which files are accepted (by their bytes), and a poster frame made with ffmpeg
// when the machine has it. ffmpeg is optional: without it a video simply has no generated poster.

const videoMimes = ['video/mp4', 'video/webm', 'video/quicktime'] as const
export type VideoMime = (typeof videoMimes)[number]

export const videoUpload: UploadKind<VideoMime, 'not-video'> = {
	accept: (mime): mime is VideoMime => (videoMimes as readonly string[]).includes(mime),
	refusal: 'not-video',
	fallbackName: 'video.mp4',
}

/** Runs a program to its end without waiting on it synchronously; resolves with its exit code (null when it could not start or was stopped). */
function run(command: string, args: readonly string[], timeoutMs: number): Promise<number | null> {
	return new Promise((resolve) => {
		const child = spawn(command, args, { stdio: 'ignore' })
		const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
		child.once('error', () => {
			clearTimeout(timer)
			resolve(null)
		})
		child.once('close', (code) => {
			clearTimeout(timer)
			resolve(code)
		})
	})
}

let ffmpegPresent: Promise<boolean> | undefined

/** Whether ffmpeg can be run here; asked once. */
export function hasFfmpeg(): Promise<boolean> {
	ffmpegPresent ??= run('ffmpeg', ['-hide_banner', '-version'], 5_000).then((code) => code === 0)
	return ffmpegPresent
}

/**
 * A PNG of the video's frame at one second (or its first frame, for a shorter clip), in a temp
 * file the caller passes to the image pipeline; null without ffmpeg or when the video has no
 * frame it can read. ffmpeg runs in its own process, so the server keeps answering meanwhile.
 */
export async function videoFrame(videoPath: string): Promise<string | null> {
	if (!(await hasFfmpeg())) return null
	const output = path.join(os.tmpdir(), `ataa-poster-${randomUUID()}.png`)
	const grab = (seconds: string) =>
		run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', '-ss', seconds, '-i', videoPath, '-frames:v', '1', '-vf', 'scale=min(1280\\,iw):-2', output], 30_000)
	for (const seconds of ['1', '0']) {
		if ((await grab(seconds)) === 0 && (await fsp.stat(output).catch(() => null))?.size) return output
	}
	await fsp.rm(output, { force: true })
	return null
}

/** The limits of a content form with a video: the video's for the request, stopped the moment a file passes its own. */
export const videoUploadLimits = (): UploadLimits => ({ maxFileBytes: getEnv().videoMaxBytes, stopWhenTooLarge: true })

/**
 * A new video's poster frame becomes the poster image when the entry would otherwise have none:
 * `frames` holds frames taken from videos sent with the form (their temp files), and the form may
 * carry `<field>-frame`, the id of a frame image made when the video was sent ahead with its
 * progress bar (app/routes/admin/video-upload.ts). Frames not used are removed.
 */
export async function applyPosterFrames(
	db: Database,
	storage: FileStorage,
	{
		frames,
		fields,
		uploaded,
		stored,
		userId,
	}: { frames: Record<string, string | null>; fields: Record<string, string>; uploaded: Record<string, string>; stored: Record<string, unknown>; userId: number },
) {
	for (const [name, frame] of Object.entries(frames)) {
		if (!frame) continue
		if (uploaded[name] || stored[name]) await fsp.rm(frame, { force: true })
		else uploaded[name] = (await framePoster(db, storage, frame, userId)) ?? ''
		if (!uploaded[name]) delete uploaded[name]
	}
	for (const [key, id] of Object.entries(fields)) {
		const name = key.endsWith('-frame') ? key.slice(0, -'-frame'.length) : undefined
		if (!name || !id || uploaded[name] || stored[name]) continue
		const row = await findImage(db, id)
		if (row && row.createdBy === userId && Date.now() - row.createdAt.getTime() < KEPT_UPLOAD_MS) uploaded[name] = id
	}
}

/** Makes the poster image of a video that was just received, or null (no ffmpeg, no readable frame). */
export async function posterImage(db: Database, storage: FileStorage, videoPath: string, userId: number | null): Promise<string | null> {
	const frame = await videoFrame(videoPath)
	return frame ? framePoster(db, storage, frame, userId) : null
}

/** A frame's PNG through the image pipeline (which removes it); null should it refuse it. */
async function framePoster(db: Database, storage: FileStorage, frame: string, userId: number | null): Promise<string | null> {
	try {
		return (await processImage(db, storage, { tempPath: frame, originalName: 'poster.png', alt: '', createdBy: userId })).id
	} catch (error) {
		if (error instanceof InvalidImageError) return null
		throw error
	}
}
