import { eq } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { messageTemplates } from '#app/db/schema.ts'
import type { MessageEventDef, TemplateFields } from './templates.ts'

// The staff's wording of each message (docs/product.md#messages), kept by event; an event without a
// row uses its default texts (app/notify/templates.ts). /admin/messages reads and writes them here.

/** The staff's wording of an event, or the default. */
export async function templateOf(db: Database, definition: MessageEventDef): Promise<TemplateFields> {
	const [saved] = await db.select().from(messageTemplates).where(eq(messageTemplates.event, definition.event))
	return saved ? { sms: saved.sms, emailSubject: saved.emailSubject, emailBody: saved.emailBody } : definition.defaults
}

/** Every event staff have reworded: its SMS text and when it was last changed. */
export function rewordedTemplates(db: Database): Promise<{ event: string; sms: string; updatedAt: Date }[]> {
	return db.select({ event: messageTemplates.event, sms: messageTemplates.sms, updatedAt: messageTemplates.updatedAt }).from(messageTemplates)
}

/** Keeps the staff's wording of an event, replacing any before. */
export async function saveTemplate(db: Database, event: string, fields: TemplateFields, by: number): Promise<void> {
	const row = { ...fields, updatedAt: new Date(), updatedBy: by }
	await db
		.insert(messageTemplates)
		.values({ event, ...row })
		.onConflictDoUpdate({ target: messageTemplates.event, set: row })
}

/** Goes back to the event's default texts. */
export async function resetTemplate(db: Database, event: string): Promise<void> {
	await db.delete(messageTemplates).where(eq(messageTemplates.event, event))
}
