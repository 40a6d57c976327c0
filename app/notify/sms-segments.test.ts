import { expect, test } from 'vitest'
import { smsSegments } from './sms-segments.ts'

test('GSM-7: 160 characters in one part, 153 a part beyond', () => {
	expect(smsSegments('')).toEqual({ encoding: 'gsm-7', characters: 0, segments: 0, perSegment: 160 })
	expect(smsSegments('a'.repeat(160))).toEqual({ encoding: 'gsm-7', characters: 160, segments: 1, perSegment: 160 })
	expect(smsSegments('a'.repeat(161))).toEqual({ encoding: 'gsm-7', characters: 161, segments: 2, perSegment: 153 })
	expect(smsSegments('a'.repeat(306)).segments).toBe(2)
	expect(smsSegments('a'.repeat(307)).segments).toBe(3)
})

test('GSM-7: an extension character counts two', () => {
	expect(smsSegments('€[]{}').characters).toBe(10)
	expect(smsSegments(`${'a'.repeat(159)}€`)).toMatchObject({ encoding: 'gsm-7', characters: 161, segments: 2 })
})

test('UCS-2 for Arabic: 70 in one part, 67 a part beyond', () => {
	expect(smsSegments('ب'.repeat(70))).toEqual({ encoding: 'ucs-2', characters: 70, segments: 1, perSegment: 70 })
	expect(smsSegments('ب'.repeat(71))).toEqual({ encoding: 'ucs-2', characters: 71, segments: 2, perSegment: 67 })
	expect(smsSegments('ب'.repeat(134)).segments).toBe(2)
	expect(smsSegments('ب'.repeat(135)).segments).toBe(3)
	// One Arabic letter makes the whole text UCS-2.
	expect(smsSegments(`${'a'.repeat(100)}ب`)).toMatchObject({ encoding: 'ucs-2', characters: 101, segments: 2 })
})

test('UCS-2: a character outside the BMP counts two', () => {
	expect(smsSegments('🌙').characters).toBe(2)
	expect(smsSegments(`${'ب'.repeat(69)}🌙`)).toMatchObject({ characters: 71, segments: 2 })
})
