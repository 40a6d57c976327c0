// Hostile uploads against the real server (docs/product.md: uploads): the corpus of
// tests/fixtures/attack-files.ts (HTML, SVG with script, executables renamed, PDFs carrying
// JavaScript or a program, polyglots, empty and oversized files, path traversal and control
// characters in names) posted to the applicant's upload and to six staff uploads. Each is refused
// with its Arabic message or kept only harmless; every stored file is served with nosniff, a
// Content-Disposition and the sandbox policy (a PDF still shows in the viewer: pdf-viewer.spec.ts).
import fs from 'node:fs'
import http from 'node:http'
import type { APIRequestContext } from '@playwright/test'
import { attackFiles, multipartBody, type AttackFile, type Refusal, type UploadTarget } from '#tests/fixtures/attack-files.ts'
import { submitCaseAsStaff } from '../case-fixtures.ts'
import { expectStoredFileHeaders } from './stored-files.ts'
import { expect, staffState, test, unique } from '../utils.ts'

test.describe.configure({ mode: 'default' })

// The test server's limits (playwright.config.ts): UPLOAD_MAX_MB and VIDEO_MAX_MB at their
// defaults, DOCUMENT_MAX_MB 1.
const UPLOAD_MAX = 10_000_000
const DOCUMENT_MAX = 1_000_000
const VIDEO_MAX = 500_000_000
const sizes = { [UPLOAD_MAX]: '10 ميغابايت', [DOCUMENT_MAX]: '1 ميغابايت', [VIDEO_MAX]: '500 ميغابايت' } as Record<number, string>

const messages = {
	notPdf: 'الملف ليس PDF. اختر ملفاً بصيغة PDF.',
	notAccepted: 'الملف ليس صورة ولا PDF. صوّر المستند بالكاميرا، أو اختر صورة (JPEG أو PNG أو WebP أو HEIC) أو ملف PDF.',
	tooManyPixels: 'أبعاد الصورة أكبر مما يُقبل (أكثر من 40 مليون نقطة). التقطها بكاميرا الجوال من جديد أو اختر صورة أصغر.',
	notImage: 'الملف ليس صورة. اختر صورة JPEG أو PNG أو WebP.',
	notAlbumImage: 'الملف ليس صورة. اختر صوراً بصيغة JPEG أو PNG أو WebP أو HEIC.',
	notVideo: 'الملف ليس فيديو. اختر ملف فيديو بصيغة MP4 أو WebM أو MOV.',
	empty: 'الملف فارغ لا يحتوي على أي بيانات. اختر الملف الصحيح.',
	unsafePdf: 'ملف PDF يحتوي على برمجيات أو ملفات مضمّنة، فلا يُقبل لأسباب أمنية. احفظه من جديد بالطباعة إلى ملف PDF ثم أعد رفعه.',
	badName: 'اسم الملف يحتوي على رموز غير مسموح بها. غيّر اسم الملف ثم أعد رفعه.',
	tooLarge: (max: number) => `حجم الملف أكبر من ${sizes[max]}. اختر ملفاً أصغر.`,
}


let baseURL: string
let visitor: APIRequestContext
let admin: APIRequestContext
let editor: APIRequestContext
let officer: APIRequestContext
/** A sent case a researcher visits: its photos go to the study page. */
let visited: { reference: string }
/** A draft application whose file slots are open, as its applicant holds it. */
let draft: { token: string; reference: string }
let albumId: string

/** An endpoint's words for a refusal; one it has no words for fails the test, by its name. */
const wordsFor = (words: Partial<Record<Refusal, string>>, refusal: Refusal) => words[refusal] ?? `(no message for ${refusal})`

/** The name a file is shown under when kept, or the cleaned name a refusal quotes. */
const shownName = (file: AttackFile) => ('kept' in file.expected ? file.expected.shownName : file.name.split(/[/\\]/).pop()!)

