// A secret that reads as missing is not a logout by itself: another window's logout (its mark, the index)
// is told from a keychain that lost the entry, as VS Code's SecretStorage does (undefined, maybe dropped).
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { Emitter } from '../../src/core/util/event';
import { KeychainSecretBackend } from '../../src/system/secretBackend';
import { LOGGED_OUT_KEY, SessionStore } from '../../src/core/sessions/sessionStore';
import { secretKeyFor } from '../../src/core/sessions/storage';
import { silentLog } from '../../src/core/util/log';
import { settle } from '../support/doubles/fakeClock';
import { useWindows, type TestWindow } from '../support/doubles/testWindow';

const S = 1000;
const ACCOUNT = { kind: 'user' as const, serviceUrl: 'https://user.example.test', instanceId: 'inst', login: 'device-1', label: 'devi…-1' };

describe('a secret that reads as missing', () => {
	const fx = useWindows({ leaseTtlMs: 10 * S, leaseSettleMs: 250 });
	let lost: string[];

	function open(name: string): TestWindow {
		const window = fx.open(name);
		window.store.onDidLoseSecret(({ label }) => lost.push(`${name}:${label}`));
		return window;
	}

	async function twoWindows(): Promise<{ a: TestWindow; b: TestWindow; id: string }> {
		const a = open('A');
		const b = open('B');
		await a.store.load();
		const { account } = await a.store.saveLogin(ACCOUNT, fx.service.login());
		await b.store.load();
		await settle();
		return { a, b, id: account.id };
	}

	beforeEach(() => {
		lost = [];
	});

	it('a keychain that dropped the entry: the account stays in every window, its tokens are stored again, told once', async () => {
		const { a, b, id } = await twoWindows();
		const tokens = a.store.get(id)!.tokens!;
		fx.backend.data.clear(); // VS Code deleted an entry it could not decrypt
		fx.backend.announce(secretKeyFor(id));
		await settle();
		assert.equal(a.store.list().length, 1, 'still logged in while it is checked');
		assert.deepEqual(a.store.get(id)!.tokens, tokens);
		await fx.time.timers.tickAsync(20 * S);
		await settle();
		assert.equal(a.store.get(id)?.state, 'valid');
		assert.equal(b.store.get(id)?.state, 'valid');
		assert.ok(fx.backend.dump().includes(tokens.refreshToken), 'the tokens are in the keychain again');
		assert.equal(lost.filter((l) => l.startsWith('A:')).length, 1, 'told once');
		fx.backend.data.clear();
		fx.backend.announce(secretKeyFor(id));
		await fx.time.timers.tickAsync(25 * S);
		await settle();
		assert.equal(lost.filter((l) => l.startsWith('A:')).length, 1, 'not told twice');
	});

	it('a logout in another window is followed, and the lost-secret path never brings its tokens back', async () => {
		const { a, b, id } = await twoWindows();
		await b.store.remove(id);
		await settle();
		assert.equal(a.store.list().length, 0);
		await fx.time.timers.tickAsync(60 * S);
		await settle();
		assert.equal(fx.backend.data.size, 0, 'no secret written back');
		assert.deepEqual(lost, []);
		assert.ok((fx.memento.get<Record<string, number>>(LOGGED_OUT_KEY) ?? {})[id] !== undefined, 'the logout left its mark');
		await a.store.saveLogin(ACCOUNT, fx.service.login());
		assert.equal((fx.memento.get<Record<string, number>>(LOGGED_OUT_KEY) ?? {})[id], undefined, 'a new login clears it');
	});

	it('during a refresh the keychain answers nothing: the rotated tokens are kept and stored, the session survives', async () => {
		const { a, id } = await twoWindows();
		a.scheduler.start();
		let reads = 0;
		// From the refresh's own re-read on, the keychain answers undefined a few times, as on a locked keychain.
		fx.backend.loseOnGet = (key) => (key === secretKeyFor(id) && reads++ < 3 ? 'undefined' : false);
		await fx.time.timers.tickAsync(20 * S + 500);
		await settle();
		assert.equal(fx.service.calls.length, 1);
		assert.ok(reads >= 3, `the keychain answered nothing ${Math.min(reads, 3)} time(s) around the refresh`);
		const session = a.store.get(id);
		assert.equal(session?.state, 'valid');
		assert.equal(session?.tokens?.refreshToken, fx.service.currentRefreshToken, 'the rotated refresh token is the one kept');
		fx.backend.loseOnGet = () => false;
		await fx.time.timers.tickAsync(25 * S);
		await settle();
		assert.ok(fx.backend.dump().includes(fx.service.currentRefreshToken), 'and stored');
	});

	it('a keychain that drops the secret right after a refresh stored it: the refreshing window stores its tokens again, and the session survives the other window\'s refresh with the spent token', async () => {
		const { a, b, id } = await twoWindows();
		for (const w of [a, b]) w.scheduler.start();
		// Found by the hostile-folder suite: two reads fail, then one drops the entry, while four more fail around the refresh.
		let fail = 2;
		let drop = 1;
		fx.backend.failGet = (key) => key === secretKeyFor(id) && fail > 0 && fail-- > 0;
		fx.backend.loseOnGet = (key) => (key === secretKeyFor(id) && drop > 0 ? (drop--, 'drop') : false);
		fx.backend.announce(secretKeyFor(id));
		await settle();
		fail = 4;
		await fx.time.timers.tickAsync(21 * S);
		await settle();
		fx.backend.failGet = () => false;
		fx.backend.loseOnGet = () => false;
		await fx.time.timers.tickAsync(90 * S);
		await settle();
		for (const w of [a, b]) {
			const session = w.store.get(id);
			assert.equal(session?.state, 'valid', `window ${w.name}`);
			assert.equal(session?.tokens?.refreshToken, fx.service.currentRefreshToken, `window ${w.name} holds the live refresh token`);
		}
	});

	it('the shipped adapter passes a failed read on, so the store keeps the account instead of logging it out', async () => {
		const changes = new Emitter<vscode.SecretStorageChangeEvent>();
		const data = new Map<string, string>();
		let failing = false;
		const secrets: vscode.SecretStorage = {
			get: async (key) => {
				if (failing) throw new Error('keychain locked');
				return data.get(key);
			},
			store: async (key, value) => void data.set(key, value),
			delete: async (key) => void data.delete(key),
			onDidChange: changes.event as vscode.Event<vscode.SecretStorageChangeEvent>,
		};
		const adapter = new KeychainSecretBackend(secrets, silentLog);
		const store = new SessionStore(adapter, fx.memento, { clock: fx.time.clock });
		await store.load();
		const { account } = await store.saveLogin(ACCOUNT, fx.service.login());
		failing = true;
		await assert.rejects(adapter.get('x'), /keychain locked/);
		changes.fire({ key: secretKeyFor(account.id) });
		await settle();
		assert.equal(store.get(account.id)?.state, 'valid');
		store.dispose();
	});
});
