import type { ApplicationDef } from './definition.ts'
import { associationSupport } from './definitions/association-support.ts'
import { healthAssociationSupport } from './definitions/health-association-support.ts'
import { homeRestoration } from './definitions/home-restoration.ts'
import { institutionRegistration } from './definitions/institution-registration.ts'
import { medicalCase } from './definitions/medical-case.ts'
import { needyFamilies } from './definitions/needy-families.ts'

/** Every application type that can be filled in online. */
export const applicationDefinitions: readonly ApplicationDef[] = [needyFamilies, homeRestoration, medicalCase, associationSupport, healthAssociationSupport, institutionRegistration]

export function findDefinition(type: string): ApplicationDef | undefined {
	return applicationDefinitions.find((definition) => definition.type === type)
}
