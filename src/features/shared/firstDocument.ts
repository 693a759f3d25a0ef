// Starting once the first matching document opens: the REST files' lenses and warnings, and the plugin for
// httpYac (which starts with a REST, markdown or asciidoc file), wait for it.
import vscode = require('../../system/vscodeApi');

/** Calls `start` once: now if a document `matches` is open, else when the first such one opens. */
export function onFirstDocument(matches: (document: vscode.TextDocument) => boolean, start: () => void): vscode.Disposable {
	if (vscode.workspace.textDocuments.some(matches)) {
		start();
		return new vscode.Disposable(() => undefined);
	}
	const waiting = vscode.workspace.onDidOpenTextDocument((document) => {
		if (!matches(document)) return;
		waiting.dispose();
		start();
	});
	return waiting;
}
