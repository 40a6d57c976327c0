// In the browser, before a photo of a paper is sent: drawn upright at most 2,000 px on its long side
// and encoded as a JPEG, so a 4 MB phone photo leaves the phone as ~400 KB on a slow network. The
// server does all of it again (app/images/page-photo.server.ts): this only saves the family's data.

/** The long side of a page's photo, as the server keeps it (PAGE_LONG_SIDE). */
const LONG_SIDE = 2000
/** Small print stays legible; as the server's PAGE_JPEG_QUALITY. */
const QUALITY = 0.82

/**
 * The photo to send: `file` made smaller, or `file` itself when it is no picture this browser can
 * draw (a PDF; a HEIC on a browser without HEIC), or would not be smaller. Never throws.
 */
export async function shrinkPhoto(file: File): Promise<File> {
	if (!file.type.startsWith('image/') || typeof createImageBitmap !== 'function') return file
	let bitmap: ImageBitmap
	try {
		bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' })
	} catch {
		return file
	}
	try {
		const scale = Math.min(1, LONG_SIDE / Math.max(bitmap.width, bitmap.height))
		const canvas = document.createElement('canvas')
		canvas.width = Math.round(bitmap.width * scale)
		canvas.height = Math.round(bitmap.height * scale)
		const context = canvas.getContext('2d')
		if (!context) return file
		// White under a transparent PNG, as on paper.
		context.fillStyle = '#ffffff'
		context.fillRect(0, 0, canvas.width, canvas.height)
		context.drawImage(bitmap, 0, 0, canvas.width, canvas.height)
		const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', QUALITY))
		if (!blob || blob.size >= file.size) return file
		return new File([blob], `${file.name.replace(/\.[^.]{1,5}$/, '') || 'photo'}.jpg`, { type: 'image/jpeg' })
	} finally {
		bitmap.close()
	}
}
