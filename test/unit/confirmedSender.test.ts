// The account the agent's request was confirmed for is the one that sends it (core/agent/confirmedSender.ts):
// the active account switched in another window while the question is open refuses the request.
import * as assert from 'node:assert/strict';
import { ConfirmedSenders } from '../../src/core/agent/confirmedSender';
import { settle } from '../support/doubles/fakeClock';
import { useWindows } from '../support/doubles/testWindow';

describe('the agent\'s request: the account confirmed is the one that sends', () => {
	const fx = useWindows({ leaseTtlMs: 10_000 });
	const input = { method: 'DELETE', path: '/v1/Management/users/abc' };

	/** Two windows over one keychain and globalState, two accounts logged in in A, `first` active. */
	async function twoWindowsTwoAccounts() {
		const a = fx.open('A');
		const b = fx.open('B');
		await a.store.load();
		const second = await a.store.saveLogin({ kind: 'admin', serviceUrl: 'https://user.example.test', instanceId: 'inst', login: 'ops@example.test', label: 'ops' }, fx.service.login());
		const first = await a.store.saveLogin({ kind: 'admin', serviceUrl: 'https://other.example.test', instanceId: 'inst', login: 'dev@example.test', label: 'dev' }, fx.service.login());
		await b.store.load();
		await settle();
		return { a, b, first: first.account.id, second: second.account.id };
	}

	it('another window switches the active account while the question is open: invoke refuses, naming the one confirmed', async () => {
		const { a, b, first, second } = await twoWindowsTwoAccounts();
		const senders = new ConfirmedSenders();
		assert.equal(a.store.active()?.account.id, first);
		senders.remember(input, a.store.active()?.account.id); // prepareInvocation, in A
		await b.store.setActive(second); // the person switches in B
		await a.store.reloadAccount(second);
		await settle();
		assert.equal(a.store.active()?.account.id, second, 'A sees the switch');
		assert.deepEqual(senders.check(structuredClone(input), a.store.active()!.account.id), { ok: false, reason: 'changed', confirmed: first });
	});

	it('the same account: sent; the confirmation is spent, so the next invoke is checked against its own', async () => {
		const { a, first, second } = await twoWindowsTwoAccounts();
		const senders = new ConfirmedSenders();
		senders.remember(input, a.store.active()?.account.id);
		assert.deepEqual(senders.check(input, first), { ok: true });
		senders.remember(input, second);
		assert.deepEqual(senders.check(input, first), { ok: false, reason: 'changed', confirmed: second });
		assert.deepEqual(senders.check(input, first), { ok: false, reason: 'unprepared' }, 'no question prepared: nothing is sent');
	});

	it('a question that named no account (none fitted) lets no account send; another input is its own', () => {
		const senders = new ConfirmedSenders();
		senders.remember(input, undefined);
		senders.remember({ ...input, path: '/v1/Instances/i' }, 'x');
		assert.deepEqual(senders.check(input, 'x'), { ok: false, reason: 'changed', confirmed: undefined });
		assert.deepEqual(senders.check({ ...input, path: '/v1/Instances/i' }, 'x'), { ok: true });
	});

	it('a changing request with no question prepared is refused, never sent', () => {
		const senders = new ConfirmedSenders();
		assert.deepEqual(senders.check(input, 'x'), { ok: false, reason: 'unprepared' });
		senders.remember({ ...input, path: '/v1/Management/users/other' }, 'x');
		assert.deepEqual(senders.check(input, 'x'), { ok: false, reason: 'unprepared' }, 'another input\'s question does not cover it');
	});

	it('two questions for the same input: the second does not overwrite the first; invokes spend them first to first', () => {
		const senders = new ConfirmedSenders();
		senders.remember(input, 'first');
		senders.remember(input, 'second');
		assert.deepEqual(senders.check(input, 'second'), { ok: false, reason: 'changed', confirmed: 'first' }, 'the first question answers the first invoke');
		assert.deepEqual(senders.check(input, 'second'), { ok: true });
		assert.deepEqual(senders.check(input, 'second'), { ok: false, reason: 'unprepared' });
	});

	it('64 questions are kept: the 65th drops the oldest, which is then refused (never sent unasked)', () => {
		const senders = new ConfirmedSenders();
		const nth = (i: number) => ({ ...input, path: `/v1/Management/users/${i}` });
		for (let i = 0; i <= 64; i++) senders.remember(nth(i), 'x');
		assert.deepEqual(senders.check(nth(0), 'x'), { ok: false, reason: 'unprepared' });
		for (let i = 1; i <= 64; i++) assert.deepEqual(senders.check(nth(i), 'x'), { ok: true }, `question ${i} kept`);
	});
});