interface Endpoint {
	name: string
	target: UploadTarget
	maxBytes: number
	/** Path, fields and file input of its form. */
	path: () => string
	fields: (file: AttackFile) => Record<string, string>
	input: string
	as: () => APIRequestContext
	/** Whether it answers JSON (the progress-bar request) or the page (the content editor). */
	json: boolean
	/** Where the answer is a notice on the page it leads back to (the album's photos), that page. */
	noticeOn?: () => string
	/** The text the caller sees for a refusal of `file`. */
	message: (refusal: Refusal, file: AttackFile) => string
	/** How many files one request may carry: a Content-Length past that many times the limit is refused unread. */
	files: number
	/** The text of that refusal. */
	declaredTooLarge: string
	/** What else to check once the corpus has been sent. */
	afterwards?: (corpus: AttackFile[]) => Promise<void>
}

const endpoints: Endpoint[] = [
	{
		name: 'applicant upload (needy families, «other files», a document of pages)',
		target: 'document',
		maxBytes: UPLOAD_MAX,
		path: () => `/apply/r/${draft.token}/files/upload`,
		fields: () => ({ slot: 'other' }),
		input: 'file',
		as: () => visitor,
		json: true,
		message: (refusal) => wordsFor({ 'wrong-type': messages.notAccepted, empty: messages.empty, 'unsafe-pdf': messages.unsafePdf, 'too-large': messages.tooLarge(UPLOAD_MAX), 'bad-name': messages.badName, 'too-many-pixels': messages.tooManyPixels }, refusal),
		files: 1,
		declaredTooLarge: messages.tooLarge(UPLOAD_MAX),
		afterwards: applicantFilesKept,
	},
	{
		name: 'staff bulk upload (documents library)',
		target: 'pdf',
		maxBytes: DOCUMENT_MAX,
		path: () => '/admin/content/documents/upload',
		fields: () => ({ category: 'workshops' }),
		input: 'files',
		as: () => editor,
		json: true,
		message: (refusal, file) =>
			refusal === 'bad-name' ? messages.badName : `«${shownName(file)}»: ${wordsFor({ 'wrong-type': messages.notPdf, empty: messages.empty, 'unsafe-pdf': messages.unsafePdf, 'too-large': messages.tooLarge(DOCUMENT_MAX) }, refusal)}`,
		files: 20,
		declaredTooLarge: 'مجموع الملفات أكبر من المسموح في المرة الواحدة. ارفعها على أكثر من مرة.',
	},
	{
		name: 'staff document field (content editor)',
		target: 'pdf',
		maxBytes: DOCUMENT_MAX,
		path: () => '/admin/content/documents/new',
		fields: (file) => ({ category: 'projects-2022', title: `مستند ${file.id} ${unique()}`, order: '1' }),
		input: 'file-upload',
		as: () => editor,
		json: false,
		message: (refusal) => wordsFor({ 'wrong-type': messages.notPdf, empty: messages.empty, 'unsafe-pdf': messages.unsafePdf, 'too-large': messages.tooLarge(DOCUMENT_MAX), 'bad-name': messages.badName }, refusal),
		files: 1,
		declaredTooLarge: messages.tooLarge(DOCUMENT_MAX),
	},
	{
		name: 'staff image field (content editor, news)',
		target: 'image',
		maxBytes: UPLOAD_MAX,
		path: () => '/admin/content/news/new',
		fields: (file) => ({ NewsDate: '2025-01-01', title: `خبر ${file.id} ${unique()}`, details: '<p>نص الخبر</p>' }),
		input: 'img-upload',
		as: () => editor,
		json: false,
		message: (refusal) => wordsFor({ 'wrong-type': messages.notImage, empty: messages.empty, 'unsafe-pdf': '', 'too-large': messages.tooLarge(UPLOAD_MAX), 'bad-name': messages.badName }, refusal),
		files: 1,
		declaredTooLarge: messages.tooLarge(UPLOAD_MAX),
	},
	{
		name: 'staff album photos',
		target: 'image',
		maxBytes: UPLOAD_MAX,
		path: () => `/admin/content/albums/${albumId}/photos`,
		fields: () => ({}),
		input: 'photos',
		as: () => editor,
		json: false,
		noticeOn: () => `/admin/content/albums/${albumId}/photos`,
		message: (refusal, file) =>
			refusal === 'bad-name'
				? messages.badName
				: `لم تُضف أي صورة. «${shownName(file)}»: ${wordsFor({ 'wrong-type': messages.notAlbumImage, empty: messages.empty, 'unsafe-pdf': '', 'too-large': 'حجم الصورة أو أبعادها أكبر من المسموح (حتى 40 مليون نقطة). صغّرها ثم أعد رفعها.' }, refusal)}`,
		files: 20,
		declaredTooLarge: 'حجم الصورة أكبر من المسموح (10 ميغابايت).',
	},
	{
		name: 'staff visit photos (the study page)',
		target: 'image',
		maxBytes: UPLOAD_MAX,
		path: () => `/admin/cases/${visited.reference}/study/photos`,
		fields: () => ({}),
		input: 'photos',
		as: () => officer,
		json: true,
		message: (refusal, file) =>
			refusal === 'bad-name' ? messages.badName : `«${shownName(file)}»: ${wordsFor({ 'wrong-type': messages.notImage, empty: messages.empty, 'unsafe-pdf': '', 'too-large': messages.tooLarge(UPLOAD_MAX) }, refusal)}`,
		files: 10,
		declaredTooLarge: messages.tooLarge(UPLOAD_MAX),
	},
	{
		name: 'staff video (sent ahead of its form)',
		target: 'video',
		maxBytes: VIDEO_MAX,
		path: () => '/admin/content/videos/video-upload',
		fields: () => ({}),
		input: 'video',
		as: () => editor,
		json: true,
		message: (refusal) =>
			wordsFor({
				'wrong-type': messages.notVideo,
				empty: messages.empty,
				'unsafe-pdf': '',
				'too-large': `حجم الفيديو أكبر من المسموح (${sizes[VIDEO_MAX]}). اختر ملفاً أصغر أو اضغطه ثم أعد المحاولة.`,
				'bad-name': messages.badName,
			}, refusal),
		files: 1,
		declaredTooLarge: `حجم الفيديو أكبر من المسموح (${sizes[VIDEO_MAX]}). اختر ملفاً أصغر أو اضغطه ثم أعد المحاولة.`,
	},
]

