// The network: one HTTP request through undici, direct or through a proxy. Bundled apart
// (in dist/network.js) and loaded on the first request only, so activation never pays
// for undici. Failures come back as ApiError `network`, `timeout` or `cancelled`.
import { EventEmitter } from 'node:events';
import { Agent, ProxyAgent, request, type Dispatcher } from 'undici';
import { ApiError, cancelledMessage, isApiError, networkMessage, timeoutMessage, tooLargeMessage } from './errors';
import { decideProxy } from './proxy';
import type { HttpRequest, HttpResponse, ProxySettings, Transport } from './types';
import { untranslated, type Translate } from '../util/translate';
import { hostOf } from '../util/url';

/** Largest body we read; the service's answers are a few KiB. */
export const MAX_BODY_BYTES = 1024 * 1024;

const NO_SETTINGS: ProxySettings = { strictSSL: true, noProxy: [] };

const TLS_CODES = new Set([
	'CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN',
	'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
	'ERR_TLS_CERT_ALTNAME_INVALID', 'EPROTO', 'ERR_SSL_WRONG_VERSION_NUMBER', 'UND_ERR_PRX_TLS',
]);

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

/** The first error code along the `cause` chain. */
export function errorCode(error: unknown): string | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 4 && current; depth++) {
		const code = (current as { code?: unknown }).code;
		if (typeof code === 'string' && code !== 'UND_ERR') return code;
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

/** A short phrase for a connection failure code, for the user's message. */
export function networkReason(code: string | undefined, viaProxy: string | undefined): string {
	const proxy = viaProxy ? ` (through the proxy ${viaProxy})` : '';
	if (code === 'ECONNREFUSED') return `connection refused${proxy}`;
	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return viaProxy ? `host name not found${proxy}` : 'host name not found';
	if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') return `the connection was closed unexpectedly${proxy}`;
	if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'ENETDOWN') return `host unreachable${proxy}`;
	if (code !== undefined && TLS_CODES.has(code)) return `TLS/certificate problem: ${code}${proxy}`;
	if (code === 'UND_ERR_ABORTED' && viaProxy) return `the proxy ${viaProxy} refused the connection`;
	return `network error${code ? ` ${code}` : ''}${proxy}`;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
	const flat: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers)) {
		if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
	}
	return flat;
}

async function readCapped(body: Dispatcher.ResponseData['body'], url: string, t: Translate): Promise<string> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of body) {
		const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
		size += buffer.length;
		if (size > MAX_BODY_BYTES) {
			body.destroy();
			throw new ApiError('badResponse', tooLargeMessage(hostOf(url), MAX_BODY_BYTES, t));
		}
		chunks.push(buffer);
	}
	return Buffer.concat(chunks).toString('utf8');
}

export function createUndiciTransport(env: NodeJS.ProcessEnv = process.env, t: Translate = untranslated): Transport {
	const dispatchers = new Map<string, Dispatcher>();

	function dispatcherFor(url: string, settings: ProxySettings): { dispatcher: Dispatcher; viaProxy?: string } {
		const decision = decideProxy(url, settings, env);
		if (decision.kind === 'direct') {
			const key = `direct|${settings.strictSSL}`;
			let agent = dispatchers.get(key);
			if (!agent) {
				agent = new Agent({ connect: { rejectUnauthorized: settings.strictSSL } });
				dispatchers.set(key, agent);
			}
			return { dispatcher: agent };
		}
		const key = `proxy|${decision.strictSSL}|${decision.proxyUrl}`;
		let agent = dispatchers.get(key);
		if (!agent) {
			agent = new ProxyAgent({
				uri: decision.proxyUrl,
				requestTls: { rejectUnauthorized: decision.strictSSL },
				proxyTls: { rejectUnauthorized: decision.strictSSL },
			});
			dispatchers.set(key, agent);
		}
		return { dispatcher: agent, viaProxy: hostOf(decision.proxyUrl) };
	}

	return async (req: HttpRequest): Promise<HttpResponse> => {
		if (req.signal?.aborted) throw new ApiError('cancelled', cancelledMessage(t));

		// undici also takes an EventEmitter as `signal`; a fresh AbortController's signal costs
		// ~30 µs more per request there (measured, Node 20), the emitter ~5 µs. Our timer and
		// the caller's signal both fire it.
		const abort = new EventEmitter();
		let timedOut = false;
		const timer = setTimeout(() => {
			timedOut = true;
			abort.emit('abort');
		}, req.timeoutMs);
		const onCallerAbort = (): void => {
			abort.emit('abort');
		};
		req.signal?.addEventListener('abort', onCallerAbort, { once: true });

		let viaProxy: string | undefined;
		try {
			const chosen = dispatcherFor(req.url, req.proxy ?? NO_SETTINGS);
			viaProxy = chosen.viaProxy;
			const response = await request(req.url, {
				method: req.method,
				headers: req.headers,
				body: req.body,
				dispatcher: chosen.dispatcher,
				signal: abort,
				headersTimeout: req.timeoutMs,
				bodyTimeout: req.timeoutMs,
			});
			const body = await readCapped(response.body, req.url, t);
			return { status: response.statusCode, headers: flattenHeaders(response.headers), body };
		} catch (e) {
			if (isApiError(e)) throw e;
			if (req.signal?.aborted) throw new ApiError('cancelled', cancelledMessage(t));
			const host = hostOf(req.url);
			const code = errorCode(e);
			if (timedOut || (code !== undefined && TIMEOUT_CODES.has(code))) throw new ApiError('timeout', timeoutMessage(host, req.timeoutMs, t));
			if (e instanceof Error && e.message.startsWith('Proxy response (')) {
				const status = /\((\d{3})\)/.exec(e.message)?.[1];
				const answer = status === '407' ? 'asked for authentication (407)' : `answered ${status ?? 'with an error'}`;
				throw new ApiError('network', networkMessage(host, `the proxy ${viaProxy ?? ''} ${answer}`, t));
			}
			throw new ApiError('network', networkMessage(host, networkReason(code, viaProxy), t));
		} finally {
			clearTimeout(timer);
			req.signal?.removeEventListener('abort', onCallerAbort);
		}
	};
}
