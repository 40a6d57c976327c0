// Cross-site scripting: the payloads of tests/fixtures/xss-payloads.ts typed into every text field
// of the content types, the foundation's details, the contact form, every application type and a
// case's notes and messages, then every page that shows them drawn in Chromium. On each page a trap
// (installTrap: alert, confirm, prompt and a global `__xssHit` recorded, requests to /xss-beacon/
// caught, dialogs, console and page errors watched) must stay silent, `document.title` must not
// have been set, no event handler, javascript: URL or foreign script may be in the DOM, plain text
// must read as the text typed, and rich text must keep only its allow-list. The browser contexts
// bypass the Content-Security-Policy, so this proves the escaping and the sanitising on their own;
// one test shows that the policy stops the same payloads too.
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import { expect, test, type APIRequestContext, type APIResponse, type Browser, type BrowserContext, type Frame, type Page, type PlaywrightWorkerArgs, type TestInfo } from '@playwright/test'
import { conditionOf } from '#app/forms/conditions.ts'
import { collectionOf, fieldsBesideCollection, type ApplicationDef, type FieldDef, type RowFieldDef, type SectionDef } from '#app/forms/definition.ts'
import { applicationDefinitions } from '#app/forms/registry.ts'
import { randomNationalId, studyForm, validIban } from '#tests/fixtures/needy-families.ts'
import { minimalPdf } from '#tests/fixtures/pdf.ts'
import { BEACON, breakoutUrl, refusedUrls, richAllowList, richText, TITLE_MARK, xssPayloads, type Payload } from '#tests/fixtures/xss-payloads.ts'
import { submitCaseAsStaff } from '../case-fixtures.ts'
import { staffState, unique, type StaffRole } from '../utils.ts'
import { inquiry, inputValue } from './route-table.ts'
import { asksConsent } from '#app/privacy/consent-rules.ts'
import { youtubeUrlMessage } from '#app/domain/embeds.ts'
import { banks } from '#app/forms/options.ts'

// ─── What each test typed and looked at ──────────────────────────────────────────────────────────

/** The payloads one test uses (tagged with its own prefix), where it typed them, and the pages it checked. */
class Ledger {
	readonly payloads: readonly Payload[]
	readonly fields = new Map<string, Set<string>>()
	readonly pages: string[] = []
	refused = 0

	constructor(readonly prefix: string) {
		this.payloads = xssPayloads(prefix)
	}

	entered(field: string, used: readonly Payload[]) {
		const tags = this.fields.get(field) ?? new Set<string>()
		for (const payload of used) tags.add(payload.tag)
		this.fields.set(field, tags)
	}

	/** The test's annotation and a line in the output: payloads × fields × pages, and that none ran. */
	report(testInfo: TestInfo, what: string) {
		const pairs = [...this.fields.values()].reduce((sum, tags) => sum + tags.size, 0)
		const distinct = new Set([...this.fields.values()].flatMap((tags) => [...tags])).size
		const line = `${what}: ${distinct} of ${this.payloads.length} payloads in ${this.fields.size} fields (${pairs} payload×field), ${this.pages.length} pages drawn, ${this.refused} refused as they should be, 0 ran`
		testInfo.annotations.push({ type: 'xss', description: line })
		console.log(`[xss] ${line}`)
	}
}

/** A field's value and the payload texts it holds, each of which a page showing it must show whole. */
interface Filled {
	value: string
	texts: string[]
}

/**
 * Fills fields with payloads: as many whole payloads as a field takes, starting where the last
 * field stopped, so that the short fields together take every payload and long ones take them all.
 * Each field starts with one that runs as soon as it is parsed as markup (`fires`), taken in turn.
 */
class Packer {
	private cursor = 0
	private firing = 0
	private readonly short: readonly Payload[]
	private readonly fires: readonly Payload[]

	constructor(private readonly ledger: Ledger) {
		this.short = ledger.payloads.filter((payload) => !payload.long)
		this.fires = ledger.payloads.filter((payload) => payload.fires)
	}

	fill(field: string, max: number, separator = ' '): Filled {
		const used: Payload[] = []
		let length = 0
		const first = this.fires[this.firing % this.fires.length]!
		if (first.text.length <= max) {
			used.push(first)
			length = first.text.length
			this.firing++
		}
		let last = this.cursor
		for (let step = 0; step < this.short.length; step++) {
			const index = (this.cursor + step) % this.short.length
			const payload = this.short[index]!
			const added = payload.text.length + (used.length ? separator.length : 0)
			if (used.includes(payload) || length + added > max) continue
			used.push(payload)
			length += added
			last = index
		}
		if (!used.length) throw new Error(`no payload fits in ${field} (${max} characters)`)
		this.cursor = (last + 1) % this.short.length
		this.ledger.entered(field, used)
		return { value: used.map((payload) => payload.text).join(separator), texts: used.map((payload) => payload.text) }
	}

	/** Rich text with every payload, the long one too (xss-payloads.ts, richText). */
	rich(field: string, marker: string): string {
		this.ledger.entered(field, this.ledger.payloads)
		return richText(marker, this.ledger.payloads)
	}

	/** The long payload, for a field it is too long for: refused, and shown back in the form. */
	long(field: string): Filled {
		const payload = this.ledger.payloads.find((candidate) => candidate.long)!
		this.ledger.entered(field, [payload])
		return { value: payload.text, texts: [payload.text] }
	}
}

/** Lower-case letters and digits (news search folds case), new for each test. */
const newPrefix = () => `x${unique().slice(-5)}`

/** The same for the whole run against one server: a worker started again finds what it sent (the contact form takes few a run). */
const runPrefix = (salt: string) => `x${createHash('sha256').update(fs.readFileSync(staffState('admin'))).update(salt).digest('hex').slice(0, 5)}`

// ─── HTTP ────────────────────────────────────────────────────────────────────────────────────────

type Who = StaffRole | 'visitor'
type FormBody = Record<string, string | string[]>
type Part = string | { name: string; mimeType: string; buffer: Buffer }

/** Request contexts for the roles, with our own Origin as a browser would send it; disposed by `close`. */
async function apis(playwright: PlaywrightWorkerArgs['playwright'], baseURL: string) {
	const made: APIRequestContext[] = []
	const open = async (who: Who) => {
		const context = await playwright.request.newContext({ baseURL, storageState: who === 'visitor' ? undefined : staffState(who), extraHTTPHeaders: { Origin: new URL(baseURL).origin } })
		made.push(context)
		return context
	}
	return { open, close: () => Promise.all(made.map((context) => context.dispose())) }
}

/** What a refused form says: its error summary, for a failure message. */
function errorsIn(html: string): string {
	const text = html
		.slice(html.indexOf('<body'))
		.replace(/<script[\s\S]*?<\/script>/g, '')
		.replace(/<[^>]+>/g, ' ')
		.replace(/\s+/g, ' ')
	const at = text.indexOf('يوجد خطأ')
	return at >= 0 ? text.slice(at, at + 600) : text.slice(0, 300)
}

async function expectStatus(response: APIResponse, status: number, what: string) {
	if (response.status() !== status) expect(`${response.status()} ${errorsIn(await response.text())}`, what).toBe(String(status))
}

async function postForm(request: APIRequestContext, path: string, form: FormBody, status = 302): Promise<APIResponse> {
	const body = new URLSearchParams()
	for (const [key, value] of Object.entries(form)) for (const item of [value].flat()) body.append(key, item)
	const response = await request.post(path, { headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, data: body.toString(), maxRedirects: 0 })
	await expectStatus(response, status, `POST ${path}`)
	return response
}

async function postMultipart(request: APIRequestContext, path: string, multipart: Record<string, Part>, status = 302): Promise<APIResponse> {
	const response = await request.post(path, { multipart, maxRedirects: 0 })
	await expectStatus(response, status, `POST ${path}`)
	return response
}

