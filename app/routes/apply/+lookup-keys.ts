// What the status lookup asks for, as the applicant's pages say it: an association or an
// institution by its licence, a person by their ID (app/routes/apply/status.tsx).

export function lookupKeys(organisation: boolean): string {
	return organisation ? 'برقم ترخيص الجهة أو تصريحها ورقم جوال ممثلها' : 'برقم هويتك ورقم جوالك'
}
