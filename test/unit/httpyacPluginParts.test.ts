// The plugin (plugin.ts) as httpYac's plugin store takes it, driven through the hooks it adds to a file's
// API: what each request becomes, what the person is asked and told, what httpYac's output and the
// extension's log say. Quick: the API is a stand-in recording the hooks (httpyacDoor.test.ts drives the
// same plugin in httpYac's own library against loopback servers).
import * as assert from 'node:assert/strict';
import { PLUGIN_NAME, registerPlugin, telematicsPlugin, type PluginAccount, type PluginApi } from '../../src/core/httpyac/plugin';
import { mintReference } from '../../src/core/httpyac/door';
import { untranslated } from '../../src/core/util/translate';
import { rigHost, type RigHost } from '../support/httpyacRig';

const OWN = 'https://api.example.com';
const OTHER = 'https://other.example.net';
const THIRD = 'https://third.example.org';
const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.the-live-token-of-user';
const ADMIN_TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbiJ9.the-live-token-of-admin';
const NOT_A_URL = 'an address that is not a URL';

type AfterLoop = (context: { args: [Record<string, unknown>, unknown] }) => Promise<boolean>;

/** A file's API as httpYac's plugin store hands it: what the plugin added, and what it wrote to httpYac's output. */
function fileApi(withLog = true): { api: PluginApi; output: string[]; provide: () => Promise<Record<string, string>>; replace: (value: unknown, context?: unknown) => unknown; replaceOptions: unknown; afterLoop: AfterLoop; ids: string[] } {
	const got: Partial<ReturnType<typeof fileApi>> & { ids: string[]; output: string[] } = { ids: [], output: [] };
	const line = (level: string) => (...args: unknown[]): void => { got.output.push(`${level}: ${args.map(String).join(' ')}`); };
	const hook = (name: string) => ({
		addHook: (id: string, action: (...args: never[]) => unknown, options?: unknown) => {
			got.ids.push(`${name}:${id}`);
			if (name === 'provideVariables') got.provide = action as never;
			if (name === 'replaceVariable') { got.replace = ((value: unknown, context: unknown) => action(...[value, 'replace', context] as never[])) as never; got.replaceOptions = options; }
		},
		addInterceptor: (interceptor: { id: string; afterLoop?: AfterLoop }) => {
			got.ids.push(`${name}:interceptor:${interceptor.id}`);
			got.afterLoop = interceptor.afterLoop;
		},
	});
	const api = { log: withLog ? { error: line('error'), warn: line('warn'), info: line('info') } : undefined, hooks: { provideVariables: hook('provideVariables'), replaceVariable: hook('replaceVariable'), onRequest: hook('onRequest') } } as unknown as PluginApi;
	return Object.assign(got, { api }) as never;
}

const user = (over: Partial<PluginAccount> = {}): PluginAccount => ({ id: 'u', name: 'user', label: 'User', variable: 'TELEMATICS_TOKEN_USER', active: true, tokens: [TOKEN], platformOrigins: [OWN], ...over });
const admin = (over: Partial<PluginAccount> = {}): PluginAccount => ({ id: 'a', name: 'admin', label: 'Admin', variable: 'TELEMATICS_TOKEN_ADMIN', active: false, tokens: [ADMIN_TOKEN], platformOrigins: [OWN], ...over });

/** The plugin on one file's API, for `host`; the references it gave. */
async function pluginOn(host: RigHost, withLog = true): Promise<ReturnType<typeof fileApi> & { ref: string; adminRef: string }> {
	const file = fileApi(withLog);
	telematicsPlugin(host, untranslated)(file.api);
	const variables = await file.provide();
	return Object.assign(file, { ref: variables.TELEMATICS_TOKEN_USER!, adminRef: variables.TELEMATICS_TOKEN_ADMIN! });
}

const standardHost = (): RigHost => rigHost([user(), admin()], { u: TOKEN, a: ADMIN_TOKEN });
const http = (over: Record<string, unknown>): Record<string, unknown> => ({ protocol: 'HTTP', url: `${OWN}/v1/Me`, headers: {}, ...over });
type GotOptions = { hooks: Record<string, Array<(...args: unknown[]) => unknown>> } & Record<string, unknown>;
const optionsOf = (request: Record<string, unknown>): GotOptions => request.options as GotOptions;

