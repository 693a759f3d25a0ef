// One VS Code window's session machinery on a fake clock, wired as the extension wires it: a store over its
// own view of the shared keychain, a Lease and a RefreshScheduler.
import type { RefreshFn } from '../../../src/core/sessions/contracts';
import { Lease } from '../../../src/core/sessions/lease';
import { RefreshScheduler } from '../../../src/core/sessions/refreshScheduler';
import { SessionStore } from '../../../src/core/sessions/sessionStore';
import { silentLog } from '../../../src/core/util/log';
import type { TestMemento } from './testMemento';
import type { SecretView, SharedSecretBackend } from './testSecretStorage';
import type { Clock } from '../../../src/core/util/clock';

export interface TestWindowOptions {
	/** The window's name in the tests (its lease names itself, as in VS Code). */
	name: string;
	backend: SharedSecretBackend;
	memento: TestMemento;
	clock: Clock;
	refresh: RefreshFn;
	marginMs: () => number;
	enabled: () => boolean;
	leaseTtlMs: number;
	/** How long the lease waits before reading itself back (the Lease default when left out). */
	leaseSettleMs?: number;
	/** A window that never hears the keychain's change events. */
	deaf?: boolean;
}

export interface TestWindow {
	name: string;
	view: SecretView;
	store: SessionStore;
	scheduler: RefreshScheduler;
	/** Disposes the scheduler, the store and the view. */
	dispose(): void;
}

export function openTestWindow(options: TestWindowOptions): TestWindow {
	const { name, clock } = options;
	const view = options.backend.view({ deaf: options.deaf });
	const store = new SessionStore(view, options.memento, { clock });
	const scheduler = new RefreshScheduler({
		store,
		refresh: options.refresh,
		clock,
		marginMs: options.marginMs,
		enabled: options.enabled,
		log: silentLog,
		lease: new Lease(view, clock, undefined, options.leaseTtlMs, options.leaseSettleMs),
		random: () => 0.5,
	});
	return {
		name,
		view,
		store,
		scheduler,
		dispose: () => {
			scheduler.dispose();
			store.dispose();
			view.dispose();
		},
	};
}
