import type { ApplicationDef, SectionDef } from './definition.ts'
import { sectionSchema, type SectionAnswers } from './schema.ts'

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

export function completedSections(definition: ApplicationDef, state: SavedState): Set<string> {
	return new Set(definition.sections.filter((section) => isSectionComplete(section, state)).map((section) => section.key))
}

/** A step can be visited when every section before it is complete; the check page when all are. */
export function canVisit(definition: ApplicationDef, step: string, completed: ReadonlySet<string>): boolean {
	const index = step === CHECK_STEP ? definition.sections.length : definition.sections.findIndex((s) => s.key === step)
	if (index === -1) return false
	return definition.sections.slice(0, index).every((section) => completed.has(section.key))
}

/** Where to continue: the first incomplete section, or the check page. */
export function resumeStep(definition: ApplicationDef, completed: ReadonlySet<string>): string {
	return definition.sections.find((section) => !completed.has(section.key))?.key ?? CHECK_STEP
}

export function nextStep(definition: ApplicationDef, step: string): string {
	const index = definition.sections.findIndex((section) => section.key === step)
	return definition.sections[index + 1]?.key ?? CHECK_STEP
}

/** The step before this one, or null for the first section (whose back link is the start page). */
export function previousStep(definition: ApplicationDef, step: string): string | null {
	if (step === CHECK_STEP) return definition.sections.at(-1)?.key ?? null
	const index = definition.sections.findIndex((section) => section.key === step)
	return index > 0 ? definition.sections[index - 1]!.key : null
}

export function findSection(definition: ApplicationDef, key: string): SectionDef | undefined {
	return definition.sections.find((section) => section.key === key)
}
