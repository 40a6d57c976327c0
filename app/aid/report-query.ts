// What a report asks (the year, the grouping) and its columns, shared by the screen and its XLSX.
import { todayInRiyadh } from '#app/text/format.ts'

export const reportGroupings = [
	{ value: 'programme', label: 'البرنامج' },
	{ value: 'fund', label: 'الصندوق' },
	{ value: 'month', label: 'الشهر' },
	{ value: 'city', label: 'المدينة' },
] as const

export type ReportGrouping = (typeof reportGroupings)[number]['value']

export interface ReportRow {
	key: string
	label: string
	received: number
	studied: number
	approved: number
	rejected: number
	families: number
	individuals: number
	approvedRiyals: number
	givenRiyals: number
	inKind: number
	/** Average days, one decimal; null when nothing to average. */
	daysToDecision: number | null
	daysToAid: number | null
}


/** The year and grouping asked for, or this year by programme. */
export function reportQuery(url: URL): { year: number; by: ReportGrouping } {
	const year = Number(url.searchParams.get('year'))
	const by = url.searchParams.get('by')
	return {
		year: Number.isInteger(year) && year >= 2020 && year <= 2100 ? year : Number(todayInRiyadh().slice(0, 4)),
		by: reportGroupings.some((grouping) => grouping.value === by) ? (by as ReportGrouping) : 'programme',
	}
}

export const reportColumns: readonly { name: keyof ReportRow; header: string; money?: boolean }[] = [
	{ name: 'received', header: 'الطلبات الواردة' },
	{ name: 'studied', header: 'المدروسة' },
	{ name: 'approved', header: 'المعتمدة' },
	{ name: 'rejected', header: 'المرفوضة' },
	{ name: 'families', header: 'الأسر والجهات المستفيدة' },
	{ name: 'individuals', header: 'الأفراد المستفيدون' },
	{ name: 'approvedRiyals', header: 'المعتمد (ريال)', money: true },
	{ name: 'givenRiyals', header: 'المصروف (ريال)', money: true },
	{ name: 'inKind', header: 'مساعدات عينية مسلّمة' },
	{ name: 'daysToDecision', header: 'متوسط الأيام حتى القرار' },
	{ name: 'daysToAid', header: 'متوسط الأيام حتى الصرف' },
]

