// A REST file's long lines are read in one pass (every REST document a window opens is read, a hostile
// folder's too, up to the 256 KB bound): before, a run of spaces in a host line, a definition, a request name,
// a version or an Authorization value was tried at every length, and one such line held the extension host
// for minutes. Each test here ends in milliseconds when the reading is linear, and not within its timeout
// when it is quadratic: it proves that the reading ends, not how fast (`npm run bench` measures that).
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { operationFor } from '../../src/core/platform/catalog';
import { platformHosts } from '../../src/core/platform/hosts';
import { isOurAuthorization, planAuthEdit } from '../../src/core/restFile/authHeaderEdit';
import { findJwts } from '../../src/core/restFile/jwtScan';
import { anyDefinitions, fileOutsideAllowList, requestDestinations, variableReadings } from '../../src/core/restFile/requestHost';
import { parseRestFile } from '../../src/core/restFile/requestParser';
import { foreignSends } from '../../src/core/restFile/tokenReach';
import { wrongIdentities } from '../../src/core/restFile/wrongIdentity';
import { withoutTrailingSlashes } from '../../src/core/util/url';
import { fakeJwt } from '../support/doubles/fakeTokenService';

const EXPIRES = Date.UTC(2030, 0, 1);
const TOKEN = fakeJwt(EXPIRES, 'device-1');
const HOSTS = platformHosts('https://user.telematicssdk.com')!;

/** Everything that reads an open REST document, and Insert at its last line: what a hostile file meets. */
async function readAsAWindowDoes(text: string): Promise<void> {
	const file = parseRestFile(text);
	const jwts = findJwts(text, file);
	const variables = variableReadings(file);
	fileOutsideAllowList(file);
	requestDestinations(file, file.requests, variables);
	await foreignSends(text, [{ accountId: 'u', accessToken: TOKEN, expiresAt: EXPIRES, serviceUrl: 'https://user.telematicssdk.com' }], [{ name: 'TELEMATICS_TOKEN', accountId: 'u' }], { file, jwts, variables });
	wrongIdentities(file, { accounts: [{ id: 'u', name: 'user', kind: 'user', hosts: HOSTS, accessToken: TOKEN, expiresAt: EXPIRES }], bindings: new Map() }, operationFor);
	planAuthEdit(file, [text.length], { style: 'header', token: TOKEN });
}

describe('long lines in a REST file are read in one pass', function () {
	// Linear, the whole table takes well under a second; quadratic, one of its lines alone takes minutes.
	this.timeout(60_000);
	const RUN = 200_000;
	const spaces = ' '.repeat(RUN);
	const lines: Record<string, string> = {
		'a host, spaces, a word': `localhost${spaces}x`,
		'a dotted host, spaces, a word': `api.example.com${spaces}x`,
		'a request line, spaces, a word': `GET https://api.example.com/a${spaces}x`,
		'a request line, spaces before no version': `GET https://api.example.com/a${spaces}HTTP/x`,
		'a reference, spaces, a word': `GET {{${spaces}x`,
		'a definition, a value, spaces, a word': `@host = a${spaces}x`,
		'a request name, spaces, two words': `# @name${spaces}a b`,
		'an Authorization, a credential, spaces, a word': `GET https://api.telematicssdk.com/v1/x\nAuthorization: Bearer a${spaces}x`,
		'an Authorization and a line separator after the spaces': `GET https://api.telematicssdk.com/v1/x\nAuthorization: Bearer a${spaces}\u2028x`,
		'tabs': `GET https://api.example.com/a${'\t'.repeat(RUN)}x`,
	};
	for (const [name, line] of Object.entries(lines)) {
		it(`${name} (${RUN.toLocaleString('en')} characters)`, async () => {
			await readAsAWindowDoes(line);
			await readAsAWindowDoes(`###\n${line}\nAccept: */*\n\n###\nGET https://api.telematicssdk.com/v1/y\nAuthorization: Bearer ${TOKEN}\n`);
		});
	}

	it('an Authorization value padded with spaces is still ours or not, as before', () => {
		assert.equal(isOurAuthorization(`Bearer {{telematicsToken}}${spaces}`), true);
		assert.equal(isOurAuthorization(`Bearer a${spaces}x`), false);
	});
});

describe('definitions read in one pass, as REST Client reads them', () => {
	/** REST Client's own pattern (`@name = value`, any line), tried at every length: the oracle. */
	const REST_CLIENT = /^\s*@([^\s=]+)\s*=\s*(.*?)\s*$/;
	const piece = fc.constantFrom(' ', '\t', '\u00a0', '\u2028', '\r', '@', '=', 'a', 'b', 'x', '#', '{{h}}');

	it('every generated line (the first line of the text, as the parser splits it): the same name and value, or none (fast-check)', () => {
		fc.assert(fc.property(fc.array(piece, { maxLength: 14 }).map((p) => p.join('')), fc.constantFrom('', '@', ' @a', '@a =', '@host = '), (tail, head) => {
			const file = parseRestFile(head + tail);
			const line = file.lines[0]!.text;
			const theirs = REST_CLIENT.exec(line);
			const ours = anyDefinitions(file).filter((d) => d.line === 0);
			assert.deepEqual(ours.map((d) => [d.name, d.value]), theirs ? [[theirs[1], theirs[2]]] : [], JSON.stringify(line));
		}), { numRuns: 5000 });
	});
});

describe('trailing slashes are cut in one pass', () => {
	it('a URL with a long run of slashes inside or at its end (a proxy, a service path) is cut as before, and the pass ends', () => {
		const run = '/'.repeat(200_000);
		assert.equal(withoutTrailingSlashes(`https://host${run}x`), `https://host${run}x`);
		assert.equal(withoutTrailingSlashes(`https://host/a${run}`), 'https://host/a');
		assert.equal(withoutTrailingSlashes('https://host/'), 'https://host');
		assert.equal(withoutTrailingSlashes(run), '');
	});
});
