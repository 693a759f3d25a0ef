import * as assert from 'node:assert/strict';
import { failureMessage, networkMessage, timeoutMessage } from '../../src/core/api/errorMessages';
import type { Failure } from '../../src/core/api/parse';
import { checkDeviceToken, checkEmail, checkInstanceId, checkPassword, checkServiceUrl } from '../../src/core/login/checks';
import type { Checked } from '../../src/core/util/checked';
import { untranslated, type Translate } from '../../src/core/util/translate';
import { formatWait } from '../../src/core/util/time';

/** A "translation" that brackets the whole message, so a fragment or an untranslated sentence shows. */
const bracketed: Translate = (message, ...args) => `«${untranslated(message, ...args)}»`;

const long = 'x'.repeat(9000);
const rejections: Array<[string, (t: Translate) => Checked]> = [
	['service URL: empty', (t) => checkServiceUrl('', t)],
	['service URL: http', (t) => checkServiceUrl('http://example.com', t)],
	['service URL: credentials', (t) => checkServiceUrl('https://u:p@example.com', t)],
	['service URL: query', (t) => checkServiceUrl('https://example.com/?a=1', t)],
	['InstanceID: empty', (t) => checkInstanceId('', t)],
	['InstanceID: too long', (t) => checkInstanceId(long, t)],
	['InstanceID: spaces', (t) => checkInstanceId('a b', t)],
	['device token: empty', (t) => checkDeviceToken('', t)],
	['device token: spaces', (t) => checkDeviceToken('a b', t)],
	['email: not an email', (t) => checkEmail('nope', t)],
	['InstanceKey: empty', (t) => checkPassword('', 'InstanceKey', t)],
	['API password: line break', (t) => checkPassword('a\nb', 'API password', t)],
];

describe('login input messages go through the translator', () => {
	for (const [name, run] of rejections) {
		it(`${name}: one whole sentence, translated`, () => {
			const plain = run(untranslated);
			const translated = run(bracketed);
			assert.equal(plain.ok, false);
			assert.equal(translated.ok, false);
			if (!plain.ok && !translated.ok) assert.equal(translated.message, `«${plain.message}»`);
		});
	}
});

describe('API error messages go through the translator', () => {
	const context = { operation: 'login' as const, accountKind: 'user' as const, host: 'svc.example.com' };
	it('a refused login reads the same in English and is translated as sentences', () => {
		const failure = { kind: 'badCredentials', status: 401, details: [] } as unknown as Failure;
		const english = failureMessage(failure, context);
		assert.match(english, /^The service refused these credentials\. Check the User Group InstanceID/);
		const translated = failureMessage(failure, context, bracketed);
		assert.match(translated, /^«The service refused these credentials\. «Check the User Group InstanceID.*»/);
	});
	it('waits, timeouts and network failures are translated', () => {
		assert.equal(formatWait(1), '1 second');
		assert.equal(formatWait(150), 'about 3 minutes');
		assert.equal(formatWait(45, bracketed), '«45 seconds»');
		assert.match(timeoutMessage('h', 30_000, bracketed), /^«h did not answer within 30 seconds\./);
		assert.match(networkMessage('h', 'connection refused', bracketed), /^«Could not reach h \(connection refused\)\. «Check the service URL/);
	});
});
