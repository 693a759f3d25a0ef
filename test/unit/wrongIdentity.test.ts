// The wrong identity, before Send (issue 43): a request to a known operation that carries an account of the
// other kind, read as the lens reads it (named reference, active account, bound environment, a JWT), and
// the fixes that switch to an account of the needed kind.
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { operationFor } from '../../src/core/platform/catalog';
import { platformHosts } from '../../src/core/platform/hosts';
import { wrongIdentities, type IdentityAccount, type IdentityContext } from '../../src/core/restFile/wrongIdentity';
import { parseRestFile } from '../../src/core/restFile/requestParser';
import { applyEdits } from '../../src/core/restFile/textEdit';
import { fakeJwt } from '../support/doubles/fakeTokenService';

const REAL = platformHosts('https://user.telematicssdk.com')!;
const DEMO = platformHosts('http://127.0.0.1:4100')!;
const userToken = fakeJwt(Date.UTC(2030, 0, 1), 'device-1');
const adminToken = fakeJwt(Date.UTC(2030, 0, 1), 'admin-1');
const user: IdentityAccount = { id: 'u', name: 'user', kind: 'user', hosts: REAL, accessToken: userToken, expiresAt: Date.UTC(2030, 0, 1) };
const admin: IdentityAccount = { id: 'a', name: 'admin', kind: 'admin', hosts: REAL, accessToken: adminToken, expiresAt: Date.UTC(2030, 0, 1) };
const admin2: IdentityAccount = { id: 'a2', name: 'admin-2', kind: 'admin', hosts: REAL };

const ADMIN_TRIPS = 'POST https://api.telematicssdk.com/trips/get/admin/v1\n';
const USER_TRIPS = 'POST https://api.telematicssdk.com/trips/get/v1/\n';

interface Row {
	name: string;
	text: string;
	context?: Partial<IdentityContext>;
	/** Each warning: `<operation> sends <account> (<carrier>[ in <environment>])`. */
	expected: string[];
}

