/** The PostgreSQL server the integration tests use; each test file makes a database of its own on it. */
export const testDatabaseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

export function withDatabase(url: string, name: string): string {
	const parsed = new URL(url)
	parsed.pathname = `/${name}`
	return parsed.toString()
}
