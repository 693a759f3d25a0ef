// An ApiClient whose code (client, parsing, undici) loads on the first request. esbuild keeps
// `./network` a separate bundle (see esbuild.js, lazyNetworkPlugin); with tsc's out/ the same
// relative import loads out/src/api/network.js.
import type { ApiClient } from './types';
import type { Log } from '../util/log';
import type { Translate } from '../util/translate';

/** `t` words the error messages (the VS Code layer passes `vscode.l10n.t`). */
export function lazyApiClient(log: Log, t?: Translate): ApiClient {
	let loading: Promise<ApiClient> | undefined;
	const client = (): Promise<ApiClient> => {
		loading ??= import('./network').then((m) => m.createNetworkClient(log, t)).catch((e: unknown) => {
			loading = undefined; // let the next request try again
			throw e;
		});
		return loading;
	};
	return {
		login: async (request, options) => (await client()).login(request, options),
		refresh: async (request, options) => (await client()).refresh(request, options),
	};
}
