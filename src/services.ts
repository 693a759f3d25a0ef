// What the whole extension shares, created in extension.ts and handed to each feature.
import type * as vscode from 'vscode';
import type { ApiClient } from './api/types';
import type { Config } from './config';
import type { Clock, IRefreshScheduler, ISessionStore } from './session/contracts';
import type { Log } from './util/log';

export interface Services {
	readonly context: vscode.ExtensionContext;
	readonly config: Config;
	/** Redacting log over the "Telematics Auth" LogOutputChannel. */
	readonly log: Log;
	/** The channel itself, for `show()`. */
	readonly output: vscode.LogOutputChannel;
	readonly clock: Clock;
	readonly store: ISessionStore;
	readonly scheduler: IRefreshScheduler;
	/** The API client; its network code (undici) loads on the first request. */
	readonly api: ApiClient;
}
