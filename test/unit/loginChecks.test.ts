import * as assert from 'node:assert/strict';
import { checkDeviceToken, checkEmail, checkInstanceId, checkOptionalInstanceId, checkPassword, checkServiceUrl } from '../../src/core/login/checks';
import type { Checked } from '../../src/core/util/checked';
import { isLoopbackHost } from '../../src/core/util/url';

/** `value`: accepted and normalized to this; `says`: rejected with a message containing this. */
type Row = { input: string; value?: string; says?: RegExp };

function check(name: string, fn: (input: string) => Checked, rows: Row[]): void {
	describe(name, () => {
		for (const row of rows) {
			const title = row.value !== undefined ? `accepts ${JSON.stringify(row.input)} as ${JSON.stringify(row.value)}` : `rejects ${JSON.stringify(row.input)}`;
			it(title, () => {
				const result = fn(row.input);
				if (row.value !== undefined) {
					assert.deepEqual(result, { ok: true, value: row.value });
				} else {
					assert.equal(result.ok, false, `accepted: ${JSON.stringify(result)}`);
					if (!result.ok) assert.match(result.message, row.says!);
				}
			});
		}
	});
}

check('checkServiceUrl', checkServiceUrl, [
	{ input: 'https://user.telematicssdk.com', value: 'https://user.telematicssdk.com' },
	{ input: '  https://user.telematicssdk.com/  ', value: 'https://user.telematicssdk.com' },
	{ input: 'https://user.telematicssdk.com///', value: 'https://user.telematicssdk.com' },
	{ input: 'HTTPS://User.TelematicsSDK.com', value: 'https://user.telematicssdk.com' },
	{ input: 'https://api.example.com:8443/telematics/', value: 'https://api.example.com:8443/telematics' },
	{ input: 'http://127.0.0.1:41234', value: 'http://127.0.0.1:41234' },
	{ input: 'http://127.1.2.3:80/', value: 'http://127.1.2.3' },
	{ input: 'http://localhost:3000/', value: 'http://localhost:3000' },
	{ input: 'http://[::1]:3000', value: 'http://[::1]:3000' },
	{ input: 'http://example.com', says: /https:\/\//i },
	{ input: 'http://localhost.example.com', says: /https:\/\//i },
	{ input: 'http://128.0.0.1', says: /https:\/\//i },
	{ input: 'ftp://example.com', says: /https:\/\//i },
	{ input: 'user.telematicssdk.com', says: /Start the URL with https:\/\//i },
	{ input: '', says: /Enter the service URL/ },
	{ input: '   ', says: /Enter the service URL/ },
	{ input: 'https://me:secret@example.com', says: /user name and password/ },
	{ input: 'https://token@example.com', says: /user name and password/ },
	{ input: 'https://example.com/?key=abc', says: /query/ },
	{ input: 'https://example.com?', says: /query/ },
	{ input: 'https://example.com/#top', says: /fragment/ },
	{ input: 'https://exa mple.com', says: /spaces/ },
	{ input: 'https://', says: /not a valid URL|host/ },
	{ input: 'https://example.com:99999', says: /not a valid URL/ },
]);

check('checkInstanceId', checkInstanceId, [
	{ input: '  2c5e2a3f-0000-4000-8000-000000000001 ', value: '2c5e2a3f-0000-4000-8000-000000000001' },
	{ input: 'demo-user-instance', value: 'demo-user-instance' },
	{ input: '', says: /Enter the InstanceID/ },
	{ input: ' \t ', says: /Enter the InstanceID/ },
	{ input: 'abc def', says: /spaces/ },
	{ input: 'abc\r\nX-Injected: 1', says: /spaces or line breaks/ },
]);

// The admin's API InstanceID: empty means none (no InstanceId header); anything typed is checked as above.
check('checkOptionalInstanceId', checkOptionalInstanceId, [
	{ input: '', value: '' },
	{ input: ' \t ', value: '' },
	{ input: ' demo-api-instance ', value: 'demo-api-instance' },
	{ input: 'abc def', says: /spaces/ },
	{ input: 'abc\r\nX-Injected: 1', says: /spaces or line breaks/ },
]);

check('checkDeviceToken', checkDeviceToken, [
	{ input: ' demo-device-token ', value: 'demo-device-token' },
	{ input: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln', value: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln' },
	{ input: '', says: /Enter the device token/ },
	{ input: 'two words', says: /spaces/ },
	{ input: 'x'.repeat(9000), says: /too long/ },
]);

check('checkEmail', checkEmail, [
	{ input: ' admin@example.com ', value: 'admin@example.com' },
	{ input: 'api.user+ops@sub.example.co.uk', value: 'api.user+ops@sub.example.co.uk' },
	{ input: '', says: /Enter the API login/ },
	{ input: 'admin', says: /email address/ },
	{ input: 'admin@localhost', says: /email address/ },
	{ input: 'a@b@example.com', says: /email address/ },
	{ input: 'ad min@example.com', says: /email address/ },
]);

check('checkPassword (InstanceKey)', (v) => checkPassword(v, 'InstanceKey'), [
	{ input: 'demo-instance-key', value: 'demo-instance-key' },
	{ input: ' spaced pass ', value: ' spaced pass ' },
	{ input: '', says: /Enter the InstanceKey/ },
	{ input: '   ', says: /Enter the InstanceKey/ },
	{ input: 'key\nX-Other: 1', says: /line breaks/ },
]);

check('checkPassword (API password)', (v) => checkPassword(v, 'API password'), [
	{ input: 'p@ss w0rd!', value: 'p@ss w0rd!' },
	{ input: '', says: /Enter the API password/ },
]);

describe('validation messages never repeat what was typed', () => {
	const secret = 'Sup3rSecretValue';
	const cases: [string, Checked][] = [
		['URL with credentials', checkServiceUrl(`https://u:${secret}@example.com`)],
		['URL with query', checkServiceUrl(`https://example.com/?p=${secret}`)],
		['password with a line break', checkPassword(`${secret}\n`, 'InstanceKey')],
		['instance id with a space', checkInstanceId(`${secret} x`)],
		['not an email', checkEmail(secret)],
	];
	for (const [name, result] of cases) {
		it(name, () => {
			assert.equal(result.ok, false);
			if (!result.ok) assert.ok(!result.message.includes(secret), result.message);
		});
	}
});

describe('isLoopbackHost', () => {
	const rows: [string, boolean][] = [
		['localhost', true], ['LOCALHOST', true], ['127.0.0.1', true], ['127.255.0.9', true], ['[::1]', true],
		['::1', true], ['::ffff:127.0.0.1', true], ['api.localhost', false],
		['example.com', false], ['10.0.0.1', false], ['localhost.evil.com', false], ['127.0.0.1.nip.io', false], ['::ffff:10.0.0.1', false], ['localhostx', false],
	];
	for (const [host, expected] of rows) it(`${host} → ${expected}`, () => assert.equal(isLoopbackHost(host), expected));
});