async function html(request: APIRequestContext, path: string): Promise<string> {
	const response = await request.get(path)
	expect(response.status(), path).toBe(200)
	return response.text()
}

const pdf = (name: string) => ({ name, mimeType: 'application/pdf', buffer: Buffer.from(minimalPdf()) })

/** The text of an HTML attribute or textarea as React escapes it. */
const unescapeHtml = (text: string) =>
	text
		.replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
		.replace(/&#(\d+);/g, (_, decimal: string) => String.fromCodePoint(Number(decimal)))
		.replace(/&quot;/g, '"')
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&amp;/g, '&')

// ─── The trap ────────────────────────────────────────────────────────────────────────────────────

/** Runs in every frame before the page's own scripts: whatever a payload would call is recorded. */
function installTrap() {
	const w = window as unknown as Record<string, unknown>
	const fired: string[] = []
	const violations: string[] = []
	w.__xss = fired
	w.__csp = violations
	w.__xssHit = (tag: unknown) => void fired.push(`__xssHit(${String(tag)})`)
	for (const name of ['alert', 'confirm', 'prompt'] as const) {
		Object.defineProperty(window, name, {
			configurable: true,
			writable: true,
			value: (message?: unknown) => {
				fired.push(`${name}(${String(message)})`)
				return null
			},
		})
	}
	document.addEventListener('securitypolicyviolation', (event) => void violations.push(event.effectiveDirective))
}

interface Trap {
	context: BrowserContext
	page: Page
	/** Dialogs, beacons, console lines and page errors that point at a payload, since the last check. */
	fired: string[]
	/** The Content-Security-Policy the page now shown came with (bypassed or not, it names the inline scripts the page may run). */
	policy: string
}

type State = string | Awaited<ReturnType<APIRequestContext['storageState']>>

async function openTrap(browser: Browser, who: Who | { state: State }, ledger: Ledger, bypassCSP = true): Promise<Trap> {
	const storageState = typeof who === 'object' ? who.state : who === 'visitor' ? { cookies: [], origins: [] } : staffState(who)
	const context = await browser.newContext({ bypassCSP, storageState })
	const fired: string[] = []
	await context.addInitScript(installTrap)
	await context.route(`**${BEACON}**`, (route) => {
		fired.push(`a request to ${route.request().url()}`)
		return route.fulfill({ status: 204, body: '' })
	})
	const page = await context.newPage()
	const marked = (text: string) => text.includes(ledger.prefix) || text.includes('__xss') || text.includes(TITLE_MARK)
	page.on('dialog', (dialog) => {
		fired.push(`a ${dialog.type()} dialog: ${dialog.message()}`)
		void dialog.dismiss().catch(() => {})
	})
	page.on('console', (message) => void (marked(message.text()) && fired.push(`console: ${message.text()}`)))
	page.on('pageerror', (error) => void (marked(error.message) && fired.push(`page error: ${error.message}`)))
	const trap: Trap = { context, page, fired, policy: '' }
	page.on('response', (response) => {
		if (response.request().isNavigationRequest() && response.frame() === page.mainFrame()) trap.policy = response.headers()['content-security-policy'] ?? ''
	})
	return trap
}

/** Waits for the page to load, hydrate when it does, and one more frame for handlers to fire. */
async function settle(page: Page) {
	await page.waitForLoadState('load')
	if (await page.locator('script[type="module"]').count()) {
		await page.waitForFunction(() => [document.body, document.querySelector('main')].some((element) => element && Object.keys(element).some((key) => key.startsWith('__reactFiber$'))), undefined, {
			timeout: 15_000,
		})
	}
	await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 60))))
}

interface ProbeArgs {
	markers: string[]
	allow: Record<string, readonly string[]>
	prefix: string
	/** The hashes of the inline scripts the page's policy allows ('sha256-…'), for scripts without its nonce. */
	hashes: string[]
}

interface RichFinding {
	marker: string
	found: boolean
	outside: string[]
	strong: boolean
	heading: boolean
	dir: string | null
	link: { rel: string; target: string } | null
}

interface ProbeResult {
	title: string
	dangerous: string[]
	text: string
	hrefs: string[]
	rich: RichFinding[]
}

/** Reads the page in the browser: active markup, the text as shown, links to our addresses, and the rich text's elements. */
async function probe({ markers, allow, prefix, hashes }: ProbeArgs): Promise<ProbeResult> {
	const xhtml = 'http://www.w3.org/1999/xhtml'
	const describe = (element: Element) =>
		`<${element.localName}${[...element.attributes].map((attribute) => ` ${attribute.name}="${attribute.value.slice(0, 60)}"`).join('')}>${(element.textContent ?? '').slice(0, 60)}`
	const urlAttributes = new Set(['href', 'src', 'action', 'formaction', 'data', 'poster', 'background', 'xlink:href', 'ping', 'cite'])
	const framed = /^https:\/\/(www\.youtube-nocookie\.com\/embed\/|www\.google\.com\/maps\/embed)/
	const dangerous: string[] = []
	for (const element of document.querySelectorAll('*')) {
		const tag = element.localName.toLowerCase()
		for (const attribute of element.attributes) {
			const name = attribute.name.toLowerCase()
			// As a browser reads a URL: control characters and spaces do not count.
			const value = [...attribute.value]
				.filter((character) => character.charCodeAt(0) > 32)
				.join('')
				.toLowerCase()
			if (name.startsWith('on')) dangerous.push(`an event handler: ${describe(element)}`)
			else if (name === 'srcdoc') dangerous.push(`a frame's own document: ${describe(element)}`)
			else if (urlAttributes.has(name) && /^(javascript|vbscript|data):/.test(value) && !(/^data:image\//.test(value) && (tag === 'img' || tag === 'source'))) {
				dangerous.push(`a ${value.split(':')[0]}: URL: ${describe(element)}`)
			}
		}
		if (tag === 'script') {
			const script = element as HTMLScriptElement
			if (script.src && !script.src.startsWith(`${location.origin}/assets/`)) dangerous.push(`a script from elsewhere: ${describe(element)}`)
			else if (!script.src && !script.hasAttribute('nonce') && script.type !== 'application/ld+json') {
				// A page the cache may keep has no nonce: its policy lists its inline scripts by hash.
				const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(script.textContent ?? ''))
				const hash = `sha256-${btoa(String.fromCharCode(...new Uint8Array(digest)))}`
				if (!hashes.includes(hash)) dangerous.push(`an inline script the policy does not name: ${describe(element)}`)
			}
		}
		if (['frame', 'frameset', 'object', 'embed', 'applet', 'base'].includes(tag)) dangerous.push(`a ${tag}: ${describe(element)}`)
		// Our own pages may be framed (a case file's preview), and the two embeds the policy allows.
		const src = element.getAttribute('src') ?? ''
		if (tag === 'iframe' && !framed.test(src) && !/^\/(?![/\\])/.test(src)) dangerous.push(`a frame: ${describe(element)}`)
		if (tag === 'meta' && /refresh/i.test(element.getAttribute('http-equiv') ?? '')) dangerous.push(`a refresh: ${describe(element)}`)
		if ((tag === 'style' || tag === 'link') && element.closest('body')) dangerous.push(`a ${tag} in the body: ${describe(element)}`)
		if (element.namespaceURI !== xhtml && (element.textContent ?? '').includes(prefix)) dangerous.push(`a payload parsed as SVG or MathML: ${describe(element)}`)
	}
	// The text as drawn (not scripts' data), and what form fields hold.
	const parts: string[] = []
	const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
	for (let node = walker.nextNode(); node; node = walker.nextNode()) {
		if (!node.parentElement?.closest('script,style,template,noscript')) parts.push(node.nodeValue ?? '')
	}
	for (const control of document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input,textarea')) {
		if (control.type !== 'hidden' && control.type !== 'password') parts.push(` ${control.value} `)
	}
	const rich = markers.map((marker): RichFinding => {
		let paragraph: Element | null = null
		const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
		for (let node = texts.nextNode(); node && !paragraph; node = texts.nextNode()) {
			if ((node.nodeValue ?? '').trimStart().startsWith(`${marker} `) && node.parentElement?.localName === 'p') paragraph = node.parentElement
		}
		const container = paragraph?.parentElement
		if (!paragraph || !container) return { marker, found: false, outside: [], strong: false, heading: false, dir: null, link: null }
		const outside: string[] = []
		for (const element of container.querySelectorAll('*')) {
			const kept = allow[element.localName]
			if (!kept || element.namespaceURI !== xhtml) outside.push(describe(element))
			else for (const attribute of element.attributes) if (!kept.includes(attribute.name)) outside.push(`${attribute.name} on ${describe(element)}`)
			// Links only to the web, mail, a phone or a path of this site: not «//host» or «/\host», which leave it.
			const href = element.localName === 'a' ? element.getAttribute('href') : null
			if (href !== null && !/^(?:https?:\/\/|mailto:|tel:|\/(?![/\\]))/i.test(href)) outside.push(`a link to ${href}`)
		}
		const link = [...container.querySelectorAll('a')].find((anchor) => anchor.getAttribute('href') === `https://example.org/${marker}`)
		return {
			marker,
			found: true,
			outside,
			strong: [...container.querySelectorAll('strong')].some((element) => element.textContent === `${marker}b`),
			heading: [...container.querySelectorAll('h2')].some((element) => element.textContent === `${marker}h`),
			dir: paragraph.getAttribute('dir'),
			link: link ? { rel: link.getAttribute('rel') ?? '', target: link.getAttribute('target') ?? '' } : null,
		}
	})
	return {
		title: document.title,
		dangerous,
		text: parts.join('').replace(/\s+/g, ' '),
		hrefs: [...document.querySelectorAll('a[href]')].map((anchor) => anchor.getAttribute('href') ?? '').filter((href) => href.includes(prefix)),
		rich,
	}
}

