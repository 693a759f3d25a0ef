// A REST file built to be slow (issue 34): the worst shapes, open and visible with an account logged in,
// typed into. A file past the bound is left alone with one log line; one at the bound still gets its
// warnings. How long a pass takes is measured by `npm run bench`, never asserted here (a busy machine
// is not a slow extension).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RiggedEmulator } from '../emulator/rig';
import { MAX_WATCHED_CHARS } from '../../src/features/restFiles/restDocuments';
import { worstShapes } from '../support/worstRestFiles';
import type { TestApi } from './testApi';
import { logIn, until, useEmulatorSuite } from './loginHelpers';

/**
 * Types `count` characters at the file's end, one edit at a time, as a person would. Two are enough to
 * pass through the change handling twice; each edit of a 1 MB file costs the workbench and the other
 * REST extensions seconds on a busy machine, so no more.
 */
async function typeInto(editor: vscode.TextEditor, count: number): Promise<void> {
	for (let i = 0; i < count; i++) {
		const end = editor.document.lineAt(editor.document.lineCount - 1).range.end;
		await editor.edit((b) => b.insert(end, 'x'));
		await new Promise((resolve) => setTimeout(resolve, 30));
	}
}

describe('A REST file built to be slow (real VS Code)', function () {
	this.timeout(300_000);
	let api: TestApi;
	let emu: RiggedEmulator;
	const written: string[] = [];

	useEmulatorSuite({ rateLimit: 'lifted', logOutBetweenTests: false }, (started) => ({ api, emu } = started));
	after(async () => {
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		for (const file of written) fs.rmSync(file, { force: true });
	});

	/**
	 * Opens the file in an editor as a person would (`vscode.open`): its document lives only as long as the
	 * editor. A document opened with `openTextDocument` stays open for minutes after its editor closes, and
	 * every later suite's store changes would read these files again (the warnings read every open REST file).
	 */
	async function open(name: string, text: string): Promise<vscode.TextEditor> {
		const file = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, name);
		fs.writeFileSync(file, text);
		written.push(file);
		const uri = vscode.Uri.file(file);
		await vscode.commands.executeCommand('vscode.open', uri);
		return until('the editor', () => vscode.window.activeTextEditor, { accept: (e) => e?.document.uri.toString() === uri.toString(), timeoutMs: 60_000 });
	}

	/** Reverts and closes the active editor, and waits until its document is gone from the extension host. */
	async function close(editor: vscode.TextEditor): Promise<void> {
		await vscode.window.showTextDocument(editor.document);
		await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
		await until('the document to close', () => editor.document.isClosed, 60_000);
	}

	// The bound is by size, before anything is read, so one shape proves it: the one that would be warned
	// about on every request if it were read. What every worst shape costs below the bound is the
	// benchmark's (test/bench/insertBench.ts); the other REST extensions' cost of a 1 MB file is theirs.
	it('past the bound: a 1 MB file of requests to other hosts, a token in each, open and typed into, is left alone with one log line', async () => {
		const session = await logIn(api, emu, 'user');
		const token = api.services.store.get(session.account.id)!.tokens!.accessToken;
		const text = worstShapes(1024 * 1024, token)['small requests to other hosts, a JWT each']!;
		const editor = await open('past-the-bound.http', text);
		await typeInto(editor, 2);
		// The warnings' pass read the file and left it: the log says why, once.
		await until('the log to say why', () => api.logLines().some((l) => /A REST file of \d+ KB is past 256 KB/.test(l)), 60_000);
		assert.deepEqual(vscode.languages.getDiagnostics(editor.document.uri), [], 'no warnings past the bound');
		await close(editor);
	});

	it('at the bound: a file of small requests to another host, a token in each, gets its warnings', async () => {
		const session = await logIn(api, emu, 'user');
		const token = api.services.store.get(session.account.id)!.tokens!.accessToken;
		const text = worstShapes(MAX_WATCHED_CHARS - 1024, token)['small requests to other hosts, a JWT each']!;
		const requests = text.match(/^GET /gm)!.length;
		assert.ok(requests > 300, `${requests} requests`);
		const editor = await open('at-the-bound.http', text);
		await typeInto(editor, 2);
		await until('a warning on every request', () => vscode.languages.getDiagnostics(editor.document.uri), { accept: (d) => d.length === requests, timeoutMs: 60_000 });
		await close(editor);
	});
});
