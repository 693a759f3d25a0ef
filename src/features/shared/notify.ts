// Shows messages, every one through notificationText (no outside text becomes a link). In ExtensionMode.Test
// only, a recorder keeps the last ones, so the integration tests see what a person was told (TestApi.messages()).
import * as vscode from 'vscode';
import { notificationText } from '../../core/util/displayText';

export type Severity = 'info' | 'warning' | 'error';

export interface ShownMessage {
	severity: Severity;
	text: string;
	actions: readonly string[];
}

const KEEP = 50;
/** Created by `recordMessages()` in test mode only; never in a user's VS Code. */
let shown: ShownMessage[] | undefined;

/** Starts keeping the last messages shown (test mode); returns their reader, oldest first. */
export function recordMessages(): () => readonly ShownMessage[] {
	shown ??= [];
	const recorded = shown;
	return () => [...recorded];
}

/** Shows a message with action buttons; resolves to the chosen action, if any. */
export function notify(severity: Severity, message: string, ...actions: string[]): Thenable<string | undefined> {
	const text = notificationText(message);
	if (shown) {
		shown.push({ severity, text, actions });
		if (shown.length > KEEP) shown.splice(0, shown.length - KEEP);
	}
	switch (severity) {
		case 'info':
			return vscode.window.showInformationMessage(text, ...actions);
		case 'warning':
			return vscode.window.showWarningMessage(text, ...actions);
		case 'error':
			return vscode.window.showErrorMessage(text, ...actions);
	}
}