describe('the plugin: registering in httpYac\'s library', () => {
	function library(): { exports: { httpyac: { store: { pluginStore: Record<string, (api: PluginApi) => void> } }; documentStore: { clear(): void } }; cleared: () => number } {
		let cleared = 0;
		return { exports: { httpyac: { store: { pluginStore: {} } }, documentStore: { clear: () => { cleared++; } } }, cleared: () => cleared };
	}

	it('adds itself to httpYac 6, has every document parsed again, and says so; disposed, it is gone and parsed again', async () => {
		for (const version of ['6.16.7', '6.0.0', '06.1.0']) {
			const { exports, cleared } = library();
			const host = standardHost();
			const added = registerPlugin(exports, version, host, untranslated);
			assert.ok(added, version);
			assert.equal(typeof exports.httpyac.store.pluginStore[PLUGIN_NAME], 'function');
			assert.equal(cleared(), 1);
			assert.deepEqual(host.logs, [`Added the plugin to httpYac ${version}: references for the live tokens, put in at the door, and each request checked before it goes.`]);
			const file = fileApi();
			exports.httpyac.store.pluginStore[PLUGIN_NAME]!(file.api);
			assert.deepEqual(file.ids, ['provideVariables:telematicsAuth', 'replaceVariable:telematicsAuth', 'onRequest:interceptor:telematicsAuth']);
			const variables = await file.provide();
			assert.ok(variables.TELEMATICS_TOKEN_USER);
			const store = exports.httpyac.store.pluginStore[PLUGIN_NAME]!;
			added.dispose();
			assert.equal(exports.httpyac.store.pluginStore[PLUGIN_NAME], undefined);
			assert.equal(cleared(), 2);
			// A file parsed before: its hooks are there, and do nothing now.
			assert.deepEqual(await file.provide(), {});
			assert.equal(file.replace('{{TELEMATICS_TOKEN_NOBODY}}', {}), '{{TELEMATICS_TOKEN_NOBODY}}');
			const request = http({ url: `${OTHER}/x`, headers: { authorization: `Bearer ${TOKEN}` } });
			assert.equal(await file.afterLoop({ args: [request, {}] }), true);
			assert.deepEqual(host.asked, []);
			assert.equal(request.options, undefined);
			const late = fileApi();
			store(late.api);
			assert.deepEqual(late.ids, [], 'a file parsed after: no hooks');
		}
	});

	it('another major version, or a library of another shape: nothing added, said once in the log', () => {
		const shapes: Array<[string, unknown]> = [
			['5.9.0', library().exports],
			['7.0.0', library().exports],
			['16.0.0', library().exports],
			['v6.16.7', library().exports],
			['six', library().exports],
			['6.16.7', undefined],
			['6.16.7', {}],
			['6.16.7', { httpyac: {}, documentStore: { clear: () => undefined } }],
			['6.16.7', { httpyac: { store: {} }, documentStore: { clear: () => undefined } }],
			['6.16.7', { httpyac: { store: { pluginStore: null } }, documentStore: { clear: () => undefined } }],
			['6.16.7', { httpyac: { store: { pluginStore: 'store' } }, documentStore: { clear: () => undefined } }],
			['6.16.7', { httpyac: { store: { pluginStore: {} } } }],
			['6.16.7', { httpyac: { store: { pluginStore: {} } }, documentStore: {} }],
		];
		for (const [version, exports] of shapes) {
			const host = standardHost();
			assert.equal(registerPlugin(exports, version, host, untranslated), undefined, `${version} ${JSON.stringify(exports)}`);
			assert.deepEqual(host.logs, [`httpYac ${version} is installed, but its API is not the one Telematics Auth knows (httpYac 6): httpYac gets no live tokens and its requests are not checked at Send. Use telematicsAuth.exposeToken, or the token written by Insert.`]);
			const store = (exports as { httpyac?: { store?: { pluginStore?: unknown } } } | undefined)?.httpyac?.store?.pluginStore;
			if (typeof store === 'object' && store !== null) assert.deepEqual(store, {});
		}
	});

	it('plugin hooks of another shape: no hook added, said once', () => {
		const { exports } = library();
		const host = standardHost();
		registerPlugin(exports, '6.16.7', host, untranslated);
		host.logs.length = 0;
		const ok = (): { addHook(): void; addInterceptor(): void } => ({ addHook: () => undefined, addInterceptor: () => undefined });
		const odd = [
			undefined,
			{ provideVariables: {}, replaceVariable: ok(), onRequest: ok() },
			{ provideVariables: ok(), replaceVariable: {}, onRequest: ok() },
			{ provideVariables: ok(), replaceVariable: ok(), onRequest: { addHook: () => undefined } },
			{ replaceVariable: ok(), onRequest: ok() },
			{ provideVariables: ok(), onRequest: ok() },
			{ provideVariables: ok(), replaceVariable: ok() },
		];
		for (const hooks of odd) assert.doesNotThrow(() => exports.httpyac.store.pluginStore[PLUGIN_NAME]!({ hooks } as never), JSON.stringify(hooks));
		assert.deepEqual(host.logs, ['httpYac\'s plugin hooks are not the ones Telematics Auth knows: its requests get no live tokens and are not checked at Send.']);
		const file = fileApi();
		exports.httpyac.store.pluginStore[PLUGIN_NAME]!(file.api);
		assert.equal(file.ids.length, 3, 'a file with the known hooks still gets them');
	});
});

