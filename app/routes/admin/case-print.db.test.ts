import { createElement, type ComponentType } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { addAttachment, saveSection, startCase, submitCase, type CaseRow } from '#app/cases/case-store.server.ts'
import { softDeleteCase } from '#app/cases/status-changes.server.ts'
import { createSession, sessionCookieName } from '#app/auth/session.server.ts'
import { attachments, auditLog, caseEvents } from '#app/db/schema.ts'
import { VISIT_PHOTO_SLOT } from '#app/cases/staff-files.ts'
import { seedDemoContent } from '#app/seed.server.ts'
import { createUser, type PublicUser } from '#app/domain/staff-users.server.ts'
import type { ApplicationDef } from '#app/forms/definition.ts'
import { needyFamilies } from '#app/forms/definitions/needy-families.ts'
import { formatMoney } from '#app/text/format.ts'
import { approvedCase, basicAnswers, randomNationalId, sectionAnswers, studied } from '#tests/fixtures/needy-families.ts'
import { aidInstalments } from '#app/db/schema.ts'
import { confirmIban, giveIban } from '#app/cases/payee-accounts.server.ts'
import { saudiIbanFromBban } from '#app/domain/validators.ts'
import { listFunds, setBudget } from '#app/aid/funds.server.ts'
import { createBatch, markBatchSent, recordPayment, reopenPayment } from '#app/aid/payments.server.ts'
import { formatDate, todayInRiyadh } from '#app/text/format.ts'
import { withAppDatabase } from '#tests/db.ts'
import { runRoute } from '#tests/route.ts'
import CasePrint, { loader, middleware, reportSections } from './case-print.tsx'
import { saveConsent } from '#app/privacy/consent-store.server.ts'

// The printable report: the real loader with a real session, then the real page rendered with what it returned.

const app = withAppDatabase()
const staff: Record<'admin' | 'officer' | 'editor', { user: PublicUser; cookie: string }> = {} as never
let submitted: CaseRow

async function signedIn(name: string, email: string, role: PublicUser['roles'][number]) {
	const user = await createUser(app.handle.db, { name, email, mobile: '', roles: [role], password: 'Print-Pass-123' })
	const { token } = await createSession(app.handle.db, user.id)
	return { user, cookie: `${sessionCookieName()}=${token}` }
}

const file = (slot: string, originalName: string, size: number) => ({ slot, originalName, contentType: 'application/pdf', size, sha256: 'ab'.repeat(32), storageKey: 'cd'.repeat(32) })

beforeAll(async () => {
	await seedDemoContent(app.handle.db)
	staff.admin = await signedIn('مدير النظام', 'admin@example.org', 'admin')
	staff.officer = await signedIn('سارة العتيبي', 'sara@example.org', 'case_officer')
	staff.editor = await signedIn('محرر المحتوى', 'editor@example.org', 'content_editor')
	const { row } = await startCase(app.handle.db, needyFamilies, basicAnswers(randomNationalId()))
	await saveConsent(app.handle.db, row.id, 'given')
	// No service chosen: the section is saved (it has no required answer) but holds nothing.
	for (const [key, value] of Object.entries({ ...sectionAnswers, services: {} })) await saveSection(app.handle.db, needyFamilies, row, key, value)
	await addAttachment(app.handle.db, needyFamilies, row, file('identity', 'هوية.pdf', 52_163))
	await addAttachment(app.handle.db, needyFamilies, row, file('family_report', 'family-record.pdf', 900))
	submitted = await submitCase(app.handle.db, needyFamilies, row)
})

function load(reference: string, cookie?: string) {
	const request = new Request(`http://localhost/admin/cases/${reference}/print`, { headers: cookie ? { Cookie: cookie } : {} })
	return runRoute(middleware, loader, { request, params: { reference } })
}

/** The loader's thrown Response (a redirect, a 403, a 404). */
async function refusal(reference: string, cookie?: string): Promise<{ status: number; location: string | null; body: unknown }> {
	try {
		await load(reference, cookie)
	} catch (error) {
		if (error instanceof Response) return { status: error.status, location: error.headers.get('Location'), body: await error.text() }
		const thrown = error as { init?: { status?: number }; data?: unknown }
		if (thrown.init?.status) return { status: thrown.init.status, location: null, body: thrown.data }
		throw error
	}
	throw new Error('the loader did not refuse')
}

