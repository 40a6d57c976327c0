import { RouterContextProvider } from 'react-router'
import { expect, test } from 'vitest'
import { saveSection, startCase } from '#app/cases/case-store.server.ts'
import { saveEntry } from '#app/content/store.server.ts'
import { associationGuide } from '#app/content/types.ts'
import { documents } from '#app/db/schema.ts'
import { associationSupport } from '#app/forms/definitions/association-support.ts'
import { sampleAnswers } from '#app/forms/sample-answers.ts'
import { sectionSchema } from '#app/forms/schema.ts'
import { withAppDatabase } from '#tests/db.ts'
import { loader } from './step.tsx'

// Association support's attachments step offers the guidance manual once staff have uploaded it
// (docs/product.md#association-support).

const app = withAppDatabase()

async function atAttachments() {
	const db = app.handle.db
	const answers = sampleAnswers(associationSupport, { seed: 31 })
	const parsed = (key: string) => sectionSchema(associationSupport.sections.find((section) => section.key === key)!).parse(answers[key])
	const [first, ...rest] = associationSupport.sections
	const { row, token } = await startCase(db, associationSupport, parsed(first!.key))
	const keyed = (values: Record<string, unknown>) =>
		Object.fromEntries(Object.entries(values).map(([name, value]) => [name, Array.isArray(value) && typeof value[0] === 'object' ? value.map((item, index) => ({ ...item, _key: `${index}`.padStart(16, 'a') })) : value]))
	for (const section of rest.filter((section) => section.key !== 'attachments')) await saveSection(db, associationSupport, row, section.key, keyed(parsed(section.key)))
	const step = () =>
		loader({ request: new Request(`http://localhost/apply/r/${token}/attachments`), params: { token, step: 'attachments' }, context: new RouterContextProvider() } as unknown as Parameters<typeof loader>[0])
	return step
}

test('the attachments step links the guidance manual staff uploaded, and nothing before', async () => {
	const db = app.handle.db
	const step = await atAttachments()
	expect((await step()).guide).toBeNull()
	const [pdf] = await db.insert(documents).values({ originalName: 'دليل الجمعيات.pdf', size: 2048, sha256: 'ab'.repeat(32), storageKey: 'cd'.repeat(32) }).returning()
	await saveEntry(db, associationGuide, null, { pdf: pdf!.id }, null)
	expect((await step()).guide).toMatchObject({ href: `/documents/${pdf!.id}`, size: 2048 })
})
