// What the whole extension shares, created in extension.ts and handed to each feature.
import type * as vscode from 'vscode';
import type { ApiClient } from './core/api/types';
import type { Config } from './system/config';
import type { RefreshScheduler } from './core/sessions/refreshScheduler';
import type { SessionStore } from './core/sessions/sessionStore';
import type { RedactingLog } from './core/util/redactingLog';
import type { Clock } from './core/util/clock';
import type { Ticker } from './core/util/ticker';
import type { PrompterSlot } from './core/models/prompter';
import type { LoginBudget } from './core/login/loginBudget';
import type { EarlierTokens } from './core/sessions/earlierTokens';

export interface Services {
	readonly context: vscode.ExtensionContext;
	readonly config: Config;
	/** Redacting log over the "Telematics Auth" LogOutputChannel. */
	readonly log: RedactingLog;
	/** The channel itself, for `show()`. */
	readonly output: vscode.LogOutputChannel;
	readonly clock: Clock;
	/** The one timer for every text that shows a time left. */
	readonly ticker: Ticker;
	readonly store: SessionStore;
	readonly scheduler: RefreshScheduler;
	/** The API client; its network code (undici, dist/undici.js) loads on the first request. */
	readonly api: ApiClient;
	/** The logins sent to each service from this machine, and its blocks (globalState). */
	readonly loginBudget: LoginBudget;
	/** Asks the person: the login steps and the confirmations (a test may answer instead). */
	readonly prompts: PrompterSlot;
	/** Each account's access tokens from before its refreshes, until they expire (memory only). */
	readonly earlierTokens: EarlierTokens;
	/** Settles once the stored sessions have been read (commands wait for it: registerCommand.ts). */
	readonly ready: Promise<void>;
}
