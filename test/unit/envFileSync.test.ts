// The env-file write decision (features/exposure/envFileSync.ts) as a table: each row a folder as a person or an
// attacker could leave it, what git says about the file, and what must happen: written only where git will
// not commit it, never in Restricted Mode, never through a link, our keys only, owner-only.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { GitStatus } from '../../src/core/models/prompter';
import type { EnvFileKind } from '../../src/core/restFile/envFiles';
import { addToGitignore, syncEnvFile, type EnvFileOutcome } from '../../src/features/exposure/envFileSync';

const TOKEN = `${Buffer.from('{"alg":"HS256"}').toString('base64url')}.${Buffer.from('{"sub":"u"}').toString('base64url')}.c2ln`;
const EXPOSED = { token: TOKEN, baseUrl: 'https://user.telematicssdk.com' };
const NAMES: Record<EnvFileKind, string> = { dotenv: '.env', jetbrains: 'http-client.private.env.json' };

interface Row {
	name: string;
	kind?: EnvFileKind;
	/** The file before: its text, a link to a file outside, or missing. */
	before?: string | { link: string } | undefined;
	gitignore?: string;
	exposed?: boolean;
	trusted?: boolean;
	git?: GitStatus;
	outcome: EnvFileOutcome;
	/** The file after: its text (undefined: gone), or a check. */
	after?: string | undefined | ((text: string) => boolean);
}

const rows: Row[] = [
	{ name: 'Restricted Mode: nothing read or written, whatever git would say', trusted: false, before: 'A=1\n', git: 'ignored', exposed: true, outcome: { result: 'untrusted' }, after: 'A=1\n' },
	{ name: 'no file and nothing to expose', outcome: { result: 'nothing' }, after: undefined },
	{ name: 'an ignored file gets our keys, its own lines kept', before: 'A=1\n', git: 'ignored', exposed: true, outcome: { result: 'written' }, after: `A=1\nTELEMATICS_TOKEN=${TOKEN}\nTELEMATICS_BASE_URL=https://user.telematicssdk.com\n` },
	{ name: 'an ignored missing file is created, with our keys alone', git: 'ignored', exposed: true, outcome: { result: 'written' }, after: `TELEMATICS_TOKEN=${TOKEN}\nTELEMATICS_BASE_URL=https://user.telematicssdk.com\n` },
	{ name: 'git says not ignored though .gitignore lists it (a negation, another rule): git wins, no token', before: 'A=1\n', gitignore: '.env\n', git: 'notIgnored', exposed: true, outcome: { result: 'notIgnored' }, after: 'A=1\n' },
	{ name: 'a tracked file: no token', before: 'A=1\n', git: 'tracked', exposed: true, outcome: { result: 'tracked' }, after: 'A=1\n' },
	{ name: 'in a repository, not ignored: no token', before: 'A=1\n', git: 'notIgnored', exposed: true, outcome: { result: 'notIgnored' }, after: 'A=1\n' },
	{ name: 'git cannot be asked safely: no token, though .gitignore lists it', before: 'A=1\n', gitignore: '.env\n', git: 'unknown', exposed: true, outcome: { result: 'cannotTell' }, after: 'A=1\n' },
	{ name: 'a remote repository: no token', git: 'remote', gitignore: '.env\n', exposed: true, outcome: { result: 'cannotTell' }, after: undefined },
	{ name: 'git says untrusted: no token', git: 'untrusted', gitignore: '.env\n', exposed: true, outcome: { result: 'cannotTell' }, after: undefined },
	{ name: 'outside git, the folder\'s .gitignore lists it: written', git: 'none', gitignore: '# ours\n.env\n', exposed: true, outcome: { result: 'written' }, after: (t) => t.includes(TOKEN) },
	{ name: 'outside git, listed as /.env with spaces around: written', git: 'none', gitignore: '  /.env  \r\n', exposed: true, outcome: { result: 'written' }, after: (t) => t.includes(TOKEN) },
	{ name: 'outside git, .gitignore lists something else: no token', git: 'none', gitignore: '.env.local\n*.env\n', exposed: true, outcome: { result: 'notIgnored' }, after: undefined },
	{ name: 'outside git, no .gitignore: no token', git: 'none', exposed: true, outcome: { result: 'notIgnored' }, after: undefined },
	{ name: 'outside git, a .gitignore that is a link is not read', git: 'none', gitignore: 'LINK', exposed: true, outcome: { result: 'notIgnored' }, after: undefined },
	{ name: 'the same keys already there: unchanged, git not asked', before: `TELEMATICS_TOKEN=${TOKEN}\nTELEMATICS_BASE_URL=https://user.telematicssdk.com\n`, git: 'tracked', exposed: true, outcome: { result: 'unchanged' }, after: `TELEMATICS_TOKEN=${TOKEN}\nTELEMATICS_BASE_URL=https://user.telematicssdk.com\n` },
	{ name: 'a link to a file outside: left alone', before: { link: 'outside.env' }, git: 'ignored', exposed: true, outcome: { result: 'leftAlone', reason: 'symlink' }, after: 'OUTSIDE=1\n' },
	{ name: 'our key on a multi-line value: left alone', before: 'TELEMATICS_TOKEN="a\nb"\n', git: 'ignored', exposed: true, outcome: { result: 'leftAlone', reason: 'unparsable' }, after: 'TELEMATICS_TOKEN="a\nb"\n' },
	{ name: 'logout: our keys go, the rest stays (git not asked)', before: `A=1\nTELEMATICS_TOKEN=${TOKEN}\n`, git: 'tracked', outcome: { result: 'removed' }, after: 'A=1\n' },
	{ name: 'logout: a file that held only ours goes', before: `TELEMATICS_TOKEN=${TOKEN}\nTELEMATICS_BASE_URL=https://user.telematicssdk.com\n`, outcome: { result: 'removed' }, after: undefined },
	{ name: 'logout: a file of blank lines and ours goes', before: `\nTELEMATICS_TOKEN=${TOKEN}\n\n`, outcome: { result: 'removed' }, after: undefined },
	{ name: 'logout, nothing of ours: unchanged', before: 'A=1\n', outcome: { result: 'unchanged' }, after: 'A=1\n' },
	{ name: 'JetBrains: an ignored file gets our keys in every environment', kind: 'jetbrains', before: '{"dev": {"x": 1}}', git: 'ignored', exposed: true, outcome: { result: 'written' }, after: (t) => JSON.parse(t).dev.TELEMATICS_TOKEN === TOKEN && JSON.parse(t).dev.x === 1 },
	{ name: 'JetBrains: logout keeps the other keys', kind: 'jetbrains', before: `{"dev": {"x": 1, "TELEMATICS_TOKEN": "${TOKEN}"}}`, outcome: { result: 'removed' }, after: (t) => JSON.stringify(JSON.parse(t)) === '{"dev":{"x":1}}' },
	{ name: 'JetBrains: logout from a file of ours alone removes it', kind: 'jetbrains', before: `{"telematics": {"TELEMATICS_TOKEN": "${TOKEN}", "TELEMATICS_BASE_URL": "https://user.telematicssdk.com"}}`, outcome: { result: 'removed' }, after: undefined },
	{ name: 'JetBrains: not JSON, left alone', kind: 'jetbrains', before: '{ not json', git: 'ignored', exposed: true, outcome: { result: 'leftAlone', reason: 'unparsable' }, after: '{ not json' },
];

