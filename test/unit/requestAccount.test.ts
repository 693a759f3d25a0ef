// Insert by account: a request goes with the account whose service it reaches, only when exactly that is known.
import * as assert from 'node:assert/strict';
import { accountsServing } from '../../src/core/restFile/requestAccount';

describe('whose token a request carries (Insert by account)', () => {
	const user = { name: 'user', serviceUrl: 'https://user.telematicssdk.com' };
	const admin = { name: 'admin', serviceUrl: 'https://admin.example.org' };
	const local = { name: 'local', serviceUrl: 'http://127.0.0.1:4000' };
	const accounts = [user, admin, local];
	const rows: Array<[string, Array<string | undefined>, string[]]> = [
		['a host of one account\'s site', ['api.telematicssdk.com'], ['user']],
		['the other account\'s', ['admin.example.org'], ['admin']],
		['loopback: the local emulator\'s account', ['http://127.0.0.1:4000'], ['local']],
		['loopback by another name: nobody (localhost may be ::1)', ['http://localhost:4000'], []],
		['loopback on another port: nobody', ['http://localhost:4001'], []],
		['the user\'s site over http: nobody', ['http://api.telematicssdk.com'], []],
		['a host no account serves', ['collector.example'], []],
		['a host the file does not say', [undefined], []],
		['no host at all', [], []],
		['two readings, both the user\'s site', ['user.telematicssdk.com', 'api.telematicssdk.com'], ['user']],
		['two readings, two sites: nobody for sure', ['user.telematicssdk.com', 'admin.example.org'], []],
		['one reading said, one not', ['user.telematicssdk.com', undefined], []],
	];
	for (const [name, hosts, expected] of rows) {
		it(`${name} → ${expected.join(', ') || 'ask'}`, async () => assert.deepEqual((await accountsServing(hosts, accounts)).map((a) => a.name), expected));
	}

	it('an account\'s platform host on another site (telematicsAuth.platformHosts) is served by that account alone', async () => {
		const partner = { name: 'partner', serviceUrl: 'https://user.telematicssdk.com', platformOrigins: ['https://api.partner-cloud.example'] };
		assert.deepEqual((await accountsServing(['api.partner-cloud.example'], [partner, admin])).map((a) => a.name), ['partner']);
		assert.deepEqual((await accountsServing(['api.partner-cloud.example'], [user, admin])).map((a) => a.name), []);
	});

	it('two accounts on one service both serve it: the person chooses', async () => {
		const second = { name: 'user-2', serviceUrl: 'https://user.telematicssdk.com/' };
		assert.deepEqual((await accountsServing(['user.telematicssdk.com'], [user, second])).map((a) => a.name), ['user', 'user-2']);
	});
});
