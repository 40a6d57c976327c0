import { describe, expect, test } from 'vitest'
import { needyFamilies } from './definitions/needy-families.ts'
import type { ApplicationDef } from './definition.ts'
import { yesNo } from './options.ts'
import { canVisit, CHECK_STEP, completedSections, nextStep, previousStep, resumeStep, stepLabel } from './journey.ts'
import { sectionSchema } from './schema.ts'
import { basicAnswers, nationalIdFrom, sectionAnswers } from '#tests/fixtures/needy-families.ts'

const keys = needyFamilies.sections.map((section) => section.key)
const parsed = (key: string, value: unknown) => sectionSchema(needyFamilies.sections.find((s) => s.key === key)!).parse(value)

describe('journey', () => {
	test('steps go in order, then to the check page', () => {
		expect(keys).toEqual(['basic', 'bank', 'financial', 'family', 'referrers', 'services', 'files'])
		expect(nextStep(needyFamilies, 'basic', {})).toBe('bank')
		expect(nextStep(needyFamilies, 'files', {})).toBe(CHECK_STEP)
		expect(previousStep(needyFamilies, 'bank', {})).toBe('basic')
		expect(previousStep(needyFamilies, 'basic', {})).toBeNull()
		expect(previousStep(needyFamilies, CHECK_STEP, {})).toBe('files')
	})

	test('a step can be visited only when every step before it is complete', () => {
		const state = { answers: { basic: parsed('basic', basicAnswers(nationalIdFrom('101234567'))) }, fileCounts: {} }
		const completed = completedSections(needyFamilies, state)
		expect([...completed]).toEqual(['basic'])
		expect(canVisit(needyFamilies, 'basic', completed, {})).toBe(true)
		expect(canVisit(needyFamilies, 'bank', completed, {})).toBe(true)
		expect(canVisit(needyFamilies, 'financial', completed, {})).toBe(false)
		expect(canVisit(needyFamilies, CHECK_STEP, completed, {})).toBe(false)
		expect(canVisit(needyFamilies, 'nonsense', completed, {})).toBe(false)
		expect(resumeStep(needyFamilies, completed, {})).toBe('bank')
	})

	test('a section saved with answers its definition now rejects is not complete', () => {
		const completed = completedSections(needyFamilies, { answers: { basic: { Full_Name: 'x' } }, fileCounts: {} })
		expect(completed.has('basic')).toBe(false)
	})

	test('an unsaved section is never complete, even one with no required fields', () => {
		const completed = completedSections(needyFamilies, { answers: {}, fileCounts: {} })
		expect(completed.has('services')).toBe(false)
	})

	test('the files step needs the required files as well as its saved answers', () => {
		const answers = {
			basic: parsed('basic', basicAnswers(nationalIdFrom('101234567'))),
			...Object.fromEntries(Object.entries(sectionAnswers).map(([key, value]) => [key, parsed(key, value)])),
		}
		expect(completedSections(needyFamilies, { answers, fileCounts: { identity: 1 } }).has('files')).toBe(false)
		const all = completedSections(needyFamilies, { answers, fileCounts: { identity: 1, family_report: 2 } })
		expect(all.size).toBe(keys.length)
		expect(canVisit(needyFamilies, CHECK_STEP, all, {})).toBe(true)
		expect(resumeStep(needyFamilies, all, {})).toBe(CHECK_STEP)
	})
})

/** A made-up programme whose second step is asked only when the first says so. */
const conditional: ApplicationDef = {
	...needyFamilies,
	type: 'conditional-test',
	sections: [
		{ key: 'first', code: 'T-1', title: 'الأول', fields: [{ kind: 'radio', name: 'hasHouse', label: 'هل تملك منزلاً؟', options: yesNo, default: 'no', required: true }] },
		{ key: 'house', code: 'T-2', title: 'المنزل', fields: [{ kind: 'text', name: 'address', label: 'العنوان', required: true }], when: { section: 'first', field: 'hasHouse', is: ['yes'] } },
		{ key: 'last', code: 'T-3', title: 'الأخير', fields: [{ kind: 'textarea', name: 'note', label: 'ملاحظة (اختياري)' }] },
	],
}

describe('a section asked only when an earlier answer says so', () => {
	const yes = { first: { hasHouse: 'yes' } }
	const no = { first: { hasHouse: 'no' } }

	test('the journey skips it, or goes through it, as the answer says', () => {
		expect(nextStep(conditional, 'first', no)).toBe('last')
		expect(previousStep(conditional, 'last', no)).toBe('first')
		expect(nextStep(conditional, 'first', yes)).toBe('house')
		expect(previousStep(conditional, 'last', yes)).toBe('house')
		expect(stepLabel(conditional, 'last', no)).toBe('الخطوة 2 من 2')
		expect(stepLabel(conditional, 'last', yes)).toBe('الخطوة 3 من 3')
	})

	test('not asked, it is neither visited nor needed to finish; asked, it is both', () => {
		const done = { first: { hasHouse: 'no' }, last: {} }
		const completed = completedSections(conditional, { answers: done, fileCounts: {} })
		expect(canVisit(conditional, 'house', completed, done)).toBe(false)
		expect(canVisit(conditional, CHECK_STEP, completed, done)).toBe(true)
		// The applicant changes the first answer: the step is now asked, and the check page waits for it.
		const changed = { ...done, first: { hasHouse: 'yes' } }
		const now = completedSections(conditional, { answers: changed, fileCounts: {} })
		expect(canVisit(conditional, CHECK_STEP, now, changed)).toBe(false)
		expect(resumeStep(conditional, now, changed)).toBe('house')
	})
})