/** What a page must show: payload texts as text, links as typed, and rich text by its marker (in the back office's editor, `editor`). */
interface Shown {
	texts?: readonly string[]
	hrefs?: readonly string[]
	rich?: readonly { marker: string; editor?: boolean }[]
}

const flat = (text: string) => text.replace(/\s+/g, ' ').trim()

/** Everything that ran in the page or its frames since the last check. */
async function firedIn(trap: Trap): Promise<string[]> {
	// A frame showing a PDF never answers: each frame gets a second.
	const read = (frame: Frame) =>
		Promise.race([
			frame.evaluate(() => [...((window as unknown as { __xss?: string[] }).__xss ?? [])]).catch(() => [] as string[]),
			new Promise<string[]>((resolve) => setTimeout(() => resolve([]), 1000)),
		])
	const inFrames = await Promise.all(trap.page.frames().map(read))
	return [...trap.fired, ...inFrames.flat()]
}

/** Checks the page the trap's page shows now. */
async function checkPage(trap: Trap, ledger: Ledger, label: string, shown: Shown = {}) {
	const hashes = [...trap.policy.matchAll(/'(sha256-[A-Za-z0-9+/=]+)'/g)].map((match) => match[1]!)
	const found = await trap.page.evaluate(probe, { markers: (shown.rich ?? []).map((rich) => rich.marker), allow: richAllowList, prefix: ledger.prefix, hashes })
	expect.soft(await firedIn(trap), `${label}: nothing a payload would call ran`).toEqual([])
	expect.soft(found.dangerous, `${label}: no active markup`).toEqual([])
	expect.soft(found.title, `${label}: the title is the page's own`).not.toContain(TITLE_MARK)
	for (const text of shown.texts ?? []) expect.soft(found.text.includes(flat(text)), `${label} shows as text «${text.slice(0, 90)}»`).toBe(true)
	for (const href of shown.hrefs ?? []) expect.soft(found.hrefs, `${label} links to the address as typed`).toContain(href)
	for (const { marker, editor } of shown.rich ?? []) {
		const rich = found.rich.find((candidate) => candidate.marker === marker)!
		expect.soft(rich.found, `${label}: the rich text ${marker} is there`).toBe(true)
		if (!rich.found) continue
		expect.soft(rich.outside, `${label}: the rich text ${marker} keeps only its allow-list`).toEqual([])
		expect.soft({ strong: rich.strong, heading: rich.heading, dir: rich.dir, link: Boolean(rich.link) }, `${label}: ${marker} keeps what is allowed`).toEqual({
			strong: true,
			heading: true,
			dir: 'rtl',
			link: true,
		})
		if (!editor) expect.soft(rich.link, `${label}: ${marker}'s link to another site`).toEqual({ rel: 'noopener noreferrer', target: '_blank' })
	}
	ledger.pages.push(label)
	trap.fired.length = 0
}

/** Opens `path` in the trap's page and checks it. */
async function visit(trap: Trap, ledger: Ledger, path: string, shown: Shown = {}, status = 200) {
	const response = await trap.page.goto(path)
	expect(response?.status(), path).toBe(status)
	await settle(trap.page)
	await checkPage(trap, ledger, path, shown)
}

/**
 * Posts `fields` from the page at `path` as a form without JavaScript would (a document POST, not
 * the app's fetch), and waits for the answer to be drawn; its status.
 */
async function submitNatively(trap: Trap, path: string, fields: Record<string, string>, multipart: boolean): Promise<number> {
	const { page } = trap
	await page.goto(path)
	await page.waitForLoadState('load')
	const answer = page.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname === new URL(path, 'http://x').pathname)
	const drawn = page.waitForEvent('framenavigated', { predicate: (frame) => frame === page.mainFrame() })
	await page.evaluate(
		({ fields, multipart }) => {
			const form = document.createElement('form')
			form.method = 'post'
			form.enctype = multipart ? 'multipart/form-data' : 'application/x-www-form-urlencoded'
			form.hidden = true
			for (const [name, value] of Object.entries(fields)) {
				const input = document.createElement('textarea')
				input.name = name
				input.value = value
				form.append(input)
			}
			document.body.append(form)
			HTMLFormElement.prototype.submit.call(form)
		},
		{ fields, multipart },
	)
	const status = (await answer).status()
	await drawn
	await settle(page)
	return status
}

async function closeAll(traps: Trap[]) {
	await Promise.all(traps.map((trap) => trap.context.close()))
}

// ─── The trap itself, and the policy ─────────────────────────────────────────────────────────────

