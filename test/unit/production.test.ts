// Production accounts: which are production by default, which account becomes active without the person,
// the irreversible operations, the question before the agent's request, the snooze on a fake clock, and the
// store's flag (kept, defaulted for records stored before it, never making production active by itself).
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { questionBefore, SNOOZE_MS, Snoozes } from '../../src/core/agent/changeGuard';
import { irreversibleOperation } from '../../src/core/agent/irreversible';
import { AGENT_METHODS, type AgentMethod } from '../../src/core/agent/serviceRequest';
import { catalogOf, SHIPPED as platform } from '../../src/core/platform/catalog';
import type { Operation } from '../../src/core/platform/operations';
import { describeStatus } from '../../src/core/statusBar/statusModel';
import { accountNode } from '../../src/core/accounts/accountsTreeModel';
import { activeAccount, asksWhetherProduction, fallbackActive, isProduction, isVendorHost, startsAsProduction } from '../../src/core/sessions/production';
import { SessionStore } from '../../src/core/sessions/sessionStore';
import { ACCOUNTS_KEY, ACTIVE_KEY } from '../../src/core/sessions/storage';
import type { AccountRecord, NewAccount, Session, StoredTokens } from '../../src/core/sessions/types';
import { createTestClock, type TestClock } from '../support/doubles/fakeClock';
import { TestMemento } from '../support/doubles/testMemento';
import { SharedSecretBackend } from '../support/doubles/testSecretStorage';

const record = (id: string, serviceUrl: string, production?: boolean): AccountRecord => ({
	id, kind: 'admin', label: id, name: id, instanceId: 'inst', serviceUrl, createdAt: 0, ...(production !== undefined && { production }),
});

