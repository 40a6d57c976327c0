// Arabic text for pdf-lib (docs/decisions/020-arabic-pdf.md): each line cut into runs by the
// Unicode bidirectional algorithm (bidi-js), each run shaped by fontkit's OpenType layout (joined
// letter forms, ligatures and the marks placed by the font's GPOS), and drawn glyph by glyph at the
// positions the layout gives. pdf-lib's own drawText shapes too, but it draws the glyphs at their
// advances only: the font's dots and marks, placed by GPOS, would land beside their letters.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type * as Fontkit from '@pdf-lib/fontkit'
import type { Bidi } from 'bidi-js'
import type { PDFDocument, PDFFont, PDFPage } from 'pdf-lib'
import { loadPdfLib } from '#app/utils/lazy-modules.server.ts'

/** The font files: Noto Kufi Arabic, pinned at two weights and cut to the Arabic and Latin letters (scripts/pdf-fonts.ts makes them). */
export const FONT_FILES = {
	arabic: { regular: 'kufi-arabic-400.ttf', bold: 'kufi-arabic-700.ttf' },
	latin: { regular: 'kufi-latin-400.ttf', bold: 'kufi-latin-700.ttf' },
} as const

export type Script = keyof typeof FONT_FILES
export type Weight = 'regular' | 'bold'

/** app/pdf/fonts, found from wherever this module was bundled to (as migrationsFolder finds drizzle/). */
export function fontsFolder(): string {
	let dir = path.dirname(fileURLToPath(import.meta.url))
	for (;;) {
		for (const candidate of [path.join(dir, 'fonts'), path.join(dir, 'app', 'pdf', 'fonts')]) {
			if (fs.existsSync(path.join(candidate, FONT_FILES.arabic.regular))) return candidate
		}
		const parent = path.dirname(dir)
		if (parent === dir) throw new Error('The PDF fonts folder (app/pdf/fonts) was not found.')
		dir = parent
	}
}

interface LoadedFont {
	bytes: Uint8Array
	shaper: Fontkit.Font
}

interface Loaded {
	fontkit: typeof Fontkit
	bidi: Bidi
	fonts: Record<Script, Record<Weight, LoadedFont>>
}

let loaded: Promise<Loaded> | undefined
let ready: Loaded | undefined

/**
 * fontkit, bidi-js and the fonts, loaded the first time a PDF is written (as app/utils/lazy-modules.server.ts
 * loads pdf-lib): most servers never write one. Everything below needs them loaded.
 */
export function loadArabicText(): Promise<Loaded> {
	loaded ??= (async () => {
		const exportsOf = <T>(module: T): T => (module as { default?: T }).default ?? module
		const fontkit = exportsOf(await import('@pdf-lib/fontkit'))
		const bidiFactory = exportsOf((await import('bidi-js')).default)
		const dir = fontsFolder()
		const load = (file: string): LoadedFont => {
			const bytes = new Uint8Array(fs.readFileSync(path.join(dir, file)))
			return { bytes, shaper: fontkit.create(bytes) }
		}
		ready = {
			fontkit,
			bidi: bidiFactory(),
			fonts: {
				arabic: { regular: load(FONT_FILES.arabic.regular), bold: load(FONT_FILES.arabic.bold) },
				latin: { regular: load(FONT_FILES.latin.regular), bold: load(FONT_FILES.latin.bold) },
			},
		}
		return ready
	})()
	return loaded
}

function loadedNow(): Loaded {
	if (!ready) throw new Error('loadArabicText() first.')
	return ready
}
const fonts = () => loadedNow().fonts

/** The fonts embedded in one PDF (subset: only the glyphs it draws are kept). */
export type EmbeddedFonts = Record<Script, Record<Weight, PDFFont>>

export async function embedFonts(doc: PDFDocument): Promise<EmbeddedFonts> {
	const { fontkit, fonts: all } = await loadArabicText()
	doc.registerFontkit(fontkit)
	const embed = (script: Script, weight: Weight) => doc.embedFont(all[script][weight].bytes, { subset: true })
	return {
		arabic: { regular: await embed('arabic', 'regular'), bold: await embed('arabic', 'bold') },
		latin: { regular: await embed('latin', 'regular'), bold: await embed('latin', 'bold') },
	}
}

/** Which font draws a character: the Arabic file for Arabic letters, the Latin one for the rest (digits, Latin letters, spaces, punctuation). */
function scriptOf(char: string): Script {
	const code = char.codePointAt(0)!
	return code >= 0x0600 && fonts().arabic.regular.shaper.hasGlyphForCodePoint(code) ? 'arabic' : 'latin'
}

const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/

/**
 * `text` kept left to right inside a right-to-left line, whatever it holds: an IBAN, a voucher's
 * number such as «2026-000123» (which the bidirectional algorithm would otherwise show as
 * «000123-2026» after Arabic words), a bank's reference. A left-to-right isolate (U+2066…U+2069).
 */
export const ltr = (text: string) => `\u2066${text}\u2069`

/** A piece of a line drawn in one font and one direction; its text in logical order. */
interface Run {
	text: string
	script: Script
	rtl: boolean
}

