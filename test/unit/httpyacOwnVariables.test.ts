// httpYac's own variables with our plugin in it (issue 68): httpyac 6.16.7's library, the plugin registered
// and an account logged in, sends what it sends without the plugin. Our replacer once asked to run before
// `javascript` and `xpath`, which pulled those ahead of httpYac's `file` and `restClientDynamic` replacers:
// `{{$processEnv X}}`, `{{$dotenv X}}`, `{{$guid}}`, `{{< file}}`… then reached JavaScript first and failed.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { countingServer, type CountingServer } from '../support/countingServer';
import { HttpyacRig, rigHost } from '../support/httpyacRig';
import { PLUGIN_NAME } from '../../src/core/httpyac/plugin';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.live-token-of-the-user-0123456789';

describe('httpYac\'s own variables with the plugin in (httpyac 6.16.7)', function () {
	this.timeout(60_000);
	let rig: HttpyacRig;
	let server: CountingServer;

	before(async () => {
		rig = await HttpyacRig.start();
		server = await countingServer('127.0.0.1', 0, ({ url }) => (url.startsWith('/first') ? { status: 200, headers: { 'content-type': 'application/json' }, body: '{"id":"from-first"}' } : undefined));
		rig.write('.env', 'DOTENV_VALUE=from-dotenv\n');
		rig.write('value.txt', 'from-file');
		rig.write('body.txt', 'body-from-file');
	});
	after(async () => {
		rig.stop();
		await server.close();
	});

	const host = () => rigHost([{ id: 'u', name: 'user', label: 'User', variable: 'TELEMATICS_TOKEN_USER', active: true, tokens: [TOKEN], platformOrigins: [`http://127.0.0.1:${server.port}`] }], { u: TOKEN });

	/** Each hook's sorted hook and interceptor ids, for one file parsed with the plugins in the store now. */
	async function hookIds(): Promise<Record<string, { items: string[]; interceptors: string[] }>> {
		const file = await rig.parse('GET http://127.0.0.1:1/\n');
		const ids: Record<string, { items: string[]; interceptors: string[] }> = {};
		for (const [name, hook] of Object.entries(file.hooks)) {
			const h = hook as { items: Array<{ id: string }>; interceptors: Array<{ id: string }> };
			ids[name] = { items: h.items.map((i) => i.id), interceptors: h.interceptors.map((i) => i.id) };
		}
		return ids;
	}

	it('leaves httpYac\'s order of replacers, interceptors and hooks as httpYac has it, ours first among the replacers', async () => {
		rig.plugin(undefined);
		const without = await hookIds();
		rig.plugin(host());
		const withPlugin = await hookIds();
		rig.plugin(undefined);
		assert.equal(withPlugin.replaceVariable!.items[0], PLUGIN_NAME, 'ours runs first: an unknown account is named before httpYac says "not defined"');
		assert.ok(withPlugin.provideVariables!.items.includes(PLUGIN_NAME));
		assert.ok(withPlugin.onRequest!.interceptors.includes(PLUGIN_NAME));
		const ours = (ids: string[]): string[] => ids.filter((id) => id !== PLUGIN_NAME);
		for (const [name, lists] of Object.entries(withPlugin)) {
			assert.deepEqual({ items: ours(lists.items), interceptors: ours(lists.interceptors) }, without[name], `${name}: httpYac's own order`);
		}
		assert.deepEqual(Object.keys(withPlugin).sort(), Object.keys(without).sort());
		// The order httpYac's own variables need: `file` and `restClientDynamic` before `javascript`.
		const replacers = without.replaceVariable!.items;
		assert.ok(replacers.indexOf('restClientDynamic') < replacers.indexOf('javascript') && replacers.indexOf('file') < replacers.indexOf('javascript'), replacers.join(','));
	});

	// Every header of the second request, with what each must be whether or not the plugin is in.
	const headers: Array<[string, string, RegExp]> = [
		['x-process-env', '{{$processEnv TA_OWN_VARIABLE}}', /^from-process-env$/],
		['x-dotenv', '{{$dotenv DOTENV_VALUE}}', /^from-dotenv$/],
		['x-guid', '{{$guid}}', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/],
		['x-timestamp', '{{$timestamp}}', /^\d{10,13}$/],
		['x-datetime', '{{$datetime iso8601}}', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/],
		['x-local-datetime', '{{$localDatetime iso8601}}', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$|^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/],
		['x-random-int', '{{$randomInt 1 9}}', /^[1-8]$/],
		['x-file', '{{< ./value.txt}}', /^from-file$/],
		['x-block', '{{ \'js-\' + (1 + 2) }}', /^js-3$/],
		['x-shared', '{{sharedVar}}', /^from-shared$/],
		['x-named', '{{first.id}}', /^from-first$/],
		['x-unset-env', 'none{{$processEnv TELEMATICS_TOKEN}}', /^none$/],
	];

	async function sendOwnVariables(): Promise<{ headers: Record<string, string>; body: string; errors: string[] }> {
		const base = `http://127.0.0.1:${server.port}`;
		const text = [
			'# @name first',
			`GET ${base}/first`,
			'',
			'###',
			`POST ${base}/second`,
			...headers.map(([name, value]) => `${name}: ${value}`),
			'Content-Type: text/plain',
			'',
			'<@base64 ./body.txt',
			'',
		].join('\n');
		const before = server.received.length;
		const errors = await rig.send(text, { environments: { $shared: { sharedVar: 'from-shared' } } });
		const second = server.received.slice(before).find((r) => r.url === '/second');
		assert.ok(second, `the second request was sent: ${errors.join('\n')}`);
		return { headers: Object.fromEntries(headers.map(([name]) => [name, String(second.headers[name] ?? '')])), body: second.body, errors };
	}

	it('sends a request using each of httpYac\'s own variables and imports as it does without the plugin', async () => {
		process.env.TA_OWN_VARIABLE = 'from-process-env';
		try {
			assert.equal(process.env.TELEMATICS_TOKEN, undefined, 'exposure is off: no TELEMATICS_TOKEN in the environment');
			rig.plugin(undefined);
			const without = await sendOwnVariables();
			const h = host();
			rig.plugin(h);
			const withPlugin = await sendOwnVariables();
			rig.plugin(undefined);
			for (const [name, , shape] of headers) {
				assert.match(without.headers[name]!, shape, `${name} without the plugin: ${JSON.stringify(without.headers)}`);
				assert.match(withPlugin.headers[name]!, shape, `${name} with the plugin`);
			}
			assert.deepEqual(withPlugin.errors, without.errors);
			assert.equal(withPlugin.body, without.body, 'the body imported with <@base64 is the same');
			assert.ok(without.body.length > 0);
			assert.deepEqual(h.asked, [], 'no question');
		} finally {
			delete process.env.TA_OWN_VARIABLE;
		}
	});

	it('still names an account no one is logged in as, before httpYac\'s own replacers', async () => {
		const h = host();
		rig.plugin(h);
		const before = server.hits();
		const errors = await rig.send(`GET http://127.0.0.1:${server.port}/me\nAuthorization: Bearer {{TELEMATICS_TOKEN_NOBODY}}\n`);
		rig.plugin(undefined);
		assert.equal(server.hits(), before, 'nothing was sent');
		assert.ok([...errors, ...h.logs].some((l) => l.includes('no account named nobody')), [...errors, ...h.logs].join('\n'));
	});

	it('httpYac\'s library is the version the plugin is written for', () => {
		const manifest = JSON.parse(fs.readFileSync(require.resolve('httpyac/package.json'), 'utf8')) as { version: string };
		assert.equal(manifest.version, '6.16.7');
	});
});
