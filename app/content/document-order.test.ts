import { expect, test } from 'vitest'
import { sortDocuments } from './document-order.ts'

const row = (title: string, year: number, order: number, number = 0) => ({ title, year, order, number })

test('a 2025 yearly report uploaded after 2024…2021 is listed first (issue 24 §5.14)', () => {
	const seeded = [row('2024', 2024, 1), row('2023', 2023, 2), row('2022', 2022, 3), row('2021', 2021, 4)]
	const titles = sortDocuments([...seeded, row('2025', 2025, 5)], 'year').map((document) => document.title)
	expect(titles).toEqual(['2025', '2024', '2023', '2022', '2021'])
})

test('within a year staff\'s order decides; a report without a year comes last', () => {
	const rows = [row('none', 0, 0), row('Q2', 2024, 2), row('Q1', 2024, 1), row('2023', 2023, 0)]
	expect(sortDocuments(rows, 'year').map((document) => document.title)).toEqual(['Q1', 'Q2', '2023', 'none'])
})

test('governance tables keep staff\'s order, then the item number', () => {
	const rows = [row('3', 2024, 0, 3), row('1', 2024, 0, 1), row('first', 2024, -1, 9)]
	expect(sortDocuments(rows, 'number').map((document) => document.title)).toEqual(['first', '1', '3'])
})
