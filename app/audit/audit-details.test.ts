import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { expect, test } from 'vitest'
import { detailLabels, valueWords } from './audit-log.server.ts'

// Every detail the code writes into the audit trail has Arabic words on /admin/audit (issue 37, §2.14):
// the details of every `noteAudit` and `recordAudit` call are read from the source with TypeScript's
// checker, so a key added anywhere without a label fails here, and so does a coded value (a string
// literal, or a property typed as a union of them) without its words.

const root = path.resolve(import.meta.dirname, '../..')
/** A value already in words. */
const ARABIC = /[\u0600-\u06FF]/
const CALLS = new Set(['noteAudit', 'recordAudit'])

function sourceFiles(folder: string): string[] {
	return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(folder, entry.name)
		if (entry.isDirectory()) return sourceFiles(full)
		return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && /\b(noteAudit|recordAudit)\(|\.note\(/.test(readFileSync(full, 'utf8')) ? [full] : []
	})
}

interface Written {
	where: string
	key: string
	/** The coded values it may hold, when the code names them. */
	values: string[]
}

function collect(): Written[] {
	const config = ts.getParsedCommandLineOfConfigFile(path.join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!
	const program = ts.createProgram(sourceFiles(path.join(root, 'app')), config.options)
	const checker = program.getTypeChecker()
	const written: Written[] = []

	const literals = (type: ts.Type): string[] => (type.isUnion() ? type.types : [type]).flatMap((part) => (part.isStringLiteral() ? [part.value] : []))
	const at = (node: ts.Node) => {
		const file = node.getSourceFile()
		return `${path.relative(root, file.fileName)}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`
	}

	function details(expression: ts.Expression): void {
		if (ts.isParenthesizedExpression(expression)) return details(expression.expression)
		if (ts.isConditionalExpression(expression)) return (details(expression.whenTrue), details(expression.whenFalse))
		if (ts.isObjectLiteralExpression(expression)) {
			for (const member of expression.properties) {
				if (ts.isSpreadAssignment(member)) details(member.expression)
				else if (ts.isPropertyAssignment(member) || ts.isShorthandPropertyAssignment(member)) {
					const value = ts.isPropertyAssignment(member) ? member.initializer : member.name
					written.push({ where: at(member), key: member.name.getText(), values: literals(checker.getTypeAtLocation(value)) })
				} else written.push({ where: at(member), key: '(a detail the test cannot read)', values: [] })
			}
			return
		}
		// A variable or a call: its declared type names the keys.
		const type = checker.getNonNullableType(checker.getTypeAtLocation(expression))
		if (type.getStringIndexType()) return void written.push({ where: at(expression), key: '(keys typed open: type them AuditDetails)', values: [] })
		for (const property of type.getProperties()) written.push({ where: at(expression), key: property.name, values: literals(checker.getTypeOfSymbolAtLocation(property, expression)) })
	}

	for (const file of program.getRootFileNames()) {
		const visit = (node: ts.Node): void => {
			// noteAudit(context, entry), recordAudit(db, entry), and a handler's audit.note(entry) (an AuditSink, app/casework/).
			const sinkNote = ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'note' && checker.getTypeAtLocation(node.expression.expression).getSymbol()?.name === 'AuditSink'
			if (ts.isCallExpression(node) && (sinkNote || (ts.isIdentifier(node.expression) && CALLS.has(node.expression.text)))) {
				const entry = node.arguments[sinkNote ? 0 : 1]
				// The sink passing its note on as it was given: its details are read where it is called.
				const passedOn = entry && ts.isIdentifier(entry) && checker.getTypeAtLocation(entry).getSymbol()?.name === 'AuditNote'
				if (passedOn) {
					// nothing to read here
				} else if (entry && ts.isObjectLiteralExpression(entry)) {
					for (const member of entry.properties) {
						if (ts.isPropertyAssignment(member) && member.name.getText() === 'data') details(member.initializer)
						else if (ts.isShorthandPropertyAssignment(member) && member.name.text === 'data') details(member.name)
					}
				} else if (entry) details(entry)
			}
			ts.forEachChild(node, visit)
		}
		visit(program.getSourceFile(file)!)
	}
	return written
}

test('every detail key the code writes into the audit trail has an Arabic label, and every coded value its words', () => {
	const written = collect()
	// The test reads the call sites it should: the decision's outcome and the four-eyes refusal among them.
	expect(written.map((item) => item.key)).toEqual(expect.arrayContaining(['outcome', 'refused', 'userId', 'sessionsEnded']))
	const unlabelled = written.filter((item) => !Object.hasOwn(detailLabels, item.key)).map((item) => `${item.where} ${item.key}`)
	expect(unlabelled).toEqual([])
	const unworded = written.flatMap((item) => item.values.filter((value) => !ARABIC.test(value) && !valueWords[item.key]?.[value]).map((value) => `${item.where} ${item.key}=${value}`))
	expect(unworded).toEqual([])
	// The checker reads the routes' types (drizzle's, zod's): some 10 s of one core, more on a busy machine.
}, 120_000)
