import { expect, test } from 'vitest'
import { describeError } from './entry.server.tsx'

test('a failed query is logged without its parameters', () => {
	const error = new Error('Failed query: select * from cases where national_id = $1\nparams: 1012345678', { cause: new Error('date/time field value out of range') })
	error.name = 'DrizzleQueryError'
	const logged = describeError(error)
	expect(logged).toContain('Failed query: select * from cases')
	expect(logged).toContain('date/time field value out of range')
	expect(logged).not.toContain('1012345678')
})
