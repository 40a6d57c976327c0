// Ataa as two instances behind nginx, round robin without sticky sessions, on one PostgreSQL database
// and one S3-compatible bucket (scripts/lib/cluster.ts; docs/deployment.md). Staff sign in through the
// balancer (setting up their second step), a family applies with two PDFs, staff open the case and
// its file: both instances must have served each of them. A content edit made through one instance is
// on the other's next answer. Then one instance is stopped, and the review goes on through the other.
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { APIResponse, BrowserContext, Response } from '@playwright/test'
import { isEncrypted } from '#app/storage/encryption.server.ts'
import { testDatabaseUrl } from '#tests/postgres.ts'
import { INSTANCE_HEADER, launchCluster, type Cluster, type ClusterInstance, type ClusterLaunch } from '../../../scripts/lib/cluster.ts'
import { applyForNeedyFamilies, plantedApplicant } from '../apply-journey.ts'
import { pdfText } from '#tests/fixtures/marked-pdf.ts'
import { recordStudyInBrowser } from '../case-fixtures.ts'
import { expect, signIn, test, unique } from '../utils.ts'

const root = fileURLToPath(new URL('../../../', import.meta.url))

test.skip(process.env.SKIP_POSTGRES === '1', 'several instances need PostgreSQL, which SKIP_POSTGRES=1 leaves out (scripts/test.mjs says so)')

/** Who answered what: each answer through the balancer, by the instance nginx says gave it. */
class Tally {
	readonly answers: { who: string; instance: ClusterInstance | undefined; status: number; url: string; sentAt: number }[] = []
	constructor(private readonly cluster: Cluster) {}

	/** `sentAt`: when the request left (a page's own answers know it; an API call is recorded as it is made). */
	record(who: string, response: Response | APIResponse, sentAt = Date.now()) {
		if (!response.url().startsWith(this.cluster.origin)) return
		this.answers.push({ who, instance: this.cluster.instanceOf(response.headers()[INSTANCE_HEADER]), status: response.status(), url: response.url(), sentAt })
	}

	/** Every answer the pages get. Routing turns the browser's cache off: an image kept from earlier would still show the instance that first sent it. */
	async watch(who: string, context: BrowserContext) {
		await context.route('**/*', (route) => route.continue())
		context.on('response', (response) => this.record(who, response, response.request().timing().startTime))
	}

	/** The instances that answered `who`. */
	instances(who: string): Set<string | undefined> {
		return new Set(this.answers.filter((answer) => answer.who === who).map((answer) => answer.instance?.name))
	}
}

// Stopped here, not in the test: when its time runs out the test is left where it is, and this still runs (mid-start too).
let launch: ClusterLaunch | undefined
const contexts: BrowserContext[] = []
test.afterAll(async () => {
	await Promise.all(contexts.map((context) => context.close()))
	await launch?.stop()
})

/** Every file under `dir`, its bytes. */
function filesUnder(dir: string): Buffer[] {
	return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).flatMap((entry) => (entry.isFile() ? [fs.readFileSync(path.join(entry.parentPath, entry.name))] : []))
}