describe('the plugin: variables httpYac fills in', () => {
	it('runs before httpYac\'s first replacer, and leaves a value with a known or no reference as it is', async () => {
		const host = standardHost();
		const file = await pluginOn(host);
		assert.deepEqual(file.replaceOptions, { before: ['host'] });
		assert.equal(file.replace('Bearer {{TELEMATICS_TOKEN}}', { variables: { TELEMATICS_TOKEN: file.ref } }), 'Bearer {{TELEMATICS_TOKEN}}');
		assert.equal(file.replace('plain', { variables: {} }), 'plain');
		assert.equal(file.replace(42, undefined), 42);
		assert.deepEqual(host.logs, []);
	});

	it('a reference no account answers stops the request, naming why', async () => {
		const cases: Array<[string, RigHost, string]> = [
			['{{TELEMATICS_TOKEN_ADMIN}}', rigHost([user(), admin()], { u: TOKEN }), '{{TELEMATICS_TOKEN_ADMIN}}: the account admin (Admin) is not logged in, or its token has expired. Log in again or refresh it in Telematics Auth. Nothing was sent.'],
			['{{ TELEMATICS_TOKEN_NOBODY }}', standardHost(), '{{TELEMATICS_TOKEN_NOBODY}}: Telematics Auth has no account named nobody. Nothing was sent.'],
			['{{TELEMATICS_TOKEN}}', rigHost([user({ active: false })], {}), '{{TELEMATICS_TOKEN}}: no account of Telematics Auth is active and logged in. Nothing was sent.'],
			['{{TELEMATICS_TOKEN_USER}}', rigHost([user()], { u: TOKEN }, { trusted: false }), '{{TELEMATICS_TOKEN_USER}}: this folder is not trusted, so Telematics Auth gives httpYac no token (Restricted Mode). Trust the folder to send with it. Nothing was sent.'],
		];
		for (const [text, host, message] of cases) {
			const file = await pluginOn(host);
			for (const context of [undefined, {}, { variables: {} }]) assert.throws(() => file.replace(`x ${text} y`, context), (e: Error) => e.message === message, `${text} ${JSON.stringify(context)}`);
			assert.deepEqual(host.logs, [`httpYac: ${message}`, `httpYac: ${message}`, `httpYac: ${message}`]);
		}
	});
});

