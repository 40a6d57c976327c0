// How many parts an SMS is sent as, and so billed as (docs/decisions/016-messages-and-verified-mobile.md).
// A text that fits the GSM 03.38 alphabet goes as GSM-7: 160 characters in one part, 153 a part once
// split (the rest of each part carries the joining header); an extension character (the euro sign, [ ] { } ^ ~ | \
// and form feed) takes two. Any other character, an Arabic letter among them, sends the whole text as
// UCS-2: 70 in one part, 67 a part once split, a character outside the Basic Multilingual Plane (an
// emoji) taking two.

// Written as escapes: the font check (vite/font-subset.test.ts) reads every character of app/ as one
// the pages may show, and these are the SMS alphabet's, never drawn.
const GSM_BASIC = new Set(
	'@\u00A3$\u00A5\u00E8\u00E9\u00F9\u00EC\u00F2\u00C7\n\u00D8\u00F8\r\u00C5\u00E5\u0394_\u03A6\u0393\u039B\u03A9\u03A0\u03A8\u03A3\u0398\u039E\u00C6\u00E6\u00DF\u00C9 !"#\u00A4%&\'()*+,-./0123456789:;<=>?\u00A1ABCDEFGHIJKLMNOPQRSTUVWXYZ\u00C4\u00D6\u00D1\u00DC\u00A7\u00BFabcdefghijklmnopqrstuvwxyz\u00E4\u00F6\u00F1\u00FC\u00E0',
)
const GSM_EXTENSION = new Set('^{}\\[~]|\u20AC\f')

export interface SmsSegments {
	encoding: 'gsm-7' | 'ucs-2'
	/** As the network counts them: an extension character or a character outside the BMP counts 2. */
	characters: number
	/** 0 for an empty text. */
	segments: number
	/** How many characters each part holds: 160 or 153 (GSM-7), 70 or 67 (UCS-2). */
	perSegment: number
}

export function smsSegments(text: string): SmsSegments {
	let gsm = 0
	let isGsm = true
	for (const character of text) {
		if (GSM_BASIC.has(character)) gsm += 1
		else if (GSM_EXTENSION.has(character)) gsm += 2
		else {
			isGsm = false
			break
		}
	}
	// UTF-16 code units: a character outside the BMP is a surrogate pair, two units.
	const characters = isGsm ? gsm : text.length
	const [single, multi] = isGsm ? [160, 153] : [70, 67]
	const segments = characters === 0 ? 0 : characters <= single ? 1 : Math.ceil(characters / multi)
	return { encoding: isGsm ? 'gsm-7' : 'ucs-2', characters, segments, perSegment: segments > 1 ? multi : single }
}

/** Marks that steer the direction of text (LRM, RLM, ALM, embeddings, overrides, isolates): invisible on a phone, yet each one a paid character. */
const DIRECTION_MARKS = /[\u200E\u200F\u061C\u202A-\u202E\u2066-\u2069]/g

export const stripDirectionMarks = (text: string) => text.replace(DIRECTION_MARKS, '')
