// A file's header says in one or two comment lines what the file is for; the details belong
// beside the code they explain.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../../..');

function sources(dir: string): string[] {
	return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
		const relative = path.join(dir, entry.name);
		if (entry.isDirectory()) return sources(relative);
		return /\.(ts|js|mjs)$/.test(entry.name) ? [relative] : [];
	});
}

describe('file headers', () => {
	const files = [...sources('src'), ...sources('test'), ...sources('scripts'), 'esbuild.js', 'eslint.config.mjs'];

	it('finds the project files', () => assert.ok(files.length > 100, `${files.length} files`));

	it('are at most two comment lines', () => {
		const wrong = files.filter((file) => {
			const lines = fs.readFileSync(path.join(root, file), 'utf8').split('\n');
			const header = lines.findIndex((line) => !line.startsWith('//'));
			return header > 2;
		});
		assert.deepEqual(wrong, []);
	});
});
