// One HTTP exchange through a WHATWG fetch (VS Code's, or undici's own): a deadline over the whole
// exchange, redirects never followed, at most 1 MiB read. Failures come back as ApiError.
import { ApiError } from './errors';
import { cancelledMessage, tooLargeMessage } from './errorMessages';
import { toApiError } from './networkErrors';
import type { HttpRequest, HttpResponse, Transport } from './types';
import { untranslated, type Translate } from '../util/translate';
import { hostOf } from '../util/url';

/** Largest body we read; the service's answers are a few KiB. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** The part of a fetch `Response` we read. */
export interface FetchResponse {
	status: number;
	headers: { forEach(callback: (value: string, name: string) => void): void; get(name: string): string | null };
	body: ReadableStream<Uint8Array> | null;
}

/** What we hand to fetch: `dispatcher` is undici's (VS Code's fetch keeps its CA list, see routes.ts). */
export interface FetchInit {
	method: string;
	headers: Record<string, string>;
	body?: string;
	redirect: 'manual';
	signal: AbortSignal;
	dispatcher?: unknown;
}

export type Fetch = (url: string, init: FetchInit) => Promise<FetchResponse>;

/** Where one request goes: which fetch, with which undici dispatcher, through which proxy if known. */
export interface Route {
	fetch: Fetch;
	dispatcher?: unknown;
	/** `host[:port]` of the proxy, when this side chose it (VS Code's fetch does not say). */
	viaProxy?: string;
}

async function readCapped(response: FetchResponse, url: string, t: Translate): Promise<string> {
	const tooLarge = () => new ApiError('badResponse', tooLargeMessage(hostOf(url), MAX_BODY_BYTES, t));
	if (Number(response.headers.get('content-length')) > MAX_BODY_BYTES) {
		await response.body?.cancel().catch(() => undefined);
		throw tooLarge();
	}
	if (!response.body) return '';
	const reader = response.body.getReader();
	const chunks: Uint8Array[] = [];
	let size = 0;
	for (;;) {
		const { done, value } = await reader.read();
		if (done) break;
		size += value.byteLength;
		if (size > MAX_BODY_BYTES) {
			await reader.cancel().catch(() => undefined);
			throw tooLarge();
		}
		chunks.push(value);
	}
	return Buffer.concat(chunks).toString('utf8');
}

/**
 * `work`, or a rejection as soon as `signal` aborts: VS Code's fetch looks up the proxy (a PAC
 * file, the system) before it looks at the signal, and that lookup must not outlast the deadline.
 * A result that comes after is handed to `discard`.
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal, discard?: (late: T) => void): Promise<T> {
	if (signal.aborted) {
		void work.then(discard, () => undefined);
		return Promise.reject(signal.reason);
	}
	return new Promise<T>((resolve, reject) => {
		const onAbort = (): void => {
			void work.then(discard, () => undefined);
			reject(signal.reason);
		};
		signal.addEventListener('abort', onAbort, { once: true });
		work.then((value) => {
			signal.removeEventListener('abort', onAbort);
			resolve(value);
		}, (error: unknown) => {
			signal.removeEventListener('abort', onAbort);
			reject(error);
		});
	});
}

/** A transport that asks `route` where each request goes, then makes the exchange there. */
export function createTransport(route: (request: HttpRequest) => Promise<Route>, t: Translate = untranslated): Transport {
	return async (req: HttpRequest): Promise<HttpResponse> => {
		if (req.signal?.aborted) throw new ApiError('cancelled', cancelledMessage(t));
		const abort = new AbortController();
		let timedOut = false;
		const timer = setTimeout(() => {
			timedOut = true;
			abort.abort();
		}, req.timeoutMs);
		const onCallerAbort = (): void => abort.abort();
		req.signal?.addEventListener('abort', onCallerAbort, { once: true });
		let viaProxy: string | undefined;
		try {
			const chosen = await untilAborted(route(req), abort.signal);
			viaProxy = chosen.viaProxy;
			const response = await untilAborted(chosen.fetch(req.url, {
				method: req.method,
				headers: req.headers,
				body: req.body,
				redirect: 'manual',
				signal: abort.signal,
				...(chosen.dispatcher !== undefined && { dispatcher: chosen.dispatcher }),
			}), abort.signal, (late) => void late.body?.cancel().catch(() => undefined));
			const body = await readCapped(response, req.url, t);
			const headers: Record<string, string> = {};
			response.headers.forEach((value, name) => (headers[name.toLowerCase()] = value));
			return { status: response.status, headers, body };
		} catch (e) {
			throw await toApiError(e, { url: req.url, timeoutMs: req.timeoutMs, timedOut, cancelled: !timedOut && req.signal?.aborted === true, viaProxy, t });
		} finally {
			clearTimeout(timer);
			req.signal?.removeEventListener('abort', onCallerAbort);
		}
	};
}
