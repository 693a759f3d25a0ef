import * as assert from 'node:assert/strict';
import { accountIdFor } from '../../src/core/sessions/accountId';
import { SessionStore, UNLISTED_GRACE_MS } from '../../src/core/sessions/sessionStore';
import { SPENT_PREFIX } from '../../src/core/sessions/lease';
import { ACCOUNTS_KEY, ACTIVE_KEY, secretKeyFor } from '../../src/core/sessions/storage';
import type { NewAccount, StoredTokens } from '../../src/core/sessions/types';
import { createTestClock, settle, type TestClock } from '../support/doubles/fakeClock';
import { TestMemento } from '../support/doubles/testMemento';
import { SharedSecretBackend, type SecretView } from '../support/doubles/testSecretStorage';
import { RecordingLog } from '../support/doubles/recordingLog';

const MIN = 60_000;

const alice: NewAccount = { kind: 'admin', serviceUrl: 'https://user.example.test', instanceId: 'inst-a', login: 'alice@example.test', label: 'alice@example.test' };
const bob: NewAccount = { kind: 'user', serviceUrl: 'https://user.example.test', instanceId: 'inst-b', login: 'device-bob-0001', label: 'devi…0001' };
const carol: NewAccount = { kind: 'user', serviceUrl: 'https://user.example.test', instanceId: 'inst-b', login: 'device-carol-0002', label: 'devi…0002' };

describe('accountIdFor', () => {
	it('is 16 hex characters and stable for the same account', () => {
		const id = accountIdFor('admin', 'https://user.example.test', 'inst-a', 'alice@example.test');
		assert.match(id, /^[0-9a-f]{16}$/);
		assert.equal(accountIdFor('admin', 'HTTPS://User.Example.test/', ' INST-A ', 'Alice@Example.test'), id);
	});

	const different: Array<[string, string]> = [
		['kind', accountIdFor('user', 'https://user.example.test', 'inst-a', 'alice@example.test')],
		['service', accountIdFor('admin', 'https://other.example.test', 'inst-a', 'alice@example.test')],
		['instance', accountIdFor('admin', 'https://user.example.test', 'inst-b', 'alice@example.test')],
		['login', accountIdFor('admin', 'https://user.example.test', 'inst-a', 'bob@example.test')],
	];
	it('an admin without an API InstanceID has an id of its own, the same for none and empty', () => {
		const none = accountIdFor('admin', 'https://user.example.test', undefined, 'alice@example.test');
		assert.equal(accountIdFor('admin', 'https://user.example.test', '', 'alice@example.test'), none);
		assert.notEqual(none, accountIdFor('admin', 'https://user.example.test', 'inst-a', 'alice@example.test'));
	});

	for (const [what, id] of different) {
		it(`differs when the ${what} differs`, () => {
			assert.notEqual(id, accountIdFor('admin', 'https://user.example.test', 'inst-a', 'alice@example.test'));
		});
	}
});

interface TestWindow {
	store: SessionStore;
	view: SecretView;
	changes: () => number;
}

