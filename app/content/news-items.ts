// The news pages' limits, client-safe: the forms use them as well as the server (docs/product.md#news).

/** A card's excerpt length, in characters, before its «…». */
export const EXCERPT_LENGTH = 120

/** The longest search a visitor may type; longer is cut, as nobody types a paragraph into it. */
export const MAX_SEARCH_LENGTH = 100
