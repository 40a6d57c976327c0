// Operator commands:
//   npm run user:create -- --email someone@example.org --role admin|case_officer|content_editor|approver|finance [--name "…"] [--mobile 05XXXXXXXX]
//   npm run user:reset-password -- --email someone@example.org   (also resets their two-step sign-in)
// Each prints a generated password once. With the embedded database, stop the server first.
import { parseArgs } from 'node:util'
import { z } from 'zod'
import { openDatabase } from '#app/db/client.server.ts'
import { lockDataDir } from '#app/utils/data-dir-lock.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { generatePassword } from '#app/utils/password.server.ts'
import { deleteUserSessions } from '#app/auth/session.server.ts'
import { resetTwoStep } from '#app/auth/totp.server.ts'
import { userRoles } from '#app/db/roles.ts'
import { createUser, DuplicateEmailError, findUserByEmail, setPassword } from '#app/domain/staff-users.server.ts'
import { normaliseSaudiMobile } from '#app/text/format.ts'

class UsageError extends Error {}

const usage = `usage:
  npm run user:create -- --email <e-mail> --role <${userRoles.join('|')}> [--name <name>] [--mobile 05XXXXXXXX]
  npm run user:reset-password -- --email <e-mail>`

const argsSchema = z.object({
	email: z.email('--email must be an e-mail address'),
	/** One role, or several separated by commas (`admin,content_editor`). */
	role: z
		.string()
		.optional()
		.transform((value) => value?.split(',').map((role) => role.trim()))
		.pipe(z.array(z.enum(userRoles, `--role must be one or more of ${userRoles.join(', ')}, separated by commas`)).min(1).optional()),
	name: z.string().trim().min(2).optional(),
	mobile: z
		.string()
		.optional()
		.transform((value, ctx) => {
			if (!value) return ''
			const mobile = normaliseSaudiMobile(value)
			if (!mobile) ctx.addIssue({ code: 'custom', message: '--mobile must be a Saudi mobile number like 0551234567' })
			return mobile ?? ''
		}),
})

async function main(argv: string[]): Promise<string> {
	const [command, ...rest] = argv
	const { values } = parseArgs({
		args: rest,
		options: { email: { type: 'string' }, role: { type: 'string' }, name: { type: 'string' }, mobile: { type: 'string' } },
	})
	const parsed = argsSchema.safeParse(values)
	if (!parsed.success) throw new UsageError(parsed.error.issues.map((issue) => issue.message).join('\n'))
	const args = parsed.data
	if (command !== 'create' && command !== 'reset-password') throw new UsageError(`unknown command "${command ?? ''}"`)
	if (command === 'create' && !args.role) throw new UsageError('--role is required')

	const env = parseEnv()
	const release = env.DATABASE_URL ? () => {} : lockDataDir(env.dataDir, 'user script')
	const handle = await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATABASE_URL ? undefined : `${env.dataDir}/pgdata` })
	try {
		await handle.migrate()
		const password = generatePassword()
		if (command === 'create') {
			const name = args.name ?? args.email.split('@')[0]!
			await createUser(handle.db, { email: args.email, roles: args.role!, name, mobile: args.mobile, password, temporary: true })
			return `Created ${args.email} (${args.role!.join(', ')}). Password, shown only once: ${password}`
		}
		const user = await findUserByEmail(handle.db, args.email)
		if (!user) throw new UsageError(`no user has the e-mail ${args.email}`)
		await setPassword(handle.db, user.id, password, { temporary: true })
		await deleteUserSessions(handle.db, user.id)
		// Locked out usually means the phone is gone too: the authenticator is set up again at the next sign-in.
		await resetTwoStep(handle.db, user.id)
		return `New password for ${user.email}, shown only once: ${password}\nTheir open sessions were ended, and their two-step sign-in was reset: they set the authenticator app up again when they next sign in.`
	} finally {
		await handle.close()
		release()
	}
}

main(process.argv.slice(2)).then(
	(message) => console.log(message),
	(error: unknown) => {
		if (error instanceof UsageError) console.error(`${error.message}\n\n${usage}`)
		else if (error instanceof DuplicateEmailError) console.error(`A user with the e-mail ${error.message} already exists.`)
		else console.error(error instanceof Error ? error.message : error)
		process.exitCode = 1
	},
)
