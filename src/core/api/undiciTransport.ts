// One HTTP request through undici (loaded on the first request), direct or through a proxy.
// Failures come back as ApiError `network`, `timeout` or `cancelled`.
import { EventEmitter } from 'node:events';
import { isIP } from 'node:net';
import * as tls from 'node:tls';
import type { Dispatcher } from 'undici';
import { ApiError, badProxyAuthorizationMessage, cancelledMessage, networkMessage, proxyAuthenticationMessage, timeoutMessage, tooLargeMessage, untrustedCertificateMessage } from './errors';
import { loadTrustedRoots, nodeTrustStoreDeps, type TrustStoreDeps } from './trustStore';
import { decideProxy, isSafeHeaderValue } from './proxy';
import type { HttpRequest, HttpResponse, ProxySettings, Transport } from './types';
import { silentLog, type Log } from '../util/log';
import { untranslated, type Translate } from '../util/translate';
import { displayText } from '../util/displayText';
import { hostOf } from '../util/url';

/** Largest body we read; the service's answers are a few KiB. */
export const MAX_BODY_BYTES = 1024 * 1024;

const NO_SETTINGS: ProxySettings = { strictSSL: true, noProxy: [] };

const TLS_CODES = new Set([
	'CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN',
	'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
	'ERR_TLS_CERT_ALTNAME_INVALID', 'EPROTO', 'ERR_SSL_WRONG_VERSION_NUMBER', 'UND_ERR_PRX_TLS',
]);

