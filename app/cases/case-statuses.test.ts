import fs from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'
import { ARCHIVED, staffStatusName, statusFilterLabels, statusInfo } from '#app/cases/case-statuses.ts'

test('status 6 has one name, «مغلق», for staff, applicants and the list filter (issue 24 §5.13)', () => {
	expect(statusInfo(ARCHIVED).name).toBe('مغلق')
	expect(staffStatusName(ARCHIVED)).toBe('مغلق')
	expect(statusFilterLabels[ARCHIVED]).toBe('مغلق')
})

test('no screen of the app names it otherwise', () => {
	const files = fs.readdirSync('app', { recursive: true, encoding: 'utf8' }).filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.test.ts'))
	const others = files.filter((file) => /مؤرشف|الأرشيف/.test(fs.readFileSync(path.join('app', file), 'utf8')))
	expect(others).toEqual([])
})
