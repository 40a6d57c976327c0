import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

const physical = '/(^|\\s|:)(-?m[lr]|p[lr]|left|right|border-[lr]|rounded-[lr]|rounded-[tb][lr]|text-left|text-right|float-left|float-right|scroll-[mp][lr])(-|\\s|$)/'

// Layout in physical directions breaks right-to-left pages.
const logicalLayout = ['Literal[value={re}]', 'TemplateElement[value.raw={re}]'].map((node) => ({
	selector: `JSXAttribute[name.name="className"] ${node.replace('{re}', physical)}`,
	message: 'Use logical utilities (ms-/me-/ps-/pe-/start-/end-/text-start/text-end), not physical left/right.',
}))

// A case status written as its number (1 to 8) where code compares, sets, lists or looks one up.
const statusNumber = 'Literal[raw=/^[1-8]$/]'
const statusName = '/^(status|to|from)$/'
const namedStatuses = [
	`BinaryExpression[operator=/^[!=]==$/]:matches([left.name=${statusName}], [left.property.name=${statusName}], [left.object.property.name="status"], [left.object.name="target"]) > ${statusNumber}.right`,
	`Property[key.name=${statusName}] > ${statusNumber}`,
	`Property[key.name=${statusName}] > ArrayExpression > ${statusNumber}`,
	`VariableDeclarator[id.name=/STATUSES$/] ${statusNumber}`,
	`CallExpression[arguments.0.property.name="status"] > ${statusNumber}`,
	`SwitchStatement:matches([discriminant.name=${statusName}], [discriminant.property.name=${statusName}]) > SwitchCase > ${statusNumber}.test`,
	`MemberExpression[object.name=/^(caseStatuses|statusNotes)$/][computed=true] > ${statusNumber}.property`,
	'TemplateElement[value.raw=/status[=:][1-8]($|[^0-9])/]',
	'Literal[value=/^status:[1-8]$/]',
].map((selector) => ({ selector, message: 'Name the case status (Status.New … Status.Rejected from app/cases/case-statuses.ts), not its number.' }))

export default tseslint.config(
	{ ignores: ['build/', '.react-router/', 'node_modules/', 'data/', 'test-results/', 'playwright-report/'] },
	js.configs.recommended,
	...tseslint.configs.recommended,
	{
		languageOptions: { globals: { ...globals.node, ...globals.browser } },
		plugins: { 'react-hooks': reactHooks },
		rules: {
			...reactHooks.configs.recommended.rules,
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
			'@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
			'no-restricted-syntax': ['error', ...logicalLayout],
		},
	},
	{
		// The application names a case's status (Status.Incomplete), never its stored number (app/cases/case-statuses.ts).
		files: ['app/**/*.{ts,tsx}'],
		ignores: ['app/**/*.test.{ts,tsx}'],
		rules: { 'no-restricted-syntax': ['error', ...logicalLayout, ...namedStatuses] },
	},
)