/** The runs of one line, left to right as they are drawn, in a right-to-left paragraph. */
export function visualRuns(line: string): Run[] {
	if (!line) return []
	const { bidi } = loadedNow()
	const levels = bidi.getEmbeddingLevels(line, 'rtl')
	const mirrored = bidi.getMirroredCharactersMap(line, levels.levels)
	// Indices are UTF-16 code units; a half of an astral character (none that the fonts draw) stands as U+FFFD.
	const units = line.split('').map((unit) => (/[\uD800-\uDFFF]/.test(unit) ? '\uFFFD' : unit))
	const order = units.map((_, index) => index)
	for (const [start, end] of bidi.getReorderSegments(line, levels)) {
		const reversed = order.slice(start, end + 1).reverse()
		order.splice(start, reversed.length, ...reversed)
	}
	const runs: { indices: number[]; script: Script; rtl: boolean }[] = []
	for (const index of order) {
		// Direction marks and isolates (ltr() below) steer the order and are not drawn.
		if (BIDI_CONTROLS.test(units[index]!)) continue
		const char = mirrored.get(index) ?? units[index]!
		const script = scriptOf(char)
		const rtl = (levels.levels[index]! & 1) === 1
		const last = runs.at(-1)
		const previous = last?.indices.at(-1)
		// Next to the last character in the text too (but for direction marks between them).
		const adjacent = previous !== undefined && units.slice(Math.min(previous, index) + 1, Math.max(previous, index)).every((unit) => BIDI_CONTROLS.test(unit)) && (rtl ? index < previous : index > previous)
		if (last && last.script === script && last.rtl === rtl && adjacent) last.indices.push(index)
		else runs.push({ indices: [index], script, rtl })
	}
	return runs.map(({ indices, script, rtl }) => ({
		text: [...indices]
			.sort((a, b) => a - b)
			.map((index) => mirrored.get(index) ?? units[index]!)
			.join(''),
		script,
		rtl,
	}))
}

interface PlacedGlyph {
	/** The glyph's position in the run's layout, which pdf-lib's encodeText numbers the same way. */
	index: number
	x: number
	y: number
}

interface ShapedRun {
	run: Run
	width: number
	glyphs: PlacedGlyph[]
}

/** One run shaped at `size` points: its glyphs left to right with their offsets from the run's start. */
function shapeRun(run: Run, weight: Weight, size: number): ShapedRun {
	const shaper = fonts()[run.script][weight].shaper
	const layout = shaper.layout(run.text)
	const scale = size / shaper.unitsPerEm
	const indices = layout.glyphs.map((_, index) => index)
	// fontkit lays an Arabic run out right to left already; a run of neutrals in a right-to-left
	// level (a parenthesis, a dash) is laid out left to right and turned here.
	const laidOutRtl = (layout as unknown as { direction?: string }).direction === 'rtl'
	if (run.rtl !== laidOutRtl) indices.reverse()
	let x = 0
	const glyphs: PlacedGlyph[] = []
	for (const index of indices) {
		const position = layout.positions[index]!
		glyphs.push({ index, x: x + position.xOffset * scale, y: position.yOffset * scale })
		x += position.xAdvance * scale
	}
	return { run, width: x, glyphs }
}

export interface TextStyle {
	size: number
	weight: Weight
}

/** The width of `text` in points, as drawn on one line. */
export function measureText(text: string, style: TextStyle): number {
	return visualRuns(text).reduce((sum, run) => sum + shapeRun(run, style.weight, style.size).width, 0)
}

/** `text` cut into lines no wider than `width`, at spaces (a word wider than the line is cut between letters). */
export function wrapText(text: string, width: number, style: TextStyle): string[] {
	const lines: string[] = []
	for (const paragraph of text.replace(/\r\n?/g, '\n').split('\n')) {
		const words = paragraph.split(/[ \t]+/).filter(Boolean)
		let line = ''
		for (const word of words) {
			const candidate = line ? `${line} ${word}` : word
			if (!line || measureText(candidate, style) <= width) {
				line = candidate
				if (measureText(line, style) > width && !line.includes(' ')) {
					// One word longer than the line: cut it where it fits.
					let cut = line.length - 1
					while (cut > 1 && measureText(line.slice(0, cut), style) > width) cut--
					lines.push(line.slice(0, cut))
					line = line.slice(cut)
				}
				continue
			}
			lines.push(line)
			line = word
		}
		lines.push(line)
	}
	return lines
}

export type Align = 'right' | 'left' | 'center'

/**
 * Draws one line of text on `page` with its baseline at `y`, within [left, right]: at the right
 * edge (align right, the start of a right-to-left line), the left edge or the centre.
 */
export async function drawLine(page: PDFPage, embedded: EmbeddedFonts, text: string, options: TextStyle & { left: number; right: number; y: number; align?: Align; color?: [number, number, number] }) {
	const { beginText, endText, setFontAndSize, setTextMatrix, showText, setFillingRgbColor, PDFHexString } = await loadPdfLib()
	const shaped = visualRuns(text).map((run) => shapeRun(run, options.weight, options.size))
	const width = shaped.reduce((sum, run) => sum + run.width, 0)
	const align = options.align ?? 'right'
	let x = align === 'right' ? options.right - width : align === 'left' ? options.left : (options.left + options.right - width) / 2
	const [r, g, b] = options.color ?? [0, 0, 0]
	const operators = [beginText(), setFillingRgbColor(r, g, b)]
	for (const { run, width: runWidth, glyphs } of shaped) {
		const font = embedded[run.script][options.weight]
		const key = page.node.newFontDictionary(font.name, font.ref)
		// pdf-lib lays the run out as fontkit did above and numbers its glyphs in the subset.
		const codes = font.encodeText(run.text).asString()
		operators.push(setFontAndSize(key, options.size))
		for (const glyph of glyphs) {
			operators.push(setTextMatrix(1, 0, 0, 1, x + glyph.x, options.y + glyph.y), showText(PDFHexString.of(codes.slice(glyph.index * 4, glyph.index * 4 + 4))))
		}
		x += runWidth
	}
	operators.push(endText())
	page.pushOperators(...operators)
	return width
}
