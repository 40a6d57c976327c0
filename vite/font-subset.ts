import { createHash } from 'node:crypto'
import fs from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Plugin } from 'vite'

/*
 * The site's one font, Noto Kufi Arabic (variable), cut at build time to what the site shows, so a
 * page downloads about 37 KB of font instead of 124 KB (docs/product.md#business-constants):
 *
 * - `noto-kufi-arabic`: the Arabic letters, marks, Arabic-Indic digits and Arabic punctuation
 *   (U+0600–06FF), the supplement (U+0750–077F), the presentation forms B (U+FE70–FEFF, the shapes
 *   the letters take in words), the joiners and direction marks, and the spaces.
 * - `noto-kufi-arabic-digits`: Western digits and the punctuation the site's text uses (« » – — …
 *   © · ‹ and ASCII punctuation), from the font's Latin file.
 * - `noto-kufi-arabic-forms-a`: the presentation forms A (U+FB50–FDFF: old precomposed letters and
 *   ligatures such as ﷲ or ﷺ). Nothing the site writes uses them, so only a page whose text has one
 *   downloads this file (its `unicode-range`); they are glyphs on their own, so shaping never needs
 *   them next to the letters of the first file.
 *
 * Latin letters are left to the system font (docs/decisions/001-stack.md). Only the weights the
 * site uses are kept: the `wght` axis is cut to 400–700 (font-normal, font-medium, font-semibold,
 * font-bold; <b>, <strong> and <th> are bold). One variable file for 400–700 is smaller than two
 * pinned instances (measured: 33 KB against 18 KB for each pinned weight).
 *
 * Every page's text asks for the first two files. They are not preloaded: with `font-display: swap`
 * the text paints at once in an installed Arabic font scaled to take the same room (see
 * localFallbacks), so the page's largest paint does not wait for the font, and nothing moves when
 * it swaps in.
 *
 * The plugin writes the @font-face rules in place of FONT_FACES_MARKER in app/app.css. The files
 * are made once per source font and settings and kept in node_modules/.cache/font-subset/.
 */

export const FONT_FAMILY = 'Noto Kufi Arabic'
export const FONT_FACES_MARKER = '/* font-subset: @font-face rules */'
/** The `wght` axis kept: font-normal (400) to font-bold (700). */
export const WEIGHTS = { min: 400, max: 700 } as const
/** Compressed font bytes a page may download (docs/product.md#business-constants). */
export const FONT_BUDGET_BYTES = 60_000

type Range = readonly [number, number]

/** Western digits and the punctuation of the site's text, drawn by Noto Kufi Arabic. */
export const DIGITS_AND_PUNCTUATION = '0123456789.,:;!?()-/%+«»–—…©·•‹›'

export interface FaceSpec {
	/** The file's name (Vite adds the content hash). */
	name: string
	/** Which of @fontsource-variable/noto-kufi-arabic's files it is cut from. */
	source: 'arabic' | 'latin'
	/** The code points asked for; the file keeps those the font has. */
	ranges: readonly Range[]
	/** Whether every page downloads it (its characters are on every page), or only a page that uses one. */
	everyPage: boolean
}

const ZWNJ_TO_RLM: Range = [0x200c, 0x200f]

export const faceSpecs: readonly FaceSpec[] = [
	{
		name: 'noto-kufi-arabic',
		source: 'arabic',
		ranges: [[0x20, 0x20], [0xa0, 0xa0], [0x0600, 0x06ff], [0x0750, 0x077f], ZWNJ_TO_RLM, [0xfe70, 0xfeff]],
		everyPage: true,
	},
	{ name: 'noto-kufi-arabic-digits', source: 'latin', ranges: [...DIGITS_AND_PUNCTUATION].map((c) => [c.codePointAt(0)!, c.codePointAt(0)!] as const), everyPage: true },
	{ name: 'noto-kufi-arabic-forms-a', source: 'arabic', ranges: [[0xfb50, 0xfdff]], everyPage: false },
]

/**
 * The text that widths are compared on: the foundation's «about» text from the seed and the main
 * menu, Arabic as the site writes it (the widths of letters change with their place in a word, so
 * they are measured shaped, with HarfBuzz, never letter by letter).
 */