async function render(reference: string, cookie: string) {
	const loaderData = await load(reference, cookie)
	const Stub = createRoutesStub([{ id: 'print', path: '/admin/cases/:reference/print', Component: CasePrint as unknown as ComponentType }])
	const html = renderToString(createElement(Stub, { initialEntries: [`/admin/cases/${reference}/print`], hydrationData: { loaderData: { print: loaderData } } }))
	// React's text separators are not something anyone sees.
	return html.replaceAll('<!-- -->', '')
}

const cells = (row: string) => [...row.matchAll(/<t[dh][^>]*>([\s\S]*?)<\/t[dh]>/g)].map((cell) => cell[1]!.replace(/<[^>]+>/g, ''))

/** The section with this key, or ''. */
const sectionOf = (html: string, key: string) => new RegExp(`<section aria-labelledby="report-${key}"[\\s\\S]*?</section>`).exec(html)?.[0] ?? ''

/** The body rows of every table in the section with this key, as lists of cell texts. */
function tableRows(html: string, sectionKey: string): string[][] {
	const bodies = [...sectionOf(html, sectionKey).matchAll(/<tbody>([\s\S]*?)<\/tbody>/g)].map((match) => match[1]!)
	return bodies.flatMap((body) => [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) => cells(row[1]!)))
}

/** The header cells of the first table with a header in the section. */
const tableHead = (html: string, sectionKey: string) => cells(/<thead>([\s\S]*?)<\/thead>/.exec(sectionOf(html, sectionKey))?.[1] ?? '')

