import { describe, expect, test } from 'vitest'
import { needyFamilies } from '#app/forms/definitions/needy-families.ts'
import type { ApplicationDef } from '#app/forms/definition.ts'
import { yesNo } from '#app/forms/options.ts'
import { canVisit, CHECK_STEP, completedSections, CONSENT_STEP, isSectionComplete, journeySteps, nextStep, previousStep, resumeStep, stepLabel, stepMap } from './journey.ts'
import { askedSections, offeredSlots } from '#app/forms/conditions.ts'
import { medicalCase } from '#app/forms/definitions/medical-case.ts'
import { associationSupport } from '#app/forms/definitions/association-support.ts'
import { institutionRegistration } from '#app/forms/definitions/institution-registration.ts'
import { sectionSchema } from '#app/forms/schema.ts'
import { basicAnswers, nationalIdFrom, sectionAnswers } from '#tests/fixtures/needy-families.ts'

const keys = needyFamilies.sections.map((section) => section.key)
const parsed = (key: string, value: unknown) => sectionSchema(needyFamilies.sections.find((s) => s.key === key)!).parse(value)

describe('journey', () => {
	test('steps go in order, the consent step before the bank details, then to the check page', () => {
		expect(keys).toEqual(['basic', 'bank', 'financial', 'family', 'referrers', 'services', 'files'])
		expect(journeySteps(needyFamilies, {}, 'given')).toEqual(['basic', CONSENT_STEP, 'bank', 'financial', 'family', 'referrers', 'services', 'files'])
		expect(nextStep(needyFamilies, 'basic', {}, null)).toBe(CONSENT_STEP)
		expect(nextStep(needyFamilies, CONSENT_STEP, {}, 'given')).toBe('bank')
		expect(nextStep(needyFamilies, 'files', {}, 'given')).toBe(CHECK_STEP)
		expect(previousStep(needyFamilies, 'bank', {}, 'given')).toBe(CONSENT_STEP)
		expect(previousStep(needyFamilies, CONSENT_STEP, {}, 'given')).toBe('basic')
		expect(previousStep(needyFamilies, 'basic', {}, 'given')).toBeNull()
		expect(previousStep(needyFamilies, CHECK_STEP, {}, 'given')).toBe('files')
		expect(stepLabel(needyFamilies, 'bank', {})).toBe('الخطوة 3 من 8')
	})

	test('the map of steps is the same before consent, once given and once declined; only the journey skips the bank step (issue 24 §5.11)', () => {
		const map = ['basic', CONSENT_STEP, 'bank', 'financial', 'family', 'referrers', 'services', 'files']
		expect(stepMap(needyFamilies, {})).toEqual(map)
		expect(stepLabel(needyFamilies, 'financial', {})).toBe('الخطوة 4 من 8')
		expect(journeySteps(needyFamilies, {}, null)).not.toContain('bank')
		expect(journeySteps(needyFamilies, {}, 'declined')).not.toContain('bank')
	})

	test('a step can be visited only when every step before it is complete', () => {
		const state = { answers: { basic: parsed('basic', basicAnswers(nationalIdFrom('101234567'))) }, fileCounts: {}, consent: null }
		const completed = completedSections(needyFamilies, state)
		expect([...completed]).toEqual(['basic'])
		expect(canVisit(needyFamilies, 'basic', completed, {}, null)).toBe(true)
		expect(canVisit(needyFamilies, CONSENT_STEP, completed, {}, null)).toBe(true)
		expect(canVisit(needyFamilies, 'bank', completed, {}, null)).toBe(false)
		expect(canVisit(needyFamilies, 'financial', completed, {}, null)).toBe(false)
		expect(canVisit(needyFamilies, CHECK_STEP, completed, {}, null)).toBe(false)
		expect(canVisit(needyFamilies, 'nonsense', completed, {}, null)).toBe(false)
		expect(resumeStep(needyFamilies, completed, {}, null)).toBe(CONSENT_STEP)
		const agreed = completedSections(needyFamilies, { ...state, consent: 'given' })
		expect(canVisit(needyFamilies, 'bank', agreed, {}, 'given')).toBe(true)
		expect(resumeStep(needyFamilies, agreed, {}, 'given')).toBe('bank')
	})

	test('a section saved with answers its definition now rejects is not complete', () => {
		const completed = completedSections(needyFamilies, { answers: { basic: { Full_Name: 'x' } }, fileCounts: {}, consent: null })
		expect(completed.has('basic')).toBe(false)
	})

	test('an unsaved section is never complete, even one with no required fields', () => {
		const completed = completedSections(needyFamilies, { answers: {}, fileCounts: {}, consent: 'given' })
		expect(completed.has('services')).toBe(false)
	})

	test('the files step needs the required files as well as its saved answers', () => {
		const answers = {
			basic: parsed('basic', basicAnswers(nationalIdFrom('101234567'))),
			...Object.fromEntries(Object.entries(sectionAnswers).map(([key, value]) => [key, parsed(key, value)])),
		}
		expect(completedSections(needyFamilies, { answers, fileCounts: { identity: 1 }, consent: 'given' }).has('files')).toBe(false)
		const all = completedSections(needyFamilies, { answers, fileCounts: { identity: 1, family_report: 2 }, consent: 'given' })
		expect(all.size).toBe(keys.length + 1)
		expect(canVisit(needyFamilies, CHECK_STEP, all, {}, 'given')).toBe(true)
		expect(resumeStep(needyFamilies, all, {}, 'given')).toBe(CHECK_STEP)
	})
})

