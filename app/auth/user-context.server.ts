import { createContext, type RouterContextProvider } from 'react-router'
import type { UserRole } from '#app/db/schema.ts'
import { hasRole } from '#app/db/roles.ts'
import type { PublicUser } from '#app/domain/staff-users.server.ts'

/** The signed-in staff member, set by the /admin middleware before any admin loader or action runs. */
export const staffContext = createContext<PublicUser>()

/** The staff member, or a 403 when none of their roles may use this screen. */
export function requireRole(context: Readonly<RouterContextProvider>, roles: readonly UserRole[]): PublicUser {
	const user = context.get(staffContext)
	if (!hasRole(user, ...roles)) throw new Response('ليست لديك صلاحية للوصول إلى هذه الصفحة', { status: 403 })
	return user
}
