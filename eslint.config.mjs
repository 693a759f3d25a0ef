// ESLint (flat config, typescript-eslint), run by `npm test`: the pure core (src/core, the emulator)
// never imports `vscode`, and no promise is left floating (a lost rejection is a lost error message).
import tseslint from 'typescript-eslint';

const PURE_CORE = ['src/core/**', 'src/emulator/**', 'src/demo/**'];

export default tseslint.config(
	{ ignores: ['out/**', 'dist/**', '.cache/**', '.stryker-tmp/**', 'reports/**', 'node_modules/**', 'esbuild.js', 'scripts/**', 'eslint.config.mjs'] },
	...tseslint.configs.recommended,
	{
		files: ['src/**/*.ts', 'test/**/*.ts'],
		languageOptions: {
			parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
		},
		rules: {
			'@typescript-eslint/no-floating-promises': 'error',
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
		},
	},
	{
		// esbuild turns `import * as x from 'node:…'` (or 'vscode') into a copy of the whole module, made
		// when the bundle loads, once per importing file (4 ms of activation for the vscode API); named
		// imports and TypeScript's `import vscode = require('vscode')` read the module itself. A program named by a bare
		// string is looked for in the working folder first on Windows, and that may be a cloned workspace;
		// a shell (exec) would read its command line as shell text.
		files: ['src/**/*.ts'],
		rules: {
			'@typescript-eslint/no-require-imports': ['error', { allowAsImport: true }],
			'no-restricted-syntax': ['error', {
				selector: 'ImportDeclaration[source.value=/^node:/] > ImportNamespaceSpecifier',
				message: 'Import the names you use: esbuild copies a whole namespace-imported module at start-up.',
			}, {
				selector: "ImportDeclaration[importKind!='type'][source.value='vscode'] > ImportNamespaceSpecifier",
				message: "Write `import vscode = require('vscode');`: esbuild copies the whole API for each file that namespace-imports it.",
			}, {
				selector: "CallExpression[callee.name=/^(execFile|execFileSync|spawn|spawnSync)$/][arguments.0.type='Literal']:not([arguments.0.value=/^\\//])",
				message: 'Start a program by its absolute path (Windows looks for a bare name in the working folder first, which may be the workspace).',
			}, {
				selector: "ImportDeclaration[source.value=/child_process$/] > ImportSpecifier[imported.name=/^(exec|execSync)$/]",
				message: 'No shell: start the program itself with execFile and an argument list.',
			}, {
				selector: "MemberExpression[property.name='Notification'][object.property.name='ProgressLocation']",
				message: 'A notification\'s progress title renders [label](command:…) as a link: use withNotificationProgress (features/messages/notify.ts).',
			}],
		},
	},
	{
		// VS Code's extension host resolves each require('vscode') with a realpath and a lookup of the extension:
		// the extension requires it in one module (src/system/vscodeApi.ts), so the bundle does it once.
		files: ['src/**/*.ts'],
		ignores: ['src/system/vscodeApi.ts'],
		rules: {
			'@typescript-eslint/no-restricted-imports': ['error', {
				paths: [{ name: 'vscode', allowTypeImports: true, message: "Write `import vscode = require('…/system/vscodeApi');`: the bundle requires vscode once, there." }],
			}],
		},
	},
	{
		// Tests read JSON answers field by field.
		files: ['test/**/*.ts'],
		rules: { '@typescript-eslint/no-explicit-any': 'off' },
	},
	{
		files: PURE_CORE,
		rules: {
			'@typescript-eslint/no-restricted-imports': ['error', {
				paths: [{ name: 'vscode', message: 'The pure core never imports vscode: adapt it in src/features or src/system.' }],
			}],
		},
	},
);