test('the trap sees a payload that runs, and the Content-Security-Policy stops the same payloads', async ({ browser }, testInfo) => {
	const ledger = new Ledger(newPrefix())
	const tag = (n: number) => ledger.payloads[n - 1]!.tag
	const open = await openTrap(browser, 'visitor', ledger)
	const enforced = await openTrap(browser, 'visitor', ledger, false)
	try {
		// /about as the server sends it, with the policy it comes with.
		const response = await enforced.page.goto('/about')
		const policy = response?.headers()['content-security-policy'] ?? ''
		const scriptSrc = policy.split(';').find((directive) => directive.trim().startsWith('script-src')) ?? ''
		expect(scriptSrc, 'a script-src of its own').toContain("'self'")
		expect(scriptSrc).not.toContain("'unsafe-inline'")
		expect(scriptSrc).not.toContain("'unsafe-eval'")
		// The same page with every payload let through as markup, as a page that failed to escape them
		// would be sent, at an address of the same site. Each payload is followed by the end tags of
		// whatever it may leave open (a frame, a style), so that it does not take the next as text.
		const closers = '</iframe></noscript></style></textarea></title></xmp></select></math></svg></table></details></form></a>'
		const unescaped = (await response!.text()).replace('</main>', `${ledger.payloads.map((payload) => `<div>${payload.text}${closers}</div>`).join('')}</main>`)
		for (const trap of [open, enforced]) {
			await trap.context.route('**/xss-control', (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', headers: { 'Content-Security-Policy': policy }, body: unescaped }))
		}

		// Without the policy, the trap sees each payload that runs on its own (`fires`: the packer puts
		// one first in every field), by a call, an alert, a beacon or the title; the probe sees the markup.
		await open.page.goto('/xss-control')
		await settle(open.page)
		expect(ledger.payloads.filter((payload) => payload.fires).map((payload) => payload.tag)).toEqual([2, 3, 5, 7, 18, 19, 20].map(tag))
		await expect.poll(() => firedIn(open), { message: 'the trap sees payloads that ran' }).toEqual(
			expect.arrayContaining([`__xssHit(${tag(2)})`, `__xssHit(${tag(5)})`, `__xssHit(${tag(7)})`, `__xssHit(${tag(18)})`, `alert(${tag(19)})`, expect.stringContaining(`${BEACON}${tag(20)}`)]),
		)
		await expect.poll(() => open.page.title(), { message: 'the trap sees the title set' }).toContain(`${TITLE_MARK}-${tag(3)}`)
		const found = await open.page.evaluate(probe, { markers: [], allow: richAllowList, prefix: ledger.prefix, hashes: [] })
		expect(found.dangerous.length, 'the probe sees the active markup').toBeGreaterThan(10)

		// With the policy, as every visitor has it, the same page runs nothing: the browser refuses
		// inline handlers and scripts and says so. (Images from our own site still load: the beacon.)
		await enforced.page.goto('/xss-control')
		await settle(enforced.page)
		await expect.poll(() => enforced.page.evaluate(() => (window as unknown as { __csp: string[] }).__csp.length), { message: 'the browser reports refused scripts' }).toBeGreaterThan(0)
		await enforced.page.waitForTimeout(300)
		const ran = (await firedIn(enforced)).filter((what) => !what.startsWith('a request to'))
		expect(ran, 'with the policy, nothing ran').toEqual([])
		const refused = await enforced.page.evaluate(() => (window as unknown as { __csp: string[] }).__csp)
		expect(refused.some((directive) => directive.startsWith('script-src')), `refused: ${refused.join(', ')}`).toBe(true)
		expect(await enforced.page.title()).not.toContain(TITLE_MARK)
		testInfo.annotations.push({ type: 'xss', description: `trap control: ${ledger.payloads.length} payloads sent unescaped in /about; without the policy the trap saw each that fires, with it nothing ran` })
	} finally {
		await closeAll([open, enforced])
	}
})

// ─── Content ─────────────────────────────────────────────────────────────────────────────────────

/** An entry's id in its back-office list, page by page (others add entries at the same time); and that page. */
async function findEntry(request: APIRequestContext, type: string, key: string, query = ''): Promise<{ id: string; page: number }> {
	for (let page = 1; page <= 80; page++) {
		const list = await html(request, `/admin/content/${type}?${query}${query ? '&' : ''}page=${page}`)
		const at = list.indexOf(key)
		const id = at >= 0 ? new RegExp(`/admin/content/${type}/([0-9a-f-]{36})/edit`).exec(list.slice(at))?.[1] : undefined
		if (id) return { id, page }
		if (!list.includes(`page=${page + 1}`)) break
	}
	throw new Error(`no ${type} entry with ${key} in the back office`)
}

/** The page of a public paginated list that shows `key`. */
async function publicPage(request: APIRequestContext, path: string, key: string): Promise<string> {
	for (let page = 1; page <= 80; page++) {
		const at = `${path}${page > 1 ? `?page=${page}` : ''}`
		const body = await html(request, at)
		if (body.includes(key)) return at
		if (!body.includes(`page=${page + 1}`)) break
	}
	throw new Error(`no page of ${path} shows ${key}`)
}

const URL_MESSAGE = 'الرجاء كتابة رابط يبدأ بـ https:// أو /'

test("news and every content type's text fields show as text, on the site and in the back office", async ({ browser, playwright }, testInfo) => {
	testInfo.setTimeout(180_000)
	const ledger = new Ledger(newPrefix())
	const pack = new Packer(ledger)
	const { open, close } = await apis(playwright, testInfo.project.use.baseURL!)
	const [editor, visitor] = await Promise.all([open('content_editor'), open('visitor')])
	const sharp = (await import('sharp')).default
	const picture = { name: 'x.jpg', mimeType: 'image/jpeg', buffer: await sharp({ create: { width: 600, height: 600, channels: 3, background: '#2a7f62' } }).jpeg().toBuffer() }
	const old = '2001-02-03'
	const marker = (name: string) => `${ledger.prefix}r${name}`
	const slug = `x-${ledger.prefix}`
	const created: { type: string; id: string }[] = []
	let photo: string | undefined
	const traps: Trap[] = []
	try {
		// One new entry of each collection, every text field full of payloads; its title starts with a
		// word of its own, to find it by.
		const keyed = (field: string, max: number, name: string) => {
			const word = `${ledger.prefix}k${name}`
			const filled = pack.fill(field, max - word.length - 1)
			return { word, value: `${word} ${filled.value}`, texts: filled.texts }
		}
		const news = { title: keyed('news.title', 200, 'n'), details: pack.rich('news.details', marker('n')) }
		const member = { name: keyed('members.memberName', 120, 'm'), position: pack.fill('members.memberPosition', 120) }
		const committee = { name: keyed('committees.name', 150, 'c'), members: pack.fill('committees.members', 3000, '\n'), duties: pack.rich('committees.duties', marker('c')) }
		const programme = { name: keyed('programmes.Name', 120, 'p'), summary: pack.fill('programmes.summary', 300), details: pack.rich('programmes.Deatils', marker('p')), link: breakoutUrl(`${ledger.prefix}lp`) }
		const link = { label: keyed('links.label', 80, 'l'), url: breakoutUrl(`${ledger.prefix}ll`) }
		const slide = { title: keyed('slides.title', 100, 's'), text: pack.fill('slides.text', 250), link: breakoutUrl(`${ledger.prefix}ls`) }
		const libraryDocument = { title: keyed('documents.title', 200, 'd'), summary: pack.fill('documents.summary', 400) }
		const album = { title: keyed('albums.title', 150, 'a'), description: pack.fill('albums.description', 500) }
		// A video's address is rebuilt from its YouTube id (app/domain/embeds.ts), so one that tries to break out is refused below.
		const video = { title: keyed('videos.title', 150, 'v'), url: `https://www.youtube-nocookie.com/embed/${ledger.prefix}lv` }
		for (const field of ['programmes.Link', 'links.url', 'slides.link', 'videos.url']) ledger.entered(field, [])
		await Promise.all([
			postMultipart(editor, '/admin/content/news/new', { NewsDate: old, title: news.title.value, details: news.details, 'img-upload': picture, IsPublish: 'on' }),
			postMultipart(editor, '/admin/content/members/new', { memberName: member.name.value, memberPosition: member.position.value, 'memberImg-upload': picture, order: '999' }),
			postForm(editor, '/admin/content/committees/new', { name: committee.name.value, members: committee.members.value, duties: committee.duties, order: '999' }),
			postForm(editor, '/admin/content/programmes/new', {
				Name: programme.name.value,
				slug,
				summary: programme.summary.value,
				Deatils: programme.details,
				Icon: 'family',
				ColorIcon: 'brand',
				Link: programme.link,
				order: '999',
			}),
			postForm(editor, '/admin/content/links/new', { label: link.label.value, url: link.url, order: '999' }),
			postMultipart(editor, '/admin/content/slides/new', { 'image-upload': picture, title: slide.title.value, text: slide.text.value, link: slide.link, order: '999' }),
			postMultipart(editor, '/admin/content/documents/new', {
				category: 'projects-2023',
				title: libraryDocument.title.value,
				year: '2001',
				number: '1',
				summary: libraryDocument.summary.value,
				'file-upload': pdf('x.pdf'),
				order: '999',
			}),
			postForm(editor, '/admin/content/albums/new', { title: album.title.value, slug: `${slug}-album`, description: album.description.value, date: old }),
			postMultipart(editor, '/admin/content/videos/new', { title: video.title.value, url: video.url, date: old }),
		])
		const key = (filled: { word: string }) => filled.word
		const [newsAt, memberAt, committeeAt, programmeAt, linkAt, slideAt, documentAt, albumAt, videoAt] = await Promise.all([
			findEntry(editor, 'news', key(news.title)),
			findEntry(editor, 'members', key(member.name)),
			findEntry(editor, 'committees', key(committee.name)),
			findEntry(editor, 'programmes', key(programme.name)),
			findEntry(editor, 'links', key(link.label)),
			findEntry(editor, 'slides', key(slide.title)),
			findEntry(editor, 'documents', key(libraryDocument.title), 'category=projects-2023'),
			findEntry(editor, 'albums', key(album.title)),
			findEntry(editor, 'videos', key(video.title)),
		])
		created.push(
			...Object.entries({ news: newsAt, members: memberAt, committees: committeeAt, programmes: programmeAt, links: linkAt, slides: slideAt, documents: documentAt, albums: albumAt, videos: videoAt }).map(
				([type, at]) => ({ type, id: at.id }),
			),
		)
		// A photo in the new album, and its caption (the album's photos screen).
		const photosPath = `/admin/content/albums/${albumAt.id}/photos`
		await postMultipart(editor, photosPath, { photos: picture })
		photo = /name="photo" value="([0-9a-f-]{36})"/.exec(await html(editor, photosPath))?.[1]
		expect(photo, 'the photo in the album').toBeTruthy()
		const caption = pack.fill('photos.caption', 200)
		await postForm(editor, photosPath, { intent: 'caption', photo: photo!, caption: caption.value })

		// A link field takes no javascript:, vbscript: or data: URL, however it is written.
		for (const url of refusedUrls(`${ledger.prefix}u`)) {
			for (const [path, form] of [
				['/admin/content/links/new', { label: 'رابط', url }],
				['/admin/content/programmes/new', { Name: 'برنامج', slug: `${slug}-refused`, summary: 'وصف', Deatils: '<p>تفاصيل</p>', Icon: 'family', ColorIcon: 'brand', Link: url }],
			] as const) {
				const refused = await postForm(editor, path, form, 400)
				expect(await refused.text(), `${path} refuses ${url}`).toContain(URL_MESSAGE)
				ledger.refused++
			}
			const video = await postMultipart(editor, '/admin/content/videos/new', { title: 'فيديو', url, date: old }, 400)
			expect(await video.text()).toContain(youtubeUrlMessage)
			ledger.refused++
		}
		const breakout = await postMultipart(editor, '/admin/content/videos/new', { title: 'فيديو', url: breakoutUrl(`${ledger.prefix}lv`, 'https://www.youtube-nocookie.com/embed/'), date: old }, 400)
		expect(await breakout.text()).toContain(youtubeUrlMessage)
		ledger.refused++

		const [site, staff] = await Promise.all([openTrap(browser, 'visitor', ledger), openTrap(browser, 'content_editor', ledger)])
		traps.push(site, staff)
		// The same refusal drawn in the browser: said in Arabic, the address shown back inert.
		const javascriptUrl = refusedUrls(`${ledger.prefix}u`)[0]!
		const label = pack.fill('links.label (refused form)', 80)
		expect(await submitNatively(staff, '/admin/content/links/new', { label: label.value, url: javascriptUrl, order: '1' }, false)).toBe(400)
		await checkPage(staff, ledger, '/admin/content/links/new (refused)', { texts: [...label.texts, URL_MESSAGE, javascriptUrl] })

		// The site: each page that shows one of the new entries.
		const newsPage = await html(visitor, `/news?q=${key(news.title)}`)
		const newsPath = newsPage
			.split(/<li[\s>]/)
			.filter((part) => part.includes(key(news.title)))
			.map((part) => /href="(\/news\/[^"?#]+)"/.exec(part)?.[1])
			.find(Boolean)
		expect(newsPath, 'the news item found by its words').toBeTruthy()
		const videosPath = await publicPage(visitor, '/gallery/videos', key(video.title))
		await visit(site, ledger, `/news?q=${key(news.title)}`, { texts: news.title.texts })
		await visit(site, ledger, newsPath!, { texts: news.title.texts, rich: [{ marker: marker('n') }] })
		await visit(site, ledger, '/board-members', { texts: [...member.name.texts, ...member.position.texts] })
		await visit(site, ledger, '/committees', { texts: [...committee.name.texts, ...committee.members.texts], rich: [{ marker: marker('c') }] })
		await visit(site, ledger, '/services', { texts: [...programme.name.texts, ...programme.summary.texts] })
		await visit(site, ledger, `/services/${slug}`, { texts: programme.name.texts, rich: [{ marker: marker('p') }] })
		await visit(site, ledger, '/', { texts: [...slide.title.texts, ...slide.text.texts, ...programme.name.texts, ...link.label.texts], hrefs: [slide.link, link.url] })
		await visit(site, ledger, '/projects/2023', { texts: [...libraryDocument.title.texts, ...libraryDocument.summary.texts] })
		await visit(site, ledger, '/gallery', { texts: album.title.texts })
		await visit(site, ledger, `/gallery/${slug}-album`, { texts: [...album.title.texts, ...album.description.texts, ...caption.texts] })
		await visit(site, ledger, videosPath, { texts: video.title.texts })

		// The back office: each list on the page that has the entry, each editor, and a delete page.
		// Each entry's page is looked up again just before it is read: other tests add entries meanwhile, which moves it down the list.
		const lists: [string, string, Shown, string?][] = [
			['news', key(news.title), { texts: news.title.texts }],
			['members', key(member.name), { texts: [...member.name.texts, ...member.position.texts] }],
			['committees', key(committee.name), { texts: committee.name.texts }],
			['programmes', key(programme.name), { texts: programme.name.texts }],
			['links', key(link.label), { texts: link.label.texts }],
			['slides', key(slide.title), { texts: slide.title.texts }],
			['documents', key(libraryDocument.title), { texts: libraryDocument.title.texts }, 'category=projects-2023'],
			['albums', key(album.title), { texts: album.title.texts }],
			['videos', key(video.title), { texts: video.title.texts }],
		]
		for (const [type, word, shown, query = ''] of lists) {
			const at = await findEntry(editor, type, word, query)
			await visit(staff, ledger, `/admin/content/${type}?${query}${query ? '&' : ''}page=${at.page}`, shown)
		}
		const editors: [string, string, Shown][] = [
			['news', newsAt.id, { texts: news.title.texts, rich: [{ marker: marker('n'), editor: true }] }],
			['members', memberAt.id, { texts: [...member.name.texts, ...member.position.texts] }],
			['committees', committeeAt.id, { texts: [...committee.name.texts, ...committee.members.texts], rich: [{ marker: marker('c'), editor: true }] }],
			['programmes', programmeAt.id, { texts: [...programme.name.texts, ...programme.summary.texts, programme.link], rich: [{ marker: marker('p'), editor: true }] }],
			['links', linkAt.id, { texts: [...link.label.texts, link.url] }],
			['slides', slideAt.id, { texts: [...slide.title.texts, ...slide.text.texts, slide.link] }],
			['documents', documentAt.id, { texts: [...libraryDocument.title.texts, ...libraryDocument.summary.texts] }],
			['albums', albumAt.id, { texts: [...album.title.texts, ...album.description.texts] }],
			['videos', videoAt.id, { texts: [...video.title.texts, video.url] }],
		]
		for (const [type, id, shown] of editors) await visit(staff, ledger, `/admin/content/${type}/${id}/edit`, shown)
		await visit(staff, ledger, photosPath, { texts: caption.texts })
		await visit(staff, ledger, `/admin/content/news/${newsAt.id}/delete`, { texts: news.title.texts })
		ledger.report(testInfo, 'content collections')
	} finally {
		await closeAll(traps)
		// The new entries go again: the site's shared pages are back as they were.
		const album = created.find((entry) => entry.type === 'albums')
		if (album && photo) await postForm(editor, `/admin/content/albums/${album.id}/photos`, { intent: 'delete', photo }).catch(() => {})
		await Promise.all(created.map(({ type, id }) => postForm(editor, `/admin/content/${type}/${id}/delete`, {}).catch(() => {})))
		await close()
	}
})

test('the single-page content types show payloads back inert when they refuse them, and take no javascript: link', async ({ browser }, testInfo) => {
	testInfo.setTimeout(120_000)
	const ledger = new Ledger(newPrefix())
	const pack = new Packer(ledger)
	const staff = await openTrap(browser, 'content_editor', ledger)
	// Each form is refused for certain (a javascript: link, a text over its length), so the pages every
	// visitor sees never change; what was typed comes back in the form.
	const javascriptUrl = refusedUrls(ledger.prefix)[0]!
	const fill = (type: string, fields: Record<string, number | 'lines' | 'long'>) => {
		const values: Record<string, string> = {}
		const texts: string[] = []
		for (const [name, max] of Object.entries(fields)) {
			const filled = max === 'long' ? pack.long(`${type}.${name}`) : max === 'lines' ? pack.fill(`${type}.${name}`, 1000, '\n') : pack.fill(`${type}.${name}`, max)
			values[name] = filled.value
			texts.push(...filled.texts)
		}
		return { values, texts }
	}
	const singletons: { type: string; values: Record<string, string>; texts: string[]; message?: string }[] = []
	const home = fill('home', { heroTitle: 120, heroText: 600, vision: 500, mission: 500, values: 'lines', goals: 'lines', video1Caption: 150, video2Caption: 150, directorName: 120, directorEmail: 120 })
	singletons.push({ type: 'home', values: { ...home.values, introVideo: javascriptUrl, socialTimeline: breakoutUrl(ledger.prefix), directorPhone: '0551234567' }, texts: [...home.texts, javascriptUrl], message: youtubeUrlMessage })
	const announcement = fill('announcement', { title: 150 })
	singletons.push({ type: 'announcement', values: { ...announcement.values, link: javascriptUrl, startDate: '2001-01-01', endDate: '2001-01-02' }, texts: [...announcement.texts, javascriptUrl], message: URL_MESSAGE })
	singletons.push({ type: 'chairman-speech', ...fill('chairman-speech', { chairmanName: 'long' }) })
	const identity = fill('visual-identity', { colours: 'long' })
	singletons.push({ type: 'visual-identity', values: { ...identity.values, text: richText(`${ledger.prefix}rv`, ledger.payloads) }, texts: identity.texts })
	for (const type of ['organization-chart', 'registration-certificate', 'quality-certificate', 'job-ads']) singletons.push({ type, ...fill(type, { caption: 'long' }) })
	for (const field of ['home.introVideo', 'home.socialTimeline', 'announcement.link', 'visual-identity.text']) ledger.entered(field, field.endsWith('text') ? ledger.payloads : [])
	try {
		for (const { type, values, texts, message } of singletons) {
			const path = `/admin/content/${type}/edit`
			expect(await submitNatively(staff, path, values, true), `${path} refuses the form`).toBe(400)
			ledger.refused++
			await checkPage(staff, ledger, `${path} (refused)`, { texts: message ? [...texts, message] : texts })
		}
		ledger.report(testInfo, 'content singletons (refused forms)')
	} finally {
		await closeAll([staff])
	}
})

// ─── The foundation's details ────────────────────────────────────────────────────────────────────

test("the foundation's details, saved with payloads, show as text on every page until put back", async ({ browser, playwright }, testInfo) => {
	testInfo.setTimeout(120_000)
	const ledger = new Ledger(newPrefix())
	const pack = new Packer(ledger)
	const { open, close } = await apis(playwright, testInfo.project.use.baseURL!)
	const editor = await open('content_editor')
	const names = ['name', 'about', 'email', 'location', 'phone', 'phone2', 'twitter', 'linkedin', 'youtube', 'facebook', 'instagram', 'mapUrl'] as const
	const form = await html(editor, '/admin/foundation')
	const original = Object.fromEntries(names.map((name) => [name, unescapeHtml(inputValue(form, name) ?? '')])) as Record<(typeof names)[number], string>
	expect(original.name, 'the form shows the foundation as it is').toBeTruthy()
	expect(original.about).toBeTruthy()
	const traps: Trap[] = []
	let saved = false
	try {
		// Refused, changing nothing: links that are not https, and an e-mail that is markup.
		const bad = await postForm(editor, '/admin/foundation', { ...original, email: `"<img src=x onerror=__xssHit('${ledger.prefix}e')>"@example.org`, twitter: refusedUrls(ledger.prefix)[0]!, facebook: refusedUrls(ledger.prefix)[2]!, mapUrl: refusedUrls(ledger.prefix)[1]! }, 400)
		const refusal = await bad.text()
		expect(refusal).toContain('الرجاء كتابة رابط يبدأ بـ https://')
		expect(refusal).toContain('رابط الخريطة يجب أن يكون رابط تضمين من خرائط Google')
		ledger.refused += 4

		// Saved: the name and the address keep their words with payloads after them, the about text
		// has every payload, and a link tries to leave its attribute.
		const name = pack.fill('foundation.name', 120 - original.name.length - 1)
		const location = pack.fill('foundation.location', 300 - original.location.length - 1)
		const marker = `${ledger.prefix}ra`
		const about = `${original.about}${pack.rich('foundation.about', marker)}`
		const twitter = breakoutUrl(ledger.prefix, 'https://x.com/')
		ledger.entered('foundation.twitter', [])
		const values = { ...original, name: `${original.name} ${name.value}`, location: `${original.location} ${location.value}`, about, twitter }
		saved = true
		await postForm(editor, '/admin/foundation', values)
		const [site, staff] = await Promise.all([openTrap(browser, 'visitor', ledger), openTrap(browser, 'content_editor', ledger)])
		traps.push(site, staff)
		await visit(site, ledger, '/', { texts: [...name.texts, ...location.texts], hrefs: [twitter] })
		await visit(site, ledger, '/about', { texts: name.texts, rich: [{ marker }] })
		await visit(site, ledger, '/contact', { texts: [...name.texts, ...location.texts] })
		await visit(staff, ledger, '/admin/foundation', { texts: [...name.texts, ...location.texts, twitter], rich: [{ marker, editor: true }] })
		ledger.report(testInfo, 'foundation info')
	} finally {
		await closeAll(traps)
		if (saved) {
			await postForm(editor, '/admin/foundation', original)
			const back = await html(editor, '/admin/foundation')
			expect(unescapeHtml(inputValue(back, 'name') ?? ''), "the foundation's name is back").toBe(original.name)
			expect(unescapeHtml(inputValue(back, 'about') ?? ''), 'the about text is back').toBe(original.about)
		}
		await close()
	}
})

// ─── The contact form ────────────────────────────────────────────────────────────────────────────

test('a contact message with payloads in every field shows as text in the inbox', async ({ browser, playwright }, testInfo) => {
	testInfo.setTimeout(90_000)
	// One message a run (the form takes five an address in ten minutes: route-table.ts, inquiry).
	const ledger = new Ledger(runPrefix('contact'))
	const pack = new Packer(ledger)
	const { open, close } = await apis(playwright, testInfo.project.use.baseURL!)
	const [visitor, editor] = await Promise.all([open('visitor'), open('content_editor')])
	const key = `${ledger.prefix}k`
	const name = pack.fill('contact.UserName', 100)
	const subject = pack.fill('contact.Subject', 150 - key.length - 1)
	const message = pack.fill('contact.InquiryText', 3000, '\n')
	const id = await inquiry(visitor, editor, { key, name: name.value, subject: `${key} ${subject.value}`, message: message.value })
	const staff = await openTrap(browser, 'content_editor', ledger)
	try {
		await visit(staff, ledger, `/admin/inquiries?q=${key}`, { texts: subject.texts })
		await visit(staff, ledger, `/admin/inquiries/${id}`, { texts: [...name.texts, ...subject.texts, ...message.texts] })
		await visit(staff, ledger, '/admin')
		ledger.report(testInfo, 'contact form')
	} finally {
		await closeAll([staff])
		await close()
	}
})

// ─── Applications ────────────────────────────────────────────────────────────────────────────────

let mobiles = 0
/** A mobile no other case of this run has (the lists and the lookup find cases by it). */
const nextMobile = () => `05${String(Date.now() % 1e7).padStart(7, '0')}${mobiles++ % 10}`

interface Applicant {
	nationalId: string
	mobile: string
	email: string
	licence: string
	userName: string
	password: string
}

interface SectionAnswers {
	fields: FormBody
	rows: FormBody[]
	texts: string[]
}

/**
 * A step's answers: every free-text field full of payloads, the rest valid (a choice that opens a
 * free-text field picks that option, so it is asked too). Formatted fields (ID, mobile, IBAN,
 * e-mail, licence) take only their format.
 */
function answersFor(definition: ApplicationDef, section: SectionDef, pack: Packer, who: Applicant): SectionAnswers {
	const texts: string[] = []
	const label = (name: string) => `${definition.type}.${section.key}.${name}`
	const value = (field: RowFieldDef, siblings: readonly RowFieldDef[], out: FormBody, name: string) => {
		const condition = conditionOf(field)
		if (condition && 'given' in condition) return
		switch (field.kind) {
			case 'text': {
				if (definition.createsAccount?.userName === field.name) out[name] = who.userName
				else if (field.format === 'nationalId') {
					if (field.required) out[name] = who.nationalId
				} else if (field.format === 'mobile') {
					if (field.required) out[name] = who.mobile
				} else if (field.format === 'email') {
					if (field.required) out[name] = who.email
				} else if (field.format === 'iban') {
					if (field.required) out[name] = validIban
				} else if (field.format === 'licence') {
					if (field.required) out[name] = who.licence
				} else {
					const filled = pack.fill(label(field.name), field.maxLength ?? 200)
					out[name] = filled.value
					texts.push(...filled.texts)
				}
				return
			}
			case 'textarea': {
				const filled = pack.fill(label(field.name), field.maxLength ?? 2000, '\n')
				out[name] = filled.value
				texts.push(...filled.texts)
				return
			}
			case 'number':
				out[name] = String(Math.max(field.min ?? 0, 1))
				return
			case 'money':
				out[name] = '1000'
				return
			case 'date':
				out[name] = '2015-03-01'
				return
			case 'select':
			case 'radio': {
				if (field.onlyWith) return
				// The bank beside an IBAN is the IBAN's own (validIban is at Al Rajhi, bank code 80).
				if (field.options === banks) return void (out[name] = 'alrajhi')
				const opens = siblings.map((sibling) => sibling.when).find((when) => when?.field === field.name && 'is' in when)
				out[name] = opens && 'is' in opens ? opens.is[0]! : (field.default ?? field.options[0]!.value)
				return
			}
			case 'checkboxes': {
				out[name] = field.other ? [field.options[0]!.value, 'other'] : [field.options[0]!.value]
				if (field.other) {
					const filled = pack.fill(label(`${field.name}Other`), 300)
					out[`${name}Other`] = filled.value
					texts.push(...filled.texts)
				}
				return
			}
			case 'newPassword':
				out[name] = who.password
				out[`${name}Confirm`] = who.password
				return
			case 'checkbox':
				if (field.required) out[name] = 'on'
				return
			case 'age':
				return
		}
	}
	const fields: FormBody = {}
	const collection = collectionOf(section)
	const beside = fieldsBesideCollection(section)
	const rowFields = (group: { fields: readonly RowFieldDef[] }, prefix: (name: string) => string, out: FormBody) => {
		for (const field of group.fields) value(field, group.fields, out, prefix(field.name))
	}
	for (const field of beside as readonly FieldDef[]) {
		if (field.kind === 'group') {
			for (let row = 0; row < field.min; row++) rowFields(field, (name) => `${field.name}[${row}].${name}`, fields)
		} else value(field, beside.filter((candidate): candidate is RowFieldDef => candidate.kind !== 'group'), fields, field.name)
	}
	const rows: FormBody[] = []
	if (collection) {
		const row: FormBody = {}
		rowFields(collection, (name) => name, row)
		rows.push(row)
	}
	return { fields, rows, texts }
}

interface Application {
	definition: ApplicationDef
	token: string
	reference: string
	/** The applicant's name as the lists show it. */
	name: string
	texts: string[]
	fileName: string
	who: Applicant
}

/** Fills every step of `definition` over HTTP as staff (paper intake: no visitor's limits), uploads the required files; not sent yet. */
async function fillApplication(request: APIRequestContext, definition: ApplicationDef, pack: Packer, fileTag: string): Promise<Application> {
	const id = unique()
	const who: Applicant = {
		nationalId: randomNationalId(),
		mobile: nextMobile(),
		email: `xss-${id}@example.org`,
		licence: `${Date.now()}${Math.floor(Math.random() * 1000)}`.slice(-12),
		userName: `xss.${id}`,
		password: `Xss-Only-For-Tests-${id}`,
	}
	const [first, ...rest] = definition.sections
	const start = answersFor(definition, first!, pack, who)
	const texts = [...start.texts]
	const started = await postForm(request, `/apply/${definition.type}/new?paper=1`, start.fields)
	const token = /\/apply\/r\/([\w-]{43})/.exec(started.headers()['location'] ?? '')?.[1]
	expect(token, `${definition.type}: the private link after the first step`).toBeTruthy()
	const base = `/apply/r/${token}`
	// A file whose name is markup, in the first slot that takes one.
	const fileName = `${fileTag} <img src=x onerror=__xssHit('${fileTag}')>.pdf`
	let named = false
	// The consent step, before the health and bank sections (docs/product.md#privacy-and-consent).
	if (asksConsent(definition)) await postForm(request, `${base}/consent`, { consent: 'given' })
	for (const section of rest) {
		const answers = answersFor(definition, section, pack, who)
		texts.push(...answers.texts)
		for (const slot of section.files?.filter((candidate) => candidate.required) ?? []) {
			const response = await request.post(`${base}/files/upload`, { multipart: { slot: slot.slot, file: pdf(named ? `${slot.slot}.pdf` : fileName) }, maxRedirects: 0 })
			expect(response.status(), `${definition.type}: upload to ${slot.slot}`).toBeLessThan(400)
			named = true
		}
		const collection = collectionOf(section)
		if (collection) {
			for (const row of answers.rows) await postForm(request, `${base}/${section.key}`, { intent: 'add-row', ...row })
			await postForm(request, `${base}/${section.key}`, { intent: 'next', ...answers.fields })
		} else await postForm(request, `${base}/${section.key}`, answers.fields)
	}
	const overview = await html(request, base)
	const reference = /[A-HJ-NP-Y2-9]{4}-[A-HJ-NP-Y2-9]{4}/.exec(overview.slice(overview.indexOf('<body')))?.[0]
	expect(reference, `${definition.type}: its reference`).toBeTruthy()
	const name = String(start.fields[definition.applicant.name] ?? '')
	return { definition, token: token!, reference: reference!, name, texts, fileName: named ? fileName.replace(/\.pdf$/, '') : '', who }
}

test('every application type: payloads in every free-text field show as text to the applicant and to staff', async ({ browser, playwright }, testInfo) => {
	testInfo.setTimeout(240_000)
	const ledger = new Ledger(newPrefix())
	const pack = new Packer(ledger)
	const { open, close } = await apis(playwright, testInfo.project.use.baseURL!)
	const [admin, institution] = await Promise.all([open('admin'), open('visitor')])
	const traps: Trap[] = []
	try {
		const applications: Application[] = []
		for (const [index, definition] of applicationDefinitions.entries()) applications.push(await fillApplication(admin, definition, pack, `${ledger.prefix}f${index}`))
		const [applicant, officer] = await Promise.all([openTrap(browser, 'visitor', ledger), openTrap(browser, 'case_officer', ledger)])
		traps.push(applicant, officer)
		// Before sending: the check page shows every answer.
		for (const application of applications) {
			await visit(applicant, ledger, `/apply/r/${application.token}/check`, { texts: [...application.texts, ...(application.fileName ? [application.fileName] : [])] })
		}
		for (const application of applications) await postForm(admin, `/apply/r/${application.token}/check`, { acknowledge: 'on' })
		// Sent: the applicant's own page, the lists, the case, its printable report.
		for (const application of applications) {
			const all = [...application.texts, ...(application.fileName ? [application.fileName] : [])]
			await visit(applicant, ledger, `/apply/r/${application.token}`)
			await visit(officer, ledger, `/admin/cases/${application.reference}`, { texts: all })
			await visit(officer, ledger, `/admin/cases/${application.reference}/print`, { texts: application.texts })
		}
		const individuals = applications.filter((application) => application.definition.kind === 'individual')
		const associations = applications.filter((application) => application.definition.kind === 'association')
		await visit(officer, ledger, `/admin/cases?q=${ledger.prefix}`, { texts: individuals.map((application) => application.name) })
		await visit(officer, ledger, `/admin/associations?q=${ledger.prefix}`, { texts: associations.map((application) => application.name) })
		// The institution's own account shows its registration.
		const registration = applications.find((application) => application.definition.createsAccount)!
		const signedIn = await institution.post('/account/login', { form: { name: registration.who.userName, password: registration.who.password }, maxRedirects: 0 })
		expect(signedIn.status(), 'the institution signs in').toBe(302)
		const account = await openTrap(browser, { state: await institution.storageState() }, ledger)
		traps.push(account)
		await visit(account, ledger, '/account', { texts: [registration.name] })
		ledger.report(testInfo, 'applications (every type)')
	} finally {
		await closeAll(traps)
		await close()
	}
})

// ─── A case's notes, messages and status change ──────────────────────────────────────────────────

test("staff notes, messages to the applicant and a status change's note show as text to staff and to the applicant", async ({ browser, playwright }, testInfo) => {
	testInfo.setTimeout(120_000)
	const ledger = new Ledger(newPrefix())
	const pack = new Packer(ledger)
	const { open, close } = await apis(playwright, testInfo.project.use.baseURL!)
	const [admin, officer] = await Promise.all([open('admin'), open('case_officer')])
	const name = pack.fill('case.Full_Name', 200)
	const mobile = nextMobile()
	const submitted = await submitCaseAsStaff(admin, { name: name.value, mobile })
	const base = `/admin/cases/${submitted.reference}`
	const note = pack.fill('case.note', 2000, '\n')
	const message = pack.fill('case.message', 2000, '\n')
	const statusNote = pack.fill('case.status.note', 2000, '\n')
	const statusMessage = pack.fill('case.status.message', 2000, '\n')
	await postForm(officer, base, { intent: 'note', note: note.value })
	await postForm(officer, base, { intent: 'message', message: message.value })
	// The study's free text: on the case view and in the print.
	const metWith = pack.fill('study.metWith', 500)
	const needs = pack.fill('study.needs', 2000, '\n')
	const summary = pack.fill('study.summary', 4000, '\n')
	await postForm(officer, `${base}/study`, studyForm({ metWith: metWith.value, needs: needs.value, summary: summary.value }))
	await postForm(officer, base, { intent: 'status', to: '2', note: statusNote.value, message: statusMessage.value })
	const traps: Trap[] = []
	try {
		const [staff, auditor, applicant] = await Promise.all([openTrap(browser, 'case_officer', ledger), openTrap(browser, 'admin', ledger), openTrap(browser, 'visitor', ledger)])
		traps.push(staff, auditor, applicant)
		await visit(staff, ledger, base, { texts: [...name.texts, ...note.texts, ...message.texts, ...statusNote.texts, ...statusMessage.texts, ...metWith.texts, ...needs.texts, ...summary.texts] })
		await visit(staff, ledger, `${base}/print`, { texts: [...name.texts, ...summary.texts] })
		await visit(staff, ledger, `${base}/study`)
		await visit(staff, ledger, `/admin/cases?q=${submitted.reference}`, { texts: name.texts })
		await visit(auditor, ledger, `/admin/audit?case=${submitted.reference}`)
		await visit(auditor, ledger, '/admin/audit')
		// The applicant sees the latest message, on the private link and in the status lookup.
		await visit(applicant, ledger, `/apply/r/${submitted.token}`, { texts: statusMessage.texts })
		await applicant.page.goto('/apply/status')
		await applicant.page.getByLabel('رقم الهوية أو رقم الترخيص').fill(submitted.nationalId)
		await applicant.page.getByLabel('رقم الجوال').fill(mobile)
		await applicant.page.getByRole('button', { name: 'استعلام' }).click()
		await expect(applicant.page.getByText(submitted.reference)).toBeVisible()
		await settle(applicant.page)
		await checkPage(applicant, ledger, '/apply/status (the lookup)', { texts: [...name.texts, ...statusMessage.texts] })
		ledger.report(testInfo, 'case notes, messages and status change')
	} finally {
		await closeAll(traps)
		await close()
	}
})

// ─── What a search or a filter echoes ────────────────────────────────────────────────────────────

test('searches and filters show what was typed as text', async ({ browser }, testInfo) => {
	testInfo.setTimeout(120_000)
	const ledger = new Ledger(newPrefix())
	const pack = new Packer(ledger)
	// The searches keep 100 characters of what was typed (app/cases/case-lists.server.ts): a few payloads a search.
	const searches = (field: string, times: number) => Array.from({ length: times }, () => pack.fill(field, 100))
	const query = (params: Record<string, string>) => new URLSearchParams(params).toString()
	const [visitor, officer, admin, editor] = await Promise.all([
		openTrap(browser, 'visitor', ledger),
		openTrap(browser, 'case_officer', ledger),
		openTrap(browser, 'admin', ledger),
		openTrap(browser, 'content_editor', ledger),
	])
	try {
		for (const q of searches('news search (q)', 4)) await visit(visitor, ledger, `/news?${query({ q: q.value })}`, { texts: q.texts })
		for (const q of searches('cases search (q)', 4)) await visit(officer, ledger, `/admin/cases?${query({ q: q.value })}`, { texts: q.texts })
		for (const q of searches('associations search (q)', 2)) await visit(officer, ledger, `/admin/associations?${query({ q: q.value })}`, { texts: q.texts })
		for (const q of searches('inbox search (q)', 2)) await visit(editor, ledger, `/admin/inquiries?${query({ q: q.value })}`, { texts: q.texts })
		const [category] = searches('documents filter (category)', 1)
		await visit(editor, ledger, `/admin/content/documents?${query({ category: category!.value })}`)
		const [filter] = searches('audit filters (case, action, user, from, to)', 1)
		await visit(admin, ledger, `/admin/audit?${query({ case: filter!.value, action: filter!.value, user: filter!.value, from: filter!.value, to: filter!.value })}`)
		const javascriptUrl = refusedUrls(ledger.prefix)[0]!
		ledger.entered('sign-in return address (redirectTo)', [])
		await visit(visitor, ledger, `/login?${query({ redirectTo: javascriptUrl })}`)
		ledger.report(testInfo, 'searches and filters')
	} finally {
		await closeAll([visitor, officer, admin, editor])
	}
})