describe('env files: when the token is written, and what happens to the file', () => {
	let root: string;
	beforeEach(() => { root = fs.mkdtempSync(path.join(os.tmpdir(), 'env-sync-')); });
	afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

	for (const row of rows) {
		it(row.name, async () => {
			const kind = row.kind ?? 'dotenv';
			const folder = path.join(root, 'folder');
			fs.mkdirSync(folder);
			const file = path.join(folder, NAMES[kind]);
			if (typeof row.before === 'string') fs.writeFileSync(file, row.before, { mode: 0o644 });
			else if (row.before) {
				fs.writeFileSync(path.join(root, row.before.link), 'OUTSIDE=1\n');
				fs.symlinkSync(path.join(root, row.before.link), file);
			}
			if (row.gitignore === 'LINK') {
				fs.writeFileSync(path.join(root, 'outside.gitignore'), '.env\n');
				fs.symlinkSync(path.join(root, 'outside.gitignore'), path.join(folder, '.gitignore'));
			} else if (row.gitignore !== undefined) fs.writeFileSync(path.join(folder, '.gitignore'), row.gitignore);
			const asked: string[] = [];
			const outcome = await syncEnvFile(folder, kind, row.exposed ? EXPOSED : undefined, row.trusted ?? true, async (f) => {
				asked.push(f);
				assert.ok(row.git, 'git is asked only before a token is written');
				return row.git;
			});
			assert.deepEqual(outcome, row.outcome);
			if (asked.length) assert.deepEqual(asked, [file], 'git is asked about the file itself');
			const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
			if (typeof row.after === 'function') assert.ok(text !== undefined && row.after(text), text);
			else assert.equal(text, row.after);
			if (outcome.result === 'written' || (outcome.result === 'removed' && text !== undefined)) {
				assert.equal(fs.statSync(file).mode & 0o777, 0o600, 'a file that holds a token is its owner\'s only');
			}
		});
	}
});

describe('env files: adding one to .gitignore', () => {
	let folder: string;
	beforeEach(() => { folder = fs.mkdtempSync(path.join(os.tmpdir(), 'env-ignore-')); });
	afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));
	const gitignore = () => fs.readFileSync(path.join(folder, '.gitignore'), 'utf8');

	it('creates it, readable by others as git files are', async () => {
		assert.equal(await addToGitignore(folder, '.env', true), 'added');
		assert.equal(gitignore(), '.env\n');
		assert.equal(fs.statSync(path.join(folder, '.gitignore')).mode & 0o777, 0o644);
	});

	it('appends on a line of its own, in the file\'s line ending, keeping its mode', async () => {
		fs.writeFileSync(path.join(folder, '.gitignore'), 'node_modules\r\ndist', { mode: 0o640 });
		fs.chmodSync(path.join(folder, '.gitignore'), 0o640);
		assert.equal(await addToGitignore(folder, '.env', true), 'added');
		assert.equal(gitignore(), 'node_modules\r\ndist\r\n.env\r\n');
		assert.equal(fs.statSync(path.join(folder, '.gitignore')).mode & 0o777, 0o640);
		fs.writeFileSync(path.join(folder, '.gitignore'), 'a\n');
		await addToGitignore(folder, '.env', true);
		assert.equal(gitignore(), 'a\n.env\n');
	});

	it('in Restricted Mode, nothing; a link is refused', async () => {
		assert.equal(await addToGitignore(folder, '.env', false), 'untrusted');
		assert.equal(fs.existsSync(path.join(folder, '.gitignore')), false);
		const outside = path.join(folder, '..', `${path.basename(folder)}-outside`);
		fs.writeFileSync(outside, 'x\n');
		fs.symlinkSync(outside, path.join(folder, '.gitignore'));
		try {
			assert.equal(await addToGitignore(folder, '.env', true), 'symlink');
			assert.equal(fs.readFileSync(outside, 'utf8'), 'x\n');
		} finally {
			fs.rmSync(outside, { force: true });
		}
	});
});
