// An ApiClient whose code (client, parsing, undici) loads on the first request. esbuild keeps
// `./network` a separate bundle (see esbuild.js, lazyNetworkPlugin); with tsc's out/ the same
// relative import loads out/src/api/network.js.
import type { ApiClient } from './types';
import type { Log } from '../util/log';

export function lazyApiClient(log: Log): ApiClient {
	let loading: Promise<ApiClient> | undefined;
	const client = (): Promise<ApiClient> => {
		loading ??= import('./network').then((m) => m.createNetworkClient(log)).catch((e: unknown) => {
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
