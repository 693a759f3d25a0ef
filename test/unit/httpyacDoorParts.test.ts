// The door's pure parts (door.ts), each on its own: where a reference is found and what is asked about it,
// and got's hooks that put the token in and take it back out. No server: httpyacDoor.test.ts sends the same
// shapes with httpYac's library.
import * as assert from 'node:assert/strict';
import { anywayHooks, decideDoor, doorHooks, literalGuard, mintReference, REFERENCE_HEADER, withTokens, type ReferenceAccount } from '../../src/core/httpyac/door';
import type { OutgoingRequest } from '../../src/core/httpyac/sendCheck';

const OWN = 'https://api.example.com';
const OTHER = 'https://other.example.net';
const USER: ReferenceAccount = { id: 'u', name: 'user', label: 'User', reference: mintReference('user', Buffer.alloc(16, 1)), platformOrigins: [OWN] };
const ADMIN: ReferenceAccount = { id: 'a', name: 'admin', label: 'Admin', reference: mintReference('admin', Buffer.alloc(16, 2)), platformOrigins: [OWN] };
const REF = USER.reference;
const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.the-live-token-of-user';

function request(over: Partial<OutgoingRequest> = {}): OutgoingRequest {
	return { url: `${OWN}/v1/Me`, headers: [], certificatesOff: false, ...over };
}
const bearer = (reference = REF): Array<[string, string]> => [['Authorization', `Bearer ${reference}`]];