export const SAMPLE =
	'مؤسسة عطاء الخيرية مؤسسة أهلية مسجلة لدى وزارة الموارد البشرية والتنمية الاجتماعية، تعمل منذ تأسيسها على دعم الأسر المحتاجة والمرضى وترميم مساكن الأسر المتعففة، بالشراكة مع الجمعيات الأهلية والجهات المانحة في منطقة الرياض. الرئيسية من نحن خدماتنا المركز الإعلامي تواصل معنا قدّم طلبك الآن'

/** An installed font: its full and PostScript names, as `local()` looks them up, and its average advance per character of SAMPLE, in em. */
interface InstalledFont {
	local: readonly string[]
	advance: number
}

export interface LocalFallback {
	/** The family the fallback @font-face rules declare; app.css lists it after FONT_FAMILY. */
	family: string
	regular: InstalledFont
	bold: InstalledFont
}

/** The faces of a fallback family: each CSS weight range, the Kufi weight it is scaled to match, and the installed font it uses. */
export function fallbackFaces(fallback: LocalFallback) {
	return [
		{ weight: '100 400', matches: 400, font: fallback.regular },
		{ weight: '500', matches: 500, font: fallback.regular },
		{ weight: '600', matches: 600, font: fallback.bold },
		{ weight: '700 900', matches: 700, font: fallback.bold },
	]
}

/**
 * The installed Arabic fonts that stand in for Noto Kufi Arabic until it arrives, scaled so that
 * text takes the same room in both and nothing moves when the font swaps in (CLS 0):
 *
 *   size-adjust       = Kufi's advance at the face's weight / the fallback's advance, both over
 *                       SAMPLE (400, 500, 600 and 700 each have their own face: fallbackFaces)
 *   ascent-override   = Kufi's ascender / unitsPerEm / size-adjust   (the overrides are in the
 *   descent-override  = −Kufi's descender / unitsPerEm / size-adjust  fallback's adjusted em, so
 *   line-gap-override = Kufi's line gap / unitsPerEm / size-adjust    the line box is Kufi's)
 *
 * Kufi's numbers are read from the subset file at build time: its advances with averageAdvance()
 * at each weight, its vertical metrics from HarfBuzz's font extents (hhea, or the OS/2 typo
 * metrics when USE_TYPO_METRICS is set). The fallbacks' advances were measured with
 * averageAdvance() on the fonts' own files (Noto Naskh Arabic and Noto Sans Arabic from Debian's
 * fonts-noto-core 20201225, DejaVu Sans 2.37 from fonts-dejavu-core); font-subset.test.ts measures
 * again whichever of them the machine has. Noto Naskh Arabic is Android's Arabic font; Noto Sans
 * Arabic and DejaVu Sans are Linux's. Segoe UI, Tahoma (Windows) and Geeza Pro (Apple) follow them
 * in app.css unscaled: their files are not free to measure. Only the Arabic code points are
 * scaled; digits and Latin letters keep the system font's size.
 */
export const localFallbacks: readonly LocalFallback[] = [
	{
		family: 'Noto Kufi Arabic Fallback Naskh',
		regular: { local: ['Noto Naskh Arabic Regular', 'NotoNaskhArabic-Regular', 'Noto Naskh Arabic UI Regular', 'NotoNaskhArabicUI-Regular', 'Noto Naskh Arabic'], advance: 0.3758 },
		bold: { local: ['Noto Naskh Arabic Bold', 'NotoNaskhArabic-Bold', 'Noto Naskh Arabic UI Bold', 'NotoNaskhArabicUI-Bold'], advance: 0.3912 },
	},
	{
		family: 'Noto Kufi Arabic Fallback Sans',
		regular: { local: ['Noto Sans Arabic Regular', 'NotoSansArabic-Regular', 'Noto Sans Arabic UI Regular', 'NotoSansArabicUI-Regular', 'Noto Sans Arabic'], advance: 0.4194 },
		bold: { local: ['Noto Sans Arabic Bold', 'NotoSansArabic-Bold', 'Noto Sans Arabic UI Bold', 'NotoSansArabicUI-Bold'], advance: 0.4634 },
	},
	{
		family: 'Noto Kufi Arabic Fallback DejaVu',
		regular: { local: ['DejaVu Sans', 'DejaVuSans'], advance: 0.4493 },
		bold: { local: ['DejaVu Sans Bold', 'DejaVuSans-Bold'], advance: 0.5336 },
	},
]

