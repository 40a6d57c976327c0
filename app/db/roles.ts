export const userRoles = ['admin', 'case_officer', 'content_editor'] as const
export type UserRole = (typeof userRoles)[number]

export const roleLabels: Record<UserRole, string> = {
	admin: 'مدير النظام',
	case_officer: 'مسؤول الحالات',
	content_editor: 'محرر المحتوى',
}

/** Who may use which back-office area (docs/product.md#roles: three roles). */
export const areaRoles = {
	users: ['admin'],
	cases: ['admin', 'case_officer'],
	content: ['admin', 'content_editor'],
} as const satisfies Record<string, readonly UserRole[]>
