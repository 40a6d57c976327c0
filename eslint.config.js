import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

const physical = '/(^|\\s|:)(-?m[lr]|p[lr]|left|right|border-[lr]|rounded-[lr]|rounded-[tb][lr]|text-left|text-right|float-left|float-right|scroll-[mp][lr])(-|\\s|$)/'

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
			'no-restricted-syntax': [
				'error',
				...['Literal[value={re}]', 'TemplateElement[value.raw={re}]'].map((node) => ({
					// Layout in physical directions breaks right-to-left pages.
					selector: `JSXAttribute[name.name="className"] ${node.replace('{re}', physical)}`,
					message: 'Use logical utilities (ms-/me-/ps-/pe-/start-/end-/text-start/text-end), not physical left/right.',
				})),
			],
		},
	},
)
