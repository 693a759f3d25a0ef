// Which requests send a token, as a table (issue 36): each row a file, where the token sits, and the
// request lines that send it. Whole words, references of every shape, request names in every way they
// are written, and the environment read through a name the file does not say.
import * as assert from 'node:assert/strict';
import { foreignSends, requestsSending, type TokenPlaces } from '../../src/core/restFile/tokenReach';
import { parseRestFile } from '../../src/core/restFile/requestParser';
import { findJwts } from '../../src/core/restFile/jwtScan';

/** The request line (its text) of each request that sends what `places` name. */
function senders(text: string, places: (file: ReturnType<typeof parseRestFile>) => TokenPlaces): string[] {
	const file = parseRestFile(text);
	return requestsSending(file, places(file)).map((r) => file.lines[r.requestLine]!.text.trim());
}

const variable = (name: string) => () => ({ variables: [name] });
const environment = () => ({ environment: true });
const firstRequest = (file: ReturnType<typeof parseRestFile>) => ({ requests: [file.requests[0]!] });

describe('which requests send a token (table)', () => {
	const rows: Array<[string, string, (file: ReturnType<typeof parseRestFile>) => TokenPlaces, string[]]> = [
		// Whole words only.
		['the name as a word', 'GET https://a/\nX: {{t}}\n', variable('t'), ['GET https://a/']],
		['the name inside a longer word, before', 'GET https://a/\nX: {{xt}}\n', variable('t'), []],
		['the name inside a longer word, after', 'GET https://a/\nX: {{tx}}\n', variable('t'), []],
		['the name with $ after', 'GET https://a/\nX: {{t$}}\n', variable('t'), []],
		['the name in an expression', 'GET https://a/\nX: {{ "Bearer " + t }}\n', variable('t'), ['GET https://a/']],
		['the name twice, the second a word', 'GET https://a/\nX: {{tt + t}}\n', variable('t'), ['GET https://a/']],
		['the name at the end of an expression', 'GET https://a/\nX: {{ a+t}}\n', variable('t'), ['GET https://a/']],
		// A name of several words (dots): each word is in the index, the whole must stand as a word.
		['a dotted name as a word', 'GET https://a/\nX: {{a.b}}\n', variable('a.b'), ['GET https://a/']],
		['a dotted name with more after', 'GET https://a/\nX: {{a.bc}}\n', variable('a.b'), []],
		['a dotted name with more before', 'GET https://a/\nX: {{xa.b}}\n', variable('a.b'), []],
		['a dotted name with $ after, then as a word', 'GET https://a/\nX: {{a.b$ + a.b}}\n', variable('a.b'), ['GET https://a/']],
		['a dotted name with $ after only', 'GET https://a/\nX: {{a.b$}}\n', variable('a.b'), []],
		['a dotted name glued to a word before, its words elsewhere', 'GET https://a/\nX: {{xa.b + a + b}}\n', variable('a.b'), []],
		['a dotted name glued to a word after, its words elsewhere', 'GET https://a/\nX: {{a.bx + b}}\n', variable('a.b'), []],
		['a name split over a line break is no reference to it (no client reads one over lines)', 'GET https://a/\nX: {{to\nk}}\n', variable('tok'), []],
		['a name of no word at all', 'GET https://a/\nX: {{-}}\n', variable('-'), ['GET https://a/']],
		['a name after a closed reference, with no opening of its own', 'GET https://a/\nX: {{a}}..t}}\n', variable('t'), []],
		// Text outside references, and definitions inside a block, read nothing.
		['the name before a reference, outside it', 'GET https://a/\nX: t {{a}}\n', variable('t'), []],
		['a definition line inside the block is the variable\'s, not the request\'s', '###\n@u = {{t}}\nGET https://a/\n', variable('t'), []],
		['an indirect environment reference, with nothing exposed', 'GET https://a/\nX: {{$processEnv %which}}\n', variable('t'), []],
		// References of every shape.
		['adjacent references', 'GET https://a/\nX: {{a}}{{t}}\n', variable('t'), ['GET https://a/']],
		['an unclosed reference reads nothing', 'GET https://a/\nX: {{t\n', variable('t'), []],
		['an empty reference reads nothing', 'GET https://a/\nX: {{}} t\n', variable('t'), []],
		['a name outside any reference reads nothing', 'GET https://a/\nX: t\n', variable('t'), []],
		['a reference after a closed one', 'GET https://a/\nX: {{a}} and {{t}}\n', variable('t'), ['GET https://a/']],
		['through a variable built from it', '@b = x{{t}}\n\n###\nGET https://a/\nX: {{b}}\n\n###\nGET https://c/\n', variable('t'), ['GET https://a/']],
		['the definition line itself is not a reader', '@t = tok\n@u = {{v}}\n\n###\nGET https://a/\n', variable('t'), []],
		// Requests by name, read by others: every way a name is written.
		['# @name', '# @name me\nGET https://a/\n\n###\nGET https://c/?h={{me.request.headers.Authorization}}\n', firstRequest, ['GET https://a/', 'GET https://c/?h={{me.request.headers.Authorization}}']],
		['#@name', '#@name me\nGET https://a/\n\n###\nGET https://c/?h={{me.response.body}}\n', firstRequest, ['GET https://a/', 'GET https://c/?h={{me.response.body}}']],
		['// @name=', '// @name=me\nGET https://a/\n\n###\nGET https://c/?h={{me.x}}\n', firstRequest, ['GET https://a/', 'GET https://c/?h={{me.x}}']],
		['indented, with spaces after', '   #   @name   me   \nGET https://a/\n\n###\nGET https://c/?h={{me.x}}\n', firstRequest, ['GET https://a/', 'GET https://c/?h={{me.x}}']],
		['a name inside a comment of other text is none', '//x # @name me\nGET https://a/\n\n###\nGET https://c/?h={{me.x}}\n', firstRequest, ['GET https://a/']],
		['a name after other words is none', '# see @name me\nGET https://a/\n\n###\nGET https://c/?h={{me.x}}\n', firstRequest, ['GET https://a/']],
		['@named is not @name', '# @named me\nGET https://a/\n\n###\nGET https://c/?h={{me.x}}\n', firstRequest, ['GET https://a/']],
		['@named= is not @name=', '# @named=me\nGET https://a/\n\n###\nGET https://c/?h={{me.x}}\n', firstRequest, ['GET https://a/']],
		['spaces before its =', '# @name  =me\nGET https://a/\n\n###\nGET https://c/?h={{me.x}}\n', firstRequest, ['GET https://a/', 'GET https://c/?h={{me.x}}']],
		['a name of two words is none', '# @name me too\nGET https://a/\n\n###\nGET https://c/?h={{me.x}}\n', firstRequest, ['GET https://a/']],
		['a name under the request line is not its name', 'GET https://a/\n# @name me\n\n###\nGET https://c/?h={{me.x}}\n', firstRequest, ['GET https://a/']],
		// The environment, through a name the file does not say.
		['REST Client\'s %name', 'GET https://a/\nX: {{$processEnv %which}}\n\n###\nGET https://b/\n', environment, ['GET https://a/']],
		['$dotenv %name with spaces', 'GET https://a/\nX: {{$dotenv   %which}}\n', environment, ['GET https://a/']],
		['a direct $processEnv NAME is not indirect', 'GET https://a/\nX: {{$processEnv OTHER}}\n', environment, []],
		['$processEnv% without a space is not REST Client\'s form', 'GET https://a/\nX: {{$processEnv%x}}\n', environment, []],
		['process.env[…]', 'GET https://a/\nX: {{ process.env[name] }}\n', environment, ['GET https://a/']],
		['process.env [ … ] with a space', 'GET https://a/\nX: {{ process.env [name] }}\n', environment, ['GET https://a/']],
		['process.env handed on whole', 'GET https://a/\nX: {{ pick(process.env) }}\n', environment, ['GET https://a/']],
		['process.env.NAME names its variable', 'GET https://a/\nX: {{ process.env.OTHER }}\n', environment, []],
		['process.env . NAME with spaces names it too', 'GET https://a/\nX: {{ process.env . OTHER }}\n', environment, []],
		['myprocess.env is not process.env', 'GET https://a/\nX: {{ myprocess.env[x] }}\n', environment, []],
	];
	for (const [name, text, places, expected] of rows) it(`${name} → ${expected.length} sender(s)`, () => assert.deepEqual(senders(text, places), expected));
});

