/**
 * Lint and format check, run by `npm test` (any warning fails it): ESLint's and typescript-eslint's recommended
 * rules, the React-hooks rules, and @stylistic rules for the format the code is written in (tabs, single quotes,
 * semicolons, no spaces inside braces). Each rule turned off or changed says why.
 */
import js from '@eslint/js';
import stylistic from '@stylistic/eslint-plugin';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
	{
		// A disable comment that silences nothing is an error: no stale exceptions. (`no-await-in-loop` is not enabled:
		// sequential awaits are the norm here — list pages, retries, scenario steps, one key at a time.)
		linterOptions: {reportUnusedDisableDirectives: 'error'},
	},
	{
		ignores: [
			'dist/**', 'node_modules/**', '.cache/**', 'release/**', 'reports/**', '.stryker-tmp/**', 'test/fixtures/**',
			'test/render/golden/**', 'media/**',
		],
	},
	js.configs.recommended,
	...tseslint.configs.recommended,
	{
		files: ['**/*.{ts,tsx,js,mjs}'],
		plugins: {'react-hooks': reactHooks, '@stylistic': stylistic},
		languageOptions: {
			globals: {
				process: 'readonly', console: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly',
				clearInterval: 'readonly', queueMicrotask: 'readonly', structuredClone: 'readonly', URL: 'readonly', Buffer: 'readonly',
				AbortController: 'readonly', AbortSignal: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly', Intl: 'readonly',
				fetch: 'readonly', performance: 'readonly', globalThis: 'readonly', NodeJS: 'readonly',
			},
		},
		rules: {
			// Terminal control characters are what the sanitizer and the tests of hostile text are about.
			'no-control-regex': 'off',
			'@typescript-eslint/consistent-type-definitions': ['error', 'type'],
			// A leading `_` marks a value taken apart on purpose and not used (`const {exec: _exec, ...rest} = user`).
			'@typescript-eslint/no-unused-vars': [
				'error',
				{varsIgnorePattern: '^_', argsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true},
			],
			'react-hooks/rules-of-hooks': 'error',
			'react-hooks/exhaustive-deps': 'error',
			'@stylistic/indent': ['error', 'tab', {SwitchCase: 1}],
			'@stylistic/quotes': ['error', 'single', {avoidEscape: true}],
			'@stylistic/semi': ['error', 'always'],
			'@stylistic/object-curly-spacing': ['error', 'never'],
			'@stylistic/comma-dangle': ['error', 'always-multiline'],
			'@stylistic/no-trailing-spaces': 'error',
			'@stylistic/eol-last': 'error',
			'@stylistic/no-multiple-empty-lines': ['error', {max: 1}],
			'@stylistic/brace-style': ['error', '1tbs', {allowSingleLine: true}],
			'@stylistic/keyword-spacing': 'error',
			'@stylistic/space-infix-ops': 'error',
			'@stylistic/arrow-parens': ['error', 'as-needed'],
			'@stylistic/max-len': ['error', maxLen(140)],
		},
	},
	{
		files: ['test/**', 'scripts/**'],
		rules: {
			// Tests and scripts read raw decoded YAML/JSON whose shape they assert; the product code has no `any`.
			'@typescript-eslint/no-explicit-any': 'off',
		},
	},
	{
		// A test's table row (a case's name, its input and what it expects) reads best whole, up to 200.
		files: ['test/**'],
		rules: {'@stylistic/max-len': ['error', maxLen(200)]},
	},
);

/**
 * The width the code is written to (issue 21), tabs counted as 4 columns. Only URLs are let through: one cannot
 * be broken without breaking it for the reader who copies it. Strings, template literals and regular expressions
 * are not: the option would let through every line that holds one (most lines). A long string is split with `+`
 * into the same text; the few lines that cannot be wrapped without changing what they say (a regular expression
 * of an expected message, an NDJSON line shown whole) carry a disable comment that says why.
 */
function maxLen(code) {
	return {code, tabWidth: 4, ignoreUrls: true};
}
