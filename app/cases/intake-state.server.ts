import { eq, sql } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { intakeSettings } from '#app/db/schema.ts'

export type IntakeState = (typeof intakeSettings.$inferSelect)['state']

// The paused notice says support is currently stopped and requests will be reviewed when it resumes
// (docs/product.md#opening-and-closing-intake).
export const DEFAULT_PAUSED_NOTICE = 'الدعم متوقف حالياً، وستتم مراجعة الطلبات عند استئنافه.'
export const DEFAULT_CLOSED_NOTICE = 'التقديم على هذا البرنامج مغلق حالياً. يمكنك الاستعلام عن طلب سابق.'

export interface Intake {
	state: IntakeState
	pausedNotice: string
	closedNotice: string
}

/** Whether an application type takes new applications; open unless an admin said otherwise. */
export async function getIntake(db: Database, type: string): Promise<Intake> {
	const [row] = await db.select().from(intakeSettings).where(eq(intakeSettings.type, type))
	return row ?? { state: 'open', pausedNotice: DEFAULT_PAUSED_NOTICE, closedNotice: DEFAULT_CLOSED_NOTICE }
}

export async function setIntake(db: Database, type: string, intake: Intake, userId: number): Promise<void> {
	await db
		.insert(intakeSettings)
		.values({ type, ...intake, updatedBy: userId })
		.onConflictDoUpdate({ target: intakeSettings.type, set: { ...intake, updatedBy: userId, updatedAt: sql`now()` } })
}
