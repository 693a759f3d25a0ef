// Which documents are REST files: `.http`/`.rest` by name, or language `http` (REST Client,
// httpYac), in any scheme, untitled included.
import vscode = require('vscode');
import { notify } from './notify';

export const HTTP_SELECTOR: vscode.DocumentSelector = [
	{ language: 'http' },
	{ pattern: '**/*.{http,rest}' },
];

export function isHttpDocument(document: vscode.TextDocument): boolean {
	return document.languageId === 'http' || /\.(http|rest)$/i.test(document.uri.path);
}

/** Calls `start` once: now if a REST document is open, else when the first one opens. */
export function onFirstRestDocument(start: () => void): vscode.Disposable {
	if (vscode.workspace.textDocuments.some(isHttpDocument)) {
		start();
		return new vscode.Disposable(() => undefined);
	}
	const waiting = vscode.workspace.onDidOpenTextDocument((document) => {
		if (!isHttpDocument(document)) return;
		waiting.dispose();
		start();
	});
	return waiting;
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
	const rest = vscode.window.visibleTextEditors.filter((e) => isHttpDocument(e.document));
	return rest.length === 1 ? rest[0] : undefined;
}

/** The REST editor a command acts on (see `targetEditor`); when there is none, says `whatToDo` and gives undefined. */
export function targetRestEditor(arg: unknown, whatToDo: string): vscode.TextEditor | undefined {
	const editor = targetEditor(arg);
	if (editor && isHttpDocument(editor.document)) return editor;
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
