// Everything that talks to the service: the API client (requests, parsing, error messages)
// over undici. Bundled apart (dist/network.js, see esbuild.js) and loaded on the first
// request only (lazyClient.ts), so activation pays for none of it.
import { createApiClient } from './client';
import type { ApiClient, Transport } from './types';
import { createUndiciTransport } from './undiciTransport';
import type { Log } from '../util/log';
import type { Translate } from '../util/translate';

export { createUndiciTransport };

/** The API client over undici; `t` words the error messages. */
export function createNetworkClient(log: Log, t?: Translate): ApiClient {
	let transport: Transport | undefined;
	return createApiClient(async () => (transport ??= createUndiciTransport({ env: process.env, t, log })), log, t);
}