/** The Cookie header of a stored staff session, for requests sent without Playwright. */
function cookieOf(role: 'content_editor' | 'case_officer' | null): string {
	if (!role) return ''
	const state = JSON.parse(fs.readFileSync(staffState(role), 'utf8')) as { cookies: { name: string; value: string }[] }
	return state.cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ')
}

/**
 * Sends the opening of a multipart body and then `total` bytes of one file (in the endpoint's file
 * input, or in `input`), a chunk at a time,
 * saying its size in Content-Length or not (chunked), and stops as soon as an answer comes: the
 * answer, and how much had been sent by then.
 */
function sendOversized(endpoint: Endpoint, total: number, declared: boolean, input = endpoint.input): Promise<{ status: number; body: string; sentWhenAnswered: number }> {
	const { body: whole, contentType } = multipartBody(endpoint.fields({ id: 'oversized' } as AttackFile), { field: input, name: 'كبير.bin', type: 'application/octet-stream', bytes: new Uint8Array(0) })
	const closing = Buffer.from(`\r\n--${contentType.split('boundary=')[1]}--\r\n`)
	const opening = whole.subarray(0, whole.length - closing.length)
	const url = new URL(endpoint.path(), baseURL)
	return new Promise((resolve, reject) => {
		let sent = 0
		let answered = false
		const request = http.request(url, {
			method: 'POST',
			headers: {
				'Content-Type': contentType,
				Accept: 'application/json',
				Cookie: cookieOf(endpoint.as() === visitor ? null : endpoint.as() === officer ? 'case_officer' : 'content_editor'),
				...(declared ? { 'Content-Length': String(opening.length + total + closing.length) } : {}),
			},
		})
		request.on('response', (response) => {
			answered = true
			const sentWhenAnswered = sent
			const chunks: Buffer[] = []
			response.on('data', (chunk: Buffer) => chunks.push(chunk))
			response.on('end', () => {
				request.destroy()
				resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), sentWhenAnswered })
			})
		})
		// The server closes the connection once it has answered: writing on is then refused. A body of
		// unknown length may still be on its way when it does, and the refused write can beat its answer
		// here (EPIPE, ECONNRESET): the server stopped reading all the same, which the caller checks.
		request.on('error', (error: NodeJS.ErrnoException) => {
			if (answered) return
			if (!declared && (error.code === 'EPIPE' || error.code === 'ECONNRESET')) resolve({ status: 0, body: '', sentWhenAnswered: sent })
			else reject(error)
		})
		const chunk = Buffer.alloc(256 * 1024, 0x25)
		const pump = () => {
			while (!answered && sent < total) {
				const piece = chunk.subarray(0, Math.min(chunk.length, total - sent))
				sent += piece.length
				if (!request.write(piece)) return void request.once('drain', pump)
			}
			if (!answered) request.end(closing)
		}
		request.write(opening)
		// A declared size is answered from the headers: nothing more is sent, so the server's closing
		// the connection cannot race a write (EPIPE) and hide its answer. The answer must still come.
		if (!declared) pump()
	})
}

