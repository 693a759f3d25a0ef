// Where a request goes: through VS Code's own fetch (PAC, system proxies, Kerberos, proxy sign-in,
// the OS certificates) wherever it can serve, else through undici with our proxy choice and roots.
import { createSecureContext, type SecureContext } from 'node:tls';
import { ApiError } from './errors';
import { badProxyAuthorizationMessage } from './errorMessages';
import { decideProxy, isSafeHeaderValue } from './proxy';
import { loadTrustedRoots, nodeTrustStoreDeps, trustsMoreThanVsCode, type TrustStoreDeps } from './trustStore';
import type { Fetch, Route } from './transport';
import type { HttpRequest, ProxySettings } from './types';
import { silentLog, type Log } from '../util/log';
import { untranslated, type Translate } from '../util/translate';
import { hostOf } from '../util/url';

const NO_SETTINGS: ProxySettings = { strictSSL: true, noProxy: [] };

export type RouteChoice = { kind: 'host' } | { kind: 'undici'; reason: string };

/**
 * VS Code's fetch wherever it serves; undici where it does not: outside VS Code or in a host
 * without the patched fetch, with `http.fetchAdditionalSupport: false`, and with
 * `http.proxyAuthorization` (VS Code's fetch does not send it; its http/https modules do).
 */
export function chooseRoute(settings: ProxySettings, hostFetch: boolean): RouteChoice {
	if (!hostFetch) return { kind: 'undici', reason: 'no VS Code network stack here (VS Code before 1.96, or outside VS Code)' };
	if (settings.fetchAdditionalSupport === false) return { kind: 'undici', reason: 'http.fetchAdditionalSupport is off' };
	if (settings.proxyAuthorization !== undefined) return { kind: 'undici', reason: 'http.proxyAuthorization is set, which VS Code\'s fetch does not send' };
	return { kind: 'host' };
}

/** VS Code's fetch when the extension host patched it (1.96+), looked up per request. */
export function vscodeFetch(): Fetch | undefined {
	const host = globalThis as { __vscodeOriginalFetch?: unknown; fetch?: unknown };
	return typeof host.__vscodeOriginalFetch === 'function' && typeof host.fetch === 'function' ? (host.fetch as Fetch) : undefined;
}

export interface RouteOptions {
	env?: NodeJS.ProcessEnv;
	t?: Translate;
	log?: Log;
	/** Where the OS store is read from (tests point it at a bundle of their own). */
	trustStore?: TrustStoreDeps;
	/** VS Code's fetch, when there is one (default: `vscodeFetch`). */
	hostFetch?: () => Fetch | undefined;
}

type Undici = typeof import('./undici');

/** The trusted roots as VS Code's fetch takes them (a CA list) and as undici does (one TLS context). */
interface Roots {
	ca: string[];
	summary: string;
	context(): SecureContext;
}

/** The route for each request; undici and the trusted roots load on the first request that needs them. */
export function createRouter(options: RouteOptions = {}): (request: HttpRequest) => Promise<Route> {
	const env = options.env ?? process.env;
	const t = options.t ?? untranslated;
	const log = options.log ?? silentLog;
	const hostFetch = options.hostFetch ?? vscodeFetch;
	let undici: Undici | undefined;
	const dispatchers = new Map<string, unknown>();
	const roots = new Map<string, Promise<Roots>>();
	let lastChoice = '';

	/**
	 * Node's roots, the OS store, NODE_EXTRA_CA_CERTS and the extra files, read once per list of
	 * extra files; the TLS context undici needs (tens of ms for ~300 roots) is built on first use.
	 */
	function trustedRoots(extra: readonly string[]): Promise<Roots> {
		const key = JSON.stringify(extra);
		let loaded = roots.get(key);
		if (!loaded) {
			const started = performance.now();
			loaded = loadTrustedRoots(extra, { ...(options.trustStore ?? nodeTrustStoreDeps), env }).then((found) => {
				for (const problem of found.problems) log.warn(`Trusted roots: ${problem}.`);
				let context: SecureContext | undefined;
				const buildContext = (): SecureContext => {
					context = createSecureContext({ ca: found.certificates });
					log.info(`${found.summary} Ready for TLS in ${Math.round(performance.now() - started)} ms.`);
					return context;
				};
				return { ca: found.certificates, summary: found.summary, context: () => context ?? buildContext() };
			});
			roots.set(key, loaded);
		}
		return loaded;
	}

	function cached<T>(key: string, make: () => T): T {
		let dispatcher = dispatchers.get(key) as T | undefined;
		if (dispatcher === undefined) {
			dispatcher = make();
			dispatchers.set(key, dispatcher);
		}
		return dispatcher;
	}

	function logChoice(choice: RouteChoice): void {
		const text = choice.kind === 'host'
			? 'Requests go through VS Code\'s network stack (its proxy settings, PAC, proxy sign-in and certificates).'
			: `Requests go through the extension's own HTTP client: ${choice.reason}.`;
		if (text !== lastChoice) log.info(text);
		lastChoice = text;
	}

	return async (req: HttpRequest): Promise<Route> => {
		const settings = req.proxy ?? NO_SETTINGS;
		const extra = settings.extraCertificates ?? [];
		const https = req.url.startsWith('https:');
		const host = hostFetch();
		const choice = chooseRoute(settings, host !== undefined);
		logChoice(choice);
		if (choice.kind === 'host' && host) {
			// VS Code's fetch hands Node an explicit CA list (Node's roots and the OS store), which
			// leaves out NODE_EXTRA_CA_CERTS; it takes a dispatcher's `connect.ca` instead of its own
			// list, so where the person trusts more, ours goes along with everything in it.
			if (!https || !trustsMoreThanVsCode(extra, env)) return { fetch: host };
			const { Agent } = undici ??= await import('./undici');
			const trusted = await trustedRoots(extra);
			return {
				fetch: host,
				dispatcher: cached(`host|${JSON.stringify(extra)}`, () => {
					log.info(trusted.summary);
					return new Agent({ connect: { ca: trusted.ca } });
				}),
			};
		}
		const loaded = undici ??= await import('./undici');
		const context = https ? (await trustedRoots(extra)).context() : undefined;
		const contextKey = context ? JSON.stringify(extra) : '';
		const decision = decideProxy(req.url, settings, env);
		if (decision.kind === 'direct') {
			// Certificate checks stay on for the service itself, whatever http.proxyStrictSSL says.
			return { fetch: loaded.fetch as unknown as Fetch, dispatcher: cached(`direct|${contextKey}`, () => new loaded.Agent({ connect: { ...(context && { secureContext: context }) } })) };
		}
		const token = settings.proxyAuthorization;
		if (token !== undefined && !isSafeHeaderValue(token)) throw new ApiError('network', badProxyAuthorizationMessage(t));
		const key = `proxy|${decision.strictSSL}|${decision.proxyUrl}|${contextKey}|${token ?? ''}`;
		const dispatcher = cached(key, () => new loaded.ProxyAgent({
			uri: decision.proxyUrl,
			requestTls: { ...(context && { secureContext: context }) },
			// As VS Code does, http.proxyStrictSSL: false reaches only the connection to an https:// proxy.
			proxyTls: { rejectUnauthorized: decision.strictSSL, ...(context && { secureContext: context }) },
			// Credentials in the proxy URL (http://user:pass@host) are sent by undici itself.
			...(token && { token }),
		}));
		return { fetch: loaded.fetch as unknown as Fetch, dispatcher, viaProxy: hostOf(decision.proxyUrl) };
	};
}
