// Account names (issue 30): the defaults, what a name may be, collisions through the variable they make,
// and the store giving, keeping and changing them.
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { checkAccountName, defaultName, tokenVariableFor, withNames } from '../../src/core/sessions/accountNames';

describe('account names', () => {
	it('default to the kind, then the kind with a number: user, user-2, admin, admin-2', () => {
		assert.equal(defaultName('user', []), 'user');
		assert.equal(defaultName('user', ['user']), 'user-2');
		assert.equal(defaultName('user', ['user', 'USER_2', 'admin']), 'user-3', 'a name that makes the same variable is taken');
		assert.equal(defaultName('admin', ['user', 'user-2']), 'admin');
	});

	it('make one variable each: upper case, "-" as "_"', () => {
		assert.equal(tokenVariableFor('admin'), 'TELEMATICS_TOKEN_ADMIN');
		assert.equal(tokenVariableFor('user-2'), 'TELEMATICS_TOKEN_USER_2');
		assert.equal(tokenVariableFor('Ops_prod'), 'TELEMATICS_TOKEN_OPS_PROD');
	});

	// [name, the other names, accepted as | the message]
	const cases: Array<[string, string[], string | RegExp]> = [
		['ops', ['user'], 'ops'],
		['  ops  ', [], 'ops'],
		['a'.repeat(32), [], 'a'.repeat(32)],
		['a'.repeat(33), [], /1 to 32 letters/],
		['', [], /1 to 32 letters/],
		['two words', [], /1 to 32 letters/],
		['ops$', [], /1 to 32 letters/],
		['$(touch x)', [], /1 to 32 letters/],
		['ünï', [], /1 to 32 letters/],
		['{{x}}', [], /1 to 32 letters/],
		['user', ['user'], /"user" is already an account's name/],
		['USER', ['user'], /"user" is already/],
		['user_2', ['user-2'], /"user-2" is already/],
	];
	for (const [name, others, expected] of cases) {
		it(`${JSON.stringify(name.slice(0, 40))} among ${JSON.stringify(others)} → ${String(expected).slice(0, 40)}`, () => {
			const checked = checkAccountName(name, others);
			if (typeof expected === 'string') assert.deepEqual(checked, { ok: true, value: expected });
			else assert.match((checked as { message: string }).message, expected);
		});
	}

	it('are given in order: stored ones kept, clashing or invalid ones replaced by the first free default', () => {
		const named = withNames([
			{ kind: 'user' as const, name: 'driver' },
			{ kind: 'user' as const },
			{ kind: 'admin' as const, name: 'DRIVER' },
			{ kind: 'admin' as const, name: 'bad name' },
			{ kind: 'user' as const, name: 'user' },
		]);
		assert.deepEqual(named.map((a) => a.name), ['driver', 'user-2', 'admin', 'admin-2', 'user']);
	});

	it('are always valid and unique by variable, whatever was stored (generated)', () => {
		const stored = fc.record({ kind: fc.constantFrom('user' as const, 'admin' as const), name: fc.option(fc.oneof(fc.constantFrom('user', 'admin', 'user-2', 'USER_2', 'ops', 'Ops'), fc.string({ maxLength: 40 })), { nil: undefined }) });
		fc.assert(fc.property(fc.array(stored, { maxLength: 12 }), (accounts) => {
			const names = withNames(accounts).map((a) => a.name);
			for (const name of names) assert.equal(checkAccountName(name, []).ok, true, name);
			assert.equal(new Set(names.map(tokenVariableFor)).size, names.length, names.join());
			assert.deepEqual(withNames(accounts).map((a) => a.name), names, 'the same list, the same names');
		}));
	});
});
