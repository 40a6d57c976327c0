import { describe, expect, test } from 'vitest'
import { paginate } from './pagination.ts'

describe('paginate', () => {
	test('last page is ceil(total / perPage), at least 1', () => {
		expect(paginate({ total: 0, perPage: 5, page: 1 }).lastPage).toBe(1)
		expect(paginate({ total: 5, perPage: 5, page: 1 }).lastPage).toBe(1)
		expect(paginate({ total: 6, perPage: 5, page: 1 }).lastPage).toBe(2)
		expect(paginate({ total: 23, perPage: 6, page: 1 }).lastPage).toBe(4)
	})

	test('the page is clamped to 1..last; junk means page 1', () => {
		expect(paginate({ total: 12, perPage: 5, page: 9 }).page).toBe(3)
		expect(paginate({ total: 12, perPage: 5, page: -4 }).page).toBe(1)
		expect(paginate({ total: 12, perPage: 5, page: '2' }).page).toBe(2)
		expect(paginate({ total: 12, perPage: 5, page: 'abc' }).page).toBe(1)
		expect(paginate({ total: 12, perPage: 5, page: null }).page).toBe(1)
		expect(paginate({ total: 12, perPage: 5, page: 2.7 }).page).toBe(2)
	})

	test('offset follows the clamped page', () => {
		expect(paginate({ total: 12, perPage: 5, page: 3 }).offset).toBe(10)
		expect(paginate({ total: 12, perPage: 5, page: 99 }).offset).toBe(10)
	})

	test('at most five page links, centred on the current page where possible', () => {
		expect(paginate({ total: 100, perPage: 5, page: 1 }).links).toEqual([1, 2, 3, 4, 5])
		expect(paginate({ total: 100, perPage: 5, page: 10 }).links).toEqual([8, 9, 10, 11, 12])
		expect(paginate({ total: 100, perPage: 5, page: 20 }).links).toEqual([16, 17, 18, 19, 20])
		expect(paginate({ total: 12, perPage: 5, page: 2 }).links).toEqual([1, 2, 3])
		expect(paginate({ total: 0, perPage: 5, page: 1 }).links).toEqual([1])
	})
})
