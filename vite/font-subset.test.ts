import fs from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { buildFonts, DIGITS_AND_PUNCTUATION, FONT_BUDGET_BYTES, FONT_FACES_MARKER, fontFaceCss, localFallbacks, unicodeRange, WEIGHTS, type BuiltFonts } from './font-subset.ts'

const root = path.resolve(import.meta.dirname, '..')

/** Every non-test source file under app/: the UI strings, the messages and the seed content. */
function sourceFiles(dir = path.join(root, 'app')): string[] {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name)
		if (entry.isDirectory()) return sourceFiles(full)
		return /\.(ts|tsx|css)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [full] : []
	})
}

/** Characters of the sources that other fonts draw: the back office's arrows; the box lines and apostrophes of English comments. */
const leftToSystemFonts = new Set([...'←→─’'])

let fonts: BuiltFonts
beforeAll(async () => {
	fonts = await buildFonts()
}, 60_000)

const face = (name: string) => fonts.faces.find((f) => f.name === name)!
const covered = () => new Set(fonts.faces.flatMap((f) => f.codePoints))

describe('the font subset', () => {
	test('the files a page downloads for its text stay within the budget', () => {
		const perPage = fonts.faces.filter((f) => f.everyPage).reduce((sum, f) => sum + f.bytes, 0)
		expect(perPage).toBeLessThanOrEqual(FONT_BUDGET_BYTES)
		// The presentation forms are fetched only by a page that uses one.
		expect(face('noto-kufi-arabic-forms-a').bytes).toBeLessThan(FONT_BUDGET_BYTES)
	})

	test('every character of the UI strings and the seed content is drawn by Noto Kufi Arabic', () => {
		const has = covered()
		const missing = new Map<string, string>()
		for (const file of sourceFiles()) {
			for (const char of fs.readFileSync(file, 'utf8')) {
				const c = char.codePointAt(0)!
				// ASCII is code as much as text: its digits and punctuation are checked below. Latin letters are the system font's.
				if (c < 0x80 || leftToSystemFonts.has(char) || has.has(c)) continue
				missing.set(char, path.relative(root, file))
			}
		}
		expect(Object.fromEntries(missing)).toEqual({})
		for (const char of DIGITS_AND_PUNCTUATION) expect(has.has(char.codePointAt(0)!), char).toBe(true)
	})

	test('the letters come whole in the file every page takes: shaping joins only letters of one file', () => {
		const arabic = new Set(face('noto-kufi-arabic').codePoints)
		for (const c of [0x0621, 0x0627, 0x0644, 0x0647, 0x064a, 0x064b, 0x0651, 0x0660, 0x0669, 0x060c, 0x061b, 0x061f, 0x0671, 0x06cc, 0x0750, 0x200c, 0x200d, 0x200e, 0x20, 0xa0, 0xfefb]) {
			expect(arabic.has(c), c.toString(16)).toBe(true)
		}
		expect(face('noto-kufi-arabic').everyPage && face('noto-kufi-arabic-digits').everyPage).toBe(true)
		// The presentation forms A are glyphs on their own and come only when a page has one.
		expect(face('noto-kufi-arabic-forms-a').everyPage).toBe(false)
		expect(face('noto-kufi-arabic-forms-a').codePoints).toContain(0xfdf2)
	})

	test('only the weights the site uses are kept', () => {
		const classes = new Set<string>()
		for (const file of sourceFiles()) {
			for (const match of fs.readFileSync(file, 'utf8').matchAll(/\bfont-(thin|extralight|light|normal|medium|semibold|bold|extrabold|black)\b/g)) classes.add(match[1]!)
		}
		const weights = { thin: 100, extralight: 200, light: 300, normal: 400, medium: 500, semibold: 600, bold: 700, extrabold: 800, black: 900 }
		for (const name of classes) {
			expect(weights[name as keyof typeof weights], `font-${name}`).toBeGreaterThanOrEqual(WEIGHTS.min)
			expect(weights[name as keyof typeof weights], `font-${name}`).toBeLessThanOrEqual(WEIGHTS.max)
		}
		const css = fontFaceCss(fonts, path.join(root, 'app'))
		expect(css).toContain(`font-weight: ${WEIGHTS.min} ${WEIGHTS.max};`)
	})

	test('the @font-face rules: swap, files by unicode-range, and every fallback listed in app.css after the font', () => {
		const css = fontFaceCss(fonts, path.join(root, 'app'))
		expect(css.match(/font-display: swap/g)).toHaveLength(fonts.faces.length)
		expect(css).toContain(`unicode-range: ${unicodeRange(face('noto-kufi-arabic-digits').codePoints)}`)
		const appCss = fs.readFileSync(path.join(root, 'app/app.css'), 'utf8')
		expect(appCss).toContain(FONT_FACES_MARKER)
		const stack = /--font-sans:([^;]+);/.exec(appCss)![1]!
		const families = [...stack.matchAll(/'([^']+)'/g)].map((m) => m[1])
		expect(families[0]).toBe('Noto Kufi Arabic')
		expect(families.slice(1, 1 + localFallbacks.length)).toEqual(localFallbacks.map((fallback) => fallback.family))
	})

	test('the fallbacks take the room Noto Kufi Arabic takes: same advance after size-adjust, same line box', () => {
		const { metrics } = fonts
		expect(metrics.unitsPerEm).toBe(1000)
		const css = fontFaceCss(fonts, path.join(root, 'app'))
		const naskh =
			/font-family: 'Noto Kufi Arabic Fallback Naskh';[^}]*font-weight: 100 400;[^}]*size-adjust: ([\d.]+)%;\s*ascent-override: ([\d.]+)%;\s*descent-override: ([\d.]+)%;\s*line-gap-override: ([\d.]+)%/.exec(
				css,
			)!
		const [sizeAdjust, ascent, descent] = naskh.slice(1, 4).map((value) => Number(value) / 100) as [number, number, number]
		expect(0.3758 * sizeAdjust).toBeCloseTo(metrics.advance[400]!, 3)
		expect(ascent * sizeAdjust).toBeCloseTo(metrics.ascender / metrics.unitsPerEm, 3)
		expect(descent * sizeAdjust).toBeCloseTo(-metrics.descender / metrics.unitsPerEm, 3)
	})
})
