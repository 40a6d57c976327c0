// Benchmark for documents given as photos (docs/decisions/015-documents-from-photos.md): a phone's
// 12-megapixel JPEG, stored sideways with EXIF orientation 6, a GPS position and the phone's make,
// cleaned as a page is (app/images/page-photo.server.ts) and made one PDF with nine others
// (app/pdf/page-pdf.server.ts). It prints the CPU time per photo, the resident memory growth
// with 10 photos cleaned at once (the server cleans one at a time; this is the worst case of ten
// servers' worth in one process), and bytes in and out. The reference, measured in the same run,
// is sharp decoding the same photo to raw pixels and nothing else: what any handling of it costs.
//   npm run bench:photos -- [--photos 10] [--runs 3]
// Goals (issue 27): under 1 s of CPU per photo on a two-core machine; under 150 MB for 10 at once.
import { parseArgs } from 'node:util'
import sharp from 'sharp'
import { cleanPhoto } from '#app/images/page-photo.server.ts'
import { makeDocument } from '#app/pdf/page-pdf.server.ts'
import { positiveInt } from './lib/bench-options.ts'

const { values } = parseArgs({ options: { photos: { type: 'string' }, runs: { type: 'string' } } })
const photos = positiveInt('--photos', values.photos, 10)
const runs = positiveInt('--runs', values.runs, 3)
const GOAL_CPU_MS = 1000
const GOAL_MB = 150

/**
 * A phone's photo of a paper: 4,000 × 3,000 pixels of page-like detail (fine noise over a light
 * ground, as print and paper grain are), about 4 MB as the camera writes it at quality 92.
 */
async function phonePhoto(): Promise<Buffer> {
	const { data, info } = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#ffffff', noise: { type: 'gaussian', mean: 200, sigma: 40 } } })
		.blur(0.6)
		.raw()
		.toBuffer({ resolveWithObject: true })
	return sharp(data, { raw: info })
		.jpeg({ quality: 92 })
		.withExif({ IFD0: { Make: 'ThePhoneMaker', Model: 'Cheap-1' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '24/1 42/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '46/1 40/1 0/1' } })
		.withMetadata({ orientation: 6 })
		.toBuffer()
}

const rssMb = () => process.memoryUsage.rss() / 1e6
const cpuMs = () => {
	const { user, system } = process.cpuUsage()
	return (user + system) / 1000
}
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!

/** CPU milliseconds per photo for `work` done on `count` photos one after another. */
async function cpuPerPhoto(work: () => Promise<unknown>, count: number): Promise<number> {
	const before = cpuMs()
	for (let index = 0; index < count; index++) await work()
	return (cpuMs() - before) / count
}

/** The peak resident memory above what it was before, while `count` runs of `work` go at once. */
async function peakGrowthMb(work: () => Promise<unknown>, count: number): Promise<number> {
	global.gc?.()
	const before = rssMb()
	let peak = before
	const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 5)
	await Promise.all(Array.from({ length: count }, work))
	peak = Math.max(peak, rssMb())
	clearInterval(sampler)
	return peak - before
}

const photo = await phonePhoto()
const meta = await sharp(photo).metadata()
console.log(`bench:photos — a ${meta.width} × ${meta.height} JPEG of ${(photo.length / 1e6).toFixed(2)} MB, EXIF orientation ${meta.orientation}, GPS and make tags; ${photos} photos, median of ${runs} runs`)
// sharp's thread pool and libvips' caches come up once, as they do in a server that has run a while.
sharp.cache(false)
await cleanPhoto(photo)

const decode = () => sharp(photo).raw().toBuffer()
const clean = () => cleanPhoto(photo)
const results = { cleanCpu: [] as number[], decodeCpu: [] as number[], cleanMb: [] as number[], decodeMb: [] as number[] }
for (let run = 0; run < runs; run++) {
	results.decodeCpu.push(await cpuPerPhoto(decode, photos))
	results.cleanCpu.push(await cpuPerPhoto(clean, photos))
	results.decodeMb.push(await peakGrowthMb(decode, photos))
	results.cleanMb.push(await peakGrowthMb(clean, photos))
}
const page = await cleanPhoto(photo)
const document = await makeDocument('bench', Array.from({ length: photos }, () => ({ kind: 'photo' as const, bytes: page.jpeg })))
const documentCpu = await cpuPerPhoto(() => makeDocument('bench', Array.from({ length: photos }, () => ({ kind: 'photo' as const, bytes: page.jpeg }))), 3)

const cpu = median(results.cleanCpu)
const mb = median(results.cleanMb)
console.log(`reference, sharp's decode to raw pixels: ${median(results.decodeCpu).toFixed(0)} ms CPU per photo; ${median(results.decodeMb).toFixed(0)} MB growth with ${photos} at once`)
console.log(`cleaning a page (upright, ${page.width} × ${page.height}, JPEG, no metadata): ${cpu.toFixed(0)} ms CPU per photo (${(cpu / median(results.decodeCpu)).toFixed(2)}× the decode); ${mb.toFixed(0)} MB growth with ${photos} at once (${(mb / median(results.decodeMb)).toFixed(2)}× the decode's)`)
console.log(`bytes: ${(photo.length / 1e3).toFixed(0)} KB in, ${(page.jpeg.length / 1e3).toFixed(0)} KB out per page (${((page.jpeg.length / photo.length) * 100).toFixed(0)}%); a document of ${photos} pages ${(document.pdf.length / 1e6).toFixed(2)} MB, made in ${documentCpu.toFixed(0)} ms CPU`)
const failed = [cpu > GOAL_CPU_MS ? `CPU per photo ${cpu.toFixed(0)} ms > ${GOAL_CPU_MS} ms` : '', mb > GOAL_MB ? `memory growth ${mb.toFixed(0)} MB > ${GOAL_MB} MB` : ''].filter(Boolean)
console.log(failed.length ? `✖ over the goal: ${failed.join('; ')}` : `✔ within the goals: under ${GOAL_CPU_MS} ms of CPU per photo, under ${GOAL_MB} MB for ${photos} at once`)
process.exitCode = failed.length ? 1 : 0