describe('the plugin: a token written in the request', () => {
	it('to another site: asked, naming the account, where and why; on Cancel nothing goes, and both logs say why', async () => {
		const host = standardHost();
		const file = await pluginOn(host);
		const request = http({ url: `${OTHER}/x`, headers: { 'X-Key': TOKEN } });
		assert.equal(await file.afterLoop({ args: [request, {}] }), false);
		assert.deepEqual(host.asked, [[
			`httpYac is about to send the token of user (User) to ${OTHER}.`,
			'user: in a header, to a site that is not its service.',
			'',
			'Whoever receives it can act as this account until the token expires. "Send Anyway" sends this request once; Cancel sends nothing.',
		].join('\n')]);
		const why = `Telematics Auth stopped the request to ${OTHER}: it carries the token of User (to a site that is not its service), and the send was cancelled.`;
		assert.deepEqual(host.logs, [why]);
		assert.deepEqual(file.output, [`error: ${why}`]);
		assert.equal(request.options, undefined, 'no hook added');
	});

	it('"Send Anyway": it goes there, and a redirect may take it to no third site', async () => {
		const host = standardHost();
		host.answers.push(true);
		const file = await pluginOn(host);
		const request = http({ url: new URL(`${OTHER}/x`), headers: { 'X-Key': [TOKEN, ADMIN_TOKEN] }, body: 'b' });
		assert.equal(await file.afterLoop({ args: [request, undefined] }), true);
		assert.match(host.asked[0]!, new RegExp(`^httpYac is about to send the token of user \\(User\\), admin \\(Admin\\) to ${OTHER}\\.\nuser: in a header, to a site that is not its service\\.\n\nadmin: in a header, to a site that is not its service\\.\n`));
		assert.deepEqual(host.logs, [`httpYac sent a request with user, admin's token to ${OTHER} after the person said so.`]);
		const [guard] = optionsOf(request).hooks.beforeRequest!;
		assert.deepEqual(Object.keys(optionsOf(request)), ['hooks']);
		assert.doesNotThrow(() => guard!({ url: new URL(`${OTHER}/y`), headers: { 'x-key': TOKEN } }));
		assert.doesNotThrow(() => guard!({ url: new URL(`${OWN}/y`), headers: { 'x-key': TOKEN } }));
		assert.throws(() => guard!({ url: new URL(`${THIRD}/y`), headers: { 'x-key': ADMIN_TOKEN } }), (e: Error) => e.message === `Telematics Auth stopped a redirect to ${THIRD}: it would carry the token of User, Admin. Nothing was sent there.`);
	});

	it('to its own service: no question, and a redirect may take it nowhere else; no HTTP, no hook', async () => {
		const host = standardHost();
		const file = await pluginOn(host);
		const request = http({ headers: { authorization: `Bearer ${TOKEN}` }, options: { timeout: 5 } });
		assert.equal(await file.afterLoop({ args: [request, {}] }), true);
		assert.deepEqual(host.asked, []);
		assert.deepEqual(Object.keys(optionsOf(request)).sort(), ['hooks', 'timeout']);
		assert.throws(() => optionsOf(request).hooks.beforeRequest![0]!({ url: `${OTHER}/y`, headers: { authorization: `Bearer ${TOKEN}` } }), /stopped a redirect to https:\/\/other\.example\.net/);
		const ws = http({ protocol: 'WS', url: `${OWN}/ws`, headers: { authorization: `Bearer ${TOKEN}` } });
		assert.equal(await file.afterLoop({ args: [ws, {}] }), true);
		assert.equal(ws.options, undefined);
		const none = http({ headers: { authorization: 'Bearer nothing-of-ours' } });
		assert.equal(await file.afterLoop({ args: [none, {}] }), true);
		assert.equal(none.options, undefined, 'nothing written, no reference: the request is left as it is');
	});

	it('a URL with no origin is named as none', async () => {
		const host = standardHost();
		const file = await pluginOn(host);
		assert.equal(await file.afterLoop({ args: [http({ url: `not a url ${TOKEN}` }), {}] }), false);
		assert.match(host.asked[0]!, new RegExp(`^httpYac is about to send the token of user \\(User\\) to ${NOT_A_URL}\\.\nuser: in the URL, to a site`));
		assert.match(host.logs[0]!, new RegExp(`^Telematics Auth stopped the request to ${NOT_A_URL}:`));
	});

	it('several accounts and reasons: each named, each reason said, and the action is "Send Anyway"', async () => {
		const host = standardHost();
		const actions: string[] = [];
		const confirm = host.confirm;
		host.confirm = (message, detail, action) => { actions.push(action); return confirm(message, detail, action); };
		const file = await pluginOn(host);
		const request = http({ url: `${OTHER}/x`, headers: { 'X-A': TOKEN, 'X-B': ADMIN_TOKEN }, proxy: 'http://evil.example.com:8080', options: { agent: {}, dnsLookup: 1 } });
		assert.equal(await file.afterLoop({ args: [request, {}] }), false);
		assert.deepEqual(actions, ['Send Anyway']);
		const reasons = ['to a site that is not its service', 'through the proxy http://evil.example.com:8080, which is not VS Code\'s http.proxy nor the environment\'s', 'with httpYac request options: options.agent, options.dnsLookup'];
		assert.match(host.asked[0]!, new RegExp(`\nuser: in a header, ${reasons.join(', ').replace(/[.()]/g, '\\$&')}\.\n`));
		assert.deepEqual(host.logs, [`Telematics Auth stopped the request to ${OTHER}: it carries the token of User, Admin (${[...reasons, ...reasons].join('; ')}), and the send was cancelled.`]);
	});

	it('a request imported from other files is checked once', async () => {
		const host = standardHost();
		const file = await pluginOn(host);
		const request = http({ url: `${OTHER}/x`, headers: { 'X-Key': TOKEN } });
		assert.equal(await file.afterLoop({ args: [request, {}] }), false);
		assert.equal(await file.afterLoop({ args: [request, {}] }), true);
		assert.equal(host.asked.length, 1);
	});

	it('the person\'s proxy is the one the extension host started with; another is asked about', async () => {
		const saved = process.env.HTTPS_PROXY;
		process.env.HTTPS_PROXY = 'http://proxy.example.com:3128';
		let host: RigHost;
		let file: Awaited<ReturnType<typeof pluginOn>>;
		try {
			host = standardHost();
			file = await pluginOn(host);
		} finally {
			if (saved === undefined) delete process.env.HTTPS_PROXY;
			else process.env.HTTPS_PROXY = saved;
		}
		assert.equal(await file.afterLoop({ args: [http({ headers: { authorization: `Bearer ${TOKEN}` }, proxy: ' http://proxy.example.com:3128 ' }), {}] }), true);
		assert.deepEqual(host.asked, []);
		assert.equal(await file.afterLoop({ args: [http({ headers: { authorization: `Bearer ${TOKEN}` }, proxy: 'http://evil.example.com:8080' }), {}] }), false);
		assert.match(host.asked[0]!, /user: in a header, through the proxy http:\/\/evil\.example\.com:8080, which is not VS Code's http\.proxy nor the environment's\./);
	});
});

