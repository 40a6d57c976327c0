// Types for the font tools that ship none (vite/font-subset.ts).

declare module 'subset-font' {
	interface SubsetFontOptions {
		targetFormat?: 'sfnt' | 'woff' | 'woff2'
		variationAxes?: Record<string, number | { min: number; max: number; default?: number }>
	}
	export default function subsetFont(font: Uint8Array, text: string, options?: SubsetFontOptions): Promise<Buffer>
}

declare module 'fontverter' {
	const fontverter: { convert(font: Uint8Array, format: 'sfnt' | 'truetype' | 'woff' | 'woff2'): Promise<Buffer> }
	export default fontverter
}
