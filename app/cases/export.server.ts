import { PassThrough, Readable } from 'node:stream'
import { stringify } from 'csv-stringify'
import { loadExcel } from '#app/utils/lazy-modules.server.ts'
import type { Database } from '#app/db/client.server.ts'
import type { cases, caseStudies } from '#app/db/schema.ts'
import { aidKindLabel, fundLabel, outcomeLabels } from './aid.ts'
import { recommendationLabel } from './studies.ts'
import type { ApplicationDef, RowFieldDef } from '#app/forms/definition.ts'
import { describeValue } from '#app/forms/describe.ts'
import { findDefinition } from '#app/forms/registry.ts'
import type { SectionAnswers } from '#app/forms/schema.ts'
import { formatHijri, formatSaudiMobile, todayInRiyadh } from '#app/text/format.ts'
import { ageOn } from '#app/forms/conditions.ts'
import { eachCaseForExport, type CaseFilter, type ExportDecision, type ExportGiven } from './case-lists.server.ts'
import { staffStatusName } from '#app/cases/case-statuses.ts'
import { csvOptions, safeCell, sheetDateFormats, sheetDateText, sheetDay, sheetTime, type SheetCell, type SheetDateKind } from '#app/utils/spreadsheet-cells.ts'

// The filtered list as a spreadsheet: a fixed set of case columns, then one column per answer of
// each programme in the filter (a repeatable list's rows share its columns, one line per row).
// Rows are streamed batch by batch: 10,000 cases never sit in memory at once.

/** Amounts, counts and ages are numbers, so a spreadsheet can sum and sort them; dates are dates, so it can sort them. */
type Cell = SheetCell

interface Column {
	header: string
	value: (item: ExportItem) => Cell
	/** An amount in riyals: shown in Excel with thousands and two decimals (the header names the currency). */
	money?: boolean
	/** A date column: days, or days with the time (Riyadh). */
	date?: SheetDateKind
}

type ExportRow = typeof cases.$inferSelect & { assignedName: string | null }
type ExportItem = { row: ExportRow; answers: Record<string, SectionAnswers>; study?: typeof caseStudies.$inferSelect; decision?: ExportDecision; given?: ExportGiven }

const numeric = (field: RowFieldDef) => field.kind === 'money' || field.kind === 'number' || field.kind === 'age'

function cellOf(field: RowFieldDef, answers: Record<string, unknown>): Cell {
	// An age is worked out from the birth date when there is one, as the case view does (describe.ts).
	if (field.kind === 'age' && typeof answers[field.birthDate] === 'string' && answers[field.birthDate]) return ageOn(answers[field.birthDate] as string, todayInRiyadh())
	const value = describeValue(field, answers)
	if (numeric(field)) return value ? Number(answers[field.name]) : ''
	// A date as a date, so a spreadsheet sorts it.
	return field.kind === 'date' && value ? sheetDay(String(answers[field.name])) : value
}

/** A header names the currency of its amounts, which are plain numbers. */
const headerOf = (header: string, field: RowFieldDef) => (field.kind === 'money' ? `${header} (ريال)` : header)

function answerColumns(definition: ApplicationDef, prefix: string): Column[] {
	return definition.sections.flatMap((section) =>
		section.fields.flatMap((field): Column[] => {
			const own = (item: ExportItem) => (item.row.type === definition.type ? item.answers[section.key] : undefined)
			if (field.kind !== 'group') {
				return [{ header: headerOf(`${prefix}${section.title} - ${field.label}`, field), value: (item) => cellOf(field, own(item) ?? {}), money: field.kind === 'money', ...(field.kind === 'date' ? { date: 'day' as const } : {}) }]
			}
			// A list's rows share one cell, one line each: text, its amounts written as plain numbers.
			return field.fields.map((sub) => ({
				header: headerOf(`${prefix}${section.title} - ${field.itemLabel}: ${sub.label}`, sub),
				value: (item) => ((own(item)?.[field.name] ?? []) as Record<string, unknown>[]).map((row, index) => `${index + 1}) ${cellOf(sub, row) || '—'}`).join('\n'),
			}))
		}),
	)
}