describe('SessionStore', () => {
	let time: TestClock;
	let backend: SharedSecretBackend;
	let memento: TestMemento;
	let log: RecordingLog;
	const disposables: Array<{ dispose(): void }> = [];

	function tokens(tag: string, lifetimeMs = 2 * 60 * MIN): StoredTokens {
		const now = time.clock.now();
		return { accessToken: `access-${tag}`, refreshToken: `refresh-${tag}`, expiresAt: now + lifetimeMs, expirySource: 'jwt', obtainedAt: now };
	}

	function openWindow(): TestWindow {
		const view = backend.view();
		const store = new SessionStore(view, memento, { clock: time.clock, log });
		let count = 0;
		disposables.push(store.onDidChange(() => count++), store, view);
		return { store, view, changes: () => count };
	}

	/** Two windows over the same keychain and globalState, both loaded (and so following each other). */
	async function twoLoadedWindows(): Promise<[TestWindow, TestWindow]> {
		const windows: [TestWindow, TestWindow] = [openWindow(), openWindow()];
		for (const w of windows) await w.store.load();
		return windows;
	}

	beforeEach(() => {
		time = createTestClock();
		backend = new SharedSecretBackend();
		memento = new TestMemento();
		log = new RecordingLog();
	});

	afterEach(() => {
		for (const d of disposables.splice(0).reverse()) d.dispose();
	});

	it('saves a login, makes it active, and a new window loads it', async () => {
		const { store } = openWindow();
		await store.load();
		const session = await store.saveLogin(alice, tokens('a1'));
		assert.equal(session.state, 'valid');
		assert.equal(store.active()?.account.id, session.account.id);
		assert.equal(session.account.createdAt, time.clock.now());

		const other = openWindow().store;
		await other.load();
		assert.deepEqual(other.list(), store.list());
		assert.equal(other.active()?.tokens?.accessToken, 'access-a1');
	});

	it('an admin without an API InstanceID is stored with none (no empty field), and loads again beside older records', async () => {
		const { store } = openWindow();
		await store.load();
		const older = await store.saveLogin(alice, tokens('a1'));
		const session = await store.saveLogin({ kind: 'admin', serviceUrl: 'https://user.example.test', login: 'ops@example.test', label: 'ops@example.test' }, tokens('o1'));
		assert.equal('instanceId' in session.account, false);
		const other = openWindow().store;
		await other.load();
		assert.deepEqual(other.list().map((s) => [s.account.label, s.account.instanceId]), [[older.account.label, older.account.instanceId], ['ops@example.test', undefined]]);
		assert.equal(other.get(session.account.id)?.tokens?.accessToken, 'access-o1');
	});

	it('is not ready until the first load has read every secret; ready then resolves and list() has them', async () => {
		const { store } = openWindow();
		await store.load();
		await store.saveLogin(alice, tokens('a1'));
		await store.saveLogin(bob, tokens('b1'));

		const fresh = openWindow().store;
		let ready = false;
		void fresh.ready.then(() => (ready = true));
		await settle();
		assert.equal(fresh.loaded, false);
		assert.equal(ready, false, 'ready waits for load()');
		assert.deepEqual(fresh.list(), []);

		const loading = fresh.load();
		await fresh.ready;
		assert.equal(fresh.loaded, true);
		assert.deepEqual(fresh.list().map((s) => s.tokens?.accessToken), ['access-a1', 'access-b1']);
		await loading;
	});

	it('becomes ready even when the secrets cannot be read (those accounts need a login)', async () => {
		const { store } = openWindow();
		await store.load();
		await store.saveLogin(alice, tokens('a1'));
		backend.failGet = () => true;
		const fresh = openWindow().store;
		void fresh.load();
		await fresh.ready;
		assert.equal(fresh.loaded, true);
		assert.deepEqual(fresh.list().map((s) => s.state), ['needsLogin']);
	});

	it('the same account logging in again replaces its tokens and keeps createdAt', async () => {
		const { store } = openWindow();
		await store.load();
		const first = await store.saveLogin(alice, tokens('a1'));
		await time.timers.tickAsync(5 * MIN);
		const second = await store.saveLogin({ ...alice, login: 'ALICE@example.test' }, tokens('a2'));
		assert.equal(second.account.id, first.account.id);
		assert.equal(second.account.createdAt, first.account.createdAt);
		assert.equal(store.list().length, 1);
		assert.equal(store.get(first.account.id)?.tokens?.refreshToken, 'refresh-a2');
	});

	it('names each account (user, admin, user-2), keeps the names through a reload, and renames with checks', async () => {
		const { store } = openWindow();
		await store.load();
		const a = await store.saveLogin(alice, tokens('a'));
		const b = await store.saveLogin(bob, tokens('b'));
		const c = await store.saveLogin(carol, tokens('c'));
		assert.deepEqual(store.list().map((s) => s.account.name), ['admin', 'user', 'user-2']);
		assert.equal(c.account.name, 'user-2');
		assert.deepEqual(await store.rename(a.account.id, 'ops'), { ok: true });
		assert.equal(store.get(a.account.id)?.account.name, 'ops');
		const taken = await store.rename(b.account.id, 'OPS');
		assert.equal(taken.ok, false, 'a name that makes the same variable as another is refused');
		assert.equal((await store.rename(b.account.id, 'two words')).ok, false);
		assert.equal((await store.rename('nobody', 'x')).ok, false);
		// A new login of the same account keeps its name; another window reads the same names.
		await store.saveLogin(alice, tokens('a2'));
		assert.equal(store.get(a.account.id)?.account.name, 'ops');
		const other = openWindow();
		await other.store.load();
		assert.deepEqual(other.store.list().map((s) => s.account.name), store.list().map((s) => s.account.name));
	});

	it('switches the active account and, on logout of the active one, activates the next', async () => {
		const { store } = openWindow();
		await store.load();
		const a = await store.saveLogin(alice, tokens('a'));
		const b = await store.saveLogin(bob, tokens('b'));
		const c = await store.saveLogin(carol, tokens('c'));
		assert.equal(store.active()?.account.id, c.account.id);
		await store.setActive(b.account.id);
		assert.equal(memento.get(ACTIVE_KEY), b.account.id);

		backend.data.set(`${SPENT_PREFIX}${b.account.id}`, 'a spent refresh token\'s hash');
		await store.remove(b.account.id);
		assert.equal(backend.data.has(`${SPENT_PREFIX}${b.account.id}`), false, 'the spent mark goes with the account');
		assert.deepEqual(store.list().map((s) => s.account.id), [a.account.id, c.account.id]);
		assert.equal(store.active()?.account.id, c.account.id);
		assert.equal(backend.data.has(secretKeyFor(b.account.id)), false);

		await store.remove(c.account.id);
		await store.remove(a.account.id);
		assert.equal(store.active(), undefined);
		assert.deepEqual(memento.get(ACCOUNTS_KEY), []);
		assert.equal(backend.data.size, 0);
	});

	it('state follows the clock: valid, then expired, without any write', async () => {
		const { store } = openWindow();
		await store.load();
		const { account } = await store.saveLogin(alice, tokens('a', 10 * MIN));
		assert.equal(store.get(account.id)?.state, 'valid');
		time.timers.tick(10 * MIN);
		assert.equal(store.get(account.id)?.state, 'expired');
		assert.equal(store.list()[0].state, 'expired');
	});

	it('keeps no secret in globalState', async () => {
		const { store } = openWindow();
		await store.load();
		await store.saveLogin(alice, { ...tokens('a'), deviceToken: 'device-secret-xyz' });
		await store.saveLogin(bob, tokens('b'));
		const dump = memento.dump();
		for (const secret of ['access-a', 'refresh-a', 'access-b', 'refresh-b', 'device-secret-xyz', bob.login]) {
			assert.ok(!dump.includes(secret), `globalState must not contain ${secret}`);
		}
		assert.ok(backend.dump().includes('refresh-b'));
	});

	it('a corrupt or missing secret marks only that account as needing login, and the log names it without content', async () => {
		const { store } = openWindow();
		await store.load();
		const a = await store.saveLogin(alice, tokens('a'));
		const b = await store.saveLogin(bob, tokens('b'));
		const c = await store.saveLogin(carol, tokens('c'));
		backend.data.set(secretKeyFor(a.account.id), '{"v":1,"accessToken":"leaky-fragment"'); // truncated
		backend.data.set(secretKeyFor(b.account.id), JSON.stringify({ v: 1, accessToken: 'leaky-fragment' })); // incomplete

		const fresh = openWindow().store;
		await fresh.load();
		assert.deepEqual(fresh.list().map((s) => s.state), ['needsLogin', 'needsLogin', 'valid']);
		assert.equal(fresh.get(c.account.id)?.tokens?.refreshToken, 'refresh-c');
		assert.ok(log.lines.some((l) => l.includes(alice.label)));
		assert.ok(log.lines.some((l) => l.includes(bob.label)));
		assert.ok(!log.lines.join('\n').includes('leaky-fragment'));

		backend.data.delete(secretKeyFor(c.account.id));
		const third = openWindow().store;
		await third.load();
		assert.equal(third.get(c.account.id)?.state, 'needsLogin');
	});

	it('a keychain that cannot be read marks that account needsLogin and does not throw', async () => {
		const { store } = openWindow();
		await store.load();
		const a = await store.saveLogin(alice, tokens('a'));
		const b = await store.saveLogin(bob, tokens('b'));
		backend.failGet = (key) => key === secretKeyFor(a.account.id);
		const fresh = openWindow().store;
		await fresh.load();
		assert.equal(fresh.get(a.account.id)?.state, 'needsLogin');
		assert.equal(fresh.get(b.account.id)?.state, 'valid');
		assert.ok(log.lines.some((l) => l.includes(alice.label)));
	});

	it('a failed secret write leaves the previous sessions as they were', async () => {
		const { store } = openWindow();
		await store.load();
		const a = await store.saveLogin(alice, tokens('a1'));
		const indexBefore = memento.dump();
		backend.failStore = () => true;

		await assert.rejects(store.saveLogin(alice, tokens('a2')));
		await assert.rejects(store.saveLogin(bob, tokens('b')));

		assert.equal(memento.dump(), indexBefore);
		assert.equal(store.list().length, 1);
		assert.equal(store.get(a.account.id)?.tokens?.refreshToken, 'refresh-a1');
		const fresh = openWindow().store;
		await fresh.load();
		assert.deepEqual(fresh.list(), store.list());
	});

	it('a failed index write undoes the secret of a new account', async () => {
		const { store } = openWindow();
		await store.load();
		const a = await store.saveLogin(alice, tokens('a'));
		memento.failUpdate = (key) => key === ACCOUNTS_KEY;
		await assert.rejects(store.saveLogin(bob, tokens('b')));
		assert.deepEqual(store.list().map((s) => s.account.id), [a.account.id]);
		assert.equal(backend.data.has(secretKeyFor(accountIdFor(bob.kind, bob.serviceUrl, bob.instanceId, bob.login))), false);
	});

	it('updateTokens stores the access and rotated refresh token in one secret write', async () => {
		const { store } = openWindow();
		await store.load();
		const a = await store.saveLogin(alice, tokens('a1'));
		const writesBefore = backend.writes.length;
		assert.equal(await store.updateTokens(a.account.id, { ...tokens('a2'), lastRefreshAt: time.clock.now() }, 'refresh-a1'), 'saved');
		assert.deepEqual(backend.writes.slice(writesBefore), [{ key: secretKeyFor(a.account.id), deleted: false }]);
		const stored = store.get(a.account.id)?.tokens;
		assert.equal(stored?.accessToken, 'access-a2');
		assert.equal(stored?.refreshToken, 'refresh-a2');
	});

	it('markNeedsLogin keeps the tokens, and other windows see the flag', async () => {
		const [w1, w2] = await twoLoadedWindows();
		const a = await w1.store.saveLogin(alice, tokens('a'));
		await settle();
		await w1.store.markNeedsLogin(a.account.id, 'refresh-a');
		await settle();
		assert.equal(w1.store.get(a.account.id)?.state, 'needsLogin');
		assert.equal(w1.store.get(a.account.id)?.tokens?.refreshToken, 'refresh-a');
		assert.equal(w2.store.get(a.account.id)?.state, 'needsLogin');
	});

	it('a change made in another window fires onDidChange there exactly once', async () => {
		const [w1, w2] = await twoLoadedWindows();

		const a = await w1.store.saveLogin(alice, tokens('a1'));
		await settle();
		assert.equal(w2.changes(), 1);
		assert.equal(w2.store.get(a.account.id)?.tokens?.accessToken, 'access-a1');

		await w1.store.updateTokens(a.account.id, tokens('a2'), 'refresh-a1');
		await settle();
		assert.equal(w2.changes(), 2);
		assert.equal(w2.store.get(a.account.id)?.tokens?.refreshToken, 'refresh-a2');

		await w1.store.remove(a.account.id);
		await settle();
		assert.equal(w2.changes(), 3);
		assert.deepEqual(w2.store.list(), []);
	});

	it('own writes fire once, and duplicate or no-op change events do not fire', async () => {
		const [w1, w2] = await twoLoadedWindows();
		const a = await w1.store.saveLogin(alice, tokens('a1'));
		await settle();
		assert.equal(w1.changes(), 1);
		assert.equal(w2.changes(), 1);

		backend.announce(secretKeyFor(a.account.id));
		backend.announce(secretKeyFor(a.account.id));
		backend.announce(secretKeyFor('unknown-account'));
		backend.announce('telematicsAuth.lease.' + a.account.id);
		backend.announce('someone.else.key');
		await settle();
		assert.equal(w1.changes(), 1);
		assert.equal(w2.changes(), 1);

		// the same tokens written again (e.g. another window's no-op save)
		const same = w2.store.get(a.account.id)!.tokens!;
		await w2.store.updateTokens(a.account.id, same, same.refreshToken);
		await settle();
		assert.equal(w1.changes(), 1);
	});

	it('reloadAccount picks up what another window wrote without waiting for the event', async () => {
		const w1 = openWindow();
		const w2 = openWindow();
		await w1.store.load();
		const a = await w1.store.saveLogin(alice, tokens('a1'));
		await w2.store.load();
		await w1.store.updateTokens(a.account.id, tokens('a2'), 'refresh-a1');
		const session = await w2.store.reloadAccount(a.account.id);
		assert.equal(session?.tokens?.refreshToken, 'refresh-a2');
	});

	describe('refreshed tokens: compare-and-set, and never lost', () => {
		it('a keychain that refuses one write keeps the rotated tokens live in memory and stores them on retry', async () => {
			const { store } = openWindow();
			await store.load();
			const a = await store.saveLogin(alice, tokens('a1'));
			let failures = 1;
			backend.failStore = () => failures-- > 0;
			assert.equal(await store.updateTokens(a.account.id, tokens('a2'), 'refresh-a1'), 'pending');
			assert.equal(store.hasUnsavedTokens(a.account.id), true);
			assert.equal(store.get(a.account.id)?.tokens?.refreshToken, 'refresh-a2', 'memory holds the rotated token');
			// What the scheduler reads before its next refresh is the rotated token, not the stored spent one.
			assert.equal((await store.reloadAccount(a.account.id))?.tokens?.refreshToken, 'refresh-a2');
			backend.announce(secretKeyFor(a.account.id));
			await settle();
			assert.equal(store.get(a.account.id)?.tokens?.refreshToken, 'refresh-a2', 'an echo of the old secret does not win');
			assert.match(backend.data.get(secretKeyFor(a.account.id))!, /refresh-a1/, 'storage still has the old one');

			time.timers.tick(2_000);
			await settle();
			assert.equal(store.hasUnsavedTokens(a.account.id), false);
			assert.match(backend.data.get(secretKeyFor(a.account.id))!, /refresh-a2/, 'the retry stored the rotated token');
		});

		it('a refresh of pending tokens compares against memory and stores the newest', async () => {
			const { store } = openWindow();
			await store.load();
			const a = await store.saveLogin(alice, tokens('a1'));
			backend.failStore = () => true;
			assert.equal(await store.updateTokens(a.account.id, tokens('a2'), 'refresh-a1'), 'pending');
			assert.equal(await store.updateTokens(a.account.id, tokens('a3'), 'refresh-a1'), 'stale', 'the spent token is not the live one');
			assert.equal(await store.updateTokens(a.account.id, tokens('a3'), 'refresh-a2'), 'pending');
			backend.failStore = () => false;
			time.timers.tick(60_000);
			await settle();
			assert.match(backend.data.get(secretKeyFor(a.account.id))!, /refresh-a3/);
		});

		it('a refresh that lands after a logout in another window does not bring the account back', async () => {
			const [w1, w2] = await twoLoadedWindows();
			const a = await w1.store.saveLogin(alice, tokens('a1'));
			await settle();
			await w2.store.remove(a.account.id);
			// w1 has not heard of the logout yet when its refresh answer arrives.
			assert.equal(await w1.store.updateTokens(a.account.id, tokens('a2'), 'refresh-a1'), 'gone');
			await settle();
			assert.equal(backend.data.has(secretKeyFor(a.account.id)), false, 'no tokens left in the keychain');
			assert.deepEqual(w1.store.list(), []);
			const fresh = openWindow().store;
			await fresh.load();
			assert.deepEqual(fresh.list(), []);
		});

		it('a refresh that lands after a new login keeps the newer login', async () => {
			const [w1, w2] = await twoLoadedWindows();
			const a = await w1.store.saveLogin(alice, tokens('a1'));
			await settle();
			await w2.store.saveLogin(alice, tokens('login2'));
			assert.equal(await w1.store.updateTokens(a.account.id, tokens('late'), 'refresh-a1'), 'stale');
			assert.equal(await w1.store.markNeedsLogin(a.account.id, 'refresh-a1'), 'stale');
			await settle();
			assert.match(backend.data.get(secretKeyFor(a.account.id))!, /refresh-login2/);
			assert.equal(w1.store.get(a.account.id)?.tokens?.refreshToken, 'refresh-login2');
			assert.equal(w1.store.get(a.account.id)?.state, 'valid');
		});

		it('a secret that no index entry points to is never shown as an account and is removed', async () => {
			const [w1] = await twoLoadedWindows();
			const orphanId = 'feedfacefeedface';
			const record = { id: orphanId, kind: 'admin', label: 'ghost', instanceId: 'i', serviceUrl: 'https://user.example.test', createdAt: 1 };
			backend.data.set(secretKeyFor(orphanId), JSON.stringify({ v: 1, ...tokens('ghost'), account: record }));
			backend.announce(secretKeyFor(orphanId));
			await settle();
			assert.deepEqual(w1.store.list(), []);
			for (let i = 0; i < 4; i++) {
				await time.timers.tickAsync(UNLISTED_GRACE_MS);
				await settle();
			}
			assert.equal(backend.data.has(secretKeyFor(orphanId)), false);
			assert.deepEqual(w1.store.list(), []);
		});

		it('a new account from another window appears within a second of its index entry, and its secret stays', async () => {
			// w1's globalState lags behind the shared keychain, as another window's can.
			const lagging = new TestMemento();
			const view = backend.view();
			const w1 = new SessionStore(view, lagging, { clock: time.clock, log });
			disposables.push(w1, view);
			const w2 = openWindow();
			await w1.load();
			await w2.store.load();
			const c = await w2.store.saveLogin(carol, tokens('c1'));
			await settle();
			assert.equal(w1.get(c.account.id), undefined, 'not shown before its index entry arrives');
			await lagging.update(ACCOUNTS_KEY, memento.get(ACCOUNTS_KEY));
			await time.timers.tickAsync(1_000);
			await settle();
			assert.equal(w1.get(c.account.id)?.tokens?.refreshToken, 'refresh-c1', 'shown within a second');
			await time.timers.tickAsync(UNLISTED_GRACE_MS);
			await settle();
			assert.ok(backend.data.has(secretKeyFor(c.account.id)), 'a listed account\'s secret is never removed');
		});
	});

	it('dispose stops following other windows', async () => {
		const [w1, w2] = await twoLoadedWindows();
		w2.store.dispose();
		await w1.store.saveLogin(alice, tokens('a'));
		await settle();
		assert.equal(w2.changes(), 0);
		assert.deepEqual(w2.store.list(), []);
	});
});