/** What a caller sees of a refusal: the status, and the message in the JSON answer or on the page. */
async function post(endpoint: Endpoint, file: AttackFile): Promise<{ status: number; text: string; json: Record<string, unknown> | null }> {
	const { body, contentType } = multipartBody(endpoint.fields(file), { field: endpoint.input, name: file.name, type: file.type, bytes: file.bytes })
	// The album's form asks for JSON as its script does (a plain form is redirected), then reads the notice on the page.
	const accept = endpoint.json || endpoint.noticeOn ? 'application/json' : 'text/html'
	const response = await endpoint.as().post(endpoint.path(), { headers: { 'Content-Type': contentType, Accept: accept }, data: body, maxRedirects: 0 })
	const text = endpoint.noticeOn ? await (await endpoint.as().get(endpoint.noticeOn())).text() : await response.text()
	let json: Record<string, unknown> | null = null
	if (endpoint.json && (response.headers()['content-type'] ?? '').includes('json')) json = JSON.parse(text) as Record<string, unknown>
	return { status: response.status(), text, json }
}

/** The message a JSON answer carries: its `message`, or its notice's. */
const messageOf = (json: Record<string, unknown> | null) => String(json?.message ?? (json?.notice as { message?: string } | undefined)?.message ?? '')


/** The closing note's figures, printed after the file's tests in this worker. */
/**
 * The applicant's files after the corpus: the harmless ones are pages of one document («مرفقات أخرى»),
 * made one PDF with a page for each; the PDFs are listed under their cleaned names; every file is
 * served as a file.
 */
