// Loads the network code on the first request only. esbuild keeps `./network` as a separate
// bundle (see esbuild.js, lazyNetworkPlugin), so whoever uses this never loads undici up front.
import type { Transport } from './types';

export function lazyUndiciTransport(): () => Promise<Transport> {
	let loading: Promise<Transport> | undefined;
	return () => {
		loading ??= import('./network').then((m) => m.createUndiciTransport()).catch((e: unknown) => {
			loading = undefined; // let the next request try again
			throw e;
		});
		return loading;
	};
}
