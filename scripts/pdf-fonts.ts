// Makes app/pdf/fonts/*.ttf, the fonts of the PDFs the server writes (app/pdf/arabic-text.server.ts,
// docs/decisions/020-arabic-pdf.md), from the site's font package: Noto Kufi Arabic pinned at 400
// and 700 (pdf-lib embeds static TrueType only) and cut to the Arabic letters and to Latin. Run it
// again (`npx tsx scripts/pdf-fonts.ts`) when @fontsource-variable/noto-kufi-arabic changes; the
// files are committed so that the server needs no font tool at run time.
import fs from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import subsetFont from 'subset-font'
import { FONT_FILES } from '#app/pdf/arabic-text.server.ts'

const require = createRequire(import.meta.url)
const textOf = (ranges: readonly (readonly [number, number])[]) => ranges.flatMap(([from, to]) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i))).join('')

export const PDF_FONT_TEXT = {
	arabic: textOf([[0x20, 0x20], [0xa0, 0xa0], [0x0600, 0x06ff], [0x0750, 0x077f], [0x200c, 0x200f], [0xfe70, 0xfeff]]),
	latin: textOf([[0x20, 0x7e], [0xa0, 0xff], [0x2013, 0x2014], [0x2022, 0x2022], [0x2026, 0x2026]]),
}

const weights = { regular: 400, bold: 700 } as const
for (const script of ['arabic', 'latin'] as const) {
	const source = await fs.readFile(require.resolve(`@fontsource-variable/noto-kufi-arabic/files/noto-kufi-arabic-${script}-wght-normal.woff2`))
	for (const weight of ['regular', 'bold'] as const) {
		const ttf = await subsetFont(source, PDF_FONT_TEXT[script], { targetFormat: 'sfnt', variationAxes: { wght: weights[weight] } })
		const file = path.join('app', 'pdf', 'fonts', FONT_FILES[script][weight])
		await fs.writeFile(file, ttf)
		console.log(file, ttf.byteLength)
	}
}