const caseColumns: Column[] = [
	{ header: 'رقم الطلب', value: ({ row }) => row.reference },
	{ header: 'نوع الطلب', value: ({ row }) => findDefinition(row.type)?.title ?? row.type },
	{ header: 'الحالة', value: ({ row }) => staffStatusName(row.status) },
	{ header: 'الاسم', value: ({ row }) => row.applicantName },
	{ header: 'رقم الهوية أو الترخيص', value: ({ row }) => (row.purgedAt ? '' : row.nationalId) },
	{ header: 'الجوال', value: ({ row }) => formatSaudiMobile(row.mobile) },
	{ header: 'البريد الإلكتروني', value: ({ row }) => row.email },
	{ header: 'تاريخ الإرسال (ميلادي)', value: ({ row }) => (row.submittedAt ? sheetTime(row.submittedAt) : ''), date: 'time' },
	{ header: 'تاريخ الإرسال (هجري)', value: ({ row }) => (row.submittedAt ? formatHijri(row.submittedAt) : '') },
	{ header: 'آخر تغيير للحالة', value: ({ row }) => sheetTime(row.statusChangedAt), date: 'time' },
	{ header: 'الموظف المسؤول', value: ({ row }) => row.assignedName ?? '' },
	{ header: 'طلب ورقي', value: ({ row }) => (row.paperIntake ? 'نعم' : 'لا') },
	// The case's study (docs/product.md#the-social-study): the newest one.
	{ header: 'تاريخ الدراسة', value: ({ study }) => (study ? sheetDay(study.studiedOn) : ''), date: 'day' },
	{ header: 'التوصية', value: ({ study }) => (study ? recommendationLabel(study.recommendation) : '') },
	{ header: 'سبب عدم الدعم أو جهة الإحالة', value: ({ study }) => (study?.recommendation === 'reject' ? (study.rejectReason ?? '') : study?.recommendation === 'refer' ? study.referTo : '') },
	{ header: 'المساعدة المقترحة', value: ({ study }) => (study?.aidKind ? aidKindLabel(study.aidKind) : '') },
	{ header: 'المبلغ المقترح (ريال)', value: ({ study }) => study?.aidAmount ?? '', money: true },
	{ header: 'أشهر المساعدة الشهرية', value: ({ study }) => study?.aidMonths ?? '' },
	{ header: 'مصرف الزكاة', value: ({ study }) => (study ? (study.zakatCategory ?? 'غير مستحقة للزكاة') : '') },
	// The committee's newest decision and the aid given (docs/product.md#the-decision, #payment).
	{ header: 'قرار اللجنة', value: ({ decision }) => (decision ? outcomeLabels[decision.outcome] : '') },
	{ header: 'تاريخ القرار', value: ({ decision }) => (decision ? sheetTime(decision.decidedAt) : ''), date: 'time' },
	{ header: 'الصندوق', value: ({ decision }) => (decision?.fund ? fundLabel({ name: decision.fund, zakat: decision.zakat ?? false }) : '') },
	{ header: 'المبلغ المصروف (ريال)', value: ({ given }) => given?.riyals ?? '', money: true },
	{ header: 'تاريخ آخر صرف', value: ({ given }) => (given ? sheetDay(given.lastOn) : ''), date: 'day' },
	{ header: 'مرجع البنك', value: ({ given }) => given?.bankReferences.join('، ') ?? '' },
]

/** The columns of an export of these programmes. */
export function exportColumns(types: readonly string[]): Column[] {
	const definitions = types.map((type) => findDefinition(type)).filter((definition): definition is ApplicationDef => definition !== undefined)
	// With several programmes in one sheet, each answer column says whose it is.
	return [...caseColumns, ...definitions.flatMap((definition) => answerColumns(definition, definitions.length > 1 ? `${definition.title} / ` : ''))]
}

async function* rowsOf(db: Database, filter: CaseFilter, columns: Column[]): AsyncGenerator<Cell[]> {
	for await (const item of eachCaseForExport(db, filter)) yield columns.map((column) => safeCell(column.value(item)))
}

/** The rows as CSV writes them: a date in ISO 8601, which Excel reads as a date whatever its locale. */
async function* csvRowsOf(db: Database, filter: CaseFilter, columns: Column[]): AsyncGenerator<(string | number)[]> {
	for await (const cells of rowsOf(db, filter, columns)) yield cells.map((cell, index) => (cell instanceof Date ? sheetDateText(cell, columns[index]!.date ?? 'time') : cell))
}

/** CSV in UTF-8 with a byte-order mark, so Excel opens the Arabic as Arabic. */
export function csvExport(db: Database, filter: CaseFilter, types: readonly string[]): ReadableStream {
	const columns = exportColumns(types)
	const csv = stringify({ ...csvOptions, header: true, columns: columns.map((column) => column.header) })
	Readable.from(csvRowsOf(db, filter, columns)).on('error', (error) => csv.destroy(error)).pipe(csv)
	return Readable.toWeb(csv) as ReadableStream
}

/** An Excel workbook written row by row (exceljs's streaming writer), right to left. */
export function xlsxExport(db: Database, filter: CaseFilter, types: readonly string[]): ReadableStream {
	const columns = exportColumns(types)
	const out = new PassThrough()
	void (async () => {
		try {
			const ExcelJS = await loadExcel()
			const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false })
			const sheet = workbook.addWorksheet('الطلبات', { views: [{ rightToLeft: true, state: 'frozen', ySplit: 1 }] })
			sheet.columns = columns.map((column) => ({ header: column.header, width: Math.min(40, Math.max(12, column.header.length + 2)), style: column.money ? { numFmt: '#,##0.00' } : column.date ? { numFmt: sheetDateFormats[column.date] } : {} }))
			sheet.getRow(1).font = { bold: true }
			for await (const cells of rowsOf(db, filter, columns)) {
				sheet.addRow(cells).commit()
				// Let the zip stream drain before the next row when the client reads slowly.
				if (out.writableNeedDrain) await new Promise((resolve) => out.once('drain', resolve))
			}
			sheet.commit()
			await workbook.commit()
		} catch (error) {
			out.destroy(error as Error)
		}
	})()
	return Readable.toWeb(out) as ReadableStream
}
