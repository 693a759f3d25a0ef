// `context.secrets` for the session store: a failed read, write or delete is logged and thrown, so the store
// keeps what it holds and a login or logout reports it instead of pretending it worked.
import type * as vscode from 'vscode';
import type { SecretBackend } from '../core/sessions/types';
import type { Log } from '../core/util/log';
import { untranslated, type Translate } from '../core/util/translate';
import type { Event } from '../core/util/event';
import { caughtText } from '../core/util/caughtText';

/** Thrown when the system keychain refuses a write. Its message is for people. */
export class SecretStorageError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'SecretStorageError';
	}
}


export class KeychainSecretBackend implements SecretBackend {
	readonly onDidChange: Event<{ key: string }>;

	constructor(
		private readonly secrets: vscode.SecretStorage,
		private readonly log: Log,
		/** Words the messages people see (startup passes `vscode.l10n.t`). */
		private readonly t: Translate = untranslated,
	) {
		this.onDidChange = (listener) => this.secrets.onDidChange((e) => listener({ key: e.key }));
	}

	/** A failed read is logged and thrown: the store keeps what it holds, never taking it for a logout. */
	async get(key: string): Promise<string | undefined> {
		try {
			return await this.secrets.get(key);
		} catch (e) {
			this.log.error(`Could not read secret ${key} from the system keychain: ${caughtText(e)}`);
			throw e;
		}
	}

	async store(key: string, value: string): Promise<void> {
		try {
			await this.secrets.store(key, value);
		} catch (e) {
			this.log.error(`Could not write secret ${key} to the system keychain: ${caughtText(e)}`);
			throw new SecretStorageError(this.t('Could not save the tokens in the system keychain (VS Code secret storage). Check that the keychain is unlocked and try again; see the log for details.'));
		}
	}

	async delete(key: string): Promise<void> {
		try {
			await this.secrets.delete(key);
		} catch (e) {
			this.log.error(`Could not delete secret ${key} from the system keychain: ${caughtText(e)}`);
			throw new SecretStorageError(this.t('Could not delete the tokens from the system keychain (VS Code secret storage). Check that the keychain is unlocked and try again; see the log for details.'));
		}
	}
}
