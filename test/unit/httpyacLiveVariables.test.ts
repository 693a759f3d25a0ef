// httpYac's live variables: every logged-in account's, the active one's twice, and none in Restricted Mode.
import * as assert from 'node:assert/strict';
import { liveVariables, type VariableAccount } from '../../src/core/httpyac/liveVariables';

const accounts: VariableAccount[] = [
	{ id: 'u', variable: 'TELEMATICS_TOKEN_USER', active: true },
	{ id: 'a', variable: 'TELEMATICS_TOKEN_ADMIN', active: false },
	{ id: 'x', active: false },
	{ id: 'gone', variable: 'TELEMATICS_TOKEN_GONE', active: false },
];
const tokens: Record<string, string> = { u: 'user-token', a: 'admin-token', x: 'nameless-token' };

describe('httpYac live variables', () => {
	it('gives each logged-in account its variable and the active one TELEMATICS_TOKEN, in a trusted folder', async () => {
		const asked: string[] = [];
		const vars = await liveVariables(accounts, true, 'TELEMATICS_TOKEN', async (id) => { asked.push(id); return tokens[id]; });
		assert.deepEqual(vars, { TELEMATICS_TOKEN_USER: 'user-token', TELEMATICS_TOKEN: 'user-token', TELEMATICS_TOKEN_ADMIN: 'admin-token' });
		assert.deepEqual(asked, ['u', 'a', 'gone']);
	});

	it('gives no token, and reads none, in a folder VS Code does not trust', async () => {
		const asked: string[] = [];
		const vars = await liveVariables(accounts, false, 'TELEMATICS_TOKEN', async (id) => { asked.push(id); return tokens[id]; });
		assert.deepEqual(vars, {});
		assert.deepEqual(asked, []);
	});
});

describe('httpYac live variables: a nameless active account', () => {
	it('gets TELEMATICS_TOKEN alone', async () => {
		const vars = await liveVariables([{ id: 'x', active: true }], true, 'TELEMATICS_TOKEN', async () => 'nameless-token');
		assert.deepEqual(vars, { TELEMATICS_TOKEN: 'nameless-token' });
	});
});