export interface BuiltFace extends FaceSpec {
	/** The woff2 file, in the cache directory. */
	file: string
	bytes: number
	/** The code points the file has, which its `unicode-range` lists. */
	codePoints: number[]
}

export interface FontMetrics {
	unitsPerEm: number
	ascender: number
	descender: number
	lineGap: number
	/** Average advance per character of SAMPLE in em, by weight. */
	advance: Record<number, number>
}

export interface BuiltFonts {
	faces: BuiltFace[]
	metrics: FontMetrics
}

const require = createRequire(import.meta.url)
const sourceFile = (source: FaceSpec['source']) => require.resolve(`@fontsource-variable/noto-kufi-arabic/files/noto-kufi-arabic-${source}-wght-normal.woff2`)

function textOf(ranges: readonly Range[]) {
	let text = ''
	for (const [from, to] of ranges) for (let c = from; c <= to; c++) text += String.fromCodePoint(c)
	return text
}

/** Average advance per character of `text` in em, shaped by HarfBuzz at weight `wght` (if the font varies). */
export async function averageAdvance(font: Uint8Array, text: string, wght?: number) {
	const hb = await import('harfbuzzjs')
	const face = new hb.Face(new hb.Blob(font))
	const hbFont = new hb.Font(face)
	if (wght !== undefined && face.getAxisInfos().wght) hbFont.setVariations([new hb.Variation('wght', wght)])
	const buffer = new hb.Buffer()
	buffer.addText(text)
	buffer.guessSegmentProperties()
	hb.shape(hbFont, buffer)
	const width = buffer.getGlyphPositions().reduce((sum, position) => sum + position.xAdvance, 0)
	return width / face.upem / [...text].length
}

async function fontInfo(sfnt: Uint8Array) {
	const hb = await import('harfbuzzjs')
	const face = new hb.Face(new hb.Blob(sfnt))
	const extents = new hb.Font(face).hExtents()
	return { codePoints: [...face.collectUnicodes()].sort((a, b) => a - b), unitsPerEm: face.upem, ...extents }
}

/** Cuts the files, or takes them from `cacheDir` when the same sources and settings made them before. */
export async function buildFonts(cacheDir?: string): Promise<BuiltFonts> {
	const { default: subsetFont } = await import('subset-font')
	const { default: fontverter } = await import('fontverter')
	const sources = { arabic: await fs.readFile(sourceFile('arabic')), latin: await fs.readFile(sourceFile('latin')) }
	const key = createHash('sha256')
		.update(sources.arabic)
		.update(sources.latin)
		// This file's own text: the ranges, weights, sample and fallback weights are all in it.
		.update(await fs.readFile(fileURLToPath(import.meta.url)))
		// The cutting tools' versions: a new harfbuzz may cut differently. All three are our devDependencies.
		.update(await Promise.all(['subset-font', 'harfbuzzjs', 'fontverter'].map((name) => fs.readFile(path.join(path.dirname(require.resolve('subset-font/package.json')), '..', name, 'package.json'), 'utf8'))).then((texts) => texts.join('\n')))
		.digest('hex')
		.slice(0, 16)
	const dir = cacheDir ? path.join(cacheDir, key) : undefined
	if (dir) {
		const cached = await fs.readFile(path.join(dir, 'fonts.json'), 'utf8').catch(() => undefined)
		if (cached) return JSON.parse(cached) as BuiltFonts
	}

	const work = dir ? `${dir}.${process.pid}.tmp` : await fs.mkdtemp(path.join((await import('node:os')).tmpdir(), 'font-subset-'))
	await fs.mkdir(work, { recursive: true })
	const axes = { wght: { min: WEIGHTS.min, max: WEIGHTS.max, default: WEIGHTS.min } }
	const faces: BuiltFace[] = []
	let metrics: FontMetrics | undefined
	for (const spec of faceSpecs) {
		const sfnt: Uint8Array = await subsetFont(sources[spec.source], textOf(spec.ranges), { targetFormat: 'sfnt', variationAxes: axes })
		const woff2: Uint8Array = await fontverter.convert(sfnt, 'woff2')
		const info = await fontInfo(sfnt)
		const file = path.join(work, `${spec.name}.woff2`)
		await fs.writeFile(file, woff2)
		faces.push({ ...spec, file: dir ? path.join(dir, `${spec.name}.woff2`) : file, bytes: woff2.byteLength, codePoints: info.codePoints })
		if (!metrics) {
			const advance: Record<number, number> = {}
			for (const weight of new Set(localFallbacks.flatMap((fallback) => fallbackFaces(fallback).map((face) => face.matches)))) {
				advance[weight] = await averageAdvance(sfnt, SAMPLE, weight)
			}
			metrics = { unitsPerEm: info.unitsPerEm, ascender: info.ascender, descender: info.descender, lineGap: info.lineGap, advance }
		}
	}
	const built: BuiltFonts = { faces, metrics: metrics! }
	if (!dir) return built
	await fs.writeFile(path.join(work, 'fonts.json'), JSON.stringify(built))
	// Another build may have finished the same files meanwhile; either copy will do.
	await fs.rename(work, dir).catch(() => fs.rm(work, { recursive: true, force: true }))
	return built
}

