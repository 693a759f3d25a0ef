// The API client as the extension uses it: over undici, with the proxy and trusted roots of
// the request's settings. Creating it loads nothing; undici loads on the first request.
import { createApiClient } from './client';
import type { ApiClient } from './types';
import { createUndiciTransport } from './undiciTransport';
import type { Log } from '../util/log';
import type { Translate } from '../util/translate';

/** `t` words the error messages (the VS Code layer passes `vscode.l10n.t`). */
export function createServiceClient(log: Log, t?: Translate): ApiClient {
	return createApiClient(createUndiciTransport({ env: process.env, t, log }), log, t);
}
