// Shows information, warning and error messages, and remembers the last ones so integration
// tests can see what a person was told (TestApi.messages()).
import * as vscode from 'vscode';

export type Severity = 'info' | 'warning' | 'error';

export interface ShownMessage {
	severity: Severity;
	text: string;
	actions: readonly string[];
}

const KEEP = 50;
const shown: ShownMessage[] = [];

/** The last messages shown, oldest first. */
export function recentMessages(): readonly ShownMessage[] {
	return [...shown];
}

/** Shows a message with action buttons; resolves to the chosen action, if any. */
export function notify(severity: Severity, text: string, ...actions: string[]): Thenable<string | undefined> {
	shown.push({ severity, text, actions });
	if (shown.length > KEEP) shown.splice(0, shown.length - KEEP);
	switch (severity) {
		case 'info':
			return vscode.window.showInformationMessage(text, ...actions);
		case 'warning':
			return vscode.window.showWarningMessage(text, ...actions);
		case 'error':
			return vscode.window.showErrorMessage(text, ...actions);
	}
}
