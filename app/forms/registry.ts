import type { ApplicationDef } from './definition.ts'
import { homeRestoration } from './definitions/home-restoration.ts'
import { medicalCase } from './definitions/medical-case.ts'
import { needyFamilies } from './definitions/needy-families.ts'

/** Every application type that can be filled in online. */
export const applicationDefinitions: readonly ApplicationDef[] = [needyFamilies, homeRestoration, medicalCase]

export function findDefinition(type: string): ApplicationDef | undefined {
	return applicationDefinitions.find((definition) => definition.type === type)
}
