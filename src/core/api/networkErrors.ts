// What a failed exchange becomes for the person: an ApiError `network`, `timeout` or `cancelled`
// that names the host, the proxy where it is known and, for an untrusted certificate, the issuer.
import { isIP } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { ApiError } from './errors';
import { cancelledMessage, networkMessage, proxyAuthenticationMessage, timeoutMessage, untrustedCertificateMessage } from './errorMessages';
import { untranslated, type Translate } from '../util/translate';
import { displayText } from '../util/displayText';
import { bareHostname, hostOf } from '../util/url';

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

/** The errors along the `cause` chain (fetch wraps the real one in `TypeError: fetch failed`). */
function causes(error: unknown): unknown[] {
	const chain: unknown[] = [];
	for (let current = error, depth = 0; depth < 5 && current; depth++, current = (current as { cause?: unknown }).cause) chain.push(current);
	return chain;
}

/** The first error code along the `cause` chain. */
export function errorCode(error: unknown): string | undefined {
	for (const e of causes(error)) {
		const code = (e as { code?: unknown }).code;
		if (typeof code === 'string' && code !== 'UND_ERR') return code;
	}
	return undefined;
}

/** The HTTP status a proxy refused the tunnel with (undici: `Proxy response (407) !== 200 …`). */
export function proxyRefusal(error: unknown): string | undefined {
	for (const e of causes(error)) {
		const message = e instanceof Error ? e.message : '';
		if (message.startsWith('Proxy response (')) return /\((\d{3})\)/.exec(message)?.[1] ?? '';
	}
	return undefined;
}

/** A short phrase for a connection failure code, for the user's message. */
export function networkReason(code: string | undefined, viaProxy: string | undefined, t: Translate = untranslated): string {
	const proxy = viaProxy ? t(' (through the proxy {0})', viaProxy) : '';
	if (code === 'ECONNREFUSED') return t('connection refused{0}', proxy);
	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return t('host name not found{0}', proxy);
	if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') return t('the connection was closed unexpectedly{0}', proxy);
	if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'ENETDOWN') return t('host unreachable{0}', proxy);
	if (code !== undefined && TLS_CODES.has(code)) return t('TLS/certificate problem: {0}{1}', code, proxy);
	if (code === 'UND_ERR_ABORTED' && viaProxy) return t('the proxy {0} refused the connection', viaProxy);
	return code ? t('network error {0}{1}', code, proxy) : t('network error{0}', proxy);
}

/**
 * The issuer a server's certificate chain ends at, for a message that names it. It reads the
 * chain and closes at once, sending nothing: no request ever goes over a connection whose
 * certificate was not verified. Undefined when it cannot tell (within 3 s).
 */
export function untrustedIssuer(url: string): Promise<string | undefined> {
	let target: URL;
	try {
		target = new URL(url);
	} catch {
		return Promise.resolve(undefined);
	}
	if (target.protocol !== 'https:') return Promise.resolve(undefined);
	return new Promise((resolve) => {
		const host = bareHostname(target.hostname);
		const socket = tlsConnect({ host, port: Number(target.port || 443), servername: isIP(host) ? undefined : host, rejectUnauthorized: false });
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

/** How the exchange ended, besides the error itself. */
export interface FailedExchange {
	url: string;
	timeoutMs: number;
	timedOut: boolean;
	cancelled: boolean;
	/** `host[:port]` of the proxy the request went to, when it is known. */
	viaProxy?: string;
	t: Translate;
}

/** The ApiError for an exchange that threw `error` (an ApiError passes through as it is). */
export async function toApiError(error: unknown, exchange: FailedExchange): Promise<ApiError> {
	if (error instanceof ApiError) return error;
	const { t, viaProxy } = exchange;
	if (exchange.cancelled) return new ApiError('cancelled', cancelledMessage(t));
	const host = hostOf(exchange.url);
	const code = errorCode(error);
	if (exchange.timedOut || (code !== undefined && TIMEOUT_CODES.has(code))) return new ApiError('timeout', timeoutMessage(host, exchange.timeoutMs, t));
	const refusal = proxyRefusal(error);
	if (refusal === '407') return new ApiError('network', proxyAuthenticationMessage(host, viaProxy, t));
	if (refusal !== undefined) {
		const reason = viaProxy ? t('the proxy {0} answered {1}', viaProxy, refusal || '?') : t('a proxy answered {0}', refusal || '?');
		return new ApiError('network', networkMessage(host, reason, t));
	}
	if (code !== undefined && UNTRUSTED_CODES.has(code)) {
		// Through a proxy the direct handshake would not meet the same server: no issuer then.
		const issuer = viaProxy ? undefined : await untrustedIssuer(exchange.url);
		return new ApiError('network', untrustedCertificateMessage(host, issuer, code, viaProxy, t));
	}
	return new ApiError('network', networkMessage(host, networkReason(code, viaProxy, t), t));
}
