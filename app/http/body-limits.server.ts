// How much of a request's body the server reads (docs/security.md#input). A route reads a form whole
// (request.formData()): server.mjs reads it first, at most its limit, counting as the bytes arrive
// whether a Content-Length announced them or they come chunked, and answers 413 past it
// (BODY_TOO_LARGE_PAGE) without reading on. The upload endpoints stream their files to disk
// themselves (app/storage/upload-stream.server.ts) and keep the limits of their own.

/** An ordinary form: the longest an application's step, a case section or a staff form sends is a few tens of KB. */
export const FORM_MAX_BYTES = 256 * 1024

/** The content editor: rich text of up to 50,000 characters a field (app/content/schema.ts), percent-encoded up to 9 bytes each. */
export const EDITOR_MAX_BYTES = 2 * 1024 * 1024

/** The bank's confirmation file is small, a line per transfer (app/routes/admin/payment-batch.tsx). */
export const CONFIRMATION_MAX_BYTES = 1_000_000

/** Room for a multipart body's boundaries, part headers and small fields beside a file. */
const MULTIPART_ROOM = 64 * 1024

/** The endpoints that stream a multipart body's files to disk (busboy), each with the limits of its own. */
const streamedUploads = [
	/^\/apply\/r\/[^/]+\/files\/upload$/,
	// The documents library's bulk upload (content-list) and the single bulk endpoint.
	/^\/admin\/content\/[^/]+(?:\/upload|\/video-upload)?$/,
	/^\/admin\/content\/albums\/[^/]+\/photos$/,
	// The content editor with a file field.
	/^\/admin\/content\/[^/]+\/(?:new|edit|[^/]+\/edit)$/,
	/^\/admin\/cases\/[^/]+\/study\/photos$/,
	// A delivery recorded with its receipt.
	/^\/admin\/payments$/,
]

const contentEditor = /^\/admin\/content\/[^/]+\/(?:new|edit|[^/]+\/edit)$/
/** A batch's confirmation file, and the bank statement's credits (app/routes/admin/fund-receipts.tsx). */
const bankFiles = /^\/admin\/(?:payments\/[^/]+|funds\/receipts)$/

/**
 * The most bytes server.mjs reads of a POST to `path` before the app does, or undefined for an
 * upload endpoint's multipart body, which the route streams itself. `path` may carry React Router's
 * `.data` suffix (a form sent from a page with its script).
 */
export function bodyLimit(path: string, contentType: string | undefined): number | undefined {
	const route = path === '/_root.data' ? '/' : path.replace(/\.data$/, '')
	const multipart = /^multipart\/form-data\s*(;|$)/i.test(contentType ?? '')
	if (multipart && streamedUploads.some((pattern) => pattern.test(route))) return undefined
	if (contentEditor.test(route)) return EDITOR_MAX_BYTES
	if (multipart && bankFiles.test(route)) return CONFIRMATION_MAX_BYTES + MULTIPART_ROOM
	return FORM_MAX_BYTES
}
