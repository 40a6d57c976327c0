import type { ApplicationDef, SectionDef } from './definition.ts'
import { sectionSchema, type SectionAnswers } from './schema.ts'
import { askedSections, consentAnchor, isOffered, isSectionAsked, offeredSlots, type Consent } from './conditions.ts'

// Progress is derived from what is saved, never stored (alphagov forms-runner `can_visit?`).

/** The pseudo-step after the last section. */
export const CHECK_STEP = 'check'

/**
 * The consent step, before the first section holding health or bank data
 * (docs/product.md#privacy-and-consent; its page is app/routes/apply/consent.tsx).
 */
export const CONSENT_STEP = 'consent'

export interface SavedState {
	/** Saved answers by section key. */
	answers: Readonly<Record<string, SectionAnswers | undefined>>
	/** How many files each slot holds. */
	fileCounts: Readonly<Record<string, number | undefined>>
	/** Staff accepted a national ID that fails the checksum. */
	idChecksumOverride?: boolean
	/** The answer on the consent step as the journey takes it (app/privacy/consent-rules.ts `journeyConsent`). */
	consent: Consent
}

export function isSectionComplete(section: SectionDef, state: SavedState): boolean {
	const answers = state.answers[section.key]
	if (answers === undefined) return false
	if (!sectionSchema(section, { allowIdChecksumFailure: state.idChecksumOverride }).safeParse(answers).success) return false
	return offeredSlots(section, state.consent).every((slot) => !slot.required || (state.fileCounts[slot.slot] ?? 0) > 0)
}

type Answers = SavedState['answers']

/** The asked sections (conditions.ts) that are complete, and the consent step once answered. */
export function completedSections(definition: ApplicationDef, state: SavedState): Set<string> {
	return new Set([
		...(state.consent !== null ? [CONSENT_STEP] : []),
		...askedSections(definition, state.answers, state.consent)
			.filter((section) => isSectionComplete(section, state))
			.map((section) => section.key),
	])
}

/**
 * The journey's steps in order: the asked sections, with the consent step before the first one
 * holding health or bank data (still there once consent is declined, so the answer can be changed).
 */
export function journeySteps(definition: ApplicationDef, answers: Answers, consent: Consent): string[] {
	const anchor = consentAnchor(definition, answers)
	return definition.sections.flatMap((section) => {
		if (!isSectionAsked(section, answers)) return []
		return [...(section === anchor ? [CONSENT_STEP] : []), ...(isOffered(section, consent) ? [section.key] : [])]
	})
}

/**
 * A step can be visited when it is asked and every asked step before it is complete; the check
 * page when all are.
 */
export function canVisit(definition: ApplicationDef, step: string, completed: ReadonlySet<string>, answers: Answers, consent: Consent): boolean {
	const steps = journeySteps(definition, answers, consent)
	const index = step === CHECK_STEP ? steps.length : steps.indexOf(step)
	if (index === -1) return false
	return steps.slice(0, index).every((key) => completed.has(key))
}

/** Where to continue: the first asked step not complete, or the check page. */
export function resumeStep(definition: ApplicationDef, completed: ReadonlySet<string>, answers: Answers, consent: Consent): string {
	return journeySteps(definition, answers, consent).find((key) => !completed.has(key)) ?? CHECK_STEP
}

/** The asked step after this one, or the check page. */
export function nextStep(definition: ApplicationDef, step: string, answers: Answers, consent: Consent): string {
	const steps = journeySteps(definition, answers, consent)
	return steps[steps.indexOf(step) + 1] ?? CHECK_STEP
}

/** The asked step before this one, or null for the first section (whose back link is the start page). */
export function previousStep(definition: ApplicationDef, step: string, answers: Answers, consent: Consent): string | null {
	const steps = journeySteps(definition, answers, consent)
	if (step === CHECK_STEP) return steps.at(-1) ?? null
	const index = steps.indexOf(step)
	return index > 0 ? steps[index - 1]! : null
}

/**
 * The map of steps the applicant is shown (the overview, «الخطوة 2 من 8»): the asked sections with
 * the consent step, whatever the consent answer, so it never changes under them. A section holding
 * health or bank data stays on the map before consent (not reachable yet) and once it is declined
 * (not asked); the journey itself (journeySteps) skips it.
 */
export function stepMap(definition: ApplicationDef, answers: Answers): string[] {
	return journeySteps(definition, answers, 'given')
}

/** «الخطوة 2 من 8»: the step's place on the map (the consent step counted). */
export function stepLabel(definition: ApplicationDef, step: string, answers: Answers): string {
	const steps = stepMap(definition, answers)
	return `الخطوة ${steps.indexOf(step) + 1} من ${steps.length}`
}

export function findSection(definition: ApplicationDef, key: string): SectionDef | undefined {
	return definition.sections.find((section) => section.key === key)
}
