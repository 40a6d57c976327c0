import type { ApplicationDef, SectionDef } from '#app/forms/definition.ts'
import type { cases } from '#app/db/schema.ts'
import { Status } from './case-statuses.ts'
import { sectionSchema, type SectionAnswers } from '#app/forms/schema.ts'
import { askedSections, consentAnchor, isOffered, isSectionAsked, offeredSlots, type Consent } from '#app/forms/conditions.ts'

// The one place that says, for a case and whoever is filling it in, which step comes next, which
// steps may be opened, and which are done. Progress is derived from what is saved, never stored
// (alphagov forms-runner `can_visit?`); what may be changed comes from the case's status and what
// staff reopened (docs/product.md#incomplete-cases).

type CaseRow = typeof cases.$inferSelect

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

// What may be changed

/** Whether the applicant may still change the case: a draft, or sent back by staff as incomplete. */
export function isEditable(row: Pick<CaseRow, 'submittedAt' | 'status' | 'deletedAt'>): boolean {
	return row.deletedAt === null && (row.submittedAt === null || row.status === Status.Incomplete)
}

type Reopenable = Pick<CaseRow, 'submittedAt' | 'status' | 'deletedAt' | 'reopened'>

/**
 * Whether the applicant may change this section's answers: in a draft, every section; in a case
 * sent back as incomplete, only the sections staff asked about (docs/product.md#incomplete-cases).
 */
export function canEditSection(row: Reopenable, sectionKey: string): boolean {
	if (!isEditable(row)) return false
	return row.submittedAt === null || !row.reopened || row.reopened.sections.includes(sectionKey)
}

/** Whether the applicant may add or remove files in this slot (as `canEditSection`, per slot). */
export function canEditSlot(row: Reopenable, definition: ApplicationDef, slot: string): boolean {
	if (!isEditable(row)) return false
	if (row.submittedAt === null || !row.reopened) return true
	const section = definition.sections.find((candidate) => candidate.files?.some((file) => file.slot === slot))
	return row.reopened.slots.includes(slot) || (section !== undefined && row.reopened.sections.includes(section.key))
}

/** Whether a step has anything the applicant may change: its answers or one of its file slots. */
export function canOpenStep(row: Reopenable, definition: ApplicationDef, sectionKey: string): boolean {
	const section = definition.sections.find((candidate) => candidate.key === sectionKey)
	if (!section) return false
	return canEditSection(row, sectionKey) || (section.files ?? []).some((file) => canEditSlot(row, definition, file.slot))
}

/** The consent step is answered, and may be changed, until the case is first sent; then it stays as sent. */
export function canAnswerConsent(row: { submittedAt: Date | null; deletedAt: Date | null }): boolean {
	return row.submittedAt === null && row.deletedAt === null
}

/** Whether the applicant may open this step (a section or the consent step) to change something in it. */
export function canChangeStep(row: Reopenable, definition: ApplicationDef, step: string): boolean {
	return step === CONSENT_STEP ? canAnswerConsent(row) : canOpenStep(row, definition, step)
}

/**
 * Whether the applicant may open a step now: the consent step, a section or the check page.
 * Otherwise where to go instead: a step key (where to carry on), null (the case's overview), or
 * 'missing' (no such step: the caller answers 404).
 */
export function stepAccess(definition: ApplicationDef, row: Reopenable, state: SavedState, step: string): { open: true } | { open: false; goTo: string | null | 'missing' } {
	if (step !== CONSENT_STEP && step !== CHECK_STEP && !findSection(definition, step)) return { open: false, goTo: 'missing' }
	if (!isEditable(row)) return { open: false, goTo: null }
	if (step === CONSENT_STEP && !canAnswerConsent(row)) return { open: false, goTo: null }
	const completed = completedSections(definition, state)
	const resume = { open: false as const, goTo: resumeStep(definition, completed, state.answers, state.consent) }
	if (step === CONSENT_STEP && !journeySteps(definition, state.answers, state.consent).includes(CONSENT_STEP)) return resume
	if (!canVisit(definition, step, completed, state.answers, state.consent)) return resume
	// A case sent back as incomplete opens only what staff asked the applicant to change.
	if (step !== CONSENT_STEP && step !== CHECK_STEP && !canOpenStep(row, definition, step)) return { open: false, goTo: null }
	return { open: true }
}

/** Where «حفظ ومتابعة» leads from a step: the next step the applicant may change, else the check page. */
export function nextOpenStep(definition: ApplicationDef, row: Reopenable, step: string, answers: Answers, consent: Consent): string {
	let next = nextStep(definition, step, answers, consent)
	while (next !== CHECK_STEP && !canChangeStep(row, definition, next)) next = nextStep(definition, next, answers, consent)
	return next
}

/** Where «متابعة» on the overview leads: the first step asked about in a case sent back, else the first step not done. */
export function continueStep(definition: ApplicationDef, row: Reopenable, state: SavedState): string {
	if (row.submittedAt !== null && isEditable(row)) return askedSections(definition, state.answers, state.consent).find((section) => canOpenStep(row, definition, section.key))?.key ?? CHECK_STEP
	return resumeStep(definition, completedSections(definition, state), state.answers, state.consent)
}
