import { countOf, requests } from '#app/text/arabic-count.ts'

// What the case lists say after a bulk action (app/routes/admin/cases.tsx), every count through
// countOf: «تم تغيير حالة طلبين», never «2 طلب» or «0 طلب».

/** After «إسناد» on ticked rows: how many of them changed hands. */
export function bulkAssignMessage(changed: number, ticked: number): string {
	if (changed === 0) return 'لم يتغير إسناد أي طلب: كلها مسندة كما اخترت.'
	if (changed === ticked) return `تم تحديث إسناد ${countOf(changed, requests)}.`
	return `تم تحديث إسناد ${countOf(changed, requests)} من ${countOf(ticked, requests)}.`
}

/** After a bulk status change: how many changed, and the first refused ones with their reason. */
export function bulkStatusMessage(changed: number, refused: readonly { reference: string; reason: string }[]): string {
	const done = changed === 0 ? 'لم تتغير حالة أي طلب.' : `تم تغيير حالة ${countOf(changed, requests)}.`
	if (!refused.length) return done
	const shown = refused.slice(0, 3).map((item) => `${item.reference} (${item.reason.slice(0, 80)})`)
	const label = changed === 0 ? 'الأسباب' : `لم تتغير حالة ${countOf(refused.length, requests)}`
	return `${done} ${label}: ${shown.join('؛ ')}${refused.length > 3 ? '؛ …' : ''}`
}
