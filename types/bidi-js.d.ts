// bidi-js ships no types (app/pdf/arabic-text.server.ts uses it): the Unicode bidirectional algorithm.
declare module 'bidi-js' {
	export interface EmbeddingLevels {
		levels: Uint8Array
		paragraphs: { start: number; end: number; level: number }[]
	}
	export interface Bidi {
		getEmbeddingLevels(text: string, direction?: 'ltr' | 'rtl'): EmbeddingLevels
		getReorderSegments(text: string, levels: EmbeddingLevels, start?: number, end?: number): [number, number][]
		/** Takes the levels array itself (bidi-js 1.0.3, whatever its README says). */
		getMirroredCharactersMap(text: string, levels: Uint8Array, start?: number, end?: number): Map<number, string>
	}
	export default function bidiFactory(): Bidi
}