async function applicantFilesKept(corpus: AttackFile[]) {
	const kept = corpus.filter((file) => 'kept' in file.expected)
	// The photos are cleaned after the answer: the page says so until the document is made.
	let page = ''
	await expect
		.poll(
			async () => {
				page = await (await visitor.get(`/apply/r/${draft.token}/files`)).text()
				// What the «other files» document says it is, or why it is not there yet.
				const other = page.slice(page.indexOf('id="slot-other"'))
				return other.includes('جارٍ تجهيز الصفحات') ? 'still being made' : (/المستند:.*?ملف PDF من (?:<!-- -->)?([^<]+)</s.exec(other)?.[1] ?? 'no document')
			},
			{ timeout: 60_000 },
		)
		.toBe(`${kept.length} صفحات`)
	// «عرض» opens each file in the browser (?inline=1); without it, the same address downloads it.
	const links = [...page.matchAll(new RegExp(`href="(/apply/r/${draft.token}/files/[0-9a-f-]{36})(?:\\?inline=1)?"`, 'g'))].map((match) => match[1]!)
	for (const file of kept.filter((candidate) => 'kept' in candidate.expected && candidate.expected.kept !== 're-encoded')) expect(page, file.id).toContain(shownName(file))
	for (const name of ['صفحة.html', 'كشف حساب.pdf', 'شعار.svg', 'invoice.pdf', 'تقرير.pdf', 'فارغ.pdf', 'كبير', 'صورة الهوية.png']) expect(page).not.toContain(name)
	// Two from the case's own steps (identity, family register), and the one document of the kept attacks.
	expect(new Set(links).size).toBe(3)
	for (const link of new Set(links)) {
		const response = await visitor.get(link)
		expect(response.status()).toBe(200)
		expectStoredFileHeaders(response.headers(), 'attachment')
		const disposition = response.headers()['content-disposition']!
		const name = decodeURIComponent(disposition.split("''")[1]!)
		const unsafe = [...name].filter((character) => /[/\\]/.test(character) || /\p{Cc}/u.test(character) || (character >= '\u202a' && character <= '\u202e') || (character >= '\u2066' && character <= '\u2069'))
		expect(unsafe, name).toEqual([])
	}
}

const tally = { tried: 0, refused: 0, neutralised: 0 }

test.beforeAll(async ({ playwright }, testInfo) => {
	testInfo.setTimeout(120_000)
	baseURL = testInfo.project.use.baseURL!
	const context = (storageState?: string) => playwright.request.newContext({ baseURL, storageState })
	;[visitor, admin, editor, officer] = await Promise.all([context(), context(staffState('admin')), context(staffState('content_editor')), context(staffState('case_officer'))])
	visited = await submitCaseAsStaff(officer, { name: `أسرة مزارة ${unique()}` })
	// A draft: the applicant is on its last step, every slot open.
	const { token, reference } = await submitCaseAsStaff(admin, { name: `مقدم ${unique()}`, submit: false })
	draft = { token, reference }
	const albums = await (await editor.get('/admin/content/albums')).text()
	albumId = /\/admin\/content\/albums\/([0-9a-f-]{36})\/photos/.exec(albums)![1]!
})

test.afterAll(async () => {
	console.info(`uploads: ${tally.tried} payloads tried on ${endpoints.length} endpoints (${endpoints.map((endpoint) => endpoint.name).join('; ')}); ${tally.refused} refused, ${tally.neutralised} kept harmless, ${tally.tried - tally.refused - tally.neutralised} through`)
	await Promise.all([visitor, admin, editor, officer].map((context) => context?.dispose()))
})

/** What the answer to a refused request says: its JSON message, or the page. */
const said = (body: string) => (body.startsWith('{') ? messageOf(JSON.parse(body) as Record<string, unknown>) : body)

for (const endpoint of endpoints) {
	test(`${endpoint.name}: every attack is refused with its message or kept harmless`, async () => {
		test.setTimeout(180_000)
		// A video's limit is 500 MB: its oversized file is only ever streamed (below), never made.
		const corpus = await attackFiles(endpoint.target, Math.min(endpoint.maxBytes, UPLOAD_MAX))
		expect(corpus).toHaveLength(endpoint.target === 'document' ? 34 : 30)
		for (const file of corpus) {
			tally.tried++
			const label = `${endpoint.name} / ${file.id}`
			if (file.id === 'oversized' && endpoint.maxBytes > UPLOAD_MAX) {
				const answer = await sendOversized(endpoint, 2 * endpoint.maxBytes, true)
				expect(answer.status, label).toBe(413)
				expect(said(answer.body), label).toContain(endpoint.declaredTooLarge)
				tally.refused++
				continue
			}
			const { status, text, json } = await post(endpoint, file)
			if ('refused' in file.expected) {
				const message = endpoint.message(file.expected.refused, file)
				expect(status, label).toBeGreaterThanOrEqual(400)
				expect(status, label).toBeLessThan(500)
				if (endpoint.json) expect(messageOf(json), label).toBe(message)
				else expect(text, label).toContain(message)
				tally.refused++
				continue
			}
			expect(status, `${label}: ${text.slice(0, 200)}`).toBeLessThan(400)
			// The shown name, where the answer gives it.
			if (endpoint.target === 'video') expect(json?.name, label).toBe(file.expected.shownName)
			if (endpoint.name.startsWith('staff bulk')) expect(json?.ok, label).toBe(true)
			if (endpoint.noticeOn) expect(text, label).toContain('تمت إضافة صورة واحدة بنجاح.')
			tally.neutralised++
		}
		await endpoint.afterwards?.(corpus)
	})
}

