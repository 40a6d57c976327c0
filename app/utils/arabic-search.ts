// How a search box matches Arabic words (staff's case search, the news search): the folding of
// `cases.search_name` (app/db/schema.ts) and of `content_entries.search`, so «احمد» finds «أحمد», «موسى» finds «موسي», «فاطمه» finds «فاطمة», and tashkeel or tatweel in
// either the name or the query change nothing. A test holds the two foldings together.

const TASHKEEL_AND_TATWEEL = /[\u064B-\u065F\u0670\u0640]/g
const FOLD: Record<string, string> = { أ: 'ا', إ: 'ا', آ: 'ا', ٱ: 'ا', ى: 'ي', ة: 'ه', ؤ: 'و', ئ: 'ي' }

export function foldArabic(text: string): string {
	return text
		.replace(TASHKEEL_AND_TATWEEL, '')
		.replace(/[أإآٱىةؤئ]/g, (char) => FOLD[char]!)
		.toLowerCase()
}

/** A LIKE pattern that matches `text` anywhere, with LIKE's own wildcards taken literally. */
export function containsPattern(text: string): string {
	return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`
}
