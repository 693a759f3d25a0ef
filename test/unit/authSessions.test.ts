import * as assert from 'node:assert/strict';
import {
	accountLabelFor,
	diffAuthSessions,
	isEmptyDiff,
	parseScopes,
	toAuthSession,
	toAuthSessions,
	type AuthSessionData,
	type ParsedScopes,
} from '../../src/core/sessions/authSessions';
import type { Session } from '../../src/core/sessions/types';

const NOW = Date.UTC(2025, 0, 15, 12, 0, 0);
const H = 60 * 60 * 1000;

function session(id: string, kind: 'user' | 'admin', state: Session['state'] = 'valid', opts: { token?: string; withTokens?: boolean; label?: string; url?: string } = {}): Session {
	return {
		account: { id, kind, label: opts.label ?? `${id}-label`, instanceId: 'inst', serviceUrl: opts.url ?? 'https://api.example.com:8443/base', createdAt: NOW - H },
		tokens: opts.withTokens === false ? undefined : {
			accessToken: opts.token ?? `access-${id}`,
			refreshToken: `refresh-${id}`,
			deviceToken: kind === 'user' ? `device-${id}` : undefined,
			expiresAt: NOW + H,
			expirySource: 'jwt',
			obtainedAt: NOW - 60_000,
		},
		state,
	};
}

function data(id: string, token = `access-${id}`, label = `${id}-label (api.example.com:8443 · ${id})`, scopes: string[] = ['user']): AuthSessionData {
	return { id, accessToken: token, account: { id, label }, scopes };
}

const ids = (list: readonly AuthSessionData[]) => list.map((s) => s.id);

