// The command table (src/commands.ts) and package.json's contributes.commands name the same
// commands: code cannot run an id the manifest does not declare, nor the manifest one the code lacks.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Command } from '../../src/commands';

describe('the command table', () => {
	it('matches package.json, id for id', () => {
		const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { contributes: { commands: { command: string }[] } };
		assert.deepEqual(Object.values(Command).sort(), manifest.contributes.commands.map((c) => c.command).sort());
	});
});
