// Hostile folders, generated (fast-check), on the real file system with real git: git configs that start
// programs, symlinks and hard links where we read or write, hostile names, trusted and Restricted Mode.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as fc from 'fast-check';
import { dialogText, markdownText, notificationText } from '../../src/core/util/displayText';
import type { GitStatus } from '../../src/core/models/prompter';
import { addToGitignore, syncEnvFile, type EnvFileOutcome } from '../../src/features/exposure/envFileSync';
import { askGit, findGit } from '../../src/system/git';
import { createTestClock, settle } from '../support/doubles/fakeClock';
import { FakeTokenService } from '../support/doubles/fakeTokenService';
import { TestMemento } from '../support/doubles/testMemento';
import { SharedSecretBackend } from '../support/doubles/testSecretStorage';
import { openTestWindow } from '../support/doubles/testWindow';

export interface HostileFolderCounts {
	/** Generated folders, and how many of them were in Restricted Mode. */
	folders: number;
	restricted: number;
	/** Programs the folder names that ran (a marker file each would leave). */
	programsRun: number;
	/** Files outside the folder whose bytes or mode changed, appeared or went. */
	outsideChanged: number;
	/** A secret of a file outside the folder (behind a link) copied into a new file of the folder. */
	secretsCopied: number;
	/** Files of a Restricted Mode folder that changed, or git asked there. */
	untrustedTouched: number;
	/** Messages with a folder's name whose text still holds VS Code's link syntax or markup. */
	linksRendered: number;
	/** Keychain scenarios, and accounts gone or holding a spent refresh token though nobody logged out. */
	keychainScenarios: number;
	sessionsLost: number;
	/** A logout in one window that another window undid (the account or its secret came back). */
	logoutsUndone: number;
}

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJmdXp6In0.c2ln';
const EXPOSED = { token: TOKEN, baseUrl: 'https://user.telematicssdk.com' };

/** How VS Code finds links in a notification's message (its linkedText parser). */
const NOTIFICATION_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/i;

/** Config keys git 2.39+ may run a program for, each set to one that leaves the marker. */
const PROGRAM_KEYS = ['core.fsmonitor', 'core.pager', 'pager.ls-files', 'pager.check-ignore', 'core.sshCommand', 'filter.evil.clean', 'filter.evil.process', 'diff.external', 'core.askPass'] as const;
const HOOKS = ['post-index-change', 'fsmonitor-watchman', 'reference-transaction', 'post-checkout', 'pre-commit'];

type GitPlant = 'none' | 'hostileRepo' | 'hooksPathRepo' | 'includedConfig' | 'gitdirOut' | 'gitSymlink' | 'repoAbove';
type FilePlant = 'missing' | 'regular' | 'symlinkOut' | 'hardlinkOut' | 'fifo' | 'notUtf8' | 'directory' | 'unterminated' | 'exported';
type IgnorePlant = 'missing' | 'listsEnv' | 'symlinkOut' | 'hardlinkOut' | 'notUtf8';

interface FolderSpec {
	trusted: boolean;
	git: GitPlant;
	keys: readonly string[];
	dotenv: FilePlant;
	jetbrains: FilePlant;
	gitignore: IgnorePlant;
	name: string;
}

/** Folder names a person could be handed: link syntax, icons, markup, spaces, dashes, other scripts. */
const NAMES = ['[Open](command:workbench.action.terminal.new)', '[x](https://evil.example)', '[f](file:///etc/passwd)', '$(bug) repo', '<img src=x>', '-rf --', 'a b', 'ünï cødé', '`id`', '**bold**', 'x'.repeat(120)];

const folderSpec: fc.Arbitrary<FolderSpec> = fc.record({
	trusted: fc.boolean(),
	git: fc.constantFrom<GitPlant>('none', 'hostileRepo', 'hooksPathRepo', 'includedConfig', 'gitdirOut', 'gitSymlink', 'repoAbove'),
	keys: fc.subarray([...PROGRAM_KEYS], { minLength: 1 }),
	dotenv: fc.constantFrom<FilePlant>('missing', 'regular', 'symlinkOut', 'hardlinkOut', 'fifo', 'notUtf8', 'directory', 'unterminated', 'exported'),
	jetbrains: fc.constantFrom<FilePlant>('missing', 'regular', 'symlinkOut', 'hardlinkOut', 'notUtf8'),
	gitignore: fc.constantFrom<IgnorePlant>('missing', 'listsEnv', 'symlinkOut', 'hardlinkOut', 'notUtf8'),
	name: fc.oneof(fc.constantFrom(...NAMES), fc.stringMatching(/^[^/\0]{1,40}$/).filter((n) => n !== '.' && n !== '..' && n.trim() !== '')),
});

