import * as assert from 'node:assert/strict';
import type { RefreshStatus } from '../../src/core/sessions/types';
import { accountNode, accountRows, claimRows, describeExpiry, MAX_CLAIM_LENGTH, truncate } from '../../src/core/accounts/accountsTreeModel';
import type { Session } from '../../src/core/sessions/types';

const NOW = Date.UTC(2025, 0, 15, 12, 0, 0);
const S = 1000;
const M = 60 * S;
const H = 60 * M;
/** A deterministic clock-time formatter: UTC `HH:MM:SS`. */
const formatTime = (ms: number) => new Date(ms).toISOString().slice(11, 19);
const options = { formatTime };

function jwt(payload: Record<string, unknown>): string {
	const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
	return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(payload)}.c2lnbmF0dXJl`;
}

const DEVICE_TOKEN = 'demo-device-token-0001';
const REFRESH_TOKEN = 'refresh-token-very-secret';
const LONG = 'x'.repeat(200);
const ACCESS_TOKEN = jwt({ sub: 'user-abc', iat: NOW / 1000 - 60, exp: NOW / 1000 + 2 * 3600, role: 'user', device: DEVICE_TOKEN, long: LONG, scopes: ['read', 'write'] });

function session(kind: 'user' | 'admin', remainingMs: number, state: Session['state'] = 'valid', extra: Partial<NonNullable<Session['tokens']>> = {}): Session {
	return {
		account: { id: `${kind}-1`, kind, label: kind === 'admin' ? 'admin@example.com' : '••••0001', instanceId: `${kind}-instance`, serviceUrl: 'http://127.0.0.1:4000', createdAt: NOW - H },
		tokens: {
			accessToken: ACCESS_TOKEN,
			refreshToken: REFRESH_TOKEN,
			deviceToken: kind === 'user' ? DEVICE_TOKEN : undefined,
			expiresAt: NOW + remainingMs,
			expirySource: 'jwt',
			obtainedAt: NOW - M,
			...extra,
		},
		state,
	};
}

function allText(value: unknown): string {
	return JSON.stringify(value);
}

describe('treeModel', () => {
	describe('accountNode', () => {
		const table: Array<{ name: string; session: Session; activeId?: string; description: string; contextValue: string; icon: string; iconColor?: string }> = [
			{ name: 'active user', session: session('user', H + 59 * M + 30 * S), activeId: 'user-1', description: 'active · 1h 59m', contextValue: 'account.user.active', icon: 'person' },
			{ name: 'inactive user', session: session('user', H + 59 * M), activeId: 'admin-1', description: '1h 59m', contextValue: 'account.user', icon: 'person' },
			{ name: 'active admin', session: session('admin', 12 * M), activeId: 'admin-1', description: 'active · 12m', contextValue: 'account.admin.active', icon: 'shield' },
			{ name: 'inactive admin, no active account', session: session('admin', 45 * S), description: '45s', contextValue: 'account.admin', icon: 'shield' },
			{ name: 'expired by the clock', session: session('user', -S), activeId: 'user-1', description: 'active · expired', contextValue: 'account.user.active.expired', icon: 'warning', iconColor: 'list.warningForeground' },
			{ name: 'stored expired, inactive', session: session('admin', H, 'expired'), description: 'expired', contextValue: 'account.admin.expired', icon: 'warning', iconColor: 'list.warningForeground' },
			{ name: 'needs login', session: session('admin', H, 'needsLogin'), activeId: 'admin-1', description: 'active · log in again', contextValue: 'account.admin.active.needsLogin', icon: 'warning', iconColor: 'list.errorForeground' },
		];
		for (const row of table) {
			it(row.name, () => {
				const node = accountNode(row.session, NOW, row.activeId, options);
				assert.equal(node.label, row.session.account.label);
				assert.equal(node.accountId, row.session.account.id);
				assert.equal(node.description, row.description);
				assert.equal(node.contextValue, row.contextValue);
				assert.equal(node.icon, row.icon);
				assert.equal(node.iconColor, row.iconColor);
			});
		}

		it('context values match the package.json menu clauses', () => {
			const makeActive = /^account\.(?!.*active)/;
			const loginAgain = /^account.*expired/;
			assert.ok(makeActive.test(accountNode(session('user', H), NOW, undefined).contextValue));
			assert.ok(!makeActive.test(accountNode(session('user', H), NOW, 'user-1').contextValue));
			assert.ok(loginAgain.test(accountNode(session('user', -S), NOW, undefined).contextValue));
			assert.ok(!loginAgain.test(accountNode(session('user', H), NOW, undefined).contextValue));
		});
	});

	describe('accountRows', () => {
		it('user rows in order, device token masked', () => {
			const rows = accountRows(session('user', 2 * H, 'valid', { lastRefreshAt: NOW - 10 * M }), NOW, undefined, options);
			assert.deepEqual(rows.map((r) => [r.key, r.label, r.description]), [
				['service', 'Service', 'http://127.0.0.1:4000'],
				['instanceId', 'Instance ID', 'user-instance'],
				['deviceToken', 'Device token', '••••0001'],
				['expiry', 'Access token expiry', '14:00:00 (in 2h 0m)'],
				['refreshToken', 'Refresh token', 'present'],
				['lastRefresh', 'Last refresh', '11:50:00'],
				['claims', 'Token claims', undefined],
			]);
			assert.ok(rows.every((r) => r.icon.length > 0));
		});

		it('admin rows have no device token, never refreshed says never', () => {
			const rows = accountRows(session('admin', -M), NOW, undefined, options);
			assert.deepEqual(rows.map((r) => r.key), ['service', 'instanceId', 'expiry', 'refreshToken', 'lastRefresh', 'claims']);
			assert.equal(rows.find((r) => r.key === 'expiry')?.description, '11:59:00 (expired)');
			assert.equal(rows.find((r) => r.key === 'lastRefresh')?.description, 'never');
		});

		it('an admin without an API InstanceID shows no Instance ID row', () => {
			const base = session('admin', H);
			const { instanceId: _none, ...account } = base.account;
			const rows = accountRows({ ...base, account }, NOW, undefined, options);
			assert.deepEqual(rows.map((r) => r.key), ['service', 'expiry', 'refreshToken', 'lastRefresh', 'claims']);
		});

		it('a missing refresh token says so', () => {
			const rows = accountRows(session('admin', H, 'valid', { refreshToken: '' }), NOW, undefined, options);
			assert.equal(rows.find((r) => r.key === 'refreshToken')?.description, 'missing');
		});

		it('no tokens: no claims, expiry says no token', () => {
			const s: Session = { ...session('user', H, 'needsLogin'), tokens: undefined };
			const rows = accountRows(s, NOW, undefined, options);
			assert.equal(rows.find((r) => r.key === 'claims'), undefined);
			assert.equal(rows.find((r) => r.key === 'expiry')?.description, 'no token');
			assert.equal(rows.find((r) => r.key === 'deviceToken')?.description, 'missing');
		});

		it('shows the last refresh failure', () => {
			const status: RefreshStatus = { inFlight: false, lastError: { kind: 'network', message: 'The service could not be reached.', at: NOW - M } };
			const row = accountRows(session('user', H), NOW, status, options).find((r) => r.key === 'lastError');
			assert.equal(row?.description, 'The service could not be reached.');
		});

		it('never carries the access, refresh or device token', () => {
			for (const s of [session('user', H), session('admin', -H, 'expired'), session('user', H, 'needsLogin')]) {
				const text = allText([accountNode(s, NOW, s.account.id, options), accountRows(s, NOW, undefined, options)]);
				assert.ok(!text.includes(ACCESS_TOKEN), 'access token');
				assert.ok(!text.includes(REFRESH_TOKEN), 'refresh token');
				if (s.account.kind === 'user') assert.ok(!text.includes(DEVICE_TOKEN), 'device token');
			}
		});
	});

	describe('claimRows', () => {
		it('lists claims, times as clock times, long values cut, secrets masked', () => {
			const rows = claimRows(ACCESS_TOKEN, [DEVICE_TOKEN], options);
			const labels = rows.map((r) => r.label);
			assert.ok(labels.includes('sub: user-abc'));
			assert.ok(labels.includes('iat: 11:59:00'));
			assert.ok(labels.includes('exp: 14:00:00'));
			assert.ok(labels.includes('role: user'));
			assert.ok(labels.includes('scopes: ["read","write"]'));
			const device = labels.find((l) => l.startsWith('device: '));
			assert.ok(device && !device.includes(DEVICE_TOKEN));
			const long = rows.find((r) => r.label.startsWith('long: '))!;
			assert.equal(long.label, `long: ${'x'.repeat(MAX_CLAIM_LENGTH - 1)}…`);
			assert.ok(long.tooltip && long.tooltip.length > long.label.length);
		});

		it('a token that is not a JWT has no claims', () => {
			assert.deepEqual(claimRows('opaque-token'), []);
		});
	});

	describe('helpers', () => {
		it('truncate keeps short text and cuts long text to the limit', () => {
			assert.equal(truncate('short', 10), 'short');
			assert.equal(truncate('0123456789abc', 10), '012345678…');
			assert.equal(truncate('0123456789abc', 10).length, 10);
		});

		it('describeExpiry gives clock and relative time', () => {
			assert.equal(describeExpiry(NOW + 90 * S, NOW, options), '12:01:30 (in 1m)');
			assert.equal(describeExpiry(NOW, NOW, options), '12:00:00 (expired)');
		});
	});
});
