// Approved aid in words, shared by the server and the screens.
import { aidKindLabel } from '#app/cases/aid.ts'
import { monthsCount } from '#app/privacy/consent-rules.ts'
import { formatMoney } from '#app/text/format.ts'

/** «سلة غذائية: 1٬500 ر.س. شهرياً لمدة 6 أشهر». */
export function aidText(aid: { aidKind: string; amount: number; months: number | null }): string {
	return `${aidKindLabel(aid.aidKind)}: ${formatMoney(aid.amount)}${aid.months ? ` شهرياً لمدة ${monthsCount(aid.months)}` : ''}`
}

export { fundLabel } from '#app/cases/aid.ts'
