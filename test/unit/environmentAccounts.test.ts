// The setting that binds environments to accounts is hand-edited JSON: only valid pairs are read, and a
// rename moves the bindings without dropping what the person wrote.
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { environmentBindings, isEnvironmentName, MAX_BINDINGS, renamedBindings } from '../../src/core/restFile/environmentAccounts';

describe('environment bindings (telematicsAuth.environmentAccounts)', () => {
	const rows: Array<{ name: string; value: unknown; bindings: Array<[string, string]> }> = [
		{ name: 'two bindings, in the order written', value: { prod: 'admin', dev: 'user' }, bindings: [['prod', 'admin'], ['dev', 'user']] },
		{ name: 'not an object', value: ['prod', 'admin'], bindings: [] },
		{ name: 'null', value: null, bindings: [] },
		{ name: 'a string', value: 'prod=admin', bindings: [] },
		{ name: '$shared cannot be bound (it is every environment\'s)', value: { $shared: 'admin' }, bindings: [] },
		{ name: 'an environment with a space', value: { 'pr od': 'admin' }, bindings: [] },
		{ name: 'an account that is not a name', value: { prod: 'ad min' }, bindings: [] },
		{ name: 'an account with spaces around', value: { prod: ' admin ' }, bindings: [] },
		{ name: 'an account that is a number', value: { prod: 1 }, bindings: [] },
		{ name: 'the bad pair is left out, the good one kept', value: { 'a/b': 'admin', dev: 'user-2' }, bindings: [['dev', 'user-2']] },
		{ name: 'a name of 64 characters', value: { ['e'.repeat(64)]: 'admin' }, bindings: [['e'.repeat(64), 'admin']] },
		{ name: 'a name of 65 characters', value: { ['e'.repeat(65)]: 'admin' }, bindings: [] },
		{ name: 'an account name of 33 characters', value: { prod: 'a'.repeat(33) }, bindings: [] },
	];
	for (const row of rows) {
		it(row.name, () => assert.deepEqual([...environmentBindings(row.value)], row.bindings));
	}

	it('reads at most MAX_BINDINGS pairs', () => {
		const many = Object.fromEntries(Array.from({ length: MAX_BINDINGS + 5 }, (_, i) => [`env${i}`, 'admin']));
		assert.equal(environmentBindings(many).size, MAX_BINDINGS);
	});

	it('every environment read is a key safe in an env file: no "$", no space, no quote, no line break (generated)', () => {
		fc.assert(fc.property(fc.dictionary(fc.string(), fc.string()), (value) => {
			for (const [environment, account] of environmentBindings(value)) {
				assert.ok(isEnvironmentName(environment) && /^[A-Za-z0-9_.-]+$/.test(environment));
				assert.match(account, /^[A-Za-z0-9_-]{1,32}$/);
			}
		}), { numRuns: 500 });
	});

	it('a rename moves every binding to the old name and keeps the rest as written', () => {
		assert.deepEqual(renamedBindings({ prod: 'admin', stage: 'admin', dev: 'user', odd: 5 }, 'admin', 'ops'), { prod: 'ops', stage: 'ops', dev: 'user', odd: 5 });
		assert.equal(renamedBindings({ dev: 'user' }, 'admin', 'ops'), undefined, 'nothing to write');
		assert.equal(renamedBindings(undefined, 'admin', 'ops'), undefined);
		assert.equal(renamedBindings(['admin'], 'admin', 'ops'), undefined);
		assert.equal(renamedBindings(null, 'admin', 'ops'), undefined);
	});
});
