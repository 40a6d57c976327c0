import { Readable } from 'node:stream'
import { parseWithZod } from '@conform-to/zod/v4'
import type { Route } from './+types/subject-access-export'
import { getDb } from '#app/db/database.server.ts'
import { requireRole } from '#app/auth/user-context.server.ts'
import { noteAudit, audited } from '#app/audit/audit-trail.server.ts'
import { areaRoles } from '#app/db/roles.ts'
import { casesHeld, maskNationalId, subjectAccessZip } from '#app/operations/subject-access-export.server.ts'
import { getCaseFileStorage } from '#app/storage/file-storage.server.ts'
import { redirectWithFlash } from '#app/http/flash.server.ts'
import { todayInRiyadh } from '#app/text/format.ts'
import { subjectAccessSchema } from './subject-access.tsx'

// The ZIP of everything held about one national ID (app/operations/subject-access-export.server.ts),
// streamed; the export is itself in the audit trail. A POST: the national ID never sits in a URL,
// where logs and the browser's history would keep it.

export const middleware = [audited({ read: false, write: 'subject-access.export' })]

export async function action({ request, context }: Route.ActionArgs) {
	requireRole(context, areaRoles.users)
	const submission = parseWithZod(await request.formData(), { schema: subjectAccessSchema })
	if (submission.status !== 'success') return redirectWithFlash('/admin/subject-access', { tone: 'error', message: 'رقم الهوية غير صحيح: اكتبه من جديد ثم ابحث.' })
	const { nationalId } = submission.value
	const db = await getDb()
	const rows = await casesHeld(db, nationalId)
	if (!rows.length) {
		noteAudit(context, { data: { nationalId: maskNationalId(nationalId), cases: 0, files: 0 } })
		return redirectWithFlash('/admin/subject-access', { tone: 'error', message: 'لا توجد لدى المؤسسة أي بيانات لرقم الهوية هذا، فلا نسخة لتنزيلها.' })
	}
	const zip = await subjectAccessZip(db, getCaseFileStorage(), nationalId, rows)
	noteAudit(context, { data: { nationalId: maskNationalId(nationalId), cases: zip.cases, files: zip.files } })
	return new Response(Readable.toWeb(zip.stream) as ReadableStream, {
		headers: {
			'Content-Type': 'application/zip',
			'Content-Disposition': `attachment; filename="subject-access-${nationalId.slice(-4)}-${todayInRiyadh()}.zip"`,
			'Cache-Control': 'private, no-store',
		},
	})
}
