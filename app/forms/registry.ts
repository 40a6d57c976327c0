import type { ApplicationDef } from './definition.ts'
import { needyFamilies } from './definitions/needy-families.ts'

/** Every application type that can be filled in online. */
export const applicationDefinitions: readonly ApplicationDef[] = [needyFamilies]

export function findDefinition(type: string): ApplicationDef | undefined {
	return applicationDefinitions.find((definition) => definition.type === type)
}
