import { insertDemoCases } from '#app/cases/demo-cases.server.ts'
import { insertDemoCycle, type DemoTold } from '#app/aid/demo-cycle.server.ts'
import { tellApplicants } from '#app/casework/tell.server.ts'
import { takeDemoImpactSnapshot } from '#app/aid/impact.server.ts'
import { foundationInfo } from '#app/db/schema.ts'
import type { Database } from '#app/db/client.server.ts'

/** How many demo cases a first start adds (app/cases/demo-cases.server.ts), and from which seed. */
export const DEMO_CASE_COUNT = 60
const DEMO_CASE_SEED = 20_240_601

/**
 * Demo content written on first start only (existing rows are never overwritten): the foundation's
 * details and, with them, demo cases (unless `cases` is false: production, see DEMO_CASES). The foundation row marks the first start, so the cases are
 * added once, in the same transaction, and never again (not even after staff delete them all).
 * No staff exist yet at that point (the first admin is created afterwards): no case is assigned.
 */
export async function seedDemoContent(db: Database, options: { cases: boolean } = { cases: true }): Promise<void> {
	const told = await db.transaction(async (tx): Promise<DemoTold | undefined> => {
		const inserted = await tx
			.insert(foundationInfo)
			.values({
				id: 1,
				name: 'مؤسسة عطاء الخيرية',
				phone: '0114567890',
				phone2: '0501234567',
				email: 'info@ataa.org.sa',
				location: 'المملكة العربية السعودية، الرياض، حي الملقا، طريق أنس بن مالك',
				about:
					'<p>مؤسسة عطاء الخيرية مؤسسة أهلية مسجلة لدى وزارة الموارد البشرية والتنمية الاجتماعية، تعمل منذ تأسيسها على دعم الأسر المحتاجة والمرضى وترميم مساكن الأسر المتعففة، بالشراكة مع الجمعيات الأهلية والجهات المانحة في منطقة الرياض.</p>',
				mapUrl: '',
				twitter: 'https://x.com/ataa_charity',
				linkedin: 'https://www.linkedin.com/company/ataa-charity',
				youtube: 'https://www.youtube.com/@ataa_charity',
				facebook: '',
				instagram: 'https://www.instagram.com/ataa_charity',
			})
			.onConflictDoNothing()
			.returning({ id: foundationInfo.id })
		if (inserted.length && options.cases) {
			await insertDemoCases(tx, DEMO_CASE_COUNT, { seed: DEMO_CASE_SEED })
			// The committee's decisions on some studied cases, within this year's budgets (docs/product.md#the-decision).
			const cycle = await insertDemoCycle(tx)
			// «أثرنا» with the demo's aid at once, not from next month's snapshot (docs/product.md#our-impact).
			await takeDemoImpactSnapshot(tx)
			return cycle
		}
		return undefined
	})
	// Once committed, the demo's families hear of their payments as staff's families do.
	if (told) await tellApplicants(db, told.notices, told.by)
}
