import sanitizeHtml from 'sanitize-html'

// Staff write rich text (about text, chairman speech, committee duties, news) that every visitor
// sees, so it passes an allow-list here on save and never goes out raw. Whatever is not listed is
// dropped: tags, attributes (on*, style, class), and URL schemes.

const DIR_VALUES = new Set(['rtl', 'ltr', 'auto'])
// The value check is in transformTags: sanitize-html's own `values` check leaves an empty dir="".
const DIR = 'dir'

/** http(s), mailto and tel links, and paths on this site ("/x" but not "//host" or "/\host"). */
const SAFE_HREF = /^(?:https?:\/\/|mailto:|tel:|\/(?![/\\]))/i
const EXTERNAL_HREF = /^https?:\/\//i

// Elements whose whole content goes with them, not just the tag (sanitize-html keeps the text of
// other disallowed tags). The list replaces the library default, so it repeats that default.
const DROP_WITH_CONTENT = ['script', 'style', 'textarea', 'option', 'xmp', 'noscript', 'noembed', 'noframes', 'iframe', 'object', 'embed', 'template', 'svg', 'math', 'title', 'head', 'select']

const richTextOptions: sanitizeHtml.IOptions = {
	allowedTags: ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 'h2', 'h3', 'h4', 'ul', 'ol', 'li', 'blockquote', 'a', 'hr'],
	allowedAttributes: {
		// rel and target are only ever set by transformTags below, never taken from the input.
		a: ['href', 'title', 'rel', { name: 'target', values: ['_blank'] }],
		p: [DIR],
		h2: [DIR],
		h3: [DIR],
		h4: [DIR],
		li: [DIR],
		blockquote: [DIR],
		ul: [DIR],
		ol: [DIR],
	},
	allowedSchemes: ['https', 'http', 'mailto', 'tel'],
	allowedSchemesByTag: {},
	allowedSchemesAppliedToAttributes: ['href'],
	allowProtocolRelative: false,
	disallowedTagsMode: 'discard',
	nonTextTags: DROP_WITH_CONTENT,
	transformTags: {
		'*': (tagName, attribs) => {
			if (attribs.dir === undefined) return { tagName, attribs }
			const { dir, ...rest } = attribs
			const value = dir.trim().toLowerCase()
			return { tagName, attribs: DIR_VALUES.has(value) ? { ...rest, dir: value } : rest }
		},
		// The page has its own h1; browsers' editors write div for a new line (Chrome) instead of p.
		h1: 'h2',
		div: 'p',
		a: (tagName, attribs) => {
			const href = attribs.href?.trim()
			const safe = href && SAFE_HREF.test(href) ? href : undefined
			return {
				tagName,
				attribs: {
					...(safe ? { href: safe } : {}),
					...(attribs.title ? { title: attribs.title } : {}),
					// Links leaving the site open in a new tab and cannot reach back through window.opener.
					...(safe && EXTERNAL_HREF.test(safe) ? { target: '_blank' } : {}),
					rel: 'noopener noreferrer',
				},
			}
		},
	},
	// Editors leave empty paragraphs behind (<p><br></p>); they would only add blank space.
	exclusiveFilter: (frame) => (frame.tag === 'p' || frame.tag === 'div') && !frame.text.trim(),
}

/** Cleans staff-written HTML down to the allowed formatting; safe to render with dangerouslySetInnerHTML. */
export function sanitizeRichText(html: string): string {
	return sanitizeHtml(html, richTextOptions).trim()
}

// Tags that end a line: their boundaries become spaces so words on both sides do not run together.
const BLOCK_BOUNDARY = /<(\/?(?:p|div|br|hr|h[1-6]|li|ul|ol|blockquote|tr|td|th|section|article)\b)/gi

const textOnlyOptions: sanitizeHtml.IOptions = {
	allowedTags: [],
	allowedAttributes: {},
	disallowedTagsMode: 'discard',
	nonTextTags: DROP_WITH_CONTENT,
}

/**
 * The text of some HTML, tags stripped and whitespace collapsed, e.g. for excerpts and meta
 * descriptions. With maxLength, a longer text is cut at a word boundary and ends in '…'
 * (so it is at most maxLength + 1 characters).
 */
export function htmlToPlainText(html: string, maxLength?: number): string {
	const stripped = sanitizeHtml(html.replace(BLOCK_BOUNDARY, ' <$1'), textOnlyOptions)
	// sanitize-html decodes every entity and re-escapes only these, so undoing them gives plain text.
	const text = stripped
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&quot;/g, '"')
		.replace(/&amp;/g, '&')
		.replace(/\s+/g, ' ')
		.trim()
	if (maxLength === undefined || text.length <= maxLength) return text
	return `${cutAtWord(text, maxLength)}…`
}

function cutAtWord(text: string, maxLength: number): string {
	let cut = text.slice(0, maxLength)
	const lastSpace = cut.lastIndexOf(' ')
	// A single very long word is cut mid-word rather than leaving almost nothing.
	if (text[maxLength] !== ' ' && lastSpace > maxLength / 2) cut = cut.slice(0, lastSpace)
	// Never leave half of a surrogate pair (emoji) at the end.
	if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1)
	// Trailing punctuation before the ellipsis reads badly (Arabic comma and semicolon too).
	return cut.replace(/[\s.,;:،؛!?؟\-–—]+$/u, '')
}
