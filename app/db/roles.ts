export const userRoles = ['admin', 'case_officer', 'content_editor', 'approver', 'finance'] as const
export type UserRole = (typeof userRoles)[number]

export const roleLabels: Record<UserRole, string> = {
	admin: 'مدير النظام',
	case_officer: 'الباحث الاجتماعي',
	content_editor: 'محرر المحتوى',
	approver: 'عضو لجنة الصرف',
	finance: 'المسؤول المالي',
}

/** Who may use which back-office area (docs/product.md#roles). A user holding several roles may use every area of each. */
export const areaRoles = {
	users: ['admin'],
	/** The case officers' work: studies, visits, paper intake, corrections, status, assignment, exports. */
	cases: ['admin', 'case_officer'],
	/** Reading a case, its files and its print: the committee decides on it, finance pays it. */
	caseReading: ['admin', 'case_officer', 'approver', 'finance'],
	/** The committee's decision: approve, reject, send back for more study. */
	decisions: ['admin', 'approver'],
	/** Payment batches, bank references, deliveries. */
	payments: ['admin', 'finance'],
	/** The funds and budgets, to read (an admin changes them). */
	funds: ['admin', 'approver', 'finance'],
	content: ['admin', 'content_editor'],
} as const satisfies Record<string, readonly UserRole[]>

/** Whether the user holds this role, or one of these roles: every check asks this, never for a single role. */
export function hasRole(user: { roles: readonly UserRole[] }, ...roles: readonly UserRole[]): boolean {
	return user.roles.some((role) => roles.includes(role))
}

/** «مدير النظام، محرر المحتوى»: a user's roles by their names, in the list's order. */
export const rolesLabel = (roles: readonly UserRole[]) =>
	userRoles
		.filter((role) => roles.includes(role))
		.map((role) => roleLabels[role])
		.join('، ')
