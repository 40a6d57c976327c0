import { expect, test } from 'vitest'
import { byteRange } from './download.server.ts'

test.each([
	[null, 1000, null],
	['bytes=0-', 1000, { start: 0, end: 999 }],
	['bytes=100-199', 1000, { start: 100, end: 199 }],
	['bytes=900-5000', 1000, { start: 900, end: 999 }],
	['bytes=-100', 1000, { start: 900, end: 999 }],
	['bytes=-5000', 1000, { start: 0, end: 999 }],
	['bytes=1000-', 1000, 'unsatisfiable'],
	['bytes=200-100', 1000, 'unsatisfiable'],
	['bytes=-0', 1000, 'unsatisfiable'],
	['bytes=0-', 0, 'unsatisfiable'],
	// Several ranges, other units and nonsense: the whole file.
	['bytes=0-1,5-6', 1000, null],
	['items=0-1', 1000, null],
	['bytes=-', 1000, null],
])('Range %s of %i bytes → %o', (header, size, expected) => {
	expect(byteRange(header, size)).toEqual(expected)
})