describe('the door\'s parts: references', () => {
	it('a reference says what it is and whose it is, and its last segment is the random one', () => {
		const [header, payload, random] = REF.split('.');
		assert.equal(header, REFERENCE_HEADER);
		assert.deepEqual(JSON.parse(Buffer.from(REFERENCE_HEADER, 'base64url').toString('utf8')), { alg: 'none', typ: 'telematics-auth-reference' });
		assert.deepEqual(JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')), { telematicsAuth: 'reference', account: 'user', note: 'not a token: Telematics Auth puts the token in at Send' });
		assert.equal(random, Buffer.alloc(16, 1).toString('base64url'));
	});

	it('withTokens swaps each account\'s reference for its token, and leaves one with no token as it is', () => {
		const text = `a ${REF} b ${ADMIN.reference} c ${REF}`;
		assert.equal(withTokens(text, [USER, ADMIN], new Map([['u', TOKEN]])), `a ${TOKEN} b ${ADMIN.reference} c ${TOKEN}`);
		assert.equal(withTokens(text, [USER, ADMIN], new Map()), text);
	});
});

describe('the door\'s parts: decideDoor', () => {
	const nothing = { asked: [], destination: OWN, altered: [], unseen: [] };

	it('the Bearer credential to the account\'s own origin is swapped, and nothing else is said', () => {
		assert.deepEqual(decideDoor(request({ headers: bearer() }), [USER, ADMIN], undefined, true), { ...nothing, swap: USER });
		assert.deepEqual(decideDoor(request({ headers: [['authorization', `  bearer   ${REF} `]] }), [USER], undefined, true), { ...nothing, swap: USER }, 'the scheme in any case, spaces around');
	});

	it('a request with no reference: nothing to swap, ask or tell', () => {
		assert.deepEqual(decideDoor(request({ headers: [['X-A', REFERENCE_HEADER]], body: 'text' }), [USER, ADMIN], undefined, true), nothing);
		assert.deepEqual(decideDoor(request(), [USER], undefined, false), nothing);
	});

	it('Authorization that is not exactly "Bearer <reference>" is no door: asked, in a header', () => {
		for (const value of [`Basic Bearer ${REF}`, `Bearer ${REF} more`, `Bearer ${REF}x`, `Token ${REF}`]) {
			assert.deepEqual(decideDoor(request({ headers: [['Authorization', value]] }), [USER], undefined, true).asked, [{ account: USER, places: ['header'], reasons: [{ kind: 'notCredential' }] }], value);
		}
	});

	it('the door to another site: asked about the header, for being another site', () => {
		assert.deepEqual(decideDoor(request({ url: `${OTHER}/x`, headers: bearer() }), [USER], undefined, true), { asked: [{ account: USER, places: ['header'], reasons: [{ kind: 'otherSite' }] }], destination: OTHER, altered: [], unseen: [] });
	});

	it('the door and the URL: both places, and not as the credential first', () => {
		assert.deepEqual(decideDoor(request({ url: `${OTHER}/x?t=${REF}`, headers: bearer() }), [USER], undefined, true).asked, [{ account: USER, places: ['header', 'url'], reasons: [{ kind: 'notCredential' }, { kind: 'otherSite' }] }]);
		assert.deepEqual(decideDoor(request({ headers: [...bearer(), ['X-Copy', REF]] }), [USER], undefined, true).asked, [{ account: USER, places: ['header'], reasons: [{ kind: 'notCredential' }] }], 'one header place');
	});

	it('a reference only in the URL, a header name or the body to its own origin: asked, not the credential', () => {
		assert.deepEqual(decideDoor(request({ url: `${OWN}/x?t=${REF}` }), [USER], undefined, true).asked, [{ account: USER, places: ['url'], reasons: [{ kind: 'notCredential' }] }]);
		assert.deepEqual(decideDoor(request({ headers: [[`X-${REF}`, 'v']] }), [USER], undefined, true).asked, [{ account: USER, places: ['header'], reasons: [{ kind: 'notCredential' }] }]);
		assert.deepEqual(decideDoor(request({ body: `{"t":"${REF}"}`, url: `${OTHER}/x` }), [USER], undefined, true).asked, [{ account: USER, places: ['body'], reasons: [{ kind: 'notCredential' }, { kind: 'otherSite' }] }]);
	});

	it('two Authorization headers: neither is the door', () => {
		const d = decideDoor(request({ headers: [...bearer(), ['authorization', 'Basic x']] }), [USER], undefined, true);
		assert.equal(d.swap, undefined);
		assert.deepEqual(d.asked, [{ account: USER, places: ['header'], reasons: [{ kind: 'notCredential' }] }]);
	});

	it('one door for one account: a second account with the same reference is asked about', () => {
		const twin = { ...ADMIN, reference: REF };
		assert.deepEqual(decideDoor(request({ headers: bearer() }), [USER, twin], undefined, true), { ...nothing, swap: USER, asked: [{ account: twin, places: ['header'], reasons: [{ kind: 'notCredential' }] }] });
	});

	it('another protocol than HTTP: a whole reference is unseen, never swapped nor asked', () => {
		assert.deepEqual(decideDoor(request({ url: 'ws://api.example.com/x', headers: bearer() }), [USER, ADMIN], undefined, false), { asked: [], destination: 'ws://api.example.com', altered: [], unseen: [USER] });
	});

	it('a piece of a reference (its random segment, or all before it) is altered; the shared header alone is nobody\'s', () => {
		const [header, payload, random] = REF.split('.');
		assert.deepEqual(decideDoor(request({ headers: [['X-A', `..${random!}..`]] }), [USER, ADMIN], undefined, true), { ...nothing, altered: [USER] });
		assert.deepEqual(decideDoor(request({ body: `${header!}.${payload!}` }), [USER, ADMIN], undefined, true), { ...nothing, altered: [USER] });
		assert.deepEqual(decideDoor(request({ url: `${OWN}/${header!}` }), [USER, ADMIN], undefined, true), nothing);
	});
});

describe('the door\'s parts: doorHooks', () => {
	const hooksFor = (throughProxy = false) => doorHooks(REF, TOKEN, [OWN], throughProxy);
	/** got's options as they reach our beforeRequest hook, the last of got's. */
	function options(hooks: ReturnType<typeof hooksFor>, over: Record<string, unknown> = {}): Record<string, unknown> & { headers: Record<string, unknown> } {
		return { url: new URL(`${OWN}/v1/Me`), headers: { authorization: `Bearer ${REF}` }, hooks: { beforeRequest: [() => undefined, hooks.beforeRequest] }, ...over } as never;
	}
	const sent = (over: Record<string, unknown> = {}, throughProxy = false): unknown => {
		const hooks = hooksFor(throughProxy);
		const o = options(hooks, over);
		hooks.beforeRequest(o);
		return o.headers.authorization;
	};
	const withToken = `Bearer ${TOKEN}`;
	const withReference = `Bearer ${REF}`;

	it('the token goes to the account\'s own origin, the URL as got holds it or as text', () => {
		assert.equal(sent(), withToken);
		assert.equal(sent({ url: `${OWN}/v1/Me` }), withToken);
		assert.equal(sent({ agent: null }), withToken, 'no agent');
		assert.equal(sent({ agent: { http: undefined, https: false } }), withToken, 'agents unset');
		assert.equal(sent({ hooks: {} }), withToken, 'ours the only hook');
		assert.equal(sent({ https: { rejectUnauthorized: true }, rejectUnauthorized: true }), withToken);
	});

	it('the reference stays for anything else got is about to open', () => {
		const cases: Array<[string, Record<string, unknown>]> = [
			['another origin', { url: new URL(`${OTHER}/x`) }],
			['no URL', { url: undefined }],
			['a Host header naming another site', { headers: { authorization: withReference, host: 'other.example.net' } }],
			['certificate checks off under https', { https: { rejectUnauthorized: false } }],
			['certificate checks off', { rejectUnauthorized: false }],
			['its own request function', { request: () => undefined }],
			['an agent not the person\'s proxy', { agent: { https: {} } }],
			['a hook after ours', { hooks: { beforeRequest: [() => undefined] } }],
		];
		for (const [name, over] of cases) assert.equal(sent(over), withReference, name);
		assert.equal(sent({ agent: { https: {} } }, true), withToken, 'an agent for the person\'s proxy');
	});

	it('a redirect to another origin takes the token back out', () => {
		const hooks = hooksFor();
		const o = options(hooks, { headers: { authorization: withToken }, url: new URL(`${OTHER}/landed`) });
		hooks.beforeRequest(o);
		assert.equal(o.headers.authorization, withReference);
	});

	it('leaves any other Authorization, and options with no headers, as they are', () => {
		for (const value of ['Basic abc', `Bearer ${ADMIN.reference}`, 42]) assert.equal(sent({ headers: { authorization: value } }), value);
		const hooks = hooksFor();
		const fn = Object.assign(() => undefined, { authorization: withReference });
		assert.doesNotThrow(() => hooks.beforeRequest({ url: new URL(OWN) }));
		assert.doesNotThrow(() => hooks.beforeRequest({ url: new URL(OWN), headers: null as never }));
		hooks.beforeRequest({ url: new URL(OWN), headers: fn as never, hooks: { beforeRequest: [hooks.beforeRequest] } } as never);
		assert.equal(fn.authorization, withReference, 'headers that are no object are none');
	});

	it('what got hands back holds the reference again, and nothing else is changed', () => {
		const hooks = hooksFor();
		const redirect = { headers: { authorization: withToken, 'x-a': withToken } };
		hooks.beforeRedirect(redirect);
		assert.deepEqual(redirect.headers, { authorization: withReference, 'x-a': withToken });
		const response = { request: { options: { headers: { authorization: withToken } } } };
		assert.equal(hooks.afterResponse(response), response);
		assert.equal(response.request.options.headers.authorization, withReference);
		const error = { options: { headers: { authorization: withToken } } };
		assert.equal(hooks.beforeError(error), error);
		assert.equal(error.options.headers.authorization, withReference);
		const other = { headers: { authorization: 'Basic abc' } };
		hooks.beforeRedirect(other);
		assert.equal(other.headers.authorization, 'Basic abc');
		for (const nothing of [undefined, {}, { request: {} }, { options: {} }, { headers: null }]) {
			assert.doesNotThrow(() => hooks.afterResponse(nothing));
			assert.doesNotThrow(() => hooks.beforeError(nothing));
			assert.doesNotThrow(() => hooks.beforeRedirect(nothing as never));
		}
	});
});

describe('the door\'s parts: anywayHooks and literalGuard', () => {
	const swapped = [{ token: TOKEN, reference: REF }, { token: 'admin-token-0123456789', reference: ADMIN.reference }];

	it('"Send Anyway": the tokens out of every header and a text body got hands back', () => {
		const hooks = anywayHooks(swapped);
		const response = { request: { options: { headers: { authorization: `Bearer ${TOKEN}`, 'x-both': `${TOKEN},admin-token-0123456789`, 'x-n': 5 }, body: `t=${TOKEN}` } } };
		assert.equal(hooks.afterResponse(response), response);
		assert.deepEqual(response.request.options, { headers: { authorization: `Bearer ${REF}`, 'x-both': `${REF},${ADMIN.reference}`, 'x-n': 5 }, body: `t=${REF}` });
		const error = { options: { headers: { 'x-a': TOKEN }, body: Buffer.from(TOKEN) } };
		assert.equal(hooks.beforeError(error), error);
		assert.deepEqual(error.options.headers, { 'x-a': REF });
		assert.ok(Buffer.isBuffer(error.options.body), 'a body that is no text is left');
		for (const nothing of [undefined, {}, { request: {} }, { options: {} }, { options: { body: 'b' } }]) {
			assert.doesNotThrow(() => hooks.afterResponse(nothing));
			assert.doesNotThrow(() => hooks.beforeError(nothing));
		}
	});

	it('a written token goes only to the allowed origins, in a header, the URL or a text body', () => {
		const guard = literalGuard([TOKEN, 'second-token-0123456789'], [OWN], (origin) => `stopped ${origin}`);
		assert.doesNotThrow(() => guard({ url: new URL(`${OWN}/x?t=${TOKEN}`), headers: { authorization: `Bearer ${TOKEN}` }, body: TOKEN }));
		assert.doesNotThrow(() => guard({ url: `${OTHER}/x`, headers: { 'x-a': ['a', 'b'] }, body: 'nothing' }));
		assert.doesNotThrow(() => guard({ url: `${OTHER}/x`, body: Buffer.from(TOKEN) }), 'a body that is no text is not read');
		assert.throws(() => guard({ url: `${OTHER}/x`, body: `t=${TOKEN}` }), /^Error: stopped https:\/\/other\.example\.net$/);
		assert.throws(() => guard({ url: new URL(`${OTHER}/x`), headers: { 'x-a': ['a', `second-token-0123456789`] } }), /stopped https:\/\/other\.example\.net/);
		assert.throws(() => guard({ url: `${OTHER}/x?t=${TOKEN}` }), /stopped/);
		assert.throws(() => guard({ url: `not a url ${TOKEN}` }), /^Error: stopped not a url /, 'no origin: the URL as it is');
		assert.throws(() => guard({ headers: { 'x-a': TOKEN } }), /^Error: stopped $/, 'no URL: named as none');
	});
});
