import { afterAll, beforeAll, expect, test } from 'vitest'
import type { DatabaseHandle } from '#app/db/client.server.ts'
import { createTestDatabase } from '#tests/db.ts'
import { createUser } from '#app/domain/staff-users.server.ts'
import { countInquiries, listInquiries, readInquiry, setHandled, storeInquiry } from '#app/domain/contact-messages.server.ts'

let handle: DatabaseHandle
beforeAll(async () => {
	handle = await createTestDatabase()
})
afterAll(() => handle.close())

const message = (subject: string) => ({ name: 'أم محمد', email: 'um@example.org', mobile: '+966551234567', subject, message: 'نص الرسالة 100%' })

test('messages are stored, listed newest first, searched, read once and handled', async () => {
	const first = await storeInquiry(handle.db, message('موعد الصرف'))
	await new Promise((resolve) => setTimeout(resolve, 5))
	const second = await storeInquiry(handle.db, message('التطوع'))
	expect(await countInquiries(handle.db)).toEqual({ total: 2, unread: 2 })
	expect((await listInquiries(handle.db, { offset: 0, limit: 10 })).map((row) => row.id)).toEqual([second.id, first.id])
	expect((await listInquiries(handle.db, { query: 'الصرف', offset: 0, limit: 10 })).map((row) => row.id)).toEqual([first.id])
	// LIKE wildcards typed in the search are matched literally.
	expect(await countInquiries(handle.db, '100%')).toMatchObject({ total: 2 })
	expect(await countInquiries(handle.db, '_')).toMatchObject({ total: 0 })

	const read = await readInquiry(handle.db, first.id)
	expect(read?.readAt).toBeInstanceOf(Date)
	const again = await readInquiry(handle.db, first.id)
	expect(again?.readAt).toEqual(read?.readAt)
	expect(await countInquiries(handle.db)).toEqual({ total: 2, unread: 1 })
	expect(await readInquiry(handle.db, 'not-a-uuid')).toBeUndefined()

	const staff = await createUser(handle.db, { name: 'ريم', email: 'reem@example.org', mobile: '', roles: ['content_editor'], password: 'Reem-Pass-1' })
	await setHandled(handle.db, first.id, staff.id, true)
	expect(await readInquiry(handle.db, first.id)).toMatchObject({ handledBy: staff.id, handledAt: expect.any(Date) })
	await setHandled(handle.db, first.id, staff.id, false)
	expect(await readInquiry(handle.db, first.id)).toMatchObject({ handledBy: null, handledAt: null })
})