test('two instances behind a balancer serve one journey; an edit on one shows on the other; one stops and the journey goes on', async ({ browser }) => {
	// Starting the cluster is most of it: the first instance records the first content (a minute or two on a busy machine).
	test.setTimeout(600_000)
	const id = unique()
	const admin = { email: `cluster-admin-${id}@e2e.test`, password: `Cluster-Admin-${randomBytes(9).toString('base64url')}` }
	// As a foundation runs it: production (Secure cookies, no demo cases), one admin of its own.
	const instanceEnv = { NODE_ENV: 'production', ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password, LOG_LEVEL: 'warn' }
	launch = launchCluster({ root, adminUrl: testDatabaseUrl, instances: [instanceEnv, instanceEnv] })
	const cluster = await launch.started
	const [one, two] = cluster.instances as [ClusterInstance, ClusterInstance]
	const tally = new Tally(cluster)
	const newPage = async (who: string) => {
		const context = await browser.newContext({ baseURL: cluster.origin, locale: 'ar-SA' })
		contexts.push(context)
		await tally.watch(who, context)
		return context.newPage()
	}

	// Staff sign in, the second step set up on the way: the password checked by one instance, the code by another.
	const staff = await newPage('staff')
	await signIn(staff, admin)
	await expect(staff).toHaveURL(/\/admin/)

	// A family applies with two PDFs, every step a request of its own.
	const planted = plantedApplicant(id)
	const family = await newPage('family')
	const { token, reference } = await applyForNeedyFamilies(family, planted)

	// Staff open the case and download the family's identity file (stored in the bucket, encrypted, by whichever instance took the upload).
	await staff.goto(`/admin/cases/${reference}`)
	await expect(staff.getByRole('heading', { level: 1 })).toHaveText(planted.name)
	const identityHref = await staff.getByRole('link', { name: /^تنزيل هوية/ }).getAttribute('href')
	const identitySent = Date.now()
	const identity = await staff.request.get(identityHref!)
	tally.record('staff', identity, identitySent)
	expect(identity.status()).toBe(200)
	expect(pdfText(await identity.body())).toContain(planted.identityMarker)
	// What the bucket holds of them is encrypted: neither file's text is in any object.
	const objects = filesUnder(cluster.bucketDir)
	expect(objects.filter((bytes) => isEncrypted(bytes)).length, 'encrypted objects in the bucket').toBeGreaterThanOrEqual(2)
	expect(objects.filter((bytes) => pdfText(bytes).includes(planted.identityMarker) || pdfText(bytes).includes(planted.familyMarker)), 'objects holding an applicant file in plain').toEqual([])

	// No sticky sessions: each of them was served by both instances, and by nothing else.
	expect(tally.answers.filter((answer) => answer.instance === undefined), 'answers without a known instance').toEqual([])
	expect(tally.instances('staff'), 'instances that served staff').toEqual(new Set([one.name, two.name]))
	expect(tally.instances('family'), 'instances that served the family').toEqual(new Set([one.name, two.name]))
	expect(tally.answers.filter((answer) => answer.status >= 500)).toEqual([])

	// A content edit through one instance; the other, holding the old page in its cache, serves the new one at once.
	for (const instance of [one, two]) {
		await fetch(`${instance.origin}/about`).then((response) => response.arrayBuffer())
		const cached = await fetch(`${instance.origin}/about`)
		expect(cached.headers.get('x-ataa-cache'), `${instance.name} caches /about`).toBe('hit')
		await cached.arrayBuffer()
	}
	const vision = `رؤية المؤسسة كما عدلت في العنقود ${id}`
	await staff.goto('/admin/content/home/edit')
	await staff.getByLabel('الرؤية').fill(vision)
	const [saved] = await Promise.all([staff.waitForResponse((response) => response.request().method() === 'POST'), staff.getByRole('button', { name: 'حفظ' }).click()])
	await expect(staff.getByRole('status')).toHaveText('تم تحديث البيانات بنجاح')
	const editedOn = cluster.instanceOf(saved.headers()[INSTANCE_HEADER])
	expect(editedOn).toBeDefined()
	const other = editedOn === one ? two : one
	// PostgreSQL's NOTIFY empties the other instance's cache as the edit commits; its fallback poll
	// (every 30 s, app/cache/content-version.server.ts) cannot be what ten seconds' wait sees (ten, not
	// one: a busy machine may take seconds to deliver the notice and draw the page).
	await expect
		.poll(async () => (await fetch(`${other.origin}/about`).then((response) => response.text())).includes(vision), { timeout: 10_000, intervals: [0, 100, 250] })
		.toBe(true)
	const throughBalancer = await family.goto('/about')
	expect(await throughBalancer!.text()).toContain(vision)

	// One instance stops (as a rolling upgrade stops each in turn); the balancer sends everything to the other.
	const stopped = two
	await Promise.all([staff.waitForLoadState('networkidle'), family.waitForLoadState('networkidle')])
	await cluster.stopInstance(stopped)
	const stoppedAt = Date.now()
	expect(stopped.server.service.exit?.code, 'the stopped instance drained and exited cleanly').toBe(0)

	// The review goes on: the same staff session, the family's second file, a status change.
	await staff.goto(`/admin/cases/${reference}`)
	await expect(staff.getByRole('heading', { level: 1 })).toHaveText(planted.name)
	const familyHref = await staff.getByRole('link', { name: /^تنزيل سجل/ }).getAttribute('href')
	const familySent = Date.now()
	const familyFile = await staff.request.get(familyHref!)
	tally.record('staff', familyFile, familySent)
	expect(familyFile.status()).toBe(200)
	expect(pdfText(await familyFile.body())).toContain(planted.familyMarker)
	// The visit report first: «تمت الدراسة» follows it.
	await recordStudyInBrowser(staff, reference)
	const study = staff.locator('details', { has: staff.locator('summary', { hasText: 'إلى «تمت الدراسة»' }) })
	await study.locator('summary').click()
	await study.getByLabel('ملاحظة داخلية (سبب التغيير)').fill('زار الباحث الأسرة، والخادم الثاني متوقف')
	await study.getByRole('button', { name: 'تغيير الحالة إلى «تمت الدراسة»' }).click()
	await expect(staff.getByRole('status')).toContainText('تم تغيير الحالة إلى «تمت الدراسة»')
	// And the family, on their private link, sees their application where it stands.
	await family.goto(`/apply/r/${token}`)
	await expect(family.getByText(reference).first()).toBeVisible()

	// Requests sent once it had stopped (an image of an earlier page may still have been on its way).
	const after = tally.answers.filter((answer) => answer.sentAt >= stoppedAt)
	expect(after.length).toBeGreaterThan(3)
	expect(after.filter((answer) => answer.instance !== one).map((answer) => `${answer.instance?.name}: ${answer.url}`), 'answers after the stop not from the running instance').toEqual([])
	expect(after.filter((answer) => answer.status >= 500), 'errors after the stop').toEqual([])
})
