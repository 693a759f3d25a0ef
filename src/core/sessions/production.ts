// Which accounts are production, and which account becomes active when nobody chose one. An account is
// production when the person says so; until then, one on the vendor's hosts is and every other is not.
// Pure: no I/O, no `vscode`.
import { bareHostname, isLoopbackHost } from '../util/url';
import type { AccountRecord } from './types';

/** The vendor's site: its services all live on hosts under it (user., api., accounts., …). */
export const VENDOR_SITE = 'telematicssdk.com';

function hostnameOf(serviceUrl: string): string | undefined {
	const url = URL.parse(serviceUrl);
	return url === null ? undefined : bareHostname(url.hostname).replace(/\.$/, '');
}

/** Whether `serviceUrl` is on the vendor's hosts (`telematicssdk.com` or any name under it). */
export function isVendorHost(serviceUrl: string): boolean {
	const host = hostnameOf(serviceUrl);
	return host !== undefined && (host === VENDOR_SITE || host.endsWith(`.${VENDOR_SITE}`));
}

/** Whether `serviceUrl` is on this machine (the demo, the emulator, a local copy of the service). */
export function isLoopbackService(serviceUrl: string): boolean {
	const host = hostnameOf(serviceUrl);
	return host === undefined || isLoopbackHost(host);
}

/** What an account is until the person says otherwise: production on the vendor's hosts, never on loopback. */
export function startsAsProduction(serviceUrl: string): boolean {
	return isVendorHost(serviceUrl) && !isLoopbackService(serviceUrl);
}

/** Whether an account is production: what the person said, else where it lives (records stored before the flag too). */
export function isProduction(account: Pick<AccountRecord, 'production' | 'serviceUrl'>): boolean {
	return typeof account.production === 'boolean' ? account.production : startsAsProduction(account.serviceUrl);
}

/**
 * Whether a new login to `account` is worth the question "is this production?": only when the person has
 * not said, and its host says nothing either way (neither the vendor's nor this machine).
 */
export function asksWhetherProduction(account: Pick<AccountRecord, 'production' | 'serviceUrl'>): boolean {
	return account.production === undefined && !isVendorHost(account.serviceUrl) && !isLoopbackService(account.serviceUrl);
}

/**
 * The account that becomes active when the active one went away (or none was stored), without the person
 * choosing: the nearest account that is not production, from position `near` onwards, then before it; none
 * when every account is production. Switching into production is always the person's act.
 */
export function fallbackActive(accounts: readonly AccountRecord[], near = 0): string | undefined {
	const start = Math.max(0, Math.min(near, accounts.length));
	const order = [...accounts.slice(start), ...accounts.slice(0, start).reverse()];
	return order.find((account) => !isProduction(account))?.id;
}

/** The active account as stored, when it names one of `accounts`; else the fallback. */
export function activeAccount(stored: unknown, accounts: readonly AccountRecord[]): string | undefined {
	return accounts.find((a) => a.id === stored)?.id ?? fallbackActive(accounts);
}
