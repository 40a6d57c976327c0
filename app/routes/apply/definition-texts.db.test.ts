import { createElement, type ComponentType } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub, RouterContextProvider } from 'react-router'
import { describe, expect, test, vi } from 'vitest'
import { addAttachment, saveSection, startCase, submitCase } from '#app/cases/case-store.server.ts'
import type { ApplicationDef } from '#app/forms/definition.ts'
import { needyFamilies } from '#app/forms/definitions/needy-families.ts'
import type * as Registry from '#app/forms/registry.ts'
import { basicAnswers, randomNationalId, sectionAnswers } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import Done, { loader as doneLoader } from './done.tsx'
import Step, { loader as stepLoader } from './step.tsx'
import { saveConsent } from '#app/privacy/consent-store.server.ts'

// The generic application screens say only what the definition says. The registry answers with a
// copy of needy families whose texts are changed, and the real loaders and pages must show those.

const changed = vi.hoisted(() => ({
	emptyText: 'القائمة فارغة (نص تجريبي).',
	itemLabel: 'شخص',
	links: [
		{ to: '/apply/test-template', label: 'قالب تجريبي', newTab: true },
		{ to: '/apply/status', label: 'رابط تجريبي آخر' },
	],
	afterSubmit: ['الخطوة الأولى (نص تجريبي).', 'الخطوة الثانية (نص تجريبي).'],
}))

vi.mock('#app/forms/registry.ts', async (importOriginal) => {
	const original = await importOriginal<typeof Registry>()
	const { needyFamilies: real } = await import('#app/forms/definitions/needy-families.ts')
	const definition: ApplicationDef = {
		...real,
		afterSubmit: changed.afterSubmit,
		sections: real.sections.map((section) => {
			if (section.key === 'referrers') return { ...section, links: changed.links }
			if (section.key !== 'family') return section
			return { ...section, fields: section.fields.map((field) => (field.kind === 'group' ? { ...field, emptyText: changed.emptyText, itemLabel: changed.itemLabel } : field)) }
		}),
	}
	return { ...original, applicationDefinitions: [definition], findDefinition: (type: string) => (type === definition.type ? definition : original.findDefinition(type)) }
})

const app = withAppDatabase()

/** A case with the sections before `step` saved. */
async function caseUpTo(step: string) {
	const { row, token } = await startCase(app.handle.db, needyFamilies, basicAnswers(randomNationalId()))
	await saveConsent(app.handle.db, row.id, 'given')
	const keys = needyFamilies.sections.map((section) => section.key)
	for (const key of keys.slice(1, keys.indexOf(step))) await saveSection(app.handle.db, needyFamilies, row, key, sectionAnswers[key as keyof typeof sectionAnswers])
	return { row, token }
}

const context = () => new RouterContextProvider()

/** A route's page rendered on the server with its real loader's data. */
function renderPage(id: string, path: string, url: string, Component: unknown, loaderData: unknown) {
	const Stub = createRoutesStub([{ id, path, Component: Component as ComponentType }])
	// React's text separators are not something anyone sees.
	return renderToString(createElement(Stub, { initialEntries: [url], hydrationData: { loaderData: { [id]: loaderData } } })).replaceAll('<!-- -->', '')
}

async function renderStep(token: string, step: string) {
	const url = `/apply/r/${token}/${step}`
	const loaderData = await stepLoader({ request: new Request(`http://localhost${url}`), params: { token, step }, context: context() } as unknown as Parameters<typeof stepLoader>[0])
	return renderPage('step', '/apply/r/:token/:step', url, Step, loaderData)
}

describe('the application screens take their texts from the definition', () => {
	test('a list step says the definition\'s empty text before its first row, and names a row by its itemLabel', async () => {
		const { token } = await caseUpTo('family')
		const html = await renderStep(token, 'family')
		expect(html).toContain(`<p class="mt-2 text-stone-700">${changed.emptyText}</p>`)
		expect(html).toContain('<h2 class="text-lg font-bold text-brand-900">إضافة شخص</h2>')
		expect(html).not.toContain('لم تُضف أحداً بعد.')
	})

	test('a step shows its links under the description; one opening a new tab says so', async () => {
		const { token } = await caseUpTo('referrers')
		const html = await renderStep(token, 'referrers')
		expect(html).toMatch(/<a [^>]*href="\/apply\/test-template"[^>]*target="_blank"[^>]*>قالب تجريبي \(يفتح في صفحة جديدة\)<\/a>/)
		expect(html).toMatch(/<a [^>]*href="\/apply\/status"[^>]*>رابط تجريبي آخر<\/a>/)
		expect(html).not.toMatch(/<a [^>]*href="\/apply\/status"[^>]*target=/)
		expect(html).not.toContain('/apply/referrer-form')
		// The links come after the description.
		expect(html.indexOf('قالب تجريبي')).toBeGreaterThan(html.indexOf(needyFamilies.sections.find((section) => section.key === 'referrers')!.description!))
	})

	test('the sent page lists what happens next from the definition', async () => {
		const { row, token } = await caseUpTo('files')
		await saveSection(app.handle.db, needyFamilies, row, 'files', sectionAnswers.files)
		for (const slot of ['identity', 'family_report']) {
			await addAttachment(app.handle.db, needyFamilies, row, { slot, originalName: `${slot}.pdf`, contentType: 'application/pdf', size: 1234, sha256: 'ab'.repeat(32), storageKey: 'cd'.repeat(32) })
		}
		await submitCase(app.handle.db, needyFamilies, row)
		const url = `/apply/r/${token}/done`
		const loaderData = await doneLoader({ request: new Request(`http://localhost${url}`), params: { token }, context: context() } as unknown as Parameters<typeof doneLoader>[0])
		const html = renderPage('done', '/apply/r/:token/done', url, Done, loaderData)
		expect(html).toContain(`<ol class="mt-3 list-decimal space-y-2 ps-6">${changed.afterSubmit.map((line) => `<li>${line}</li>`).join('')}</ol>`)
		expect(html).not.toContain('لزيارة الأسرة')
	})
})