describe('production accounts', () => {
	describe('which accounts start as production', () => {
		const table: Array<[string, boolean]> = [
			['https://user.telematicssdk.com', true],
			['https://api.telematicssdk.com/', true],
			['https://USER.TelematicsSDK.com.', true],
			['https://telematicssdk.com', true],
			['https://accounts.telematicssdk.com:8443/v1', true],
			['https://telematicssdk.com.evil.example', false],
			['https://nottelematicssdk.com', false],
			['https://user.example.com', false],
			['http://127.0.0.1:3000', false],
			['http://localhost:8080', false],
			['http://[::1]:8080', false],
			['not a url', false],
		];
		for (const [url, expected] of table) it(`${url} → ${expected ? 'production' : 'not production'}`, () => assert.equal(startsAsProduction(url), expected));

		it('the vendor\'s host is recognised by the name, not a look-alike suffix', () => {
			assert.equal(isVendorHost('https://a.b.telematicssdk.com'), true);
			assert.equal(isVendorHost('https://telematicssdk.com@evil.example'), false);
			assert.equal(isVendorHost('https://evil-telematicssdk.com'), false);
		});

		it('what the person said wins; records stored before the flag take the host\'s default', () => {
			assert.equal(isProduction(record('a', 'https://user.telematicssdk.com')), true);
			assert.equal(isProduction(record('a', 'https://user.telematicssdk.com', false)), false);
			assert.equal(isProduction(record('a', 'https://user.example.com')), false);
			assert.equal(isProduction(record('a', 'https://user.example.com', true)), true);
			assert.equal(isProduction(record('a', 'http://127.0.0.1:1', true)), true, 'the person may mark a local copy');
			assert.equal(isProduction(record('a', 'http://127.0.0.1:1')), false, 'the demo and loopback never start as production');
		});

		it('asks after a login only on a host that says nothing (not the vendor\'s, not this machine) and only until answered', () => {
			assert.equal(asksWhetherProduction(record('a', 'https://telematics.acme.example')), true);
			assert.equal(asksWhetherProduction(record('a', 'https://telematics.acme.example', false)), false);
			assert.equal(asksWhetherProduction(record('a', 'https://user.telematicssdk.com')), false);
			assert.equal(asksWhetherProduction(record('a', 'http://localhost:9000')), false);
			assert.equal(asksWhetherProduction(record('a', 'not a url')), false, 'a URL that does not parse asks nothing');
		});
	});

	describe('which account becomes active without the person', () => {
		const dev = record('dev', 'https://dev.example.com');
		const demo = record('demo', 'http://127.0.0.1:1');
		const prod = record('prod', 'https://user.telematicssdk.com');
		const marked = record('marked', 'https://dev.example.com', true);

		it('the stored choice, when it names an account (production too: the person chose it)', () => {
			assert.equal(activeAccount('prod', [dev, prod]), 'prod');
			assert.equal(activeAccount('dev', [dev, prod]), 'dev');
		});

		it('nothing stored, or a stored account that is gone: the first that is not production, else none', () => {
			assert.equal(activeAccount(undefined, [prod, dev]), 'dev');
			assert.equal(activeAccount('gone', [prod, marked, demo]), 'demo');
			assert.equal(activeAccount(42, [prod, marked]), undefined);
			assert.equal(activeAccount(undefined, []), undefined);
		});

		it('after a removal: the nearest account that is not production, forwards then backwards', () => {
			assert.equal(fallbackActive([dev, prod, demo], 1), 'demo');
			assert.equal(fallbackActive([dev, prod, marked], 1), 'dev');
			assert.equal(fallbackActive([prod, marked], 0), undefined);
			assert.equal(fallbackActive([dev, demo], 5), 'demo');
			assert.equal(fallbackActive([dev, demo], 0), 'dev');
			const list = [demo, dev, prod];
			assert.equal(fallbackActive(list, 2), 'dev', 'the nearest before it');
			assert.deepEqual(list.map((a) => a.id), ['demo', 'dev', 'prod'], 'the list is left as it was');
		});

		it('never picks a production account (generated)', () => {
			const accounts = fc.array(fc.record({ prod: fc.boolean(), flagged: fc.boolean() }), { maxLength: 8 }).map((rows) => rows.map((r, i) => record(`a${i}`, r.prod ? 'https://user.telematicssdk.com' : 'https://x.example.com', r.flagged ? !r.prod : undefined)));
			fc.assert(fc.property(accounts, fc.integer({ min: -2, max: 10 }), (list, near) => {
				const chosen = fallbackActive(list, near);
				const candidates = list.filter((a) => !isProduction(a));
				if (candidates.length === 0) assert.equal(chosen, undefined);
				else assert.ok(candidates.some((a) => a.id === chosen), `${chosen} is not production`);
			}));
		});
	});

	describe('irreversibleOperation (the description\'s `irreversible`, found by operationFor)', () => {
		const USER = 'Delete the user and all their data';
		const table: Array<[string, string, string | undefined, string?]> = [
			['DELETE', '/v1/Management/users/abc-123', USER, 'DeviceToken "abc-123"'],
			['delete', '/v1/management/USERS/abc-123/', USER, 'DeviceToken "abc-123"'],
			['DELETE', '/v1//Management/users/abc?x=1', USER, 'DeviceToken "abc"'],
			['DELETE', '/v1/Management/%75sers/abc', USER, 'DeviceToken "abc"'],
			['DELETE', '/v1/Management/%2575sers/abc', USER],
			['DELETE', '/api/v1/Management/users/abc', USER],
			['DELETE', '/v1/Management/users/a%2Fb', USER, 'DeviceToken "a/b"'],
			['POST', '/v1/Management/users/instances/change', 'Move the user to another instance'],
			['DELETE', '/v1/Applications/applications/app-9', 'Delete the application', 'AppId "app-9"'],
			['DELETE', '/v1/Instances/inst-7', 'Delete the instance', 'InstanceId "inst-7"'],
			['DELETE', '/v1/Management/users/%zz', 'An operation whose path cannot be read'],
			['GET', '/v1/Management/users/abc', undefined],
			['PUT', '/v1/Management/users', undefined],
			['POST', '/v1/Management/users/GetFilteredPage', undefined],
			['PATCH', '/v1/Instances/inst-7', undefined],
			['DELETE', '/v1/Management/users', undefined],
			['GET', '/v1/Instances/%zz', undefined],
			['HEAD', '/v1/Instances/%zz', undefined],
			['DELETE', '/v1/Instances/%zz', 'An operation whose path cannot be read', 'the path "/v1/Instances/%zz"'],
			['DELETE', '/v1/Management/users/%252575', USER, 'DeviceToken "u"'],
			['DELETE', '/v1/Management/users/%25252575', 'An operation whose path cannot be read'],
			['DELETE', '/v1/Instances/inst-7/users', undefined],
			['DELETE', '/v1/Applications/applications/app-9/instances', undefined],
			['POST', '/v1/Management/users/instances/changes', undefined],
			// `;` parameters, dropped from each segment as servlet-style routers drop them
			['DELETE', '/v1;/Management/users/abc', USER, 'DeviceToken "abc"'],
			['DELETE', '/v1/Management/users;/abc', USER, 'DeviceToken "abc"'],
			['DELETE', '/v1/Management;x=1/users/abc;jsessionid=2', USER, 'DeviceToken "abc"'],
			['DELETE', '/v1/Management/users%3Bx/abc', USER, 'DeviceToken "abc"'],
			['DELETE', '/v1/Management/users/;/abc', USER, 'DeviceToken "abc"'],
			['DELETE', '/v1/Instances;/inst-7', 'Delete the instance', 'InstanceId "inst-7"'],
			['POST', '/v1/Management/users/instances;a=b/change', 'Move the user to another instance'],
		];
		for (const [method, path, name, target] of table) {
			it(`${method} ${path} → ${name ?? 'not irreversible'}`, () => {
				const found = irreversibleOperation(method, path, platform);
				assert.equal(found?.name, name);
				if (target) assert.equal(found?.target, target);
			});
		}

		it('every operation the description marks irreversible is found, on its own path', () => {
			const marked = platform.OPERATIONS.filter((op) => op.irreversible);
			assert.ok(marked.length >= 4);
			for (const op of marked) {
				const path = op.path.replace(/\{[^}]+\}/g, 'x-1');
				assert.equal(irreversibleOperation(op.method, path, platform)?.name, op.irreversible, op.id);
			}
		});

		it('a target is cut at 120 characters and shows control characters as "?"; a body names what the path does not', () => {
			assert.equal(irreversibleOperation('DELETE', `/v1/Instances/${'x'.repeat(200)}`, platform)?.target, `InstanceId "${'x'.repeat(107)}…`);
			assert.equal(irreversibleOperation('DELETE', `/v1/Instances/${'y'.repeat(80)}`, platform)?.target, `InstanceId "${'y'.repeat(80)}"`);
			assert.equal(irreversibleOperation('DELETE', '/v1/Instances/a%0Ab%7F', platform)?.target, 'InstanceId "a?b?"');
			assert.equal(irreversibleOperation('POST', '/v1/Management/users/instances/change', platform)?.target, 'what the request body names (DeviceToken, ToInstanceId, ToInstanceKey)');
			assert.equal(irreversibleOperation('POST', '/v1/Management/users/instances/change', platform, '{"DeviceToken":"dt-2","ToInstanceId":"i-9","ToInstanceKey":"k"}')?.target, 'DeviceToken "dt-2", ToInstanceId "i-9"');
		});

		it('a target of exactly 120 characters is shown whole', () => {
			const target = irreversibleOperation('DELETE', `/v1/Instances/${'z'.repeat(107)}`, platform)?.target;
			assert.equal(target, `InstanceId "${'z'.repeat(107)}"`);
			assert.equal(target?.length, 120);
		});

		it('without the body, the fallback names only the required fields of the body', () => {
			const purge: Operation = {
				id: 'test.purge', host: 'user', method: 'POST', path: '/v1/Purge', summary: 'Purge', token: 'admin', changesData: true, irreversible: 'Purge everything', source: 'skills',
				parameters: [
					{ name: 'Scope', in: 'body', type: 'string', required: true, description: '' },
					{ name: 'Reason', in: 'body', type: 'string', required: false, description: '' },
					{ name: 'dryRun', in: 'query', type: 'boolean', required: true, description: '' },
				],
			};
			assert.equal(irreversibleOperation('POST', '/v1/Purge', catalogOf([purge]))?.target, 'what the request body names (Scope)');
		});

		it('an operation read from a host\'s OpenAPI document never hides one the description marks', () => {
			// A document that names a literal path on the user host, which would beat the description's `{DeviceToken}`.
			const sly: Operation = { id: 'openapi.sly', host: 'user', method: 'DELETE', path: '/v1/Management/users/abc', summary: 'Harmless', token: 'unknown', changesData: true, parameters: [], source: 'openapi' };
			const merged = catalogOf([...platform.OPERATIONS, sly], platform);
			assert.equal(merged.operationFor('DELETE', 'user', '/v1/Management/users/abc')?.id, 'openapi.sly');
			assert.equal(irreversibleOperation('DELETE', '/v1/Management/users/abc', merged)?.name, USER);
		});
	});

	describe('the question before the agent\'s request', () => {
		const methods = AGENT_METHODS as readonly AgentMethod[];
		it('production: every changing method asks, reads never, a snooze silences it', () => {
			for (const method of methods) {
				const changing = method !== 'GET' && method !== 'HEAD';
				assert.deepEqual(questionBefore(method, '/v1/Trips', { production: true, snoozed: false }, platform), changing ? { kind: 'production' } : undefined, method);
				assert.equal(questionBefore(method, '/v1/Trips', { production: true, snoozed: true }, platform), undefined, method);
				assert.equal(questionBefore(method, '/v1/Trips', { production: false, snoozed: false }, platform), undefined, method);
			}
		});

		it('irreversible: asks on every account, snoozed or not, with its name and target', () => {
			for (const production of [true, false]) {
				for (const snoozed of [true, false]) {
					const q = questionBefore('DELETE', '/v1/Management/users/abc', { production, snoozed }, platform);
					assert.deepEqual(q, { kind: 'irreversible', production, operation: { name: 'Delete the user and all their data', target: 'DeviceToken "abc"' } });
				}
			}
		});
	});

	describe('Snoozes (a fake clock)', () => {
		it('lasts ten minutes, for one account, and can be ended', () => {
			let now = 1_000_000;
			const snoozes = new Snoozes({ now: () => now });
			assert.equal(snoozes.isSnoozed('a'), false);
			snoozes.snooze('a');
			assert.equal(snoozes.isSnoozed('a'), true);
			assert.equal(snoozes.isSnoozed('b'), false, 'per account');
			now += SNOOZE_MS - 1;
			assert.equal(snoozes.isSnoozed('a'), true);
			now += 1;
			assert.equal(snoozes.isSnoozed('a'), false, 'over after ten minutes');
			snoozes.snooze('a');
			assert.equal(snoozes.isSnoozed('a'), true, 'allowed again: ten more minutes');
			assert.equal(SNOOZE_MS, 600_000);
		});
	});

	describe('how a production account shows', () => {
		const NOW = 1_700_000_000_000;
		const session = (serviceUrl: string, expiresIn: number, production?: boolean): Session => ({
			account: { ...record('acc', serviceUrl, production), label: 'ops@acme.example' },
			tokens: { accessToken: 'a', refreshToken: 'r', expiresAt: NOW + expiresIn, expirySource: 'jwt', obtainedAt: NOW - 1000 },
			state: expiresIn > 0 ? 'valid' : 'expired',
		});

		it('the status bar: a warning background and the word, spoken too; an expired one stays an error', () => {
			const d = describeStatus(session('https://user.telematicssdk.com', 3_600_000), { inFlight: false }, NOW, 300_000);
			assert.equal(d.severity, 'warning');
			assert.equal(d.production, true);
			assert.match(d.text, /^\$\(shield\) PRODUCTION · ops@acme\.example · /);
			assert.match(d.accessibilityLabel, /^production: Telematics account ops@acme\.example, token valid for/);
			assert.equal(describeStatus(session('https://user.telematicssdk.com', -1), undefined, NOW, 300_000).severity, 'error');
			const plain = describeStatus(session('https://user.example.com', 3_600_000), { inFlight: false }, NOW, 300_000);
			assert.equal(plain.severity, 'none');
			assert.doesNotMatch(plain.text + plain.accessibilityLabel, /production/i);
		});

		it('the Accounts view: the word, the icon and a context value the menus read', () => {
			const node = accountNode(session('https://user.example.com', 3_600_000, true), NOW, 'acc');
			assert.equal(node.production, true);
			assert.equal(node.icon, 'flame');
			assert.match(node.description, /^acc · PRODUCTION · active · /);
			assert.equal(node.contextValue, 'account.admin.active.production');
			assert.equal(accountNode(session('https://user.example.com', 3_600_000), NOW, undefined).contextValue, 'account.admin');
		});
	});

	describe('the store', () => {
		let time: TestClock;
		let memento: TestMemento;
		let backend: SharedSecretBackend;
		const stores: SessionStore[] = [];
		const tokens = (tag: string): StoredTokens => ({ accessToken: `access-${tag}`, refreshToken: `refresh-${tag}`, expiresAt: time.clock.now() + 3_600_000, expirySource: 'jwt', obtainedAt: time.clock.now() });
		const open = (): SessionStore => {
			const store = new SessionStore(backend.view(), memento, { clock: time.clock });
			stores.push(store);
			return store;
		};
		const dev: NewAccount = { kind: 'user', serviceUrl: 'https://dev.example.com', instanceId: 'i', login: 'device-dev-0001', label: 'dev' };
		const prod: NewAccount = { kind: 'admin', serviceUrl: 'https://user.telematicssdk.com', instanceId: 'i', login: 'ops@acme.example', label: 'ops@acme.example' };
		const other: NewAccount = { kind: 'admin', serviceUrl: 'https://staging.example.com', instanceId: 'i', login: 'qa@acme.example', label: 'qa@acme.example' };

		beforeEach(() => {
			time = createTestClock();
			memento = new TestMemento();
			backend = new SharedSecretBackend();
		});
		afterEach(() => {
			for (const s of stores.splice(0)) s.dispose();
		});

		it('keeps the mark in the index (no secret), through a new login and a restart', async () => {
			const store = open();
			await store.load();
			const saved = await store.saveLogin(other, tokens('o'));
			assert.equal(await store.setProduction(saved.account.id, true), true);
			assert.equal(memento.get<AccountRecord[]>(ACCOUNTS_KEY)?.[0]?.production, true);
			await store.saveLogin(other, tokens('o2'));
			assert.equal(store.get(saved.account.id)?.account.production, true, 'a new login keeps it');
			const restarted = open();
			await restarted.load();
			assert.equal(restarted.get(saved.account.id)?.account.production, true);
			assert.equal(await store.setProduction('nobody', true), false);
		});

		it('loads records stored before the flag, and a flag that is not a boolean as absent: the host decides', async () => {
			const first = open();
			await first.load();
			const a = await first.saveLogin(prod, tokens('p'));
			const b = await first.saveLogin(other, tokens('o'));
			await memento.update(ACCOUNTS_KEY, [{ ...a.account, production: undefined }, { ...b.account, production: 'yes' }]);
			const store = open();
			await store.load();
			assert.equal(store.list().length, 2, 'both load');
			assert.equal(isProduction(store.get(a.account.id)!.account), true, 'vendor host: production');
			assert.equal(store.get(b.account.id)!.account.production, undefined);
			assert.equal(isProduction(store.get(b.account.id)!.account), false);
		});

		it('a restart with no stored active account does not start in production', async () => {
			const first = open();
			await first.load();
			const p = await first.saveLogin(prod, tokens('p'));
			const d = await first.saveLogin(dev, tokens('d'));
			await memento.update(ACTIVE_KEY, undefined);
			const restarted = open();
			await restarted.load();
			assert.equal(restarted.active()?.account.id, d.account.id);
			await restarted.remove(d.account.id);
			assert.equal(restarted.active(), undefined, 'only production left: none is active, the person chooses');
			await restarted.setActive(p.account.id);
			assert.equal(restarted.active()?.account.id, p.account.id, 'the person may choose it');
		});

		it('logging out of the active account moves to one that is not production, never into production', async () => {
			const store = open();
			await store.load();
			const d = await store.saveLogin(dev, tokens('d'));
			await store.saveLogin(prod, tokens('p'));
			const o = await store.saveLogin(other, tokens('o'));
			await store.setActive(d.account.id);
			await store.remove(d.account.id);
			assert.equal(store.active()?.account.id, o.account.id, 'skips the production account after it');
			assert.equal(memento.get(ACTIVE_KEY), o.account.id);
			await store.remove(o.account.id);
			assert.equal(store.active(), undefined);
			assert.equal(memento.get(ACTIVE_KEY), undefined);
		});

		it('another window\'s logout of the active account does not switch this one into production', async () => {
			const a = open();
			const b = open();
			await a.load();
			await b.load();
			await a.saveLogin(prod, tokens('p'));
			const d = await a.saveLogin(dev, tokens('d'));
			await b.reloadAccount(d.account.id);
			assert.equal(b.active()?.account.id, d.account.id);
			await a.remove(d.account.id);
			await b.reloadAccount(d.account.id);
			assert.equal(b.list().length, 1);
			assert.equal(b.active(), undefined);
			assert.equal(a.active(), undefined);
		});

		it('another window\'s mark is read on the next look at the account', async () => {
			const a = open();
			const b = open();
			await a.load();
			await b.load();
			const o = await a.saveLogin(other, tokens('o'));
			await b.reloadAccount(o.account.id);
			await a.setProduction(o.account.id, true);
			const seen = await b.reloadAccount(o.account.id);
			assert.equal(seen?.account.production, true);
		});
	});
});
