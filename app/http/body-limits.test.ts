import { expect, test } from 'vitest'
import { bodyLimit, CONFIRMATION_MAX_BYTES, EDITOR_MAX_BYTES, FORM_MAX_BYTES } from './body-limits.server.ts'

const form = 'application/x-www-form-urlencoded'
const multipart = 'multipart/form-data; boundary=x'

test('an upload endpoint streams its own multipart body; sent as anything else it is an ordinary form', () => {
	for (const path of [
		'/apply/r/abc/files/upload',
		'/admin/content/documents/upload',
		'/admin/content/videos/video-upload',
		'/admin/content/documents',
		'/admin/content/albums/7/photos',
		'/admin/content/news/new',
		'/admin/content/news/3/edit.data',
		'/admin/cases/ABC/study/photos',
		'/admin/payments',
	]) {
		expect(bodyLimit(path, multipart), path).toBeUndefined()
	}
	expect(bodyLimit('/apply/r/abc/files/upload', form)).toBe(FORM_MAX_BYTES)
	expect(bodyLimit('/admin/payments.data', form)).toBe(FORM_MAX_BYTES)
})

test('every other body is limited: ordinary forms, the content editor larger, the bank confirmation by its file', () => {
	expect(bodyLimit('/apply/status', form)).toBe(FORM_MAX_BYTES)
	expect(bodyLimit('/apply/status.data', multipart)).toBe(FORM_MAX_BYTES)
	expect(bodyLimit('/_root.data', form)).toBe(FORM_MAX_BYTES)
	expect(bodyLimit('/apply/r/abc/basic', undefined)).toBe(FORM_MAX_BYTES)
	expect(bodyLimit('/admin/content/news/new', form)).toBe(EDITOR_MAX_BYTES)
	expect(bodyLimit('/admin/content/about/edit.data', form)).toBe(EDITOR_MAX_BYTES)
	expect(bodyLimit('/admin/payments/12', multipart)).toBeGreaterThan(CONFIRMATION_MAX_BYTES)
	expect(bodyLimit('/admin/payments/12', form)).toBe(FORM_MAX_BYTES)
})