const rows: Row[] = [
	{ name: "the user's named reference on the admin's trips", text: `${ADMIN_TRIPS}Authorization: Bearer {{$processEnv TELEMATICS_TOKEN_USER}}\n`, expected: ['trips.admin.list sends user (reference)'] },
	{ name: "the admin's named reference on the admin's trips", text: `${ADMIN_TRIPS}Authorization: Bearer {{$processEnv TELEMATICS_TOKEN_ADMIN}}\n`, expected: [] },
	{ name: "the admin's reference on the user's trips ($dotenv)", text: `${USER_TRIPS}Authorization: Bearer {{$dotenv TELEMATICS_TOKEN_ADMIN}}\n`, expected: ['trips.user.list sends admin (reference)'] },
	{ name: 'httpYac\'s bare named reference', text: `${USER_TRIPS}Authorization: Bearer {{TELEMATICS_TOKEN_ADMIN}}\n`, expected: ['trips.user.list sends admin (reference)'] },
	{ name: 'a reference no logged-in account has', text: `${ADMIN_TRIPS}Authorization: Bearer {{$processEnv TELEMATICS_TOKEN_NOBODY}}\n`, expected: [] },
	{ name: 'the active account, when it is the user', text: `${ADMIN_TRIPS}Authorization: Bearer {{$processEnv TELEMATICS_TOKEN}}\n`, context: { activeId: 'u' }, expected: ['trips.admin.list sends user (active)'] },
	{ name: 'the active account, when it is the admin', text: `${ADMIN_TRIPS}Authorization: Bearer {{$processEnv TELEMATICS_TOKEN}}\n`, context: { activeId: 'a' }, expected: [] },
	{ name: 'a bound environment of the other kind', text: `${ADMIN_TRIPS}Authorization: Bearer {{TELEMATICS_TOKEN}}\n`, context: { activeId: 'a', bindings: new Map([['prod', 'admin'], ['dev', 'user']]) }, expected: ['trips.admin.list sends user (environment in dev)'] },
	{ name: 'bindings do not apply to $processEnv', text: `${ADMIN_TRIPS}Authorization: Bearer {{$processEnv TELEMATICS_TOKEN}}\n`, context: { activeId: 'a', bindings: new Map([['dev', 'user']]) }, expected: [] },
	{ name: "the user's JWT on an admin operation", text: `${ADMIN_TRIPS}Authorization: Bearer ${userToken}\n`, expected: ['trips.admin.list sends user (token)'] },
	{ name: 'a JWT no account has', text: `${ADMIN_TRIPS}Authorization: Bearer ${fakeJwt(Date.UTC(2030, 0, 1), 'stranger')}\n`, expected: [] },
	{ name: "the admin's JWT on the user's statistics (GET, query)", text: `GET https://api.telematicssdk.com/indicators/v3/Statistics?StartDate=2026-01-01\nAuthorization: Bearer ${adminToken}\n`, expected: ['indicators.user.statistics sends admin (token)'] },
	{ name: 'a path the platform does not have', text: `GET https://api.telematicssdk.com/nothing\nAuthorization: Bearer {{$processEnv TELEMATICS_TOKEN_USER}}\n`, expected: [] },
	{ name: 'another host than the platform\'s', text: `POST https://api.example.com/trips/get/admin/v1\nAuthorization: Bearer {{$processEnv TELEMATICS_TOKEN_USER}}\n`, expected: [] },
	{ name: 'a host from a variable: not said, no warning', text: `POST {{host}}/trips/get/admin/v1\nAuthorization: Bearer {{$processEnv TELEMATICS_TOKEN_USER}}\n`, expected: [] },
	{ name: 'the wrong method', text: `GET https://api.telematicssdk.com/trips/get/admin/v1\nAuthorization: Bearer {{$processEnv TELEMATICS_TOKEN_USER}}\n`, expected: [] },
	{ name: 'an operation without a token', text: `POST https://user.telematicssdk.com/v1/Registration/create\nAuthorization: Bearer {{$processEnv TELEMATICS_TOKEN_USER}}\n`, expected: [] },
	{ name: 'Basic authorization', text: `${ADMIN_TRIPS}Authorization: Basic abc\n`, expected: [] },
	{ name: 'two requests, one wrong', text: `${USER_TRIPS}Authorization: Bearer {{$processEnv TELEMATICS_TOKEN_USER}}\n\n###\n${ADMIN_TRIPS}Authorization: Bearer {{$processEnv TELEMATICS_TOKEN_USER}}\n`, expected: ['trips.admin.list sends user (reference)'] },
	{ name: 'on the demo, one origin serves every host key', text: `POST http://127.0.0.1:4100/trips/get/admin/v1\nAuthorization: Bearer {{$processEnv TELEMATICS_TOKEN_USER}}\n`, context: { accounts: [{ ...user, hosts: DEMO }, { ...admin, hosts: DEMO }] }, expected: ['trips.admin.list sends user (reference)'] },
];

function read(row: Row) {
	const context: IdentityContext = { accounts: [user, admin], bindings: new Map(), ...row.context };
	return wrongIdentities(parseRestFile(row.text), context, operationFor);
}

describe('the wrong identity (table)', () => {
	for (const row of rows) {
		it(row.name, () => {
			const found = read(row).map((w) => `${w.operation.id} sends ${w.sent.name} (${w.carrier}${w.environment ? ` in ${w.environment}` : ''})`);
			assert.deepEqual(found, row.expected);
		});
	}
});

