// The pure core must run without VS Code: no runtime import of 'vscode' in these folders.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const PURE_FOLDERS = ['src/api', 'src/session', 'src/httpFiles', 'src/emulator', 'src/util'];

/** Line numbers of runtime uses of 'vscode': imports (not `import type`), re-exports, require, import(). */
export function runtimeVscodeImports(source: string): number[] {
	const code = source.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/\/\/.*$/gm, '');
	const patterns = [
		/\bimport\s+(?!type\b)[^;]*?\bfrom\s*['"]vscode['"]/g,
		/\bimport\s*['"]vscode['"]/g,
		/\bexport\s+(?!type\b)[^;]*?\bfrom\s*['"]vscode['"]/g,
		/\brequire\s*\(\s*['"]vscode['"]\s*\)/g,
		/\bimport\s*\(\s*['"]vscode['"]\s*\)/g,
	];
	const lines = new Set<number>();
	for (const pattern of patterns) {
		for (const match of code.matchAll(pattern)) {
			const statement = match[0];
			// `import { type A, type B } from 'vscode'` is erased at compile time too.
			const braces = /^import\s*\{([^}]*)\}\s*from/.exec(statement);
			if (braces && (braces[1] ?? '').split(',').map((s) => s.trim()).filter(Boolean).every((s) => s.startsWith('type '))) continue;
			lines.add(code.slice(0, match.index).split('\n').length);
		}
	}
	return [...lines].sort((a, b) => a - b);
}

function tsFiles(dir: string): string[] {
	if (!fs.existsSync(dir)) return [];
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return tsFiles(full);
		return entry.name.endsWith('.ts') ? [full] : [];
	});
}

describe('pure core', () => {
	const detector: [string, number[]][] = [
		['import * as vscode from \'vscode\';', [1]],
		['import {\n\twindow,\n} from "vscode";', [1]],
		['import vscode = require(\'vscode\');', [1]],
		['const v = require("vscode");', [1]],
		['const v = await import(\'vscode\');', [1]],
		['import \'vscode\';', [1]],
		['export { Uri } from \'vscode\';', [1]],
		['import { type Uri, window } from \'vscode\';', [1]],
		['import type * as vscode from \'vscode\';', []],
		['import type { Uri } from \'vscode\';', []],
		['import { type Uri } from \'vscode\';', []],
		['// import * as vscode from \'vscode\';', []],
		['/* require(\'vscode\') */', []],
		['import { x } from \'./vscodeLike\';', []],
	];
	for (const [source, expected] of detector) {
		it(`detector: ${JSON.stringify(source)} → ${JSON.stringify(expected)}`, () => assert.deepEqual(runtimeVscodeImports(source), expected));
	}

	it('no file in src/api, src/session, src/httpFiles, src/emulator or src/util imports vscode at runtime', () => {
		const files = PURE_FOLDERS.flatMap((folder) => tsFiles(path.join(ROOT, folder)));
		assert.ok(files.length > 0, `no sources found under ${ROOT}`);
		const offenders = files
			.map((file) => ({ file: path.relative(ROOT, file), lines: runtimeVscodeImports(fs.readFileSync(file, 'utf8')) }))
			.filter((o) => o.lines.length > 0)
			.map((o) => `${o.file}:${o.lines.join(',')}`);
		assert.deepEqual(offenders, [], `runtime 'vscode' imports in the pure core: ${offenders.join('; ')}`);
	});
});
