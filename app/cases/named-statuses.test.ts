// The lint rule that keeps case statuses named (eslint.config.js `namedStatuses`): it refuses a status
// written as its number in the transition table, the bulk list, comparisons, queries and template keys,
// and the application's code passes it.
import { ESLint } from 'eslint'
import { expect, test } from 'vitest'

const eslint = new ESLint()
const refusals = async (code: string) => {
	const [result] = await eslint.lintText(code, { filePath: 'app/cases/example.ts' })
	return result!.messages.filter((message) => message.message.startsWith('Name the case status')).map((message) => code.split('\n')[message.line - 1]!.trim())
}

test('a case status written as a number is refused wherever code decides by it', { timeout: 60_000 }, async () => {
	const numbered = [
		`export const transitions = [{ kind: 'individual', from: [1, 4], to: [2], by: 'officer' }]`,
		`export const BULK_STATUSES = [2, 5, 6]`,
		`export const isNew = (row: { status: number }) => row.status === 1`,
		`export const notIncomplete = (status: number) => status !== 4`,
		`export const stored = { status: 1 }`,
		`export const key = (reference: string) => \`status:4 \${reference}\``,
		`export const link = (base: string) => \`\${base}?status=1\``,
		`export const event = 'status:6'`,
		`declare const caseStatuses: Record<number, { name: string }>\nexport const first = caseStatuses[1]`,
		`declare const eq: (a: unknown, b: unknown) => unknown\ndeclare const cases: { status: number }\nexport const where = eq(cases.status, 1)`,
		`export function step(status: number) {\n\tswitch (status) {\n\t\tcase 3:\n\t\t\treturn 'given'\n\t}\n}`,
	]
	for (const code of numbered) expect(await refusals(code), code).not.toEqual([])
	// HTTP statuses, counts and names are not case statuses.
	const fine = [
		`export const ok = (response: Response) => response.status === 200`,
		`declare const Status: { readonly New: 1 }\nexport const isNew = (row: { status: number }) => row.status === Status.New`,
		`export const single = (items: unknown[]) => items.length === 1`,
	]
	for (const code of fine) expect(await refusals(code), code).toEqual([])
})

test('the transition table, the bulk list and the statuses themselves name every status', { timeout: 60_000 }, async () => {
	const results = await eslint.lintFiles(['app/cases/workflow.ts', 'app/cases/status-changes.server.ts', 'app/cases/case-statuses.ts'])
	expect(results.flatMap((result) => result.messages.map((message) => `${result.filePath}:${message.line} ${message.message}`))).toEqual([])
})
