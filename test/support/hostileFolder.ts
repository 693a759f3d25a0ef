// A workspace folder that is an attacker: its git config names a program for every key git 2.39+ may run
// on a status query, and its .env and .gitignore are symlinks to files outside it. Each program leaves a marker.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Which integration pass runs (test/integration/index.ts picks the files): `httpyac` and `restricted` run their
 * folder of test/integration, `trusted` the files at its top.
 */
export type IntegrationSuite = 'trusted' | 'httpyac' | 'restricted';
export const SUITE_ENV = 'TELEMATICS_TEST_SUITE';
/** The folder outside the workspace that holds the markers and the symlinks' targets. */
export const HOSTILE_ENV = 'TELEMATICS_TEST_HOSTILE_OUTSIDE';

export interface HostileFolder {
	/** Appears when any program the folder names runs. */
	marker: string;
	/** The files outside the folder its symlinks point at, with the text they must keep. */
	outsideFiles: Record<string, string>;
}

/** What plantHostileFolder made for an `outside` folder, for the tests to check. */
export function hostileFolderFacts(outside: string): HostileFolder {
	return {
		marker: path.join(outside, 'PROGRAM-RAN'),
		outsideFiles: {
			[path.join(outside, 'bashrc')]: '# the user\'s shell start-up\nexport PATH="$HOME/bin:$PATH"\n',
			[path.join(outside, 'credentials')]: '[default]\naws_secret_access_key = do-not-copy\n',
		},
	};
}

/** A shell command that leaves the marker behind. */
function program(marker: string): string {
	return `touch '${marker}'; false`;
}

/**
 * Makes `workspace` hostile: a git repository whose config and hooks start programs, `.gitignore`
 * a symlink to a shell start-up file and `.env` a symlink to a credentials file, both in `outside`.
 */
export function plantHostileFolder(workspace: string, outside: string): HostileFolder {
	const facts = hostileFolderFacts(outside);
	fs.mkdirSync(outside, { recursive: true });
	for (const [file, text] of Object.entries(facts.outsideFiles)) fs.writeFileSync(file, text);
	const git = (...args: string[]) => execFileSync('git', args, { cwd: workspace, stdio: 'ignore' });
	git('init', '-q', '.');
	for (const key of ['core.fsmonitor', 'core.pager', 'pager.ls-files', 'pager.check-ignore', 'core.sshCommand', 'filter.evil.clean']) git('config', key, program(facts.marker));
	const hooks = path.join(workspace, '.git', 'hooks');
	for (const hook of ['post-index-change', 'fsmonitor-watchman', 'reference-transaction', 'post-checkout']) {
		fs.writeFileSync(path.join(hooks, hook), `#!/bin/sh\n${program(facts.marker)}\n`, { mode: 0o755 });
	}
	fs.writeFileSync(path.join(workspace, '.gitattributes'), '* filter=evil\n');
	fs.writeFileSync(path.join(workspace, 'request.http'), 'GET https://api.example.com/v1/trips\nAccept: application/json\n');
	fs.symlinkSync(path.join(outside, 'bashrc'), path.join(workspace, '.gitignore'));
	fs.symlinkSync(path.join(outside, 'credentials'), path.join(workspace, '.env'));
	return facts;
}