describe('consent for health and bank data (docs/product.md#privacy-and-consent)', () => {
	const answers = {
		basic: parsed('basic', basicAnswers(nationalIdFrom('101234567'))),
		...Object.fromEntries(Object.entries(sectionAnswers).map(([key, value]) => [key, parsed(key, value)])),
	}

	test('declined: the bank section is skipped, and the case can be sent without it', () => {
		expect(journeySteps(needyFamilies, {}, 'declined')).toEqual(['basic', CONSENT_STEP, 'financial', 'family', 'referrers', 'services', 'files'])
		expect(nextStep(needyFamilies, CONSENT_STEP, {}, 'declined')).toBe('financial')
		expect(previousStep(needyFamilies, 'financial', {}, 'declined')).toBe(CONSENT_STEP)
		expect(askedSections(needyFamilies, {}, 'declined').map((section) => section.key)).not.toContain('bank')
		const withoutBank = Object.fromEntries(Object.entries(answers).filter(([key]) => key !== 'bank'))
		const completed = completedSections(needyFamilies, { answers: withoutBank, fileCounts: { identity: 1, family_report: 1 }, consent: 'declined' })
		expect(canVisit(needyFamilies, 'bank', completed, withoutBank, 'declined')).toBe(false)
		expect(canVisit(needyFamilies, CHECK_STEP, completed, withoutBank, 'declined')).toBe(true)
	})

	test('not answered: nothing after the consent step, and the check page, can be reached', () => {
		const completed = completedSections(needyFamilies, { answers, fileCounts: { identity: 1, family_report: 1 }, consent: null })
		expect(completed.has(CONSENT_STEP)).toBe(false)
		expect(canVisit(needyFamilies, CHECK_STEP, completed, answers, null)).toBe(false)
		expect(resumeStep(needyFamilies, completed, answers, null)).toBe(CONSENT_STEP)
	})

	test('a sensitive file slot in a mixed section is offered only with consent, and then only it may be required', () => {
		const files = medicalCase.sections.find((section) => section.key === 'files')!
		expect(offeredSlots(files, 'given').map((slot) => slot.slot)).toContain('medical_report')
		expect(offeredSlots(files, 'declined').map((slot) => slot.slot)).toEqual(['identity', 'proof_of_residence', 'clan_leader', 'other'])
		const state = { answers: { files: {} }, fileCounts: { identity: 1 } }
		expect(isSectionComplete(files, { ...state, consent: 'declined' })).toBe(true)
		expect(isSectionComplete(files, { ...state, consent: 'given' })).toBe(false)
	})

	test('the medical case: health sections skipped on decline; forms of organisations have no consent step', () => {
		expect(journeySteps(medicalCase, {}, 'declined')).toEqual(['basic', CONSENT_STEP, 'financial', 'family', 'services', 'providers', 'files'])
		expect(journeySteps(medicalCase, {}, 'given')).toEqual(['basic', CONSENT_STEP, 'bank', 'financial', 'family', 'health', 'needs', 'conditions', 'services', 'providers', 'files'])
		for (const definition of [associationSupport, institutionRegistration]) expect(journeySteps(definition, {}, null)).not.toContain(CONSENT_STEP)
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
		expect(nextStep(conditional, 'first', no, null)).toBe('last')
		expect(previousStep(conditional, 'last', no, null)).toBe('first')
		expect(nextStep(conditional, 'first', yes, null)).toBe('house')
		expect(previousStep(conditional, 'last', yes, null)).toBe('house')
		expect(stepLabel(conditional, 'last', no)).toBe('الخطوة 2 من 2')
		expect(stepLabel(conditional, 'last', yes)).toBe('الخطوة 3 من 3')
	})

	test('not asked, it is neither visited nor needed to finish; asked, it is both', () => {
		const done = { first: { hasHouse: 'no' }, last: {} }
		const completed = completedSections(conditional, { answers: done, fileCounts: {}, consent: null })
		expect(canVisit(conditional, 'house', completed, done, null)).toBe(false)
		expect(canVisit(conditional, CHECK_STEP, completed, done, null)).toBe(true)
		// The applicant changes the first answer: the step is now asked, and the check page waits for it.
		const changed = { ...done, first: { hasHouse: 'yes' } }
		const now = completedSections(conditional, { answers: changed, fileCounts: {}, consent: null })
		expect(canVisit(conditional, CHECK_STEP, now, changed, null)).toBe(false)
		expect(resumeStep(conditional, now, changed, null)).toBe('house')
	})
})
