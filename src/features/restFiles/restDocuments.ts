// The REST documents the features act on: which ones VS Code hands the lenses and the hover (REST_SELECTOR,
// the same documents as core/restFile/restDocument.ts's isRestDocument), how much of one they read, and the
// editor a command acts on.
import vscode = require('../../system/vscodeApi');
import { isRestDocument } from '../../core/restFile/restDocument';
import { notify } from '../messages/notify';
import { onFirstDocument } from '../shared/firstDocument';

export const REST_SELECTOR: vscode.DocumentSelector = [
	{ language: 'http' },
	{ pattern: '**/*.{http,rest}' },
];

/**
 * The largest REST file the lenses, the hover and the warnings read (ten times the largest of the 113
 * real files we test on): past it they leave a file alone, since they run on every edit and each
 * minute, and a file built to be slow must not stall the window. Insert and Update, run by the
 * person, still read any file.
 */
export const MAX_WATCHED_CHARS = 256 * 1024;
const toldTooLarge = new Set<string>();

/** The text of a REST document the background features may read, or undefined past MAX_WATCHED_CHARS (logged once per file). */
export function watchedText(document: vscode.TextDocument, log: { info(message: string): void }): string | undefined {
	const text = document.getText();
	if (text.length <= MAX_WATCHED_CHARS) return text;
	const key = document.uri.toString();
	if (!toldTooLarge.has(key)) {
		toldTooLarge.add(key);
		log.info(`A REST file of ${Math.round(text.length / 1024)} KB is past ${MAX_WATCHED_CHARS / 1024} KB: no token lenses, hovers or warnings for it (Insert and Update still work).`);
	}
	return undefined;
}

/** Calls `start` once: now if a REST document is open, else when the first one opens. */
export function onFirstRestDocument(start: () => void): vscode.Disposable {
	return onFirstDocument(isRestDocument, start);
}

/**
 * The editor a command acts on: the one showing `uri` when given (editor title menu), else the
 * active one, else (a walkthrough or another non-text editor has the focus) the only REST file
 * on screen.
 */
export function targetEditor(arg: unknown): vscode.TextEditor | undefined {
	if (arg instanceof vscode.Uri) {
		return vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === arg.toString());
	}
	if (vscode.window.activeTextEditor) return vscode.window.activeTextEditor;
	const rest = vscode.window.visibleTextEditors.filter((e) => isRestDocument(e.document));
	return rest.length === 1 ? rest[0] : undefined;
}

/** The REST editor a command acts on (see `targetEditor`); when there is none, says `whatToDo` and gives undefined. */
export function targetRestEditor(arg: unknown, whatToDo: string): vscode.TextEditor | undefined {
	const editor = targetEditor(arg);
	if (editor && isRestDocument(editor.document)) return editor;
	void notify('info', whatToDo);
	return undefined;
}

/** Offsets → one `editor.edit` call: one undo step. */
export function applyTextEdits(editor: vscode.TextEditor, edits: readonly { start: number; end: number; newText: string }[]): Thenable<boolean> {
	const document = editor.document;
	const ranges = edits.map((e) => ({ range: new vscode.Range(document.positionAt(e.start), document.positionAt(e.end)), newText: e.newText }));
	return editor.edit((builder) => {
		for (const { range, newText } of ranges) builder.replace(range, newText);
	});
}
