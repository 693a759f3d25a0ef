// The API client as the extension uses it: each request through VS Code's fetch where it serves,
// else through undici (routes.ts). Creating it loads nothing; undici loads on first use.
import { createApiClient } from './client';
import { createRouter, type RouteOptions } from './routes';
import { createTransport } from './transport';
import type { ApiClient, RequestSettings } from './types';
import type { Log } from '../util/log';
import type { Translate } from '../util/translate';

export interface ServiceClientOptions extends Omit<RouteOptions, 't' | 'log'> {
	/** Where each request's timeout and proxy come from (the VS Code layer passes its `Config`). */
	settings?: RequestSettings;
}

/** `t` words the error messages (the VS Code layer passes `vscode.l10n.t`). */
export function createServiceClient(log: Log, t?: Translate, options: ServiceClientOptions = {}): ApiClient {
	const { settings, ...routing } = options;
	return createApiClient(createTransport(createRouter({ ...routing, t, log }), t), log, t, settings);
}
