import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import fsp from 'node:fs/promises'
import { pipeline } from 'node:stream/promises'
import type { Database } from '#app/db/client.server.ts'
import { countEntries, saveEntry } from '#app/content/store.server.ts'
import { albums, photos, videos } from '#app/content/types.ts'
import { storeDocument } from '#app/documents/documents-library.server.ts'
import { recordDeferredImage, seedPicture } from '#app/images/deferred.server.ts'
import type { FileStorage } from '#app/storage/file-storage.server.ts'
import { hasFfmpeg, videoFrame } from '#app/content/gallery/video.server.ts'
import { logger } from '#app/utils/log.server.ts'

// Demo galleries for a first start: three albums of drawn illustrations (no photo of anyone real)
// and a few videos: YouTube embeds (privacy-enhanced domain) and, when ffmpeg is installed, short
// generated clips. Without ffmpeg the clips are skipped with one line in the log.

type Scene = 'basket' | 'house' | 'heart' | 'box' | 'tree' | 'crescent' | 'hands' | 'sun'

/** A flat illustration: a sky, hills and one motif, in colours drawn from the hue. */
function sceneSvg(hue: number, scene: Scene, variant: number): string {
	const motif: Record<Scene, string> = {
		basket:
			'<path d="M330 400h300l-36 190H366z" fill="#fbf1dc"/><circle cx="420" cy="380" r="44" fill="#c08a2b"/><circle cx="520" cy="365" r="52" fill="#e7b85c"/><circle cx="590" cy="392" r="34" fill="#c08a2b"/>',
		house:
			'<path d="M300 440 480 290 660 440v170H300z" fill="#fbf1dc"/><rect x="450" y="500" width="60" height="110" fill="hsl(H,40%,30%)"/><rect x="340" y="470" width="60" height="50" fill="hsl(H,50%,75%)"/><rect x="560" y="470" width="60" height="50" fill="hsl(H,50%,75%)"/>',
		heart: '<path d="M480 600s-190-110-190-240a100 100 0 0 1 190-44 100 100 0 0 1 190 44c0 130-190 240-190 240z" fill="#fbf1dc"/>',
		box: '<path d="M340 380h280v220H340z" fill="#e7b85c"/><path d="M340 380l140-60 140 60-140 60z" fill="#fbf1dc"/><path d="M480 440v160" stroke="#8a5f14" stroke-width="8"/>',
		tree: '<rect x="465" y="420" width="30" height="190" fill="#8a5f14"/><circle cx="480" cy="360" r="120" fill="hsl(H,45%,38%)"/><circle cx="400" cy="420" r="70" fill="hsl(H,45%,44%)"/><circle cx="560" cy="420" r="70" fill="hsl(H,45%,44%)"/>',
		crescent:
			'<circle cx="480" cy="330" r="130" fill="#fbf1dc"/><circle cx="530" cy="300" r="120" fill="hsl(H,45%,24%)"/><circle cx="640" cy="200" r="8" fill="#fbf1dc"/><circle cx="300" cy="240" r="6" fill="#fbf1dc"/>',
		hands: '<path d="M250 560c60-10 100 10 140 50h120c30 0 30 40 0 40H410m60-10 120-80c30-20 60 10 40 40L520 690H320l-70-50z" fill="#fbf1dc"/><circle cx="480" cy="380" r="60" fill="#e7b85c"/>',
		sun: '<circle cx="480" cy="330" r="110" fill="#e7b85c"/><g stroke="#e7b85c" stroke-width="14" stroke-linecap="round"><path d="M480 160v-50M480 550v-50M310 330h-50M700 330h-50M360 210l-35-35M600 450l35 35M600 210l35-35M360 450l-35 35"/></g>',
	}
	return `<svg xmlns="http://www.w3.org/2000/svg" width="960" height="720" viewBox="0 0 960 720">
<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="hsl(${hue},45%,${24 + variant * 3}%)"/><stop offset="1" stop-color="hsl(${hue},40%,${42 + variant * 2}%)"/></linearGradient></defs>
<rect width="960" height="720" fill="url(#sky)"/>
<circle cx="${120 + variant * 90}" cy="120" r="${60 + variant * 6}" fill="#fff" opacity=".08"/>
<path d="M0 610q240-${60 + variant * 8} 480 0t480 0v110H0z" fill="hsl(${hue},35%,18%)"/>
${motif[scene].replaceAll('hsl(H,', `hsl(${hue},`)}</svg>`
}

const demoAlbums = [
	{
		title: 'توزيع السلال الغذائية في رمضان',
		slug: 'ramadan-food-baskets',
		date: '2026-03-05',
		description: 'فرق المؤسسة والمتطوعون يوزعون السلال الغذائية على الأسر المستفيدة في أحياء الرياض.',
		hue: 35,
		scenes: [
			['basket', 'سلة غذائية جاهزة للتوزيع'],
			['box', 'تجهيز الطرود في المستودع'],
			['crescent', 'ليلة من ليالي رمضان'],
			['hands', 'تسليم السلة إلى الأسرة'],
			['basket', 'سلال الخضار والفاكهة'],
			['heart', 'شكراً لكل المتبرعين'],
			['box', 'الطرود في طريقها إلى الأحياء'],
		],
	},
	{
		title: 'مبادرة ترميم المنازل',
		slug: 'home-restoration',
		date: '2025-11-20',
		description: 'مراحل ترميم منازل الأسر المتعففة: من الزيارة الميدانية إلى تسليم المنزل.',
		hue: 165,
		scenes: [
			['house', 'منزل قبل الترميم'],
			['tree', 'الحديقة بعد التأهيل'],
			['house', 'تجديد الواجهة'],
			['sun', 'يوم التسليم'],
			['hands', 'فريق العمل مع الأسرة'],
			['house', 'المنزل بعد الترميم'],
		],
	},
	{
		title: 'فعاليات اليوم الوطني',
		slug: 'national-day',
		date: '2025-09-23',
		description: 'مشاركة المؤسسة في احتفالات اليوم الوطني بأنشطة للأطفال وهدايا للأسر.',
		hue: 145,
		scenes: [
			['sun', 'صباح اليوم الوطني'],
			['heart', 'عطاء في حب الوطن'],
			['tree', 'زراعة الأشجار مع المتطوعين'],
			['box', 'هدايا الأطفال'],
			['hands', 'مشاركة الأسر'],
			['crescent', 'أمسية الاحتفال'],
			['sun', 'ختام الفعاليات'],
			['heart', 'شكراً للشركاء'],
		],
	},
] as const satisfies readonly { title: string; slug: string; date: string; description: string; hue: number; scenes: readonly (readonly [Scene, string])[] }[]

/** Privacy-enhanced embeds of Blender's open films: no people's photos, free to show. */
const demoEmbeds = [
	['فيلم تعريفي: العطاء يبدأ بخطوة', 'https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ', '2025-12-01'],
	['قصة متطوع', 'https://www.youtube-nocookie.com/embed/eRsGyueVLvQ', '2025-10-15'],
	['حملة الشتاء الدافئ', 'https://www.youtube-nocookie.com/embed/R6MlUcmOul8', '2025-08-30'],
] as const

const demoClips = [
	['لقطات من توزيع السلال الغذائية', 'testsrc2', '2026-02-10'],
	['جولة في مستودع المؤسسة', 'smptebars', '2026-01-12'],
	['لحظات من يوم التطوع', 'rgbtestsrc', '2025-12-20'],
] as const

/** Which codec this ffmpeg can write: H.264 in MP4 (every browser and phone), else VP9 or VP8 in WebM. */
async function clipFormat(): Promise<{ args: string[]; mime: 'video/mp4' | 'video/webm'; ext: string } | null> {
	const encoders = await new Promise<string>((resolve) => {
		const child = spawn('ffmpeg', ['-hide_banner', '-encoders'], { stdio: ['ignore', 'pipe', 'ignore'] })
		let out = ''
		child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
		child.once('error', () => resolve(''))
		child.once('close', () => resolve(out))
	})
	if (/\blibx264\b/.test(encoders))
		return { args: ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '32', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', '-f', 'mp4'], mime: 'video/mp4', ext: 'mp4' }
	if (/\blibvpx-vp9\b/.test(encoders)) return { args: ['-c:v', 'libvpx-vp9', '-b:v', '300k', '-deadline', 'realtime', '-f', 'webm'], mime: 'video/webm', ext: 'webm' }
	if (/\blibvpx\b/.test(encoders)) return { args: ['-c:v', 'libvpx', '-b:v', '300k', '-deadline', 'realtime', '-f', 'webm'], mime: 'video/webm', ext: 'webm' }
	return null
}

/** A 3-second test-pattern clip, stored as a published file with a poster frame; null if ffmpeg fails. */
async function clip(db: Database, storage: FileStorage, source: string, name: string, format: NonNullable<Awaited<ReturnType<typeof clipFormat>>>) {
	const tempPath = storage.tempPath()
	const code = await new Promise<number | null>((resolve) => {
		const child = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', '-f', 'lavfi', '-i', `${source}=size=640x360:rate=25:duration=3`, ...format.args, tempPath], {
			stdio: 'ignore',
		})
		child.once('error', () => resolve(null))
		child.once('close', resolve)
	})
	if (code !== 0) {
		await fsp.rm(tempPath, { force: true })
		return null
	}
	const hash = createHash('sha256')
	await pipeline(fs.createReadStream(tempPath), hash)
	const { size } = await fsp.stat(tempPath)
	// The poster frame as a deferred picture, like the seed's drawings.
	const frame = await videoFrame(tempPath)
	let poster: string | null = null
	if (frame) {
		try {
			poster = (await recordDeferredImage(db, storage, { source: await fsp.readFile(frame), originalName: 'poster.png', alt: '', createdBy: null, formats: ['webp'] })).id
		} finally {
			await fsp.rm(frame, { force: true })
		}
	}
	const file = await storeDocument(db, storage, { tempPath, originalName: `${name}.${format.ext}`, size, sha256: hash.digest('hex'), mime: format.mime }, null)
	return { file: file.id, poster }
}