describe('the plugin: what is read of the request', () => {
	class Stream { }
	const asks = async (over: Record<string, unknown>, config?: unknown): Promise<string | undefined> => {
		const host = standardHost();
		const file = await pluginOn(host);
		await file.afterLoop({ args: [http({ url: `${OTHER}/x`, ...over }), { config: { request: config } }] });
		return host.asked[0];
	};

	it('every body httpYac may hold is read, and one it cannot read counts as holding every token', async () => {
		const bodies: Array<[string, unknown, boolean]> = [
			['text', 'plain', false],
			['text with the token', `t=${TOKEN}`, true],
			['bytes', new TextEncoder().encode('plain'), false],
			['bytes with the token', new TextEncoder().encode(TOKEN), true],
			['a function', () => 'plain', false],
			['a function giving the token', async () => TOKEN, true],
			['a function that throws', () => { throw new Error('x'); }, true],
			['a number', 5, false],
			['a boolean', true, false],
			['an object', { a: 1 }, false],
			['an object with the token', { t: TOKEN }, true],
			['a stream', new Stream(), true],
			['parts', ['a', new TextEncoder().encode('b'), 3], false],
			['parts with the token', ['a', TOKEN], true],
			['parts, one a stream', ['a', new Stream()], true],
			['the token cut in two parts', [TOKEN.slice(0, 20), TOKEN.slice(20)], false],
			['null', null, false],
		];
		for (const [name, body, asked] of bodies) {
			const question = await asks({ body });
			assert.equal(question !== undefined, asked, name);
			if (asked) assert.match(question!, /user: in the body, to a site that is not its service\./, name);
		}
	});

	it('got\'s own options: their headers and body are searched, an unread body counts as holding every token', async () => {
		assert.equal(await asks({ options: { body: 'plain' } }), undefined);
		assert.equal(await asks({ body: 'plain', options: { body: 'more' } }, { body: 'and more' }), undefined);
		assert.match((await asks({ options: { body: new Stream() } }))!, /in the body/);
		assert.match((await asks({ body: 'plain' }, { body: () => { throw new Error('x'); } }))!, /in the body/);
		assert.match((await asks({ body: `t=${TOKEN}`, options: { body: 'more' } }))!, /in the body/, 'the request\'s body and the options\' both');
		assert.equal(await asks({ body: TOKEN.slice(0, 20), options: { body: TOKEN.slice(20) } }), undefined, 'each body its own text');
		assert.match((await asks({ body: [null] }))!, /in the body/, 'a part that is null is unread');
		assert.match((await asks({ body: [undefined] }))!, /in the body/, 'a part that is undefined is unread');
		assert.match((await asks({ body: [Object.create(null)] }))!, /in the body/, 'an object of no prototype is unread');
		assert.match((await asks({ options: { body: TOKEN } }))!, /in the body/);
		assert.match((await asks({}, { headers: { 'x-a': TOKEN } }))!, /in a header/);
		assert.match((await asks({ headers: { 'x-a': ['a', TOKEN], 'x-b': null, 'x-c': [undefined] } }))!, /user: in a header, to a site/);
		assert.match((await asks({ headers: { authorization: `Bearer ${TOKEN}` }, options: { agent: {} }, url: `${OWN}/x` }))!, /with httpYac request options: options\.agent/);
		assert.match((await asks({ headers: { authorization: `Bearer ${TOKEN}` }, url: `${OWN}/x` }, { dnsLookup: 1 }))!, /with httpYac request options: requestGotOptions\.dnsLookup/);
	});

	it('a null cookie jar is no jar: the request goes with no question', async () => {
		const host = standardHost();
		const file = await pluginOn(host);
		const request = http({ headers: { authorization: `Bearer ${file.ref}` }, options: { cookieJar: null } });
		assert.equal(await file.afterLoop({ args: [request, { config: { request: { cookieJar: null } } }] }), true);
		assert.deepEqual(host.asked, []);
		assert.ok(optionsOf(request).hooks.beforeRequest!.length > 0, 'the token goes in at the door');
	});

	it('certificate checks off, in the request or in its options: asked', async () => {
		for (const [over, config] of [[{ noRejectUnauthorized: true }, undefined], [{ rejectUnauthorized: false }, undefined], [{ options: { https: { rejectUnauthorized: false } } }, undefined], [{}, { rejectUnauthorized: false }]] as const) {
			assert.match((await asks({ url: `${OWN}/x`, headers: { authorization: `Bearer ${TOKEN}` }, ...over }, config))!, /user: in a header, with certificate checks off/, JSON.stringify(over));
		}
	});
});

