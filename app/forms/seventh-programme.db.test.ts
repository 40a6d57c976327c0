import { eq } from 'drizzle-orm'
import { RouterContextProvider } from 'react-router'
import { expect, test, vi } from 'vitest'
import { listCases, readCaseFilter } from '#app/cases/case-lists.server.ts'
import { loadSavedState } from '#app/cases/case-store.server.ts'
import { cases } from '#app/db/schema.ts'
import { navigation, sectionPages } from '#app/site/site-map.ts'
import { randomNationalId } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import type { ApplicationDef } from './definition.ts'
import { describeSection } from './describe.ts'
import type * as Registry from './registry.ts'

// Adding a programme touches its definition and the registry, nothing else (docs/architecture.md):
// a small seventh programme, known to the registry only, is in the menu and on /apply, is filled in
// and sent through the real route actions, and lands in the staff list with its answers readable.

// Hoisted with the registry's mock, which is made before any import.
const eidClothing: ApplicationDef = vi.hoisted(() => ({
	type: 'eid-clothing',
	kind: 'individual',
	title: 'طلب كسوة العيد',
	reportTitle: 'طلب كسوة العيد',
	summary: 'كسوة العيد لأطفال الأسر المحتاجة.',
	eligibility: ['أسرة فيها أطفال دون الخامسة عشرة'],
	applicant: { name: 'fullName', nationalId: 'nationalId', mobile: 'mobile' },
	acknowledgement: 'أقر بأن البيانات المقدمة صحيحة.',
	afterSubmit: ['يدرس أحد باحثي المؤسسة طلبك.'],
	sections: [
		{
			key: 'basic',
			code: '1',
			title: 'بيانات المتقدم',
			fields: [
				{ kind: 'text', name: 'fullName', label: 'الاسم الرباعي', required: true },
				{ kind: 'text', name: 'nationalId', label: 'رقم الهوية أو الإقامة', format: 'nationalId', required: true },
				{ kind: 'text', name: 'mobile', label: 'رقم الجوال', format: 'mobile', required: true },
			],
		},
		{
			key: 'children',
			code: '2',
			title: 'الأطفال',
			fields: [{ kind: 'textarea', name: 'sizes', label: 'أعمار الأطفال ومقاساتهم', required: true }],
		},
	],
}))

vi.mock('#app/forms/registry.ts', async (importOriginal) => {
	const original = await importOriginal<typeof Registry>()
	const applicationDefinitions = [...original.applicationDefinitions, eidClothing]
	return { ...original, applicationDefinitions, findDefinition: (type: string) => applicationDefinitions.find((definition) => definition.type === type) }
})

const app = withAppDatabase()

const headers = { 'x-ataa-client-ip': '203.0.113.77' }
const post = (path: string, body: Record<string, string>) => new Request(`http://localhost${path}`, { method: 'POST', body: new URLSearchParams(body), headers })
const args = <T>(request: Request, params: Record<string, string>) => ({ request, params, context: new RouterContextProvider() }) as unknown as T

test('a seventh programme, added to the registry only, is offered, filled in, sent and listed for staff', async () => {
	const link = { to: '/apply/eid-clothing', label: 'طلب كسوة العيد' }
	expect(navigation.flatMap((entry) => ('links' in entry ? entry.links : [entry]))).toContainEqual(link)
	expect(sectionPages.find((page) => page.path === '/apply')!.links).toContainEqual(link)

	const { action: newAction } = await import('#app/routes/apply/new.tsx')
	const { action: stepAction } = await import('#app/routes/apply/step.tsx')
	const { action: checkAction } = await import('#app/routes/apply/check.tsx')
	const nationalId = randomNationalId()
	const started = (await newAction(args(post('/apply/eid-clothing/new', { fullName: 'منيرة سعد عبدالله الشهري', nationalId, mobile: '0551234567' }), { type: 'eid-clothing' }))) as unknown as Response
	expect(started.status).toBe(302)
	const token = /^\/apply\/r\/([A-Za-z0-9_-]{43})$/.exec(started.headers.get('location') ?? '')?.[1]
	expect(token, started.headers.get('location') ?? '').toBeTruthy()

	const saved = (await stepAction(args(post(`/apply/r/${token}/children`, { sizes: 'ولد 7 سنوات مقاس 8، بنت 4 سنوات مقاس 4' }), { token: token!, step: 'children' }))) as unknown as Response
	expect(saved.status).toBe(302)
	expect(saved.headers.get('location')).toBe(`/apply/r/${token}/check`)

	const sent = (await checkAction(args(post(`/apply/r/${token}/check`, { acknowledge: 'on' }), { token: token! }))) as unknown as Response
	expect(sent.status).toBe(302)
	expect(sent.headers.get('location')).toBe(`/apply/r/${token}/done`)

	const db = app.handle.db
	const [row] = await db.select().from(cases).where(eq(cases.nationalId, nationalId))
	expect(row).toMatchObject({ type: 'eid-clothing', applicantName: 'منيرة سعد عبدالله الشهري', status: 1 })
	expect(row!.submittedAt).not.toBeNull()
	const listed = await listCases(db, readCaseFilter(new URLSearchParams({ type: 'eid-clothing' }), 'individual', 0), { offset: 0, limit: 50 })
	expect(listed.map((item) => item.reference)).toEqual([row!.reference])
	const children = describeSection(eidClothing.sections[1]!, (await loadSavedState(db, row!.id)).answers.children)
	expect(JSON.stringify(children)).toContain('ولد 7 سنوات مقاس 8')
})
