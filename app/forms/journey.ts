import type { ApplicationDef, SectionDef } from './definition.ts'
import { sectionSchema, type SectionAnswers } from './schema.ts'
import { askedSections } from './conditions.ts'

// Progress is derived from what is saved, never stored (alphagov forms-runner `can_visit?`).

/** The pseudo-step after the last section. */
export const CHECK_STEP = 'check'

export interface SavedState {
	/** Saved answers by section key. */
	answers: Readonly<Record<string, SectionAnswers | undefined>>
	/** How many files each slot holds. */
	fileCounts: Readonly<Record<string, number | undefined>>
	/** Staff accepted a national ID that fails the checksum. */
	idChecksumOverride?: boolean
}

export function isSectionComplete(section: SectionDef, state: SavedState): boolean {
	const answers = state.answers[section.key]
	if (answers === undefined) return false
	if (!sectionSchema(section, { allowIdChecksumFailure: state.idChecksumOverride }).safeParse(answers).success) return false
	return (section.files ?? []).every((slot) => !slot.required || (state.fileCounts[slot.slot] ?? 0) > 0)
}

type Answers = SavedState['answers']

/** The asked sections (conditions.ts) that are complete. */
export function completedSections(definition: ApplicationDef, state: SavedState): Set<string> {
	return new Set(
		askedSections(definition, state.answers)
			.filter((section) => isSectionComplete(section, state))
			.map((section) => section.key),
	)
}

/**
 * A step can be visited when it is asked and every asked section before it is complete; the check
 * page when all are.
 */
export function canVisit(definition: ApplicationDef, step: string, completed: ReadonlySet<string>, answers: Answers): boolean {
	const asked = askedSections(definition, answers)
	const index = step === CHECK_STEP ? asked.length : asked.findIndex((s) => s.key === step)
	if (index === -1) return false
	return asked.slice(0, index).every((section) => completed.has(section.key))
}

/** Where to continue: the first asked section not complete, or the check page. */
export function resumeStep(definition: ApplicationDef, completed: ReadonlySet<string>, answers: Answers): string {
	return askedSections(definition, answers).find((section) => !completed.has(section.key))?.key ?? CHECK_STEP
}

/** The asked step after this one, or the check page. */
export function nextStep(definition: ApplicationDef, step: string, answers: Answers): string {
	const asked = askedSections(definition, answers)
	const index = asked.findIndex((section) => section.key === step)
	return asked[index + 1]?.key ?? CHECK_STEP
}

/** The asked step before this one, or null for the first section (whose back link is the start page). */
export function previousStep(definition: ApplicationDef, step: string, answers: Answers): string | null {
	const asked = askedSections(definition, answers)
	if (step === CHECK_STEP) return asked.at(-1)?.key ?? null
	const index = asked.findIndex((section) => section.key === step)
	return index > 0 ? asked[index - 1]!.key : null
}

/** «الخطوة 2 من 6»: the step's place among the asked steps. */
export function stepLabel(definition: ApplicationDef, step: string, answers: Answers): string {
	const asked = askedSections(definition, answers)
	return `الخطوة ${asked.findIndex((section) => section.key === step) + 1} من ${asked.length}`
}

export function findSection(definition: ApplicationDef, key: string): SectionDef | undefined {
	return definition.sections.find((section) => section.key === key)
}
