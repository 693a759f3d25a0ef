// Loads the network code on the first request only. esbuild keeps `./undiciTransport` as a
// separate bundle (see esbuild.js, lazyNetworkPlugin), so activation never loads undici.
import type { Transport } from './types';

export function lazyUndiciTransport(): () => Promise<Transport> {
	let loading: Promise<Transport> | undefined;
	return () => {
		loading ??= import('./undiciTransport').then((m) => m.createUndiciTransport()).catch((e: unknown) => {
			loading = undefined; // let the next request try again
			throw e;
		});
		return loading;
	};
}