describe('the printable case report', () => {
	test('«سجل الدعم المالي»: approved, paid, returned by the bank (its reversal negative) and paid again, each day in both calendars, with the net', async () => {
		const db = app.handle.db
		const approver = await signedIn('عضو اللجنة', 'committee@example.org', 'approver')
		const finance = await signedIn('المسؤولة المالية', 'finance@example.org', 'finance')
		const fund = (await listFunds(db)).find((item) => !item.zakat)!
		const today = todayInRiyadh()
		await setBudget(db, { programme: 'needy-families', year: Number(today.slice(0, 4)), fundId: null, allocated: 1_000_000 }, staff.admin.user)
		// A case with no money: no empty section.
		expect(await render(submitted.reference, staff.officer.cookie)).not.toContain('سجل الدعم المالي')
		const row = await approvedCase(db, { researcher: staff.officer.user, approver: approver.user }, { fundId: fund.id, amount: 1200 })

		const [instalment] = await db.select().from(aidInstalments).where(eq(aidInstalments.caseId, row.id))
		const pay = async (bankReference: string) => {
			const { batchId } = await createBatch(db, [instalment!.id], '', finance.user)
			await markBatchSent(db, batchId!, today, finance.user)
			await recordPayment(db, batchId!, { instalmentId: instalment!.id, bankReference, paidOn: today }, finance.user)
			return batchId!
		}
		const first = await pay('FT11112222')
		await reopenPayment(db, first, instalment!.id, 'الحساب مغلق', finance.user)
		// The family gives another IBAN; finance confirms it; paid again.
		await giveIban(db, row.id, saudiIbanFromBban(`80${'0'.repeat(16)}42`))
		await confirmIban(db, row.id, finance.user)
		await pay('FT33334444')

		const html = await render(row.reference, staff.officer.cookie)
		expect(html).toMatch(/<h2 id="report-aid-ledger"[^>]*>سجل الدعم المالي<\/h2>/)
		// Signature boxes: the researcher who studied it and the committee member who decided, by name, and a second member's blank.
		const signatures = [...sectionOf(html, 'signatures').matchAll(/<p class="font-bold">([^<]*)<\/p><p[^>]*><span>الاسم:<\/span> (?:<span class="font-semibold">([^<]*)<\/span>|<span class="[^"]*border-b)/g)].map((match) => [match[1], match[2] ?? ''])
		expect(signatures).toEqual([
			['الباحث الاجتماعي', staff.officer.user.name],
			['عضو لجنة الصرف', 'عضو اللجنة'],
			['عضو لجنة الصرف', ''],
		])
		expect(sectionOf(html, 'signatures').match(/التوقيع:/g)).toHaveLength(3)
		const day = formatDate(today)
		expect(day).toMatch(/م \(.+هـ\)$/)
		const reference = `ATAA-${instalment!.id}`
		expect(tableHead(html, 'aid-ledger')).toEqual(['التاريخ', 'البيان', 'المبلغ', 'الصندوق', 'المرجع', 'ملاحظة', 'سجّله'])
		expect(tableRows(html, 'aid-ledger')).toEqual([
			[day, 'اعتماد', formatMoney(1200), fund.name, '', '', 'عضو اللجنة'],
			[day, 'صرف (تحويل)', formatMoney(1200), fund.name, `${reference}، مرجع البنك FT11112222`, '', 'المسؤولة المالية'],
			[day, 'أعاده البنك', formatMoney(-1200), fund.name, `${reference}، مرجع البنك FT11112222`, 'الحساب مغلق', 'المسؤولة المالية'],
			[day, 'صرف (تحويل)', formatMoney(1200), fund.name, `${reference}، مرجع البنك FT33334444`, '', 'المسؤولة المالية'],
		])
		const totals = [...(/<tfoot>([\s\S]*?)<\/tfoot>/.exec(sectionOf(html, 'aid-ledger'))?.[1] ?? '').matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((match) => cells(match[1]!))
		expect(totals).toEqual([
			['المعتمد', formatMoney(1200)],
			['المصروف (ناقص ما أعاده البنك)', formatMoney(1200)],
		])
	})

	test('shows the title by form, the reference, the status and the applicant as the page title', async () => {
		const html = await render(submitted.reference, staff.officer.cookie)
		expect(html).toMatch(/<h1[^>]*>طلب دعم مقطوع<\/h1>/)
		expect(html).toContain(`<bdi>${submitted.reference}</bdi>`)
		expect(html).toContain('<title>عبدالله محمد سعد القحطاني</title>')
		expect(html).toContain('مؤسسة عطاء الخيرية')
		expect(html).toMatch(/<dt[^>]*>الحالة<\/dt><dd[^>]*>جديد<\/dd>/)
		expect(html).toMatch(/<dt[^>]*>تاريخ التقديم<\/dt><dd[^>]*>\d{1,2}\u00a0[^<]+\u00a0\d{4}م \([^<]+\u00a0\d{4}هـ\)<\/dd>/)
		expect(html).toMatch(/طُبع بواسطة سارة العتيبي في \d{1,2}\u00a0[^<]+\u00a0\d{4}م \([^<]+\u00a0\d{4}هـ\)/)
		// The print button, worked by a script with the page's nonce (no inline handler), and the way back.
		expect(html).toMatch(/<button id="print-report" type="button" hidden="" class="[^"]*">طباعة<\/button>/)
		expect(html).toContain('window.print()')
		expect(html).not.toMatch(/ onclick=/i)
		expect(html).toContain(`href="/admin/cases/${submitted.reference}"`)
	})

	test('family members and referrers are tables with a row each; single answers are label/value rows', async () => {
		const html = await render(submitted.reference, staff.officer.cookie)
		// Nobody gave a member's ID: that column is left off.
		expect(tableHead(html, 'family')).toEqual(['م', 'الاسم', 'صلة القرابة', 'العمر', 'الجنس', 'المستوى التعليمي', 'الحالة الاجتماعية', 'الحالة الصحية'])
		const members = tableRows(html, 'family')
		expect(members).toHaveLength(2)
		expect(members[0]!.slice(0, 6)).toEqual(['1', 'نورة', 'زوجة', '38', 'أنثى', 'ثانوي'])
		expect(members[1]!.slice(0, 2)).toEqual(['2', 'سعد'])
		expect(tableHead(html, 'referrers')).toEqual(['م', 'الاسم', 'العنوان الوطني', 'رقم الجوال', 'صفة المعرّف'])
		expect(tableRows(html, 'referrers').map((row) => row[1])).toEqual(['الشيخ فهد العتيبي', 'إمام مسجد الحي', 'جار الأسرة'])
		expect(tableRows(html, 'basic')).toContainEqual(['الاسم الرباعي', 'عبدالله محمد سعد القحطاني'])
		expect(tableRows(html, 'financial')).toContainEqual(['صافي دخل الأسرة الشهري', formatMoney(2500)])
	})

	test('sections and answers with no data are left out; attachments are listed with size and date', async () => {
		const html = await render(submitted.reference, staff.officer.cookie)
		expect(html).not.toContain('الخدمات المطلوبة')
		expect(html).not.toContain('تاريخ الميلاد')
		expect(html).not.toContain('التقاعد')
		expect(html).toContain('البيانات البنكية')
		expect(tableRows(html, 'files')).toContainEqual(['رسالة المستفيد', 'نرجو النظر في حالتنا.'])
		const files = tableRows(html, 'files').filter((row) => row.length === 4)
		expect(files.map((row) => row.slice(0, 3))).toEqual([
			['صورة الهوية أو الإقامة', 'هوية.pdf', '52 كيلوبايت'],
			['سجل الأسرة', 'family-record.pdf', '900 بايت'],
		])
		expect(html).toMatch(new RegExp(`<a href="/admin/cases/${submitted.reference}/files/[0-9a-f-]{36}"`))
	})

	test('the study says how many photos the visit has; they are not among the applicant\'s files', async () => {
		const { row } = await startCase(app.handle.db, needyFamilies, basicAnswers(randomNationalId()))
		await saveConsent(app.handle.db, row.id, 'given')
		for (const [key, value] of Object.entries(sectionAnswers)) await saveSection(app.handle.db, needyFamilies, row, key, value)
		await addAttachment(app.handle.db, needyFamilies, row, file('identity', 'هوية.pdf', 1000))
		await addAttachment(app.handle.db, needyFamilies, row, file('family_report', 'family-record.pdf', 900))
		const sent = await submitCase(app.handle.db, needyFamilies, row)
		await studied(app.handle.db, sent, staff.officer.user)
		await app.handle.db.insert(attachments).values(['kitchen.webp', 'roof.webp'].map((name) => ({ caseId: sent.id, ...file(VISIT_PHOTO_SLOT, name, 2000), contentType: 'image/webp' })))
		const html = await render(sent.reference, staff.officer.cookie)
		expect(html).toContain('صورتان في ملف الطلب')
		expect(html).not.toContain('kitchen.webp')
		expect(tableRows(html, 'files').filter((row) => row.length === 4).map((row) => row[1])).toEqual(['هوية.pdf', 'family-record.pdf'])
	})

	test('each load records who printed the case', async () => {
		const before = await app.handle.db
			.select()
			.from(caseEvents)
			.where(and(eq(caseEvents.caseId, submitted.id), eq(caseEvents.kind, 'printed')))
		await load(submitted.reference, staff.admin.cookie)
		const after = await app.handle.db
			.select()
			.from(caseEvents)
			.where(and(eq(caseEvents.caseId, submitted.id), eq(caseEvents.kind, 'printed')))
		expect(after).toHaveLength(before.length + 1)
		const byAdmin = (events: typeof after) => events.filter((event) => event.actorId === staff.admin.user.id).length
		expect(byAdmin(after)).toBe(byAdmin(before) + 1)
		// And in the audit trail: who, which case, from where.
		const audit = await app.handle.db
			.select()
			.from(auditLog)
			.where(and(eq(auditLog.action, 'case.print'), eq(auditLog.actorId, staff.admin.user.id)))
		expect(audit.at(-1)).toMatchObject({ caseReference: submitted.reference, path: `/admin/cases/${submitted.reference}/print`, actorName: 'مدير النظام' })
	})

	test('signed out goes to the login page; a content editor is refused; an unknown reference is 404', async () => {
		const out = await refusal(submitted.reference)
		expect(out.status).toBe(302)
		expect(out.location).toBe(`/login?redirectTo=${encodeURIComponent(`/admin/cases/${submitted.reference}/print`)}`)
		const editor = await refusal(submitted.reference, staff.editor.cookie)
		expect(editor).toMatchObject({ status: 403, body: 'ليست لديك صلاحية للوصول إلى هذه الصفحة' })
		expect((await refusal('ABCD-EFGH', staff.officer.cookie)).status).toBe(404)
		expect((await refusal('not-a-reference', staff.officer.cookie)).status).toBe(404)
		// A content editor's visit is not recorded as a print.
		const printedBy = await app.handle.db
			.select()
			.from(caseEvents)
			.where(and(eq(caseEvents.kind, 'printed'), eq(caseEvents.actorId, staff.editor.user.id)))
		expect(printedBy).toHaveLength(0)
		// The refusal is in the audit trail; the 404s read nothing and are not.
		const editorAudit = await app.handle.db.select().from(auditLog).where(eq(auditLog.actorId, staff.editor.user.id))
		expect(editorAudit.map((row) => row.action)).toEqual(['access.denied'])
		expect(await app.handle.db.select().from(auditLog).where(eq(auditLog.caseReference, 'ABCD-EFGH'))).toEqual([])
	})

	test('a deleted case is 404 for a case officer but printable by an admin, marked as deleted', async () => {
		const { row } = await startCase(app.handle.db, needyFamilies, basicAnswers(randomNationalId()))
		await softDeleteCase(app.handle.db, row.id, 'طلب مكرر', staff.admin.user)
		expect((await refusal(row.reference, staff.officer.cookie)).status).toBe(404)
		const html = await render(row.reference, staff.admin.cookie)
		expect(html).toContain('طلب محذوف')
		expect(html).toContain('لم يُرسل بعد')
	})
})

