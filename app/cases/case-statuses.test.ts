import fs from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'
import { caseStatuses, staffStatusName, Status, statusFilterOptions, statusInfo, type CaseStatus } from '#app/cases/case-statuses.ts'

test('status 6 has one name, «مغلق», for staff, applicants and the list filter (issue 24 §5.13)', () => {
	expect(statusInfo(Status.Closed).name).toBe('مغلق')
	expect(staffStatusName(Status.Closed)).toBe('مغلق')
	expect(statusFilterOptions.find((option) => option.value === Status.Closed)?.label).toBe('مغلق')
})

test('every status has a name of its own, and each filter option is named as the status it selects (issue 37 §2.1)', () => {
	const names = Object.values(caseStatuses).map((status) => status.name)
	expect(new Set(names).size).toBe(names.length)
	expect(statusFilterOptions.map((option) => option.value)).toEqual(Object.keys(caseStatuses).map(Number))
	for (const option of statusFilterOptions) expect(option.label, `the option for status ${option.value}`).toBe(staffStatusName(option.value as CaseStatus))
})

test('no screen of the app names it otherwise', () => {
	const files = fs.readdirSync('app', { recursive: true, encoding: 'utf8' }).filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.test.ts'))
	const others = files.filter((file) => /مؤرشف|الأرشيف/.test(fs.readFileSync(path.join('app', file), 'utf8')))
	expect(others).toEqual([])
})