describe('authSessions', () => {
	describe('parseScopes', () => {
		const table: Array<[string, readonly string[] | undefined, ParsedScopes]> = [
			['undefined → every account', undefined, { ok: true, filter: {} }],
			['[] → every account', [], { ok: true, filter: {} }],
			['user', ['user'], { ok: true, filter: { kind: 'user' } }],
			['admin', ['admin'], { ok: true, filter: { kind: 'admin' } }],
			['the same kind twice', ['admin', 'admin'], { ok: true, filter: { kind: 'admin' } }],
			['account:<id>', ['account:abc123'], { ok: true, filter: { accountId: 'abc123' } }],
			['kind and account together', ['user', 'account:abc123'], { ok: true, filter: { kind: 'user', accountId: 'abc123' } }],
			['surrounding spaces are ignored', [' user '], { ok: true, filter: { kind: 'user' } }],
		];
		for (const [name, scopes, expected] of table) {
			it(name, () => assert.deepEqual(parseScopes(scopes), expected));
		}

		const refused: Array<[string, readonly string[]]> = [
			['user and admin together', ['user', 'admin']],
			['two different accounts', ['account:a', 'account:b']],
			['account: without an id', ['account:']],
			['an unknown scope (e.g. another provider\'s)', ['repo']],
			['a known scope next to an unknown one', ['user', 'read:org']],
			['the kind in another case', ['User']],
		];
		for (const [name, scopes] of refused) {
			it(`refuses ${name}`, () => {
				const parsed = parseScopes(scopes);
				assert.equal(parsed.ok, false);
				assert.ok(!parsed.ok && parsed.message.length > 0);
			});
		}
	});

	describe('toAuthSession', () => {
		const table: Array<[string, Session, AuthSessionData | undefined]> = [
			['a valid user account', session('u1', 'user'), data('u1')],
			['a valid admin account is scoped admin', session('a1', 'admin', 'valid', { label: 'ops@example.com' }), data('a1', 'access-a1', 'ops@example.com (api.example.com:8443 · a1)', ['admin'])],
			['an expired account (a refresh may still work) is offered', session('u2', 'user', 'expired'), data('u2')],
			['an account that needs a login is not', session('u3', 'user', 'needsLogin'), undefined],
			['an account without tokens is not', session('u4', 'user', 'valid', { withTokens: false }), undefined],
		];
		for (const [name, input, expected] of table) {
			it(name, () => assert.deepEqual(toAuthSession(input), expected));
		}

		it('hands out the access token only, never the refresh or device token', () => {
			const text = JSON.stringify(toAuthSession(session('u1', 'user')));
			assert.ok(text.includes('access-u1'));
			assert.ok(!text.includes('refresh-u1'));
			assert.ok(!text.includes('device-u1'));
		});
	});

	describe('accountLabelFor', () => {
		const table: Array<[string, string, string, string]> = [
			['label with host and port', 'ops@example.com', 'https://api.example.com:8443/base', 'ops@example.com (api.example.com:8443 · 0123abcd)'],
			['label with plain host', 'demo…0001', 'http://127.0.0.1/', 'demo…0001 (127.0.0.1 · 0123abcd)'],
			['an unparsable URL is shown as it is', 'x', 'not a url', 'x (not a url · 0123abcd)'],
		];
		for (const [name, label, url, expected] of table) {
			it(name, () => assert.equal(accountLabelFor(session('0123abcdef456789', 'admin', 'valid', { label, url })), expected));
		}

		it('two accounts with the same label on the same service never share a label (VS Code keys consent by it)', () => {
			const admin = session('aaaaaaaa11111111', 'admin', 'valid', { label: 'Demo Driver', url: 'https://user.example.com' });
			const user = session('bbbbbbbb22222222', 'user', 'valid', { label: 'Demo Driver', url: 'https://user.example.com' });
			assert.notEqual(accountLabelFor(admin), accountLabelFor(user));
			assert.equal(accountLabelFor(admin), accountLabelFor(session('aaaaaaaa11111111', 'admin', 'expired', { label: 'Demo Driver', url: 'https://user.example.com' })), 'the same account keeps its label over a new login');
		});

		it('the same login on two services gives two different account labels', () => {
			const a = session('a', 'admin', 'valid', { label: 'ops@example.com', url: 'https://eu.example.com' });
			const b = session('b', 'admin', 'valid', { label: 'ops@example.com', url: 'https://us.example.com' });
			assert.notEqual(accountLabelFor(a), accountLabelFor(b));
		});
	});

	describe('toAuthSessions', () => {
		const all = [
			session('u1', 'user'),
			session('a1', 'admin'),
			session('u2', 'user', 'needsLogin'),
			session('u3', 'user', 'expired'),
			session('a2', 'admin', 'valid', { withTokens: false }),
		];
		const table: Array<[string, Parameters<typeof toAuthSessions>[1], string[]]> = [
			['no filter: every offerable account, in store order', {}, ['u1', 'a1', 'u3']],
			['users only', { kind: 'user' }, ['u1', 'u3']],
			['admins only', { kind: 'admin' }, ['a1']],
			['one account', { accountId: 'a1' }, ['a1']],
			['one account of the wrong kind', { kind: 'user', accountId: 'a1' }, []],
			['an account that needs a login, asked for by id', { accountId: 'u2' }, []],
			['an unknown account id', { accountId: 'nope' }, []],
		];
		for (const [name, filter, expected] of table) {
			it(name, () => assert.deepEqual(ids(toAuthSessions(all, filter)), expected));
		}
	});

	describe('diffAuthSessions', () => {
		const table: Array<[string, AuthSessionData[], AuthSessionData[], { added: string[]; removed: string[]; changed: string[] }]> = [
			['nothing before or after', [], [], { added: [], removed: [], changed: [] }],
			['a login adds', [], [data('u1')], { added: ['u1'], removed: [], changed: [] }],
			['a second login adds only the new one', [data('u1')], [data('u1'), data('a1')], { added: ['a1'], removed: [], changed: [] }],
			['a logout removes', [data('u1'), data('a1')], [data('a1')], { added: [], removed: ['u1'], changed: [] }],
			['a refresh (new token, same account) is a change', [data('u1', 'old')], [data('u1', 'new')], { added: [], removed: [], changed: ['u1'] }],
			['a new label is a change', [data('u1')], [data('u1', 'access-u1', 'Jane (h)')], { added: [], removed: [], changed: ['u1'] }],
			['nothing changed (e.g. setActive) is empty', [data('u1'), data('a1')], [data('u1'), data('a1')], { added: [], removed: [], changed: [] }],
			['a new order alone is no change', [data('u1'), data('a1')], [data('a1'), data('u1')], { added: [], removed: [], changed: [] }],
			['add, remove and change at once', [data('u1', 'old'), data('u2')], [data('u1', 'new'), data('a1')], { added: ['a1'], removed: ['u2'], changed: ['u1'] }],
		];
		for (const [name, before, after, expected] of table) {
			it(name, () => {
				const diff = diffAuthSessions(before, after);
				assert.deepEqual({ added: ids(diff.added), removed: ids(diff.removed), changed: ids(diff.changed) }, expected);
				assert.equal(isEmptyDiff(diff), expected.added.length + expected.removed.length + expected.changed.length === 0);
			});
		}

		it('reports the new token in a change and the last known one in a removal', () => {
			const diff = diffAuthSessions([data('u1', 'old'), data('u2', 'gone-token')], [data('u1', 'new')]);
			assert.equal(diff.changed[0]?.accessToken, 'new');
			assert.equal(diff.removed[0]?.accessToken, 'gone-token');
		});

		it('an account that comes to need a login is removed', () => {
			const before = toAuthSessions([session('u1', 'user'), session('a1', 'admin')]);
			const after = toAuthSessions([session('u1', 'user', 'needsLogin'), session('a1', 'admin')]);
			assert.deepEqual(ids(diffAuthSessions(before, after).removed), ['u1']);
		});
	});
});
