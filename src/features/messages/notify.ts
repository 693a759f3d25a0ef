// Shows messages, every one through notificationText (no outside text becomes a link). In ExtensionMode.Test
// only, a recorder keeps the last ones, so the integration tests see what a person was told (TestApi.messages()).
import vscode = require('../../system/vscodeApi');
import { notificationText } from '../../core/util/displayText';

export type Severity = 'info' | 'warning' | 'error';
/** What the recorder keeps: a message, or the title of a notification with progress. */
export type ShownKind = Severity | 'progress';

export interface ShownMessage {
	severity: ShownKind;
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

function record(severity: ShownKind, text: string, actions: readonly string[]): void {
	if (!shown) return;
	shown.push({ severity, text, actions });
	if (shown.length > KEEP) shown.splice(0, shown.length - KEEP);
}

/** Shows a message with action buttons; resolves to the chosen action, if any. */
export function notify(severity: Severity, message: string, ...actions: string[]): Thenable<string | undefined> {
	const text = notificationText(message);
	record(severity, text, actions);
	switch (severity) {
		case 'info':
			return vscode.window.showInformationMessage(text, ...actions);
		case 'warning':
			return vscode.window.showWarningMessage(text, ...actions);
		case 'error':
			return vscode.window.showErrorMessage(text, ...actions);
	}
}

/**
 * A notification with progress while `task` runs. Its title is shown as a notification's message, where
 * `[label](command:…)` renders as a link that runs a command, so it goes through notificationText too.
 */
export function withNotificationProgress<T>(title: string, task: (cancel: vscode.CancellationToken) => Thenable<T>, cancellable = false): Thenable<T> {
	const text = notificationText(title);
	record('progress', text, []);
	// eslint-disable-next-line no-restricted-syntax -- the one place that shows one, its title checked above
	return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: text, cancellable }, (_progress, cancel) => task(cancel));
}
