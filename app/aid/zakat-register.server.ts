// The zakat register (docs/product.md#zakat): every zakat disbursement, as the money ledger posts it
// (./ledger.server.ts: a posting from a zakat fund to a family, paid or delivered, and a reversal of
// one as a negative row on its own day), with the beneficiary's name and national ID, the zakat
// category the approval named, the amount, the day, the fund and the payment's reference; per Hijri
// (Umm al-Qura) or Gregorian year. Kept the 10 years of the financial record: once retention has
// destroyed a case's details, the name and ID come from `zakat_recipients`, which the purge keeps
// for the register alone (docs/decisions/014-decisions-funds-and-budgets.md).
import { and, asc, between, eq, sql } from 'drizzle-orm'
import type { Workbook } from 'exceljs'
import type { Database } from '#app/db/client.server.ts'
import { aidInstalments, caseDecisions, cases, funds, ledgerEntries, zakatRecipients } from '#app/db/schema.ts'
import { hijriOfIsoDay, hijriYearBounds } from '#app/text/hijri.ts'
import { formatHijri, todayInRiyadh } from '#app/text/format.ts'
import { loadExcel } from '#app/utils/lazy-modules.server.ts'
import { safeCell, sheetDateFormats, sheetDay } from '#app/utils/spreadsheet-cells.ts'

export type ZakatCalendar = 'hijri' | 'gregorian'

export interface ZakatPeriod {
	calendar: ZakatCalendar
	year: number
}

/** A period as the URL names it: «hijri-1448», «gregorian-2026». */
export const periodParam = (period: ZakatPeriod) => `${period.calendar}-${period.year}`

/** The register's year from a URL (?period=hijri-1448 or gregorian-2026); this Hijri year unless a sound one is given. */
export function zakatQuery(url: URL): ZakatPeriod {
	const match = /^(hijri|gregorian)-(\d{4})$/.exec(url.searchParams.get('period') ?? '')
	const year = Number(match?.[2])
	if (match?.[1] === 'gregorian' && year >= 2000 && year <= 2100) return { calendar: 'gregorian', year }
	if (match?.[1] === 'hijri' && year >= 1420 && year <= 1530) return { calendar: 'hijri', year }
	return { calendar: 'hijri', year: hijriOfIsoDay(todayInRiyadh()).year }
}

/** The first and last days of the period. */
export function periodDays(period: ZakatPeriod): { from: string; to: string } {
	if (period.calendar === 'gregorian') return { from: `${period.year}-01-01`, to: `${period.year}-12-31` }
	// zakatQuery keeps the year inside the Umm al-Qura table.
	return hijriYearBounds(period.year)!
}

/** «1448هـ» or «2026م». */
export const periodLabel = (period: ZakatPeriod) => `${period.year}${period.calendar === 'hijri' ? 'هـ' : 'م'}`

export interface ZakatRow {
	entryId: number
	/** The day the money moved (yyyy-mm-dd). */
	day: string
	reference: string
	name: string
	/** '' once retention destroyed it and its 10 years have passed. */
	nationalId: string
	/** The zakat category the approval named; «غير محدد» for an approval made before categories were recorded. */
	category: string
	/** Riyals; negative for a reversal (a bounced transfer, an adjusting entry). */
	amount: number
	fund: string
	/** The bank's reference of the transfer, or the receipt of aid in kind. */
	paymentReference: string
}

/** The register of a period, in the order the money moved, with its total. */
export async function zakatRegister(db: Database, period: ZakatPeriod): Promise<{ rows: ZakatRow[]; total: number }> {
	const { from, to } = periodDays(period)
	const found = await db
		.select({
			entryId: ledgerEntries.id,
			day: ledgerEntries.valueDate,
			amount: ledgerEntries.amount,
			reversal: sql<boolean>`${ledgerEntries.correctsId} is not null`,
			reference: cases.reference,
			name: sql<string>`coalesce(${zakatRecipients.applicantName}, ${cases.applicantName})`,
			// A purged case keeps only a fingerprint of the ID: nothing to show once its 10 years have passed.
			nationalId: sql<string>`coalesce(${zakatRecipients.nationalId}, case when ${cases.purgedAt} is null then ${cases.nationalId} else '' end)`,
			category: caseDecisions.zakatCategory,
			fund: funds.name,
			bankReference: aidInstalments.bankReference,
			receipt: aidInstalments.receipt,
		})
		.from(ledgerEntries)
		.innerJoin(funds, and(eq(funds.id, ledgerEntries.fundId), eq(funds.zakat, true)))
		.innerJoin(cases, eq(cases.id, ledgerEntries.caseId))
		.leftJoin(caseDecisions, eq(caseDecisions.id, ledgerEntries.decisionId))
		.leftJoin(aidInstalments, eq(aidInstalments.id, ledgerEntries.instalmentId))
		.leftJoin(zakatRecipients, eq(zakatRecipients.caseId, ledgerEntries.caseId))
		.where(and(eq(ledgerEntries.phase, 'posted'), between(ledgerEntries.valueDate, from, to)))
		.orderBy(asc(ledgerEntries.valueDate), asc(ledgerEntries.id))
	const rows = found.map((row) => ({
		entryId: row.entryId,
		day: row.day,
		reference: row.reference,
		name: row.name,
		nationalId: row.nationalId,
		category: row.category ?? '',
		amount: row.reversal ? -row.amount : row.amount,
		fund: row.fund,
		paymentReference: row.bankReference ?? (row.receipt ? `إيصال ${row.receipt}` : ''),
	}))
	return { rows, total: Math.round(rows.reduce((sum, row) => sum + row.amount, 0) * 100) / 100 }
}

/** The register's columns, the screen's and the workbook's. */
export const zakatColumns = ['التاريخ', 'التاريخ الهجري', 'المستفيد', 'رقم الهوية', 'رقم الطلب', 'مصرف الزكاة', 'المبلغ (ريال)', 'الصندوق', 'مرجع الدفع'] as const

/** The register of a period as one right-to-left sheet; amounts are numbers Excel can sum, names escaped as in every export. */
export async function zakatWorkbook(db: Database, period: ZakatPeriod): Promise<Workbook> {
	const { rows, total } = await zakatRegister(db, period)
	const ExcelJS = await loadExcel()
	const workbook = new ExcelJS.Workbook()
	const sheet = workbook.addWorksheet(`سجل الزكاة ${periodLabel(period)}`, { views: [{ rightToLeft: true }] })
	sheet.addRow([...zakatColumns]).font = { bold: true }
	for (const row of rows)
		sheet.addRow([sheetDay(row.day), formatHijri(row.day), safeCell(row.name), row.nationalId, row.reference, safeCell(row.category), row.amount, safeCell(row.fund), safeCell(row.paymentReference)])
	sheet.addRow(['المجموع', '', '', '', '', '', total, '', '']).font = { bold: true }
	sheet.columns.forEach((column) => (column.width = 22))
	sheet.getColumn(1).numFmt = sheetDateFormats.day
	return workbook
}
