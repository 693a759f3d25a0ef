// What the whole extension shares, created in extension.ts and handed to each feature.
import type * as vscode from 'vscode';
import type { ApiClient } from './core/api/types';
import type { Config } from './platform/config';
import type { IRefreshScheduler, ISessionStore } from './core/sessions/contracts';
import type { Log } from './core/util/log';
import type { Clock } from './core/util/clock';

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