describe('reportSections', () => {
	// An association's budget: a table with an amount column gets a total row.
	const association: ApplicationDef = {
		...needyFamilies,
		type: 'association-test',
		kind: 'association',
		reportTitle: 'طلب دعم مشروع',
		sections: [
			{
				key: 'budget',
				code: '2-5',
				title: 'الميزانية',
				fields: [
					{ kind: 'textarea', name: 'Notes', label: 'ملاحظات' },
					{
						kind: 'group',
						name: 'items',
						label: 'بنود الميزانية',
						itemLabel: 'بند',
						emptyText: 'لم تُضف بنداً بعد.',
						counted: { one: 'بند واحد', two: 'بندين', few: 'بنود', many: 'بنداً', other: 'بند' },
						min: 1,
						max: 10,
						fields: [
							{ kind: 'text', name: 'Item', label: 'البند', required: true },
							{ kind: 'money', name: 'Cost', label: 'التكلفة', required: true },
						],
					},
				],
			},
			{ key: 'empty', code: '2-6', title: 'قسم فارغ', fields: [{ kind: 'text', name: 'Nothing', label: 'لا شيء' }] },
		],
	}

	test("lists a section's files in the form's slot order, each slot's in upload order", () => {
		const withSlots: ApplicationDef = {
			...association,
			sections: [{ key: 'files', code: '2-7', title: 'المرفقات', fields: [], files: [{ slot: 'licence', label: 'الترخيص' }, { slot: 'budget', label: 'الميزانية التفصيلية' }, { slot: 'letter', label: 'خطاب الطلب' }] }],
		}
		const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 9, minute))
		const uploaded = [
			{ id: '1', slot: 'letter', originalName: 'خطاب.pdf', size: 10, createdAt: at(1) },
			{ id: '2', slot: 'budget', originalName: 'ميزانية.pdf', size: 10, createdAt: at(2) },
			{ id: '3', slot: 'licence', originalName: 'ترخيص.pdf', size: 10, createdAt: at(3) },
			{ id: '4', slot: 'budget', originalName: 'ميزانية 2.pdf', size: 10, createdAt: at(4) },
		]
		const [section] = reportSections(withSlots, {}, uploaded)
		expect(section!.files.map((file) => [file.slot, file.name])).toEqual([
			['الترخيص', 'ترخيص.pdf'],
			['الميزانية التفصيلية', 'ميزانية.pdf'],
			['الميزانية التفصيلية', 'ميزانية 2.pdf'],
			['خطاب الطلب', 'خطاب.pdf'],
		])
	})

	test('sums amount columns under the table and drops sections without data', () => {
		const sections = reportSections(
			association,
			{
				budget: {
					items: [
						{ Item: 'أجهزة', Cost: 1500.5 },
						{ Item: 'تدريب', Cost: 2000 },
					],
				},
				empty: { Nothing: '' },
			},
			[],
		)
		expect(sections.map((section) => section.key)).toEqual(['budget'])
		expect(sections[0]!.items).toEqual([
			{
				kind: 'table',
				label: 'بنود الميزانية',
				columns: ['البند', 'التكلفة'],
				rows: [
					['أجهزة', formatMoney(1500.5)],
					['تدريب', formatMoney(2000)],
				],
				totals: ['', formatMoney(3500.5)],
			},
		])
	})
})
