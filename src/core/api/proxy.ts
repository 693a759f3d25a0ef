// Direct or which proxy, for the requests VS Code's fetch cannot carry (routes.ts), from the
// `http.*` settings and the usual environment variables. Pure: no `vscode` import, no I/O.
import type { ProxySettings } from './types';
import { bareHostname, isLoopbackHost } from '../util/url';

export type ProxyDecision = { kind: 'direct' } | { kind: 'proxy'; proxyUrl: string; strictSSL: boolean };

const DIRECT: ProxyDecision = { kind: 'direct' };

function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
	const value = (env[name.toLowerCase()] ?? env[name.toUpperCase()])?.trim();
	return value ? value : undefined;
}

function defaultPort(protocol: string): string {
	return protocol === 'https:' ? '443' : '80';
}

/**
 * One `noProxy` entry against a host, as VS Code reads `http.noProxy`: `*` matches all;
 * `example.com` matches it and its subdomains; `.example.com` and `*.example.com` match
 * subdomains only; `host:port` also needs the port. (No CIDR ranges: VS Code has none either.)
 */
export function matchesNoProxy(entry: string, host: string, port: string): boolean {
	let pattern = entry.trim().toLowerCase();
	if (!pattern) return false;
	if (pattern === '*') return true;
	const withPort = /^([^:]+):(\d+)$/.exec(pattern);
	if (withPort) {
		if (withPort[2] !== port) return false;
		pattern = withPort[1] ?? '';
	}
	if (pattern.startsWith('*.')) pattern = pattern.slice(1);
	if (pattern.startsWith('.')) return host.endsWith(pattern);
	return host === pattern || host.endsWith(`.${pattern}`);
}

/**
 * Whether `value` can go out as a header value as it is: printable ASCII, spaces and tabs only
 * (`Basic …`, `Negotiate …`), so no line break can add a header of its own.
 */
export function isSafeHeaderValue(value: string): boolean {
	return /^[\x20-\x7e\t]*$/.test(value);
}

function splitList(value: string | undefined): string[] {
	return value ? value.split(/[\s,]+/).filter(Boolean) : [];
}

/** A proxy setting without a scheme (`proxy:8080`) means an HTTP proxy. */
function normalizeProxyUrl(value: string): string {
	return /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
}

/**
 * Direct or proxy for `targetUrl`. `http.proxySupport: off` means direct; loopback is always direct; `http.noProxy` and
 * `NO_PROXY` both exempt hosts; `http.proxy` beats the environment; otherwise
 * `HTTPS_PROXY` (falling back to `HTTP_PROXY`, as undici does) for https targets and
 * `HTTP_PROXY` for http targets, lowercase names first.
 */
export function decideProxy(targetUrl: string, settings: ProxySettings, env: NodeJS.ProcessEnv): ProxyDecision {
	let url: URL;
	try {
		url = new URL(targetUrl);
	} catch {
		return DIRECT;
	}
	if (settings.proxySupport === 'off') return DIRECT;
	const host = bareHostname(url.hostname);
	const port = url.port || defaultPort(url.protocol);
	if (isLoopbackHost(host)) return DIRECT;
	const noProxy = [...settings.noProxy, ...splitList(envValue(env, 'no_proxy'))];
	if (noProxy.some((entry) => matchesNoProxy(entry, host, port))) return DIRECT;
	const configured = settings.proxyUrl?.trim();
	const httpProxy = envValue(env, 'http_proxy');
	const chosen = configured || (url.protocol === 'https:' ? envValue(env, 'https_proxy') ?? httpProxy : httpProxy);
	if (!chosen) return DIRECT;
	return { kind: 'proxy', proxyUrl: normalizeProxyUrl(chosen), strictSSL: settings.strictSSL };
}
