import { foundationInfo } from './schema.ts'
import type { Database } from './client.server.ts'

/** Demo content written on first start only (existing rows are never overwritten). */
export async function seedDemoContent(db: Database): Promise<void> {
	await db
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
}
