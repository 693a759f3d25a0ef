// Shows a failure as an error notification a person can act on: the message says what
// happened and what to do; "Show Log" opens the log; a refused login offers "Try Again".
import vscode = require('../../system/vscodeApi');
import { ApiError } from '../../core/api/errors';
import type { Services } from '../../services';
import { SecretStorageError } from '../../system/secretBackend';
import { notify } from './notify';
import { caughtText } from '../../core/util/caughtText';

export interface ErrorAction {
	title: string;
	run(): unknown;
}

export interface ShowErrorOptions {
	/** Put before the message, e.g. `Could not refresh the token for X.` */
	prefix?: string;
	/** Offered as "Try Again" when the service refused the credentials. */
	tryAgain?: () => unknown;
	/** More buttons, shown before "Show Log". */
	actions?: readonly ErrorAction[];
}

/** The text to show for a failure, with every known secret masked. */
export function errorText(services: Pick<Services, 'log'>, error: unknown): string {
	let text: string;
	if (error instanceof ApiError || error instanceof SecretStorageError) {
		text = error.message;
	} else {
		const detail = caughtText(error);
		text = vscode.l10n.t('Something went wrong: {0}. See the log for details.', detail.replace(/\.$/, ''));
	}
	return services.log.redact(text);
}

/**
 * Shows `error` and logs it. Returns at once; a chosen action runs when the person picks it.
 */
export function showError(services: Pick<Services, 'log' | 'output'>, error: unknown, options: ShowErrorOptions = {}): void {
	const text = errorText(services, error);
	const message = options.prefix ? `${options.prefix} ${text}` : text;
	services.log.error(message);
	if (error instanceof Error && !(error instanceof ApiError) && error.stack) services.log.debug(error.stack);
	const actions: ErrorAction[] = [...(options.actions ?? [])];
	if (options.tryAgain && error instanceof ApiError && error.kind === 'badCredentials') {
		actions.unshift({ title: vscode.l10n.t('Try Again'), run: options.tryAgain });
	}
	actions.push({ title: vscode.l10n.t('Show Log'), run: () => services.output.show(true) });
	void notify('error', message, ...actions.map((a) => a.title)).then((chosen) => {
		actions.find((a) => a.title === chosen)?.run();
	});
}