describe('the plugin: a reference at the door', () => {
	it('the Bearer credential to its own service: got\'s hooks put the token in, ours last before and first after', async () => {
		const host = standardHost();
		const file = await pluginOn(host);
		const theirs = (): void => undefined;
		const request = http({ headers: { authorization: `Bearer ${file.ref}` }, options: { hooks: { beforeRequest: [theirs], afterResponse: [theirs], beforeRedirect: [theirs] } } });
		assert.equal(await file.afterLoop({ args: [request, undefined] }), true);
		assert.deepEqual(host.asked, []);
		const options = optionsOf(request);
		assert.deepEqual(Object.keys(options), ['hooks']);
		assert.equal(options.hooks.beforeRequest!.length, 2);
		assert.equal(options.hooks.beforeRequest![0], theirs);
		assert.equal(options.hooks.afterResponse!.length, 2);
		assert.equal(options.hooks.afterResponse![1], theirs);
		assert.equal(options.hooks.beforeRedirect!.length, 2);
		assert.equal(options.hooks.beforeRedirect![1], theirs);
		assert.equal(options.hooks.beforeError!.length, 1);
		const ours = options.hooks.beforeRequest![1]!;
		const opening = { url: new URL(`${OWN}/v1/Me`), headers: { authorization: `Bearer ${file.ref}` }, hooks: options.hooks, agent: { https: {} } };
		ours(opening);
		assert.equal(opening.headers.authorization, `Bearer ${file.ref}`, 'an agent the person did not set');
		delete (opening as Partial<typeof opening>).agent;
		ours(opening);
		assert.equal(opening.headers.authorization, `Bearer ${TOKEN}`);
		const response = { request: { options: opening } };
		options.hooks.afterResponse![0]!(response);
		assert.equal(opening.headers.authorization, `Bearer ${file.ref}`);
	});

	it('through the person\'s proxy, its agent may carry the token', async () => {
		const host = rigHost([user()], { u: TOKEN }, { httpProxy: 'http://proxy.example.com:3128' });
		const file = await pluginOn(host);
		const request = http({ headers: { authorization: `Bearer ${file.ref}` }, proxy: 'http://proxy.example.com:3128' });
		assert.equal(await file.afterLoop({ args: [request, {}] }), true);
		const options = optionsOf(request);
		const opening = { url: new URL(`${OWN}/v1/Me`), headers: { authorization: `Bearer ${file.ref}` }, hooks: options.hooks, agent: { https: {} } };
		options.hooks.beforeRequest!.at(-1)!(opening);
		assert.equal(opening.headers.authorization, `Bearer ${TOKEN}`);
	});

	it('no live token (or one that fits no header): nothing is sent, and both logs say why', async () => {
		for (const [token, withLog] of [[undefined, true], ['has a space', true], [undefined, false]] as const) {
			const host = rigHost([user()], { u: TOKEN });
			const file = await pluginOn(host, withLog);
			host.liveToken = async () => token;
			const request = http({ headers: { authorization: `Bearer ${file.ref}` } });
			assert.equal(await file.afterLoop({ args: [request, {}] }), false);
			const why = 'Telematics Auth: user (User) has no live token now (logged out, or its refresh failed). Log in again; nothing was sent.';
			assert.deepEqual(host.logs, [why]);
			assert.deepEqual(file.output, withLog ? [`error: ${why}`] : []);
			assert.equal(request.options, undefined);
		}
	});

	it('a reference anywhere else: asked; on Cancel nothing goes, both logs say why', async () => {
		for (const withLog of [true, false]) {
			const host = standardHost();
			const file = await pluginOn(host, withLog);
			const request = http({ url: `${OWN}/v1/Me?t=${file.ref}` });
			assert.equal(await file.afterLoop({ args: [request, {}] }), false);
			assert.deepEqual(host.asked, [[
				`httpYac is about to send the token of user (User) to ${OWN}.`,
				'user: in the URL, not as the Bearer credential of the Authorization header, the one place the platform takes it.',
				'',
				'Whoever receives it can act as this account until the token expires. "Send Anyway" sends this request once; Cancel sends nothing.',
			].join('\n')]);
			const why = `Telematics Auth stopped the request to ${OWN}: it carries the token of User (not as the Bearer credential of the Authorization header, the one place the platform takes it), and the send was cancelled.`;
			assert.deepEqual(host.logs, [why]);
			assert.deepEqual(file.output, withLog ? [`error: ${why}`] : []);
		}
	});

	it('"Send Anyway" puts each token in where its reference was, follows no redirect, and takes them out of what got hands back', async () => {
		const host = standardHost();
		host.answers.push(true);
		const file = await pluginOn(host);
		const request = http({ url: `${OTHER}/x?t=${file.ref}`, headers: { 'X-A': file.adminRef, 'X-B': ['a', file.ref], 'X-N': 5 }, body: `{"t":"${file.ref}"}` });
		assert.equal(await file.afterLoop({ args: [request, {}] }), true);
		assert.match(host.asked[0]!, new RegExp(`^httpYac is about to send the token of user \\(User\\), admin \\(Admin\\) to ${OTHER}\\.\nuser: in the URL, a header, the body, not as the Bearer credential of the Authorization header, the one place the platform takes it, to a site that is not its service\\.\n\nadmin: in a header, not as the Bearer`));
		assert.equal(request.url, `${OTHER}/x?t=${TOKEN}`);
		assert.deepEqual(request.headers, { 'X-A': ADMIN_TOKEN, 'X-B': ['a', TOKEN], 'X-N': 5 });
		assert.equal(request.body, `{"t":"${TOKEN}"}`);
		const options = optionsOf(request);
		assert.equal(options.followRedirect, false);
		assert.deepEqual(host.logs, [`httpYac sent a request with user, admin's token to ${OTHER} after the person said so.`]);
		const response = { request: { options: { headers: { 'x-a': ADMIN_TOKEN, authorization: `Bearer ${TOKEN}` }, body: TOKEN } } };
		options.hooks.afterResponse![0]!(response);
		assert.deepEqual(response.request.options, { headers: { 'x-a': file.adminRef, authorization: `Bearer ${file.ref}` }, body: file.ref });
		const error = { options: { headers: { 'x-a': TOKEN } } };
		options.hooks.beforeError![0]!(error);
		assert.deepEqual(error.options.headers, { 'x-a': file.ref });
	});

	it('a reference in a URL with no origin: named as none', async () => {
		const host = standardHost();
		const file = await pluginOn(host);
		assert.equal(await file.afterLoop({ args: [http({ url: `not a url ${file.ref}` }), {}] }), false);
		assert.match(host.asked[0]!, new RegExp(`^httpYac is about to send the token of user \\(User\\) to ${NOT_A_URL}\\.`));
	});

	it('a proxy that is only spaces is none: an agent then does not carry the token', async () => {
		const host = standardHost();
		const file = await pluginOn(host);
		const request = http({ headers: { authorization: `Bearer ${file.ref}` }, proxy: '   ' });
		assert.equal(await file.afterLoop({ args: [request, {}] }), true);
		assert.deepEqual(host.asked, []);
		const options = optionsOf(request);
		const opening = { url: new URL(`${OWN}/v1/Me`), headers: { authorization: `Bearer ${file.ref}` }, hooks: options.hooks, agent: { https: {} } };
		options.hooks.beforeRequest!.at(-1)!(opening);
		assert.equal(opening.headers.authorization, `Bearer ${file.ref}`);
	});

	it('an account this plugin gave no reference is not looked for (another window\'s reference of it is nothing here)', async () => {
		const host = rigHost([user(), admin()], { u: TOKEN });
		const file = await pluginOn(host);
		const elsewhere = mintReference('admin');
		assert.equal(await file.afterLoop({ args: [http({ headers: { 'X-A': elsewhere.slice(0, elsewhere.lastIndexOf('.')) } }), {}] }), true);
		assert.deepEqual([host.logs, file.output, host.asked], [[], [], []]);
	});

	it('"Send Anyway" with no live token: nothing is sent', async () => {
		const host = standardHost();
		host.answers.push(true);
		const file = await pluginOn(host);
		host.liveToken = async () => undefined;
		const request = http({ url: `${OWN}/v1/Me?t=${file.ref}` });
		assert.equal(await file.afterLoop({ args: [request, {}] }), false);
		assert.equal(request.url, `${OWN}/v1/Me?t=${file.ref}`);
		assert.match(host.logs[0]!, /user \(User\) has no live token now/);
	});

	it('a piece of a reference, or one on another protocol: goes as it is, said once an account in both logs', async () => {
		for (const withLog of [true, false]) {
			const host = standardHost();
			const file = await pluginOn(host, withLog);
			const piece = file.ref.slice(file.ref.lastIndexOf('.') + 1);
			for (let i = 0; i < 2; i++) assert.equal(await file.afterLoop({ args: [http({ headers: { 'X-A': piece } }), {}] }), true);
			for (let i = 0; i < 2; i++) assert.equal(await file.afterLoop({ args: [http({ protocol: 'WS', headers: { 'X-A': file.ref } }), {}] }), true);
			for (let i = 0; i < 2; i++) assert.equal(await file.afterLoop({ args: [http({ protocol: undefined, headers: { 'X-A': file.adminRef } }), {}] }), true);
			const altered = 'Telematics Auth: a request carries a piece or an encoding of the reference for user (User), not the token: it goes as it is, and no service takes it.';
			const unseen = 'Telematics Auth: a WS request carries the reference for user (User), not the token: only HTTP requests get the token at the door. For the realtime service, use Live Tracking.';
			const unseenAdmin = 'Telematics Auth: a  request carries the reference for admin (Admin), not the token: only HTTP requests get the token at the door. For the realtime service, use Live Tracking.';
			assert.deepEqual(host.logs, [altered, unseen, unseenAdmin]);
			assert.deepEqual(file.output, withLog ? [`warn: ${altered}`, `warn: ${unseen}`, `warn: ${unseenAdmin}`] : []);
			assert.deepEqual(host.asked, []);
		}
	});

	it('references are this plugin\'s: given once an account, and only for accounts with a live token', async () => {
		const host = rigHost([user(), admin()], { u: TOKEN });
		const file = await pluginOn(host);
		assert.deepEqual(await file.provide(), { TELEMATICS_TOKEN: file.ref, TELEMATICS_TOKEN_USER: file.ref });
		const other = await pluginOn(standardHost());
		assert.notEqual(other.ref, file.ref);
	});
});
