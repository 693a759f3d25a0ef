// The command table (src/commands.ts) and package.json's contributes.commands name the same
// commands: code cannot run an id the manifest does not declare, nor the manifest one the code lacks.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Command } from '../../src/commands';
import { CommandHandlers } from '../../src/commandHandlers';

describe('the command table', () => {
	it('matches package.json, id for id', () => {
		const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { contributes: { commands: { command: string }[] } };
		assert.deepEqual(Object.values(Command).sort(), manifest.contributes.commands.map((c) => c.command).sort());
	});
});

describe('the command handlers', () => {
	it('runs the handler set for a command, with its arguments', () => {
		const handlers = new CommandHandlers();
		handlers.set(Command.copyAccessToken, (...args: unknown[]) => `copied ${args.join(' ')}`);
		assert.equal(handlers.run(Command.copyAccessToken, ['for', 'account-1']), 'copied for account-1');
	});

	it('says so when a command has no handler (before start-up, after shut-down)', () => {
		const handlers = new CommandHandlers();
		handlers.set(Command.logout, () => 'logged out').dispose();
		assert.throws(() => handlers.run(Command.logout, []), /telematicsAuth\.logout has no handler/);
	});

	it('a command without a handler waits for the loader, then runs the handler it set', async () => {
		const handlers = new CommandHandlers();
		let loads = 0;
		handlers.setLoader(async () => {
			loads++;
			handlers.set(Command.copyAsCurl, (...args: unknown[]) => `curl ${args.join(' ')}`);
		});
		assert.equal(await handlers.run(Command.copyAsCurl, ['for', 'account-1']), 'curl for account-1');
		assert.equal(handlers.run(Command.copyAsCurl, ['again']), 'curl again', 'once set, it runs at once');
		assert.equal(loads, 1);
	});

	it('says so when the loader set no handler for the command', async () => {
		const handlers = new CommandHandlers();
		handlers.setLoader(async () => undefined);
		await assert.rejects(Promise.resolve().then(() => handlers.run(Command.openSample, [])), /telematicsAuth\.openSample has no handler/);
	});

	it('keeps a newer handler when an older one is disposed', () => {
		const handlers = new CommandHandlers();
		const older = handlers.set(Command.refresh, () => 'older');
		handlers.set(Command.refresh, () => 'newer');
		older.dispose();
		assert.equal(handlers.run(Command.refresh, []), 'newer');
	});
});
