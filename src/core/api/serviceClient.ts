// The API client as the extension uses it: each request through VS Code's fetch where it serves,
// else through undici (routes.ts). Creating it loads nothing; undici loads on first use.
import { createApiClient } from './client';
import { createRouter, type RouteOptions } from './routes';
import { createTransport } from './transport';
import type { ApiClient } from './types';
import type { Log } from '../util/log';
import type { Translate } from '../util/translate';

/** `t` words the error messages (the VS Code layer passes `vscode.l10n.t`). */
export function createServiceClient(log: Log, t?: Translate, options: Omit<RouteOptions, 't' | 'log'> = {}): ApiClient {
	return createApiClient(createTransport(createRouter({ ...options, t, log }), t), log, t);
}
