// When the network may have changed under a Live Tracking connection: the machine's addresses changed (a
// VPN up or down, another Wi-Fi, a cable), or the machine slept (a check came far later than asked, as
// timers do not run in sleep). Read every 10 s while a panel is open, from the interface list alone. VS
// Code has no event for this. Pure: the clock and the list are handed in.
import type { Clock } from '../util/clock';

export const NETWORK_CHECK_MS = 10_000;
/** A check this much later than asked means the machine slept. */
export const SLEPT_AFTER_MS = 30_000;

/** What `os.networkInterfaces()` gives, as far as this reads it. */
export type Interfaces = Readonly<Record<string, readonly { address: string; internal: boolean }[] | undefined>>;

export type NetworkChange = 'addresses' | 'slept';

/** The machine's outward addresses (loopback left out), in one order whatever order the list had. */
export function addressSignature(interfaces: Interfaces): string {
	return Object.entries(interfaces)
		.flatMap(([name, addresses]) => (addresses ?? []).filter((a) => !a.internal).map((a) => `${name} ${a.address}`))
		.sort()
		.join('|');
}

/** Calls `changed` after each check that finds other addresses or a sleep, until disposed. */
export function watchNetwork(deps: { clock: Clock; interfaces: () => Interfaces }, changed: (why: NetworkChange) => void): { dispose(): void } {
	const read = (): string => {
		try {
			return addressSignature(deps.interfaces());
		} catch {
			return last; // an unreadable list is no change
		}
	};
	let last = '';
	last = read();
	let lastCheck = deps.clock.now();
	let timer: unknown;
	let disposed = false;
	const check = (): void => {
		// Stryker disable next-line ConditionalExpression: equivalent
		if (disposed) return;
		const now = deps.clock.now();
		const addresses = read();
		const why: NetworkChange | undefined = now - lastCheck >= NETWORK_CHECK_MS + SLEPT_AFTER_MS ? 'slept' : addresses !== last ? 'addresses' : undefined;
		last = addresses;
		lastCheck = now;
		timer = deps.clock.setTimeout(check, NETWORK_CHECK_MS);
		if (why) changed(why);
	};
	timer = deps.clock.setTimeout(check, NETWORK_CHECK_MS);
	return {
		dispose: () => {
			// Stryker disable next-line BooleanLiteral: equivalent
			disposed = true;
			deps.clock.clearTimeout(timer);
		},
	};
}