/** Codes that mean the server's certificate chain is not trusted (as opposed to a broken TLS session). */
const UNTRUSTED_CODES = new Set([
	'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
	'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
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

export interface TransportOptions {
	env?: NodeJS.ProcessEnv;
	t?: Translate;
	log?: Log;
	/** Where the OS store is read from (tests point it at a bundle of their own). */
	trustStore?: TrustStoreDeps;
}

/**
 * The issuer a server's certificate chain ends at, for a message that names it. It reads the
 * chain and closes at once, sending nothing: no request ever goes over a connection whose
 * certificate was not verified. Undefined when it cannot tell (within 3 s).
 */
export function untrustedIssuer(url: string, secureContext: tls.SecureContext | undefined): Promise<string | undefined> {
	let target: URL;
	try {
		target = new URL(url);
	} catch {
		return Promise.resolve(undefined);
	}
	if (target.protocol !== 'https:') return Promise.resolve(undefined);
	return new Promise((resolve) => {
		const host = target.hostname.replace(/^\[|\]$/g, '');
		const socket = tls.connect({ host, port: Number(target.port || 443), servername: isIP(host) ? undefined : host, secureContext, rejectUnauthorized: false });
		const done = (issuer: string | undefined) => {
			clearTimeout(timer);
			socket.destroy();
			resolve(issuer);
		};
		const timer = setTimeout(() => done(undefined), 3000);
		socket.once('secureConnect', () => {
			if (socket.authorized) return done(undefined);
			let cert = socket.getPeerCertificate(true);
			for (let depth = 0; depth < 10 && cert?.issuerCertificate && cert.issuerCertificate !== cert; depth++) cert = cert.issuerCertificate;
			const issuer = cert?.issuer;
			const name = issuer ? displayText([issuer.CN, issuer.O].filter(Boolean).map(String).join(', '), 200) : '';
			done(name || undefined);
		});
		socket.once('error', () => done(undefined));
	});
}

type Undici = typeof import('./undici');

export function createUndiciTransport(options: TransportOptions = {}): Transport {
	/** undici once the first request has loaded it (a load that failed is tried again by the next). */
	let undici: Undici | undefined;
	const env = options.env ?? process.env;
	const t = options.t ?? untranslated;
	const log = options.log ?? silentLog;
	const dispatchers = new Map<string, Dispatcher>();
	/** The trusted roots as one TLS context, per list of extra files; built on the first HTTPS request. */
	const contexts = new Map<string, Promise<tls.SecureContext>>();

	function secureContextFor(settings: ProxySettings): Promise<tls.SecureContext> {
		const extra = settings.extraCertificates ?? [];
		const key = JSON.stringify(extra);
		let context = contexts.get(key);
		if (!context) {
			const started = performance.now();
			context = loadTrustedRoots(extra, { ...(options.trustStore ?? nodeTrustStoreDeps), env }).then((roots) => {
				const secureContext = tls.createSecureContext({ ca: roots.certificates });
				log.info(`${roots.summary} Ready for TLS in ${Math.round(performance.now() - started)} ms.`);
				for (const problem of roots.problems) log.warn(`Trusted roots: ${problem}.`);
				return secureContext;
			});
			contexts.set(key, context);
		}
		return context;
	}

	function dispatcherFor({ Agent, ProxyAgent }: Undici, url: string, settings: ProxySettings, secureContext: tls.SecureContext | undefined, contextKey: string): { dispatcher: Dispatcher; viaProxy?: string } {
		const decision = decideProxy(url, settings, env);
		const tlsOptions = { rejectUnauthorized: settings.strictSSL, ...(secureContext && { secureContext }) };
		if (decision.kind === 'direct') {
			const key = `direct|${settings.strictSSL}|${contextKey}`;
			let agent = dispatchers.get(key);
			if (!agent) {
				agent = new Agent({ connect: tlsOptions });
				dispatchers.set(key, agent);
			}
			return { dispatcher: agent };
		}
		const token = settings.proxyAuthorization;
		if (token !== undefined && !isSafeHeaderValue(token)) throw new ApiError('network', badProxyAuthorizationMessage(t));
		const key = `proxy|${decision.strictSSL}|${decision.proxyUrl}|${contextKey}|${token ?? ''}`;
		let agent = dispatchers.get(key);
		if (!agent) {
			const tunnelled = { rejectUnauthorized: decision.strictSSL, ...(secureContext && { secureContext }) };
			// Credentials in the proxy URL (http://user:pass@host) are sent by undici itself.
			agent = new ProxyAgent({ uri: decision.proxyUrl, requestTls: tunnelled, proxyTls: tunnelled, ...(token && { token }) });
			dispatchers.set(key, agent);
		}
		return { dispatcher: agent, viaProxy: hostOf(decision.proxyUrl) };
	}

	return async (req: HttpRequest): Promise<HttpResponse> => {
		if (req.signal?.aborted) throw new ApiError('cancelled', cancelledMessage(t));

		// An EventEmitter as undici's `signal` (cheaper per request than an AbortController, which
		// kept the login overhead above its target): our timer and the caller's signal both fire it.
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
		let secureContext: tls.SecureContext | undefined;
		try {
			const settings = req.proxy ?? NO_SETTINGS;
			// Plain http (the emulator on loopback) needs no roots: they load on the first https request.
			if (req.url.startsWith('https:')) secureContext = await secureContextFor(settings);
			const loaded = undici ??= await import('./undici');
			const chosen = dispatcherFor(loaded, req.url, settings, secureContext, secureContext ? JSON.stringify(settings.extraCertificates ?? []) : '');
			viaProxy = chosen.viaProxy;
			const response = await loaded.request(req.url, {
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
			if (e instanceof ApiError) throw e;
			if (req.signal?.aborted) throw new ApiError('cancelled', cancelledMessage(t));
			const host = hostOf(req.url);
			const code = errorCode(e);
			if (timedOut || (code !== undefined && TIMEOUT_CODES.has(code))) throw new ApiError('timeout', timeoutMessage(host, req.timeoutMs, t));
			if (e instanceof Error && e.message.startsWith('Proxy response (')) {
				const status = /\((\d{3})\)/.exec(e.message)?.[1];
				if (status === '407') throw new ApiError('network', proxyAuthenticationMessage(host, viaProxy ?? '', t));
				throw new ApiError('network', networkMessage(host, `the proxy ${viaProxy ?? ''} answered ${status ?? 'with an error'}`, t));
			}
			if (code !== undefined && UNTRUSTED_CODES.has(code)) {
				const issuer = viaProxy ? undefined : await untrustedIssuer(req.url, secureContext);
				throw new ApiError('network', untrustedCertificateMessage(host, issuer, code, viaProxy, t));
			}
			throw new ApiError('network', networkMessage(host, networkReason(code, viaProxy), t));
		} finally {
			clearTimeout(timer);
			req.signal?.removeEventListener('abort', onCallerAbort);
		}
	};
}
