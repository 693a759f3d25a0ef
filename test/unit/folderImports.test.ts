// The structure, read from src/'s imports (every import, export … from, require() and import(), types too):
// the floors of src import only downwards (the pure core imports nothing but the core), and inside src/core
// and inside src/features no two folders import each other, directly or round a circle. A file that lands
// in a folder its word does not name usually shows here first (CONTRIBUTING.md: Layout, Words).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const root = path.resolve(__dirname, '..', '..', '..');
const src = path.join(root, 'src');

/** src's floors, top first: each imports only from the floors below it (and within itself). */
const FLOORS: readonly (readonly string[])[] = [['extension'], ['features'], ['services'], ['commands', 'system', 'emulator'], ['core']];

/** One import between two files of src, as paths relative to src without `.ts`. */
interface Import { from: string; to: string }

function sourceFiles(dir: string): string[] {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith('.ts') ? [full] : [];
	});
}

function srcImports(): Import[] {
	const imports: Import[] = [];
	for (const file of sourceFiles(src)) {
		const from = path.relative(src, file).replace(/\.ts$/, '').split(path.sep).join('/');
		for (const { fileName } of ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true).importedFiles) {
			if (!fileName.startsWith('.')) continue; // a library or node:…
			const to = path.relative(src, path.resolve(path.dirname(file), fileName)).split(path.sep).join('/');
			if (to.startsWith('..')) continue; // package.json
			imports.push({ from, to });
		}
	}
	return imports;
}

/** A file's folder as the structure counts it: `core/<room>`, `features/<room>`, else its top-level name. */
function folderOf(file: string): string {
	const parts = file.split('/');
	return (parts[0] === 'core' || parts[0] === 'features') && parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

/** The groups of folders that import each other, directly or round a circle (strongly connected, 2 or more). */
function circles(edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
	const reach = (start: string): Set<string> => {
		const seen = new Set<string>();
		const todo = [...(edges.get(start) ?? [])];
		for (let next = todo.pop(); next !== undefined; next = todo.pop()) {
			if (seen.has(next)) continue;
			seen.add(next);
			todo.push(...(edges.get(next) ?? []));
		}
		return seen;
	};
	const reachable = new Map([...edges.keys()].map((folder) => [folder, reach(folder)]));
	const groups = new Map<string, string[]>();
	for (const [folder, reached] of reachable) {
		const group = [...reached].filter((other) => reachable.get(other)?.has(folder)).sort();
		if (group.length > 1) groups.set(group.join(' '), group);
	}
	return [...groups.values()];
}

function folderEdges(imports: readonly Import[], inside: string): Map<string, Set<string>> {
	const edges = new Map<string, Set<string>>();
	for (const { from, to } of imports) {
		const [a, b] = [folderOf(from), folderOf(to)];
		if (a === b || !a.startsWith(`${inside}/`) || !b.startsWith(`${inside}/`)) continue;
		edges.set(a, (edges.get(a) ?? new Set()).add(b));
	}
	return edges;
}

describe('the folders of src', () => {
	const imports = srcImports();

	it('are read: the imports of every file, a dynamic import() and a type import among them', () => {
		assert.ok(imports.some((i) => i.from === 'features/httpyac/index' && i.to === 'features/httpyac/httpyacPlugin'), 'the plugin\'s import()');
		assert.ok(imports.some((i) => i.from === 'core/models/prompter' && i.to === 'core/login/steps'), 'a type import');
		assert.ok(new Set(imports.map((i) => folderOf(i.from))).size > 20);
	});

	it('import only downwards: each floor from the floors below it, the pure core from the core alone', () => {
		const floor = (file: string): number => FLOORS.findIndex((names) => names.includes(file.split('/')[0]!));
		const up = imports.filter(({ from, to }) => floor(to) < floor(from) || (floor(from) === floor(to) && from.split('/')[0] !== to.split('/')[0]));
		assert.ok(imports.every(({ from }) => floor(from) >= 0), 'every top-level name of src is on a floor');
		assert.deepEqual(up.map(({ from, to }) => `${from} → ${to}`), []);
	});

	for (const inside of ['core', 'features']) {
		it(`inside src/${inside}, no two folders import each other, directly or round a circle`, () => {
			// Each circle with the imports that make it, by folder: `a → b (file → file, …)`.
			const found = circles(folderEdges(imports, inside)).map((group) => {
				const byEdge = new Map<string, string[]>();
				for (const { from, to } of imports) {
					const [a, b] = [folderOf(from), folderOf(to)];
					if (a === b || !group.includes(a) || !group.includes(b)) continue;
					byEdge.set(`${a} → ${b}`, [...(byEdge.get(`${a} → ${b}`) ?? []), `${path.basename(from)} → ${path.basename(to)}`]);
				}
				return `${group.join(' ⇄ ')}: ${[...byEdge].map(([edge, files]) => `${edge} (${files.join(', ')})`).join('; ')}`;
			});
			assert.deepEqual(found, []);
		});
	}

	it('finds a circle of three folders and a pair, and none in a line', () => {
		const graph = (pairs: string[]): Map<string, Set<string>> => {
			const edges = new Map<string, Set<string>>();
			for (const pair of pairs) {
				const [a, b] = pair.split('>') as [string, string];
				edges.set(a, (edges.get(a) ?? new Set()).add(b));
			}
			return edges;
		};
		assert.deepEqual(circles(graph(['a>b', 'b>c', 'c>a', 'c>d', 'd>e', 'e>d'])).sort(), [['a', 'b', 'c'], ['d', 'e']]);
		assert.deepEqual(circles(graph(['a>b', 'b>c', 'a>c'])), []);
	});
});
