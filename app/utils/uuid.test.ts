import { expect, test } from 'vitest'
import { isUuid } from './uuid.ts'

test('accepts uuids in either case and nothing else that is 36 characters long', () => {
	expect(isUuid('451047fb-9713-48b0-9ac7-a8b42c542273')).toBe(true)
	expect(isUuid('451047FB-9713-48B0-9AC7-A8B42C542273')).toBe(true)
	expect(isUuid('-'.repeat(36))).toBe(false)
	expect(isUuid('451047fb97134-8b0-9ac7-a8b42c542273')).toBe(false)
	expect(isUuid('451047fb-9713-48b0-9ac7-a8b42c54227g')).toBe(false)
	expect(isUuid('')).toBe(false)
})
