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
		assert.deepEqual(senders.check(structuredClone(input), a.store.active()!.account.id), { ok: false, confirmed: first });
	});

	it('the same account: sent; the confirmation is spent, so the next invoke is checked against its own', async () => {
		const { a, first, second } = await twoWindowsTwoAccounts();
		const senders = new ConfirmedSenders();
		senders.remember(input, a.store.active()?.account.id);
		assert.deepEqual(senders.check(input, first), { ok: true });
		senders.remember(input, second);
		assert.deepEqual(senders.check(input, first), { ok: false, confirmed: second });
		assert.deepEqual(senders.check(input, first), { ok: true }, 'no question prepared: nothing to hold it to');
	});

	it('a question that named no account (none fitted) lets no account send; another input is its own', () => {
		const senders = new ConfirmedSenders();
		senders.remember(input, undefined);
		senders.remember({ ...input, path: '/v1/Instances/i' }, 'x');
		assert.deepEqual(senders.check(input, 'x'), { ok: false, confirmed: undefined });
		assert.deepEqual(senders.check({ ...input, path: '/v1/Instances/i' }, 'x'), { ok: true });
	});
});