/** `unicode-range` of sorted code points, as short as possible. */
export function unicodeRange(codePoints: readonly number[]) {
	const ranges: [number, number][] = []
	for (const c of codePoints) {
		const last = ranges.at(-1)
		if (last && last[1] === c - 1) last[1] = c
		else ranges.push([c, c])
	}
	const hex = (c: number) => c.toString(16).toUpperCase()
	return ranges.map(([from, to]) => (from === to ? `U+${hex(from)}` : `U+${hex(from)}-${hex(to)}`)).join(', ')
}

const percent = (value: number) => `${(value * 100).toFixed(2)}%`

/** The @font-face rules: the subset files (with `src` relative to the CSS file in `cssDir`), then the fallbacks. */
export function fontFaceCss({ faces, metrics }: BuiltFonts, cssDir: string) {
	const rules = faces.map((face) => {
		const url = path.relative(cssDir, face.file).split(path.sep).join('/')
		return `@font-face {
	font-family: '${FONT_FAMILY}';
	font-style: normal;
	font-weight: ${WEIGHTS.min} ${WEIGHTS.max};
	font-display: swap;
	src: url('${url.startsWith('.') ? url : `./${url}`}') format('woff2');
	unicode-range: ${unicodeRange(face.codePoints)};
}`
	})
	// The fallbacks stand in for the Arabic files only: digits and Latin keep the system font's size.
	const arabic = unicodeRange(
		faces
			.filter((face) => face.source === 'arabic')
			.flatMap((face) => face.codePoints)
			.sort((a, b) => a - b),
	)
	for (const fallback of localFallbacks) {
		for (const face of fallbackFaces(fallback)) {
			const sizeAdjust = metrics.advance[face.matches]! / face.font.advance
			const em = metrics.unitsPerEm * sizeAdjust
			rules.push(`@font-face {
	font-family: '${fallback.family}';
	font-style: normal;
	font-weight: ${face.weight};
	src: ${face.font.local.map((name) => `local('${name}')`).join(', ')};
	size-adjust: ${percent(sizeAdjust)};
	ascent-override: ${percent(metrics.ascender / em)};
	descent-override: ${percent(-metrics.descender / em)};
	line-gap-override: ${percent(metrics.lineGap / em)};
	unicode-range: ${arabic};
}`)
		}
	}
	return rules.join('\n')
}

/** The Vite plugin: cuts the font when the build starts and writes the @font-face rules into the CSS file that has FONT_FACES_MARKER. */
export default function fontSubset(): Plugin {
	let cacheDir = ''
	let fonts: Promise<BuiltFonts> | undefined
	const built = () => (fonts ??= buildFonts(cacheDir))
	return {
		name: 'font-subset',
		enforce: 'pre',
		configResolved(config) {
			cacheDir = path.join(config.root, 'node_modules/.cache/font-subset')
		},
		async buildStart() {
			await built()
		},
		async transform(code, id) {
			const file = id.split('?')[0]!
			if (!file.endsWith('.css') || !code.includes(FONT_FACES_MARKER)) return undefined
			return { code: code.replace(FONT_FACES_MARKER, fontFaceCss(await built(), path.dirname(file))), map: null }
		},
	}
}
