// The platform's hosts, by key, for an account's service (its login host). Pure: no I/O, no `vscode`.
// Small on purpose: it loads with the extension, while the operations load on first use (load.ts).
import { isLoopbackHost } from '../util/url';

/** The platform's hosts, by key. `user` is the login host (the account's service). */
export const HOST_KEYS = ['user', 'api', 'accounts', 'portal'] as const;
export type HostKey = (typeof HOST_KEYS)[number];

/** Host key → origin (`https://api.telematicssdk.com`, no path, no trailing slash). */
export type PlatformHosts = Readonly<Record<HostKey, string>>;

/** The host-name prefix of each key under the platform's domain: `user.X` → `api.X`, `portal-apis.X`. */
const PREFIX: Readonly<Record<HostKey, string>> = { user: 'user', api: 'api', accounts: 'accounts', portal: 'portal-apis' };

/**
 * An origin the platform may use: `https://host[:port]`, or `http` on a loopback host; nothing else (no
 * path, query, credentials). Undefined when `value` is not one.
 */
export function platformOrigin(value: string): string | undefined {
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		return undefined;
	}
	if (url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) return undefined;
	if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname))) return url.origin;
	return undefined;
}

/**
 * The hosts of the platform whose login host is `serviceUrl`. A service at `user.X` has its other hosts
 * at `api.X`, `accounts.X` and `portal-apis.X` (same scheme and port); any other service (the demo on
 * loopback, a company's gateway) serves every key itself. `overrides` (the user setting
 * `telematicsAuth.platformHosts`) replaces keys; a value that is no platform origin is ignored.
 * Undefined when `serviceUrl` is not a platform origin with an optional path.
 */
export function platformHosts(serviceUrl: string, overrides: Readonly<Record<string, unknown>> = {}): PlatformHosts | undefined {
	let service: URL;
	try {
		service = new URL(serviceUrl);
	} catch {
		return undefined;
	}
	const origin = platformOrigin(service.origin);
	if (!origin) return undefined;
	const labels = service.hostname.split('.');
	const derived = labels.length > 2 && labels[0] === PREFIX.user && !isLoopbackHost(service.hostname);
	const hosts = {} as Record<HostKey, string>;
	for (const key of HOST_KEYS) {
		hosts[key] = key === 'user' || !derived ? origin : `${service.protocol}//${[PREFIX[key], ...labels.slice(1)].join('.')}${service.port ? `:${service.port}` : ''}`;
		const override = overrides[key];
		const set = typeof override === 'string' ? platformOrigin(override) : undefined;
		// Plain http on loopback only for a service on loopback: an https service's token stays on https.
		if (set && key !== 'user' && (set.startsWith('https:') || isLoopbackHost(service.hostname))) hosts[key] = set;
	}
	return hosts;
}

/**
 * An account's platform hosts: those of its service, with `overrides` (the user setting
 * `telematicsAuth.platformHosts`, which names the hosts of the configured service's platform) only when
 * the account's service has the configured service's origin. An account of another service (a staging
 * gateway, the demo) keeps its own hosts: the setting never sends its token elsewhere.
 */
export function accountHosts(serviceUrl: string, configuredServiceUrl: string, overrides: Readonly<Record<string, unknown>>): PlatformHosts | undefined {
	const origin = (url: string): string | undefined => URL.parse(url)?.origin;
	const same = origin(serviceUrl) !== undefined && origin(serviceUrl) === origin(configuredServiceUrl);
	return platformHosts(serviceUrl, same ? overrides : {});
}

/** The key of the host `url` is on, by origin; undefined when it is none of the platform's. */
export function hostKeyOf(hosts: PlatformHosts, url: string): HostKey | undefined {
	let origin: string;
	try {
		origin = new URL(url).origin;
	} catch {
		return undefined;
	}
	// The user host first: on the demo every key has the same origin, and `user` is the service.
	return HOST_KEYS.find((key) => hosts[key] === origin);
}