export async function seedGallery(db: Database, storage: FileStorage): Promise<void> {
	if ((await countEntries(db, albums)) === 0) {
		for (const album of demoAlbums) {
			const entry = await saveEntry(db, albums, null, { title: album.title, slug: album.slug, date: album.date, description: album.description, cover: '' }, null)
			for (const [index, [scene, caption]] of album.scenes.entries()) {
				// Recorded at once; the variants are made on first request or in the background after start-up.
				const image = await seedPicture(db, storage, sceneSvg(album.hue + index * 4, scene, index % 4), caption)
				await saveEntry(db, photos, null, { album: entry.id, image, caption, order: index + 1 }, null)
			}
		}
	}
	if ((await countEntries(db, videos)) > 0) return
	for (const [title, url, date] of demoEmbeds) await saveEntry(db, videos, null, { title, url, date }, null)
	const format = (await hasFfmpeg()) ? await clipFormat() : null
	if (!format) {
		logger.info('Demo videos: ffmpeg (with an H.264 or VP8/VP9 encoder) is not installed, so only YouTube embeds were added, no generated clips.')
		return
	}
	// ffmpeg runs in processes of its own: the clips are made side by side and saved in order.
	const clips = await Promise.all(demoClips.map(([title, source]) => clip(db, storage, source, title, format)))
	for (const [index, [title, , date]] of demoClips.entries()) {
		const made = clips[index]
		if (made) await saveEntry(db, videos, null, { title, date, file: made.file, ...(made.poster ? { poster: made.poster } : {}) }, null)
	}
}
