import type { Env } from '#app/utils/env.server.ts'

/**
 * What a start-up says about how this instance is deployed (docs/operations.md): settings that work
 * for one instance but not for several. Several instances on PGlite cannot happen (its data
 * directory's lock stops a second process, app/utils/data-dir-lock.server.ts).
 */
export function deploymentWarnings(env: Pick<Env, 'DATABASE_URL' | 'STORAGE_URL'>): string[] {
	const warnings: string[] = []
	if (env.DATABASE_URL && !env.STORAGE_URL) {
		warnings.push(
			'DATABASE_URL is set but uploaded files are kept on this machine\'s disk (DATA_DIR/uploads): another instance on the same database would not find them. For several instances, set STORAGE_URL to an S3-compatible bucket.',
		)
	}
	return warnings
}
