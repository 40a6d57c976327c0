const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Whether an id from a URL or a form could be a row's uuid at all: PostgreSQL throws on a malformed one. */
export function isUuid(value: string): boolean {
	return uuidPattern.test(value)
}