describe('the wrong identity: its fixes', () => {
	it('switch a reference to each account of the needed kind, in the same style, the active one first', () => {
		const text = `${ADMIN_TRIPS}Authorization: Bearer {{$processEnv TELEMATICS_TOKEN_USER}}\n`;
		const [wrong] = wrongIdentities(parseRestFile(text), { accounts: [user, admin, admin2], activeId: 'a2', bindings: new Map() }, operationFor);
		assert.deepEqual(wrong!.fixes.map((f) => f.accountId), ['a2', 'a']);
		const fixed = wrong!.fixes.map((f) => applyEdits(text, [{ start: f.start, end: f.end, newText: f.newText! }]));
		assert.equal(fixed[0], `${ADMIN_TRIPS}Authorization: Bearer {{$processEnv TELEMATICS_TOKEN_ADMIN_2}}\n`);
		assert.equal(fixed[1], `${ADMIN_TRIPS}Authorization: Bearer {{$processEnv TELEMATICS_TOKEN_ADMIN}}\n`);
		assert.deepEqual(wrongIdentities(parseRestFile(fixed[1]!), { accounts: [user, admin], bindings: new Map() }, operationFor), [], 'the fix puts it right');
	});

	it("switch a bound environment's bare reference to the named one, and leave spacing alone", () => {
		const text = `${ADMIN_TRIPS}Authorization:  Bearer   {{ TELEMATICS_TOKEN }}\r\n`;
		const [wrong] = wrongIdentities(parseRestFile(text), { accounts: [user, admin], bindings: new Map([['dev', 'user']]) }, operationFor);
		const fix = wrong!.fixes[0]!;
		assert.equal(applyEdits(text, [{ start: fix.start, end: fix.end, newText: fix.newText! }]), `${ADMIN_TRIPS}Authorization:  Bearer   {{ TELEMATICS_TOKEN_ADMIN }}\r\n`);
	});

	it('name the JWT to replace, and leave the token to the caller', () => {
		const text = `${ADMIN_TRIPS}Authorization: Bearer ${userToken}\n`;
		const [wrong] = wrongIdentities(parseRestFile(text), { accounts: [user, admin], bindings: new Map() }, operationFor);
		assert.deepEqual(wrong!.fixes.map((f) => [f.accountId, text.slice(f.start, f.end), f.newText]), [['a', userToken, undefined]]);
	});

	it('offer no reference fix for an account without a name', () => {
		const text = `${ADMIN_TRIPS}Authorization: Bearer {{$processEnv TELEMATICS_TOKEN_USER}}\n`;
		const [wrong] = wrongIdentities(parseRestFile(text), { accounts: [user, { ...admin, name: undefined }], bindings: new Map() }, operationFor);
		assert.deepEqual(wrong!.fixes, []);
	});
});

describe('the wrong identity over generated files', () => {
	it('never throws, and every fix replaces only the variable or the token on its Authorization line', () => {
		const fragment = fc.constantFrom(
			ADMIN_TRIPS.trim(), USER_TRIPS.trim(), 'GET https://api.telematicssdk.com/indicators/v3/Streaks', 'POST http://127.0.0.1:4100/trips/get/admin/v1',
			'Authorization: Bearer {{$processEnv TELEMATICS_TOKEN_USER}}', 'authorization:bearer {{TELEMATICS_TOKEN_ADMIN}}', 'Authorization: Bearer {{ TELEMATICS_TOKEN }}',
			'Authorization: Bearer {{$dotenv TELEMATICS_TOKEN_USER }}', `Authorization: Bearer ${userToken}`, `Authorization:   Bearer ${adminToken}  `, 'Authorization: Bearer {{$processEnv %telematicsToken}}',
			'###', '', '{', '}', '/*', '*/', '# @name x', '@host = https://api.telematicssdk.com', 'Content-Type: application/json', '< {%', '%}',
		);
		let warned = 0;
		fc.assert(fc.property(fc.array(fragment, { maxLength: 30 }), fc.constantFrom('\n', '\r\n'), fc.constantFrom('u', 'a', undefined), (lines, eol, activeId) => {
			const text = lines.join(eol);
			const file = parseRestFile(text);
			for (const wrong of wrongIdentities(file, { accounts: [user, admin, admin2], activeId, bindings: new Map([['dev', 'user'], ['prod', 'admin']]) }, operationFor)) {
				warned++;
				const line = file.lines[wrong.line]!;
				assert.match(line.text, /^authorization\s*:\s*bearer\s/i);
				for (const fix of wrong.fixes) {
					assert.ok(line.start <= fix.start && fix.end <= line.end, 'within the Authorization line');
					assert.match(text.slice(fix.start, fix.end), fix.newText === undefined ? /^eyJ[\w.-]+$/ : /^TELEMATICS_TOKEN(_[A-Z0-9_]+)?$/);
				}
			}
		}), { numRuns: 2000 });
		assert.ok(warned > 20, `${warned} warnings in the generated files`);
	});
});
