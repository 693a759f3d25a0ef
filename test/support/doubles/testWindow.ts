// One VS Code window's session machinery on a fake clock, wired as the extension wires it: a store over its
// own view of the shared keychain, a Lease and a RefreshScheduler.
import type { RefreshFn } from '../../../src/core/sessions/types';
import { Lease } from '../../../src/core/sessions/lease';
import { RefreshScheduler } from '../../../src/core/sessions/refreshScheduler';
import { SessionStore } from '../../../src/core/sessions/sessionStore';
import { silentLog } from '../../../src/core/util/log';
import { createTestClock, type TestClock } from './fakeClock';
import { FakeTokenService } from './fakeTokenService';
import { TestMemento } from './testMemento';
import { SharedSecretBackend, type SecretView } from './testSecretStorage';
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
		api: { refresh: options.refresh },
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

/** What the multi-window suites share in each test: one clock, keychain, globalState and service. */
export interface Windows {
	readonly time: TestClock;
	readonly backend: SharedSecretBackend;
	readonly memento: TestMemento;
	readonly service: FakeTokenService;
	/** Every window opened in this test (disposed after it). */
	readonly opened: TestWindow[];
	/** Opens a window over the shared parts, refreshing as `name`; the suite's defaults, then `options`. */
	open(name: string, options?: Partial<Pick<TestWindowOptions, 'marginMs' | 'deaf' | 'leaseTtlMs' | 'leaseSettleMs'>>): TestWindow;
}

/**
 * The multi-window suites' one fixture (mocha hooks): a fresh fake clock, shared keychain,
 * globalState and token service before each test; every window opened disposed after it.
 */
export function useWindows(defaults: Pick<TestWindowOptions, 'leaseTtlMs'> & Partial<Pick<TestWindowOptions, 'leaseSettleMs' | 'marginMs'>>): Windows {
	let current: Omit<Windows, 'open'> | undefined;
	const now = (): Omit<Windows, 'open'> => {
		if (!current) throw new Error('useWindows: read inside a test');
		return current;
	};
	beforeEach(() => {
		const time = createTestClock();
		current = { time, backend: new SharedSecretBackend(), memento: new TestMemento(), service: new FakeTokenService(time.clock), opened: [] };
	});
	afterEach(() => {
		for (const w of now().opened.splice(0)) w.dispose();
		current = undefined;
	});
	return {
		get time() { return now().time; },
		get backend() { return now().backend; },
		get memento() { return now().memento; },
		get service() { return now().service; },
		get opened() { return now().opened; },
		open(name, options = {}) {
			const { time, backend, memento, service, opened } = now();
			const window = openTestWindow({
				marginMs: () => 300_000,
				enabled: () => true,
				...defaults,
				...options,
				name,
				backend,
				memento,
				clock: time.clock,
				refresh: service.refreshAs(name),
			});
			opened.push(window);
			return window;
		},
	};
}