test('a request that says it is too large is answered 413 before its body is sent', async () => {
	for (const endpoint of endpoints) {
		const total = Math.max(3 * endpoint.files * endpoint.maxBytes, 40_000_000)
		const answer = await sendOversized(endpoint, total, true)
		expect(answer.status, endpoint.name).toBe(413)
		expect(said(answer.body), endpoint.name).toContain(endpoint.declaredTooLarge)
		// What the first writes put in the socket's buffers before the answer came back: a small part.
		expect(answer.sentWhenAnswered, endpoint.name).toBeLessThan(total / 4)
	}
})

test('a file too large sent without its size is not read to its end: 413 once the limit is passed', async () => {
	for (const endpoint of endpoints.filter((candidate) => candidate.maxBytes <= UPLOAD_MAX)) {
		const offered = Math.max(5 * endpoint.maxBytes, 40_000_000)
		const answer = await sendOversized(endpoint, offered, false)
		// 413, or the connection closed before its answer could be read (status 0): either way unread,
		// and the server still up (a crash would close the connection too).
		expect([413, 0], endpoint.name).toContain(answer.status)
		if (answer.status === 0) expect((await visitor.get('/healthz')).status(), endpoint.name).toBe(200)
		// The limit, and what the socket's buffers held when the server stopped reading: far from all of it.
		expect(answer.sentWhenAnswered, endpoint.name).toBeLessThan(endpoint.maxBytes + 8_000_000)
	}
})

test('a chunked body that never ends is not read to its end either, when its bytes go to no file the endpoint keeps', async () => {
	// A file in a part of another name is dropped as it arrives, never stored: only the whole body's
	// own limit (its files' limits and 64 KiB) stops it.
	for (const endpoint of endpoints.filter((candidate) => candidate.maxBytes * (candidate.files + 1) <= 25_000_000)) {
		const answer = await sendOversized(endpoint, 40_000_000, false, 'not-an-input')
		expect([413, 0], endpoint.name).toContain(answer.status)
		if (answer.status === 0) expect((await visitor.get('/healthz')).status(), endpoint.name).toBe(200)
		expect(answer.sentWhenAnswered, endpoint.name).toBeLessThan(endpoint.maxBytes * (endpoint.files + 1) + 8_000_000)
	}
})

test('published files and pictures: nosniff, a Content-Disposition and the sandbox policy', async () => {
	const workshops = await (await visitor.get('/reports/workshops')).text()
	const documentHref = /href="(\/documents\/[0-9a-f-]{36})\?view"/.exec(workshops)![1]!
	const download = await visitor.get(documentHref)
	expectStoredFileHeaders(download.headers(), 'attachment')
	const view = await visitor.get(`${documentHref}?view`)
	expectStoredFileHeaders(view.headers(), 'inline')
	const home = await (await visitor.get('/')).text()
	const image = /(\/images\/[0-9a-f-]{36}\/\d+\.(?:webp|avif))/.exec(home)![1]!
	expectStoredFileHeaders((await visitor.get(image)).headers(), 'inline')
	const videos = await (await visitor.get('/gallery/videos')).text()
	const video = /src="(\/documents\/[0-9a-f-]{36})"/.exec(videos)
	if (video) expectStoredFileHeaders((await visitor.get(video[1]!, { headers: { Range: 'bytes=0-99' } })).headers(), 'inline')
})
