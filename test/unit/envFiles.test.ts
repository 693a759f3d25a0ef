// The env files REST clients read: only our keys ever change, every other byte stays, and
// nothing that is not a token or a service URL is written.
import * as assert from 'node:assert/strict';
import { parse as parseDotenv } from 'dotenv';
import * as fc from 'fast-check';
import { dotenvHasOtherContent, isOurKey, updateDotenv as update, updateJetbrainsEnv, type Exposed } from '../../src/core/restFile/envFiles';

/** updateDotenv where the file can be read with certainty (these tests' files all can). */
function updateDotenv(text: string, exposed: Exposed | undefined): string {
	const after = update(text, exposed);
	assert.ok(after !== undefined, 'the file is edited');
	return after;
}

const EXPOSED = { token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln', baseUrl: 'https://user.telematicssdk.com' };

describe('.env', () => {
	it('writes nothing into a .env that dotenv would read differently after our lines (issue 41): a `KEY:` that takes the next line as its value', () => {
		for (const text of ['X:\n', 'export X:\n', '`#\n\\\nXX:\n', 'aaa:\n']) {
			assert.equal(update(text, EXPOSED), undefined, JSON.stringify(text));
			const naive = `${text}TELEMATICS_TOKEN=${EXPOSED.token}\n`;
			assert.notEqual(parseDotenv(naive).TELEMATICS_TOKEN, EXPOSED.token, 'the line-by-line write would have put the token into another key');
		}
	});

	it('whatever the .env holds, a write gives dotenv\'s reading before with exactly our keys set, or nothing (generated)', () => {
		const piece = fc.constantFrom('X', 'Y', '=', ':', '\'', '"', '`', '\\', '\n', '\r\n', '#', ' ', 'a', 'export ', 'TELEMATICS_TOKEN', 'TELEMATICS_BASE_URL=');
		fc.assert(fc.property(fc.array(piece, { maxLength: 24 }), fc.boolean(), (parts, remove) => {
			const text = parts.join('');
			const after = update(text, remove ? undefined : EXPOSED);
			if (after === undefined) return;
			const expected: Record<string, string> = Object.fromEntries(Object.entries(parseDotenv(text)).filter(([key]) => !isOurKey(key)));
			if (!remove) Object.assign(expected, { TELEMATICS_TOKEN: EXPOSED.token, TELEMATICS_BASE_URL: EXPOSED.baseUrl });
			assert.deepEqual(parseDotenv(after), expected, JSON.stringify(text));
		}), { numRuns: 3000 });
	});

	it('adds our keys to an empty or missing file', () => {
		assert.equal(updateDotenv('', EXPOSED), `TELEMATICS_TOKEN=${EXPOSED.token}\nTELEMATICS_BASE_URL=${EXPOSED.baseUrl}\n`);
	});

	it('updates our keys where they are and keeps everything else, CRLF included', () => {
		const before = '# secrets\r\nOTHER=1\r\nTELEMATICS_TOKEN=old\r\n\r\nexport KEEP="a b"\r\n';
		assert.equal(updateDotenv(before, EXPOSED), `# secrets\r\nOTHER=1\r\nTELEMATICS_TOKEN=${EXPOSED.token}\r\n\r\nexport KEEP="a b"\r\nTELEMATICS_BASE_URL=${EXPOSED.baseUrl}\r\n`);
	});

	it('removes only our keys on logout', () => {
		const before = `A=1\nTELEMATICS_TOKEN=${EXPOSED.token}\nB=2\nTELEMATICS_BASE_URL=x\n`;
		const after = updateDotenv(before, undefined);
		assert.equal(after, 'A=1\nB=2\n');
		assert.equal(dotenvHasOtherContent(after), true);
		assert.equal(dotenvHasOtherContent(updateDotenv(`TELEMATICS_TOKEN=${EXPOSED.token}\n`, undefined)), false);
	});

	it('any other content stays byte for byte (generated)', () => {
		const line = fc.oneof(fc.constant(''), fc.constant('# comment'), fc.stringMatching(/^[A-Z_]{1,8}=(?:[^\s"'`][^\r\n]{0,19})?$/).filter((l) => !/^TELEMATICS_(TOKEN|BASE_URL)=/.test(l)));
		fc.assert(fc.property(fc.array(line, { maxLength: 12 }), fc.constantFrom('\n', '\r\n'), (lines, eol) => {
			const before = lines.length ? lines.join(eol) + eol : '';
			const after = updateDotenv(before, EXPOSED);
			assert.ok(after.startsWith(before), 'what was there stays, in order');
			assert.equal(updateDotenv(after, undefined), before, 'removing ours gives the file back');
			assert.equal(updateDotenv(after, EXPOSED), after, 'a second update changes nothing');
		}), { numRuns: 300 });
	});

	it('keeps `export` on our keys, and multi-line values and comments of others', () => {
		const before = `# top\nexport TELEMATICS_TOKEN=old\nCERT="-----BEGIN\nTELEMATICS_TOKEN=inside-a-value\n-----END"\nJSON='{\n  "a": 1\n}'\n`;
		const after = updateDotenv(before, EXPOSED);
		assert.equal(after, `# top\nexport TELEMATICS_TOKEN=${EXPOSED.token}\nCERT="-----BEGIN\nTELEMATICS_TOKEN=inside-a-value\n-----END"\nJSON='{\n  "a": 1\n}'\nTELEMATICS_BASE_URL=${EXPOSED.baseUrl}\n`);
		assert.equal(updateDotenv(after, undefined), `# top\nCERT="-----BEGIN\nTELEMATICS_TOKEN=inside-a-value\n-----END"\nJSON='{\n  "a": 1\n}'\n`);
	});

	it('leaves alone a file it cannot read line by line with certainty', () => {
		assert.equal(update('A="never closed\nB=2\n', EXPOSED), undefined);
		assert.equal(update('TELEMATICS_TOKEN="spans\nlines"\n', EXPOSED), undefined);
		assert.equal(update('A="escaped \\" still open\n', undefined), undefined);
		assert.equal(update('A="closed \\" here"\n', undefined), 'A="closed \\" here"\n');
	});

	it('refuses a value that is not a token or a service URL', () => {
		assert.throws(() => updateDotenv('', { ...EXPOSED, token: 'x\nEVIL=1' }));
		assert.throws(() => updateDotenv('', { ...EXPOSED, baseUrl: 'https://x\nEVIL=1' }));
		assert.throws(() => updateDotenv('', { ...EXPOSED, baseUrl: 'file:///etc/passwd' }));
	});
});

describe('http-client.private.env.json', () => {
	const ours = { TELEMATICS_TOKEN: EXPOSED.token, TELEMATICS_BASE_URL: EXPOSED.baseUrl };

	it('puts our keys in $shared and in every environment, keeping what else they hold', () => {
		const before = JSON.stringify({ dev: { password: 'p' }, $shared: { other: 1 } }, null, 2);
		const after = JSON.parse(updateJetbrainsEnv(before, EXPOSED)!);
		assert.deepEqual(after, { dev: { password: 'p', ...ours }, $shared: { other: 1, ...ours } });
	});

	it('a file without environments gets a "telematics" one (clients need one selected)', () => {
		assert.deepEqual(JSON.parse(updateJetbrainsEnv('', EXPOSED)!), { $shared: ours, telematics: ours });
	});

	it('removes ours on logout, and what held only ours', () => {
		const written = updateJetbrainsEnv('{"dev": {"a": 1}}', EXPOSED)!;
		assert.deepEqual(JSON.parse(updateJetbrainsEnv(written, undefined)!), { dev: { a: 1 } });
		assert.equal(updateJetbrainsEnv(updateJetbrainsEnv('', EXPOSED)!, undefined), '');
	});

	it('leaves a file that is not a JSON object of environments alone', () => {
		for (const text of ['not json', '[]', '"x"', '{"$shared": 5}', '{"dev": "x"}']) assert.equal(updateJetbrainsEnv(text, EXPOSED), undefined, text);
	});
});

describe('each named account\'s key in the env files (issue 30)', () => {
	const ADMIN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbiJ9.c2ln';
	const WITH = { ...EXPOSED, accounts: { TELEMATICS_TOKEN_USER: EXPOSED.token, TELEMATICS_TOKEN_ADMIN: ADMIN } };

	it('.env: every account\'s key after ours, in name order; a key of a gone account goes; other keys stay', () => {
		const written = updateDotenv('A=1\n', WITH);
		assert.equal(written, `A=1\nTELEMATICS_TOKEN=${EXPOSED.token}\nTELEMATICS_BASE_URL=${EXPOSED.baseUrl}\nTELEMATICS_TOKEN_ADMIN=${ADMIN}\nTELEMATICS_TOKEN_USER=${EXPOSED.token}\n`);
		const renamed = updateDotenv(written, { ...EXPOSED, accounts: { TELEMATICS_TOKEN_OPS: ADMIN } });
		assert.equal(renamed, `A=1\nTELEMATICS_TOKEN=${EXPOSED.token}\nTELEMATICS_BASE_URL=${EXPOSED.baseUrl}\nTELEMATICS_TOKEN_OPS=${ADMIN}\n`);
		assert.equal(updateDotenv(renamed, undefined), 'A=1\n', 'logout: every key of ours goes');
		assert.equal(dotenvHasOtherContent(`TELEMATICS_TOKEN_OPS=${ADMIN}\n`), false);
		assert.equal(updateDotenv('TELEMATICS_TOKENS=keep\ntelematics_token_x=keep\n', undefined), 'TELEMATICS_TOKENS=keep\ntelematics_token_x=keep\n', 'only our exact pattern is ours');
	});

	it('http-client.private.env.json: the same keys in every environment; gone with the account', () => {
		const after = JSON.parse(updateJetbrainsEnv(JSON.stringify({ dev: { TELEMATICS_TOKEN_OLD: 'x', keep: 1 } }), WITH)!);
		assert.deepEqual(after.dev, { keep: 1, TELEMATICS_TOKEN: EXPOSED.token, TELEMATICS_BASE_URL: EXPOSED.baseUrl, TELEMATICS_TOKEN_ADMIN: ADMIN, TELEMATICS_TOKEN_USER: EXPOSED.token });
		assert.deepEqual(JSON.parse(updateJetbrainsEnv(JSON.stringify(after), undefined)!), { dev: { keep: 1 } });
	});

	it('refuses a name that is not an account\'s variable or a value that is not a token', () => {
		const bad: Array<Record<string, string>> = [{ 'TELEMATICS_TOKEN_A\nEVIL': ADMIN }, { OTHER: ADMIN }, { TELEMATICS_TOKEN_A: 'x y' }, { TELEMATICS_TOKEN_: ADMIN }];
		for (const accounts of bad) {
			assert.throws(() => updateDotenv('', { ...EXPOSED, accounts }), JSON.stringify(accounts));
			assert.throws(() => updateJetbrainsEnv('', { ...EXPOSED, accounts }));
		}
	});
});

describe('environments bound to an account (telematicsAuth.environmentAccounts, issue 30)', () => {
	const ADMIN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbiJ9.YWRt';
	const ADMIN_URL = 'https://admin.telematicssdk.com';
	const BOUND: Exposed = { ...EXPOSED, accounts: { TELEMATICS_TOKEN_USER: EXPOSED.token, TELEMATICS_TOKEN_ADMIN: ADMIN }, environments: { prod: { token: ADMIN, baseUrl: ADMIN_URL }, dev: null } };

	it('a bound environment gets its account\'s token and service, created when missing; the others the active account\'s', () => {
		const after = JSON.parse(updateJetbrainsEnv(JSON.stringify({ prod: { host: 'p' }, stage: {} }), BOUND)!);
		assert.equal(after.prod.TELEMATICS_TOKEN, ADMIN);
		assert.equal(after.prod.TELEMATICS_BASE_URL, ADMIN_URL);
		assert.equal(after.prod.host, 'p', 'the environment\'s own keys stay');
		assert.equal(after.stage.TELEMATICS_TOKEN, EXPOSED.token, 'an environment bound to nobody: the active account');
		assert.equal(after.$shared.TELEMATICS_TOKEN, EXPOSED.token);
		assert.equal(after.prod.TELEMATICS_TOKEN_USER, EXPOSED.token, 'every account\'s named variable everywhere');
		assert.equal(after.telematics, undefined, 'no default environment when the file has environments');
	});

	it('a bound environment whose account holds no live token gets empty values, never another account\'s ($shared would fill a missing key)', () => {
		const after = JSON.parse(updateJetbrainsEnv('', BOUND)!);
		assert.deepEqual([after.dev.TELEMATICS_TOKEN, after.dev.TELEMATICS_BASE_URL], ['', '']);
		assert.equal(after.prod.TELEMATICS_TOKEN, ADMIN, 'created');
	});

	it('logout removes our keys and the environments that held only them', () => {
		const written = updateJetbrainsEnv(JSON.stringify({ prod: { host: 'p' } }), BOUND)!;
		assert.deepEqual(JSON.parse(updateJetbrainsEnv(written, undefined)!), { prod: { host: 'p' } });
		assert.deepEqual(JSON.parse(updateJetbrainsEnv('{"mine": {}}', undefined)!), { mine: {} }, 'an environment that was empty before stays');
	});

	it('the .env file has no environments: bindings change nothing there', () => {
		assert.equal(updateDotenv('', BOUND), updateDotenv('', { ...BOUND, environments: {} }));
	});

	it('refuses an environment that cannot be bound or a bound value that is not a token or a service', () => {
		const bad: Array<Exposed['environments']> = [{ $shared: null }, { 'a b': null }, { '': null }, { prod: { token: 'x y', baseUrl: ADMIN_URL } }, { prod: { token: ADMIN, baseUrl: 'https://evil.example/"x' } }, { ['x'.repeat(65)]: null }];
		for (const environments of bad) assert.throws(() => updateJetbrainsEnv('', { ...EXPOSED, environments }), JSON.stringify(environments));
	});
});