describe('which requests send an account\'s token elsewhere, with two accounts on two services', () => {
	const jwt = (sub: string) => `${Buffer.from('{"alg":"HS256"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub, exp: 4102444800 })).toString('base64url')}.c2ln`;
	const USER = jwt('user-1');
	const ADMIN = jwt('admin-1');
	const accounts = [
		{ accountId: 'user', accessToken: USER, expiresAt: 4102444800000, serviceUrl: 'https://user.example.com' },
		{ accountId: 'admin', accessToken: ADMIN, expiresAt: 4102444800000, serviceUrl: 'https://admin.example.org' },
	];

	it('judges each token against its own account\'s service, in line order; a token of no account is no one\'s', async () => {
		const text = [
			'GET https://admin.example.org/x', `Authorization: Bearer ${USER}`, '',
			'###', 'GET https://user.example.com/x', `Authorization: Bearer ${USER}`, '',
			'###', 'GET https://user.example.com/y', `Authorization: Bearer ${ADMIN}`, '',
			'###', 'GET https://admin.example.org/y', `Authorization: Bearer ${ADMIN}`, '',
			'###', 'GET https://else.example.net/z', `Authorization: Bearer ${jwt('stranger')}`, '',
		].join('\n');
		assert.deepEqual(await foreignSends(text, accounts), [
			{ requestLine: 0, host: 'admin.example.org', accountId: 'user' },
			{ requestLine: 8, host: 'user.example.com', accountId: 'admin' },
		]);
	});

	it('reads a variable the file does not define through the readings it is given (the environments\'), else does not say', async () => {
		const text = `GET {{baseUrl}}/x\nAuthorization: Bearer ${USER}\n`;
		const file = parseRestFile(text);
		const jwts = findJwts(text, file);
		assert.deepEqual(await foreignSends(text, accounts, [], { file, jwts, variables: new Map([['baseUrl', ['https://collector.example']]]) }), [{ requestLine: 0, host: 'collector.example', accountId: 'user' }]);
		assert.deepEqual(await foreignSends(text, accounts, [], { file, jwts }), [{ requestLine: 0, host: undefined, accountId: 'user' }]);
	});

	it('lists the sends in line order, whichever account comes first in the file', async () => {
		const text = [
			'GET https://admin.example.org/a', `Authorization: Bearer ${USER}`, '',
			'###', 'GET https://user.example.com/b', `Authorization: Bearer ${ADMIN}`, '',
			'###', 'GET https://else.example.net/c', `Authorization: Bearer ${USER}`, '',
		].join('\n');
		assert.deepEqual((await foreignSends(text, accounts)).map((s) => [s.requestLine, s.accountId]), [[0, 'user'], [4, 'admin'], [8, 'user']]);
	});

	it('the exposed token reaches the requests that read it, for its account only; an account without a service is skipped', async () => {
		const text = 'GET https://else.example.net/\nAuthorization: Bearer {{$processEnv TELEMATICS_TOKEN}}\n';
		assert.deepEqual(await foreignSends(text, accounts, [{ name: 'TELEMATICS_TOKEN', accountId: 'admin' }]), [{ requestLine: 0, host: 'else.example.net', accountId: 'admin' }]);
		assert.deepEqual(await foreignSends(text, accounts, [{ name: 'TELEMATICS_TOKEN', accountId: 'gone' }]), []);
	});

	it('the exposed token and the same account\'s token written in a file variable: both are followed', async () => {
		const text = `@tok = ${ADMIN}\n\n###\nGET https://else.example.net/v\nAuthorization: Bearer {{tok}}\n\n###\nGET https://other.example.net/e\nAuthorization: Bearer {{$processEnv TELEMATICS_TOKEN}}\n`;
		assert.deepEqual((await foreignSends(text, accounts, [{ name: 'TELEMATICS_TOKEN', accountId: 'admin' }])).map((s) => s.host), ['else.example.net', 'other.example.net']);
	});

	it('a token in a comment above every request is in no request: nothing sends it, and nothing breaks', async () => {
		const text = `# old: ${USER}\n\n###\nGET https://else.example.net/\n`;
		assert.deepEqual(await foreignSends(text, accounts), []);
	});

	it('each named account\'s variable is its own token: warned where it goes to another site, for that account', async () => {
		const text = 'GET https://else.example.net/a\nAuthorization: Bearer {{$processEnv TELEMATICS_TOKEN_ADMIN}}\n\n###\nGET https://user.example.com/b\nAuthorization: Bearer {{TELEMATICS_TOKEN_USER}}\n\n###\nGET https://admin.example.org/c\nAuthorization: Bearer {{$dotenv TELEMATICS_TOKEN_USER}}\n';
		const exposed = [{ name: 'TELEMATICS_TOKEN_ADMIN', accountId: 'admin' }, { name: 'TELEMATICS_TOKEN_USER', accountId: 'user' }];
		assert.deepEqual((await foreignSends(text, accounts, exposed)).map((s) => [s.requestLine, s.host, s.accountId]), [[0, 'else.example.net', 'admin'], [8, 'admin.example.org', 'user']]);
	});

	it('a reference whose variable the file does not say reads the environment only when a token is exposed', async () => {
		const text = `GET https://user.example.com/own\nAuthorization: Bearer ${USER}\n\n###\nGET https://else.example.net/\nAuthorization: Bearer {{$processEnv %which}}\n`;
		assert.deepEqual(await foreignSends(text, accounts, []), [], 'nothing exposed: the written token stays at home');
		assert.deepEqual((await foreignSends(text, accounts, [{ name: 'TELEMATICS_TOKEN', accountId: 'user' }])).map((s) => s.host), ['else.example.net']);
	});
});