function git(cwd: string, ...args: string[]): void {
	execFileSync('git', args, { cwd, stdio: 'ignore', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
}

/** Every file under `dir` (not following links) → a hash of its kind, mode and bytes; `skip` left out. */
function snapshot(dir: string, skip: readonly string[] = []): Map<string, string> {
	const out = new Map<string, string>();
	const walk = (current: string): void => {
		for (const entry of fs.readdirSync(current)) {
			const file = path.join(current, entry);
			if (skip.includes(file)) continue;
			const stat = fs.lstatSync(file);
			if (stat.isDirectory()) {
				out.set(file, `dir ${stat.mode}`);
				walk(file);
			} else if (stat.isSymbolicLink()) {
				out.set(file, `link ${fs.readlinkSync(file)}`);
			} else if (stat.isFile()) {
				out.set(file, `file ${stat.mode} ${createHash('sha256').update(fs.readFileSync(file)).digest('hex')}`);
			} else {
				out.set(file, `other ${stat.mode}`);
			}
		}
	};
	walk(dir);
	return out;
}

function differences(before: Map<string, string>, after: Map<string, string>): number {
	let changed = 0;
	for (const [file, value] of before) if (after.get(file) !== value) changed++;
	for (const file of after.keys()) if (!before.has(file)) changed++;
	return changed;
}

/** Plants `spec` under `base`: the folder at base/parent/<name>, everything it points at in base/outside. */
function plant(base: string, spec: FolderSpec): { folder: string; marker: string } {
	const outside = path.join(base, 'outside');
	const parent = path.join(base, 'parent');
	const folder = path.join(parent, spec.name);
	fs.mkdirSync(outside, { recursive: true });
	fs.mkdirSync(folder, { recursive: true });
	const marker = path.join(outside, 'PROGRAM-RAN');
	const program = `touch '${marker}'; false`;
	const secrets = path.join(outside, 'credentials');
	fs.writeFileSync(path.join(outside, 'bashrc'), '# the user\'s shell start-up\n');
	fs.writeFileSync(secrets, '[default]\naws_secret_access_key = do-not-copy\n');
	const hostileRepo = (dir: string): void => {
		git(dir, 'init', '-q', '.');
		for (const key of spec.keys) git(dir, 'config', key, program);
		fs.writeFileSync(path.join(dir, '.gitattributes'), '* filter=evil diff=evil\n');
		for (const hook of HOOKS) fs.writeFileSync(path.join(dir, '.git', 'hooks', hook), `#!/bin/sh\n${program}\n`, { mode: 0o755 });
	};
	switch (spec.git) {
		case 'hostileRepo':
			hostileRepo(folder);
			break;
		case 'hooksPathRepo': {
			git(folder, 'init', '-q', '.');
			const hooks = path.join(folder, 'hooks');
			fs.mkdirSync(hooks);
			for (const hook of HOOKS) fs.writeFileSync(path.join(hooks, hook), `#!/bin/sh\n${program}\n`, { mode: 0o755 });
			git(folder, 'config', 'core.hooksPath', hooks);
			break;
		}
		case 'includedConfig': {
			git(folder, 'init', '-q', '.');
			fs.writeFileSync(path.join(folder, 'evil.config'), `[core]\n\tfsmonitor = ${program}\n\tpager = ${program}\n`);
			git(folder, 'config', 'include.path', path.join(folder, 'evil.config'));
			break;
		}
		case 'gitdirOut': {
			const repo = path.join(outside, 'repo');
			fs.mkdirSync(repo);
			hostileRepo(repo);
			fs.writeFileSync(path.join(folder, '.git'), `gitdir: ${path.join(repo, '.git')}\n`);
			break;
		}
		case 'gitSymlink': {
			const repo = path.join(outside, 'repo');
			fs.mkdirSync(repo);
			hostileRepo(repo);
			fs.symlinkSync(path.join(repo, '.git'), path.join(folder, '.git'));
			break;
		}
		case 'repoAbove':
			hostileRepo(parent);
			break;
		case 'none':
			break;
	}
	const file = (name: string, how: FilePlant | IgnorePlant, text: string): void => {
		const target = path.join(folder, name);
		switch (how) {
			case 'missing': return;
			case 'regular': return fs.writeFileSync(target, text);
			case 'listsEnv': return fs.writeFileSync(target, '.env\nhttp-client.private.env.json\n');
			case 'symlinkOut': return fs.symlinkSync(name === '.gitignore' ? path.join(outside, 'bashrc') : secrets, target);
			case 'hardlinkOut': return fs.linkSync(name === '.gitignore' ? path.join(outside, 'bashrc') : secrets, target);
			case 'fifo': return void execFileSync('mkfifo', [target]);
			case 'notUtf8': return fs.writeFileSync(target, Buffer.from([0x41, 0x3d, 0xff, 0xfe, 0x0a]));
			case 'directory': return fs.mkdirSync(target);
			case 'unterminated': return fs.writeFileSync(target, 'CERT="-----BEGIN\nnever closed\n');
			case 'exported': return fs.writeFileSync(target, 'export TELEMATICS_TOKEN=old\nOTHER=1\n');
		}
	};
	file('.env', spec.dotenv, 'OTHER=1\n# keep me\n');
	file('http-client.private.env.json', spec.jetbrains, '{"dev": {"host": "x"}}\n');
	file('.gitignore', spec.gitignore, '');
	fs.writeFileSync(path.join(folder, 'request.http'), 'GET https://user.telematicssdk.com/v1/Me\n');
	return { folder, marker };
}

/** The messages the exposure shows for `outcome`, with the folder's name as it would be shown. */
function messagesFor(outcome: EnvFileOutcome, folderName: string): string[] {
	const where = notificationText(folderName);
	const messages = [notificationText(`.env in ${where} is not ignored by git, so the token is not written into it. Add it to .gitignore?`)];
	if (outcome.result === 'leftAlone') messages.push(notificationText(`.env in ${where} was left alone: ${outcome.reason}.`));
	messages.push(...dialogText(`A request in this file sends the token to ${folderName}, not to the service of ${folderName}.\n\nWhoever runs ${folderName} gets the token with the request. Go on only if you trust that host.`).split('\n'));
	return messages;
}

async function runFolder(spec: FolderSpec, gitPath: string | undefined, counts: HostileFolderCounts): Promise<void> {
	const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hostile-folder-')));
	try {
		const { folder, marker } = plant(base, spec);
		const outsideBefore = snapshot(base, [folder, marker]);
		const folderBefore = snapshot(folder);
		let gitAsked = 0;
		const ask = async (file: string): Promise<GitStatus> => {
			gitAsked++;
			return askGit(file, folder, gitPath);
		};
		const outcomes: EnvFileOutcome[] = [];
		for (const kind of ['dotenv', 'jetbrains'] as const) outcomes.push(await syncEnvFile(folder, kind, EXPOSED, spec.trusted, ask));
		if (outcomes.some((o) => o.result === 'notIgnored')) {
			await addToGitignore(folder, '.env', spec.trusted);
			for (const kind of ['dotenv', 'jetbrains'] as const) outcomes.push(await syncEnvFile(folder, kind, EXPOSED, spec.trusted, ask));
		}
		if (spec.trusted) await ask(path.join(folder, 'request.http')); // Insert Authorization Header's question
		for (const kind of ['dotenv', 'jetbrains'] as const) outcomes.push(await syncEnvFile(folder, kind, undefined, spec.trusted, ask));

		if (fs.existsSync(marker)) counts.programsRun++;
		counts.outsideChanged += differences(outsideBefore, snapshot(base, [folder, marker]));
		const after = snapshot(folder);
		const copied = [...after].some(([file, kind]) => kind.startsWith('file ') && folderBefore.get(file) !== kind && fs.readFileSync(file, 'utf8').includes('do-not-copy'));
		if (copied) counts.secretsCopied++;
		if (!spec.trusted && (gitAsked > 0 || differences(folderBefore, after) > 0)) counts.untrustedTouched++;
		const shown = [...outcomes.flatMap((o) => messagesFor(o, spec.name)), markdownText(spec.name)];
		if (shown.some((m) => NOTIFICATION_LINK.test(m) || /\$\(/.test(m))) counts.linksRendered++;
	} finally {
		fs.rmSync(base, { recursive: true, force: true });
	}
}

const ACCOUNT = { kind: 'user' as const, serviceUrl: 'https://user.example.test', instanceId: 'inst', login: 'device-1', label: 'devi…-1' };

type KeychainStep = { kind: 'tick'; seconds: number } | { kind: 'lose'; reads: number; drop: boolean } | { kind: 'fail'; reads: number } | { kind: 'logout' };

export const keychainSteps = fc.array(fc.oneof(
	{ weight: 4, arbitrary: fc.integer({ min: 1, max: 30 }).map((seconds): KeychainStep => ({ kind: 'tick', seconds })) },
	{ weight: 2, arbitrary: fc.record({ reads: fc.integer({ min: 1, max: 4 }), drop: fc.boolean() }).map(({ reads, drop }): KeychainStep => ({ kind: 'lose', reads, drop })) },
	{ weight: 1, arbitrary: fc.integer({ min: 1, max: 4 }).map((reads): KeychainStep => ({ kind: 'fail', reads })) },
	{ weight: 1, arbitrary: fc.constant<KeychainStep>({ kind: 'logout' }) },
), { minLength: 1, maxLength: 12 });

/** Two windows over a keychain that answers nothing, drops entries or fails reads at random, around 40 s refreshes. */
export async function runKeychain(steps: readonly KeychainStep[], counts: HostileFolderCounts): Promise<void> {
	const time = createTestClock();
	{
		const backend = new SharedSecretBackend();
		const memento = new TestMemento();
		const service = new FakeTokenService(time.clock);
		const open = (name: string) => openTestWindow({ name, backend, memento, clock: time.clock, refresh: service.refreshAs(name), marginMs: () => 300_000, enabled: () => true, leaseTtlMs: 10_000, leaseSettleMs: 250 });
		const windows = [open('A'), open('B')];
		try {
			await windows[0]!.store.load();
			const { account } = await windows[0]!.store.saveLogin(ACCOUNT, service.login());
			await windows[1]!.store.load();
			for (const w of windows) w.scheduler.start();
			let lose = 0;
			let drop = false;
			let fail = 0;
			backend.loseOnGet = (key) => (key.includes(account.id) && !key.includes('lease') && lose > 0 ? (lose--, drop ? 'drop' : 'undefined') : false);
			backend.failGet = (key) => key.includes(account.id) && !key.includes('lease') && fail > 0 && fail-- > 0;
			let loggedOut = false;
			for (const step of steps) {
				if (step.kind === 'tick') await time.timers.tickAsync(step.seconds * 1000);
				else if (step.kind === 'lose') {
					lose = step.reads;
					drop = step.drop;
					backend.announce(`telematicsAuth.session.${account.id}`);
				} else if (step.kind === 'fail') fail = step.reads;
				else if (!loggedOut) {
					loggedOut = true;
					await windows[1]!.store.remove(account.id).catch(() => (loggedOut = false));
				}
				await settle();
			}
			lose = 0;
			fail = 0;
			await time.timers.tickAsync(90_000);
			await settle();
			counts.keychainScenarios++;
			if (loggedOut) {
				if (windows.some((w) => w.store.get(account.id)) || backend.data.has(`telematicsAuth.session.${account.id}`)) counts.logoutsUndone++;
				return;
			}
			for (const w of windows) {
				const session = w.store.get(account.id);
				// Alive: listed, and holding the refresh token the service will take next.
				if (!session?.tokens || session.state === 'needsLogin' || session.tokens.refreshToken !== service.currentRefreshToken) {
					counts.sessionsLost++;
					return;
				}
			}
		} finally {
			for (const w of windows) w.dispose();
		}
	}
}

/** `folders` generated folders and `scenarios` keychain schedules; the counts of what must never happen. */
export async function runHostileFolder(folders: number, scenarios: number, seed?: number): Promise<HostileFolderCounts> {
	const counts: HostileFolderCounts = { folders: 0, restricted: 0, programsRun: 0, outsideChanged: 0, secretsCopied: 0, untrustedTouched: 0, linksRendered: 0, keychainScenarios: 0, sessionsLost: 0, logoutsUndone: 0 };
	const gitPath = findGit([]);
	if (!gitPath) throw new Error('git must be on the PATH');
	for (const spec of fc.sample(folderSpec, { numRuns: folders, seed })) {
		counts.folders++;
		if (!spec.trusted) counts.restricted++;
		await runFolder(spec, gitPath, counts);
	}
	for (const steps of fc.sample(keychainSteps, { numRuns: scenarios, seed })) await runKeychain(steps, counts);
	return counts;
}
