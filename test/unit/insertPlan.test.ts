// The Insert plan as a table: for a file, cursors, a style and the logged-in accounts, whose token each
// request gets (or who is asked), where the tokens go, which Authorization is someone else's, and the text
// after the edits, `# @note` lines included (issue 44: a changing operation of a production account).
import * as assert from 'node:assert/strict';
import * as httpyac from 'httpyac';
import { planInsert, productionNote, type InsertStyle, type PlanAccount } from '../../src/core/restFile/insertPlan';
import { parseRestFile } from '../../src/core/restFile/requestParser';
import { applyEdits } from '../../src/core/restFile/textEdit';
import { operationFor } from '../../src/core/platform/catalog';
import { platformHosts } from '../../src/core/platform/hosts';
import { noteLine, requestNote } from '../../src/core/restFile/requestText';
import { withCursors } from '../support/cursors';

const VENDOR = 'https://user.telematicssdk.com';
const OTHER = 'https://api.example.org';
const account = (id: string, serviceUrl: string, extra: Partial<PlanAccount> = {}): PlanAccount =>
	({ id, label: id, serviceUrl, hasToken: true, production: false, hosts: platformHosts(serviceUrl), ...extra });
const prod = account('prod', VENDOR, { production: true, name: 'prod' });
const dev = account('dev', OTHER, { name: 'dev' });
const devVendor = account('devVendor', VENDOR, { name: 'devv' });
const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';

interface Row {
	name: string;
	file: string;
	style?: InsertStyle;
	accounts: PlanAccount[];
	named?: string;
	/** The account question. */
	by: 'request' | 'one' | 'active';
	/** Each request's owner when exactly one account serves it (`?`: the person picks among the candidates). */
	owners?: string[];
	candidates?: string[][];
	/** Destination hosts of the whole insert, in order. */
	hosts: Array<string | undefined>;
	foreign?: string[];
	/** With every request given to `give` (or its owner), the text after the edits. */
	give?: string;
	replaceForeign?: boolean;
	expected?: string;
}

const rows: Row[] = [
	{
		name: 'one account: every request with it, asked nothing about accounts',
		file: `GET ${VENDOR}/v1/Management/users/find|\n`,
		accounts: [prod], by: 'one', hosts: ['user.telematicssdk.com'],
		give: 'prod',
		expected: `GET ${VENDOR}/v1/Management/users/find\nAuthorization: Bearer ${TOKEN}\n`,
	},
	{
		name: 'several accounts, header style: each request goes with the account whose service it goes to',
		file: `GET ${VENDOR}/v1/Management/users/find|\n\n###\nGET ${OTHER}/v1/x|\n`,
		accounts: [prod, dev], by: 'request', owners: ['prod', 'dev'], candidates: [[], []],
		hosts: ['user.telematicssdk.com', 'api.example.org'],
	},
	{
		name: "several accounts: a request to an account's platform host on another site (telematicsAuth.platformHosts) goes with that account, by exact origin",
		file: `POST https://trips.example.net/trips/get/v1/|\n\n###\nPOST https://trips.example.net:8443/trips/get/v1/|\n`,
		accounts: [account('prod', VENDOR, { hosts: platformHosts(VENDOR, { api: 'https://trips.example.net' }) }), dev], by: 'request',
		owners: ['prod', '?'], candidates: [[], ['prod', 'dev']],
		hosts: ['trips.example.net', 'https://trips.example.net:8443'],
	},
	{
		name: 'several accounts serving one request: the person picks among them',
		file: `GET ${VENDOR}/v1/Management/users/find|\n`,
		accounts: [prod, devVendor, dev], by: 'request', owners: ['?'], candidates: [['prod', 'devVendor']],
		hosts: ['user.telematicssdk.com'],
	},
	{
		name: 'a request whose host the file does not say: the person picks among all',
		file: 'GET {{base}}/v1/x|\n',
		accounts: [prod, dev], by: 'request', owners: ['?'], candidates: [['prod', 'dev']],
		hosts: [undefined],
	},
	{
		name: 'several accounts, one named: all go with it',
		file: `GET ${OTHER}/v1/x|\n`,
		accounts: [prod, dev], named: 'prod', by: 'one', hosts: ['api.example.org'],
	},
	{
		name: 'the variable style stays with one account and reaches every request that reads the variable',
		file: `@telematicsToken = old\n\nGET ${VENDOR}/v1/a|\n\n###\nGET ${OTHER}/v1/b\nAuthorization: Bearer {{telematicsToken}}\n`,
		style: 'variable', accounts: [prod, dev], by: 'one', hosts: ['user.telematicssdk.com', 'api.example.org'],
	},
	{
		name: 'environment styles choose among named accounts with a token; with one, the active account\'s reference',
		file: `GET ${OTHER}/v1/x|\n`,
		style: 'processEnv', accounts: [prod, account('unnamed', OTHER)], by: 'active', hosts: ['api.example.org'],
		give: 'active', expected: `GET ${OTHER}/v1/x\nAuthorization: Bearer {{$processEnv TELEMATICS_TOKEN}}\n`,
	},
	{
		name: 'environment styles, several named accounts: by request',
		file: `GET ${OTHER}/v1/x|\n`,
		style: 'dotenv', accounts: [prod, dev], by: 'request', owners: ['dev'], candidates: [[]], hosts: ['api.example.org'],
	},
	{
		name: 'someone else\'s Authorization is named, and kept unless replaced',
		file: `GET ${VENDOR}/v1/a|\nAuthorization: Basic abc\n`,
		accounts: [dev], by: 'one', hosts: ['user.telematicssdk.com'], foreign: ['Basic'],
		give: 'dev', expected: `GET ${VENDOR}/v1/a\nAuthorization: Basic abc\n`,
	},
	{
		name: 'a changing operation of a production account gets a # @note naming the account',
		file: `# @name upd\nPUT ${VENDOR}/v1/Management/users|\nContent-Type: application/json\n\n{}\n`,
		accounts: [prod], by: 'one', hosts: ['user.telematicssdk.com'], give: 'prod',
		expected: `# @name upd\n# @note Change a user's profile and settings: this changes data on production account prod.\nPUT ${VENDOR}/v1/Management/users\nAuthorization: Bearer ${TOKEN}\nContent-Type: application/json\n\n{}\n`,
	},
	{
		name: 'an irreversible operation of a production account: the note says it cannot be undone',
		file: `DELETE ${VENDOR}/v1/Management/users/abc|\n`,
		accounts: [prod], by: 'one', hosts: ['user.telematicssdk.com'], give: 'prod',
		expected: `# @note Delete the user and all their data: this cannot be undone (production account prod).\nDELETE ${VENDOR}/v1/Management/users/abc\nAuthorization: Bearer ${TOKEN}\n`,
	},
	{
		name: 'a request that has a note keeps its own',
		file: `// @note mine\nDELETE ${VENDOR}/v1/Management/users/abc|\n`,
		accounts: [prod], by: 'one', hosts: ['user.telematicssdk.com'], give: 'prod',
		expected: `// @note mine\nDELETE ${VENDOR}/v1/Management/users/abc\nAuthorization: Bearer ${TOKEN}\n`,
	},
	{
		name: 'a read of a production account gets no note',
		file: `GET ${VENDOR}/v1/Management/users/find|\n`,
		accounts: [prod], by: 'one', hosts: ['user.telematicssdk.com'], give: 'prod',
		expected: `GET ${VENDOR}/v1/Management/users/find\nAuthorization: Bearer ${TOKEN}\n`,
	},
	{
		name: 'a changing operation of an account that is not production gets no note',
		file: `DELETE ${VENDOR}/v1/Management/users/abc|\n`,
		accounts: [devVendor], by: 'one', hosts: ['user.telematicssdk.com'], give: 'devVendor',
		expected: `DELETE ${VENDOR}/v1/Management/users/abc\nAuthorization: Bearer ${TOKEN}\n`,
	},
	{
		name: 'a changing request to a host outside the account\'s platform is no known operation: no note',
		file: `DELETE ${OTHER}/v1/Management/users/abc|\n`,
		accounts: [prod], by: 'one', hosts: ['api.example.org'], give: 'prod',
		expected: `DELETE ${OTHER}/v1/Management/users/abc\nAuthorization: Bearer ${TOKEN}\n`,
	},
	{
		name: 'the environment style for a production account notes too; with CRLF line endings',
		file: `PUT ${VENDOR}/v1/Management/users|\r\n`,
		style: 'processEnv', accounts: [prod], by: 'active', hosts: ['user.telematicssdk.com'], give: 'prod',
		expected: `# @note Change a user's profile and settings: this changes data on production account prod.\r\nPUT ${VENDOR}/v1/Management/users\r\nAuthorization: Bearer {{$processEnv TELEMATICS_TOKEN}}\r\n`,
	},
	{
		name: 'a kept foreign Authorization gets no note either',
		file: `DELETE ${VENDOR}/v1/Management/users/abc|\nAuthorization: Basic abc\n`,
		accounts: [prod], by: 'one', hosts: ['user.telematicssdk.com'], foreign: ['Basic'], give: 'prod',
		expected: `DELETE ${VENDOR}/v1/Management/users/abc\nAuthorization: Basic abc\n`,
	},
	{
		name: 'replaced, it gets both',
		file: `DELETE ${VENDOR}/v1/Management/users/abc|\nAuthorization: Basic abc\n`,
		accounts: [prod], by: 'one', hosts: ['user.telematicssdk.com'], foreign: ['Basic'], give: 'prod', replaceForeign: true,
		expected: `# @note Delete the user and all their data: this cannot be undone (production account prod).\nDELETE ${VENDOR}/v1/Management/users/abc\nAuthorization: Bearer ${TOKEN}\n`,
	},
];

describe('planInsert: the plan of an Insert, as a table', () => {
	for (const row of rows) {
		it(row.name, async () => {
			const { text, cursors } = withCursors(row.file);
			const style = row.style ?? 'header';
			const plan = await planInsert({ text, cursors, style, accounts: row.accounts, ...(row.named !== undefined && { named: row.named }), operationFor });
			assert.equal(plan.accounts.by, row.by);
			assert.equal(plan.tokenInFile, style === 'header' || style === 'variable');
			if (row.owners) assert.deepEqual(plan.requests.map((r) => r.owner ?? '?'), row.owners);
			if (row.candidates) assert.deepEqual(plan.requests.map((r) => r.candidates), row.candidates);
			assert.deepEqual([...plan.destinations.values()].flat().map((d) => d.host), row.hosts);
			assert.deepEqual(plan.foreign.map((f) => f.scheme), row.foreign ?? []);
			if (row.give === undefined) return;
			const owner = row.give === 'active' ? undefined : row.give;
			const groups = plan.groups(() => owner ?? 'active');
			const written = plan.edits({ groups, tokens: groups.map(() => TOKEN), reference: false, replaceForeign: row.replaceForeign ?? false });
			assert.equal(applyEdits(text, written.edits), row.expected);
			assert.equal(written.keepsForeign, row.foreign !== undefined && !row.replaceForeign);
		});
	}

	it('groups by owner, each with the destinations its own requests reach (read once, not again)', async () => {
		const { text, cursors } = withCursors(`# @name a\nGET ${VENDOR}/v1/a|\n\n###\nGET ${OTHER}/v1/b|\nX-From: {{a.request.headers.Authorization}}\n`);
		const plan = await planInsert({ text, cursors, style: 'header', accounts: [prod, dev] });
		const groups = plan.groups((r) => r.owner!);
		assert.deepEqual(groups.map((g) => [g.accountId, g.requests.length]), [['prod', 1], ['dev', 1]]);
		// The first request's token is read by the second by name: it reaches both hosts.
		assert.deepEqual(groups.map((g) => g.destinations.map((d) => d.host)), [['user.telematicssdk.com', 'api.example.org'], ['api.example.org']]);
	});

	it('the answers give each style its value: the token, the file variable, the reference chosen instead, a named account\'s own variable', async () => {
		const { text, cursors } = withCursors(`GET ${OTHER}/v1/x|\n`);
		const edited = async (style: InsertStyle, accounts: PlanAccount[], reference = false) => {
			const plan = await planInsert({ text, cursors, style, accounts });
			const groups = plan.groups(() => accounts[accounts.length - 1]!.id);
			const written = plan.edits({ groups, tokens: groups.map(() => TOKEN), reference, replaceForeign: false });
			return { text: applyEdits(text, written.edits), style: written.style, bearers: written.bearers, source: plan.source };
		};
		assert.deepEqual(await edited('header', [dev]), { text: `GET ${OTHER}/v1/x\nAuthorization: Bearer ${TOKEN}\n`, style: 'header', bearers: [TOKEN], source: undefined });
		assert.match((await edited('variable', [dev])).text, new RegExp(`^@telematicsToken = ${TOKEN}\\n[^]*Authorization: Bearer \\{\\{telematicsToken\\}\\}\\n$`));
		assert.deepEqual(await edited('header', [dev], true), { text: `GET ${OTHER}/v1/x\nAuthorization: Bearer {{telematicsToken}}\n`, style: 'reference', bearers: ['{{telematicsToken}}'], source: undefined });
		assert.deepEqual(await edited('dotenv', [prod, dev]), { text: `GET ${OTHER}/v1/x\nAuthorization: Bearer {{$dotenv TELEMATICS_TOKEN_DEV}}\n`, style: 'environment', bearers: ['{{$dotenv TELEMATICS_TOKEN_DEV}}'], source: 'dotenv' });
		assert.deepEqual(await edited('envVariable', [dev]), { text: `GET ${OTHER}/v1/x\nAuthorization: Bearer {{TELEMATICS_TOKEN}}\n`, style: 'environment', bearers: ['{{TELEMATICS_TOKEN}}'], source: 'envVariable' });
	});

	it('reads the environments it is given: a host the file leaves to a variable is the environment\'s', async () => {
		const { text, cursors } = withCursors('GET {{base}}/v1/x|\n');
		const environments = new Map([['base', new Map([['prod\nhttps://api.example.org', { value: 'https://api.example.org', environment: 'prod' }]])]]);
		const plan = await planInsert({ text, cursors, style: 'header', accounts: [prod, dev], environments });
		assert.deepEqual([...plan.destinations.values()].flat().map((d) => d.host), ['api.example.org']);
		assert.deepEqual(plan.requests.map((r) => r.owner), ['dev'], 'so it goes with the account of that service, asking nobody');
		const without = await planInsert({ text, cursors, style: 'header', accounts: [prod, dev] });
		assert.deepEqual(without.requests.map((r) => r.candidates), [['prod', 'dev']]);
	});

	it('no request under a cursor: nothing planned', async () => {
		const { text, cursors } = withCursors('# no request here|\n');
		const plan = await planInsert({ text, cursors, style: 'header', accounts: [prod] });
		assert.equal(plan.requests.length, 0);
	});

	it('a note is one line of plain characters, whatever the account label holds', () => {
		const file = parseRestFile(`PUT ${VENDOR}/v1/Management/users\n`);
		const hostile = { ...prod, label: 'x {{$processEnv HOME}}\n# @name evil\r\u2028end' };
		const note = productionNote({ file, operationFor }, file.requests[0]!, hostile)!;
		assert.doesNotMatch(note, /[{}\r\n\u2028]/);
		assert.match(note, /^# @note Change a user's profile and settings: this changes data on production account x processEnv HOME @name evil end\.$/);
		assert.equal(parseRestFile(note + '\n' + `PUT ${VENDOR}/v1/Management/users\n`).requests.length, 1);
		assert.equal(noteLine('a'.repeat(500)).length, '# @note '.length + 200);
	});

	it("New Request's note is as it was when no account is named", () => {
		const op = operationFor('PUT', 'user', '/v1/Management/users')!;
		assert.equal(requestNote(op, true), "Change a user's profile and settings, on a production account.");
		assert.equal(requestNote(op, false), undefined);
		assert.equal(requestNote(op, true, 'prod'), "Change a user's profile and settings: this changes data on production account prod.");
	});

	it("httpYac reads the note Insert writes as the request's own note, which it asks about before sending", async () => {
		httpyac.cli.initFileProvider();
		await httpyac.cli.initIOProvider();
		const { text, cursors } = withCursors(`# @name upd\nPUT ${VENDOR}/v1/Management/users|\n\n###\nGET ${VENDOR}/v1/Management/users/find|\n`);
		const plan = await planInsert({ text, cursors, style: 'header', accounts: [prod], operationFor });
		const written = applyEdits(text, plan.edits({ groups: plan.groups(() => 'prod'), tokens: [TOKEN], reference: false, replaceForeign: false }).edits);
		const httpFile = await new httpyac.store.HttpFileStore().getOrCreate('/insert-plan.http', async () => written, 0, { workingDir: '/' });
		assert.deepEqual(httpFile.httpRegions.filter((r) => r.request).map((r) => r.metaData.note), ["Change a user's profile and settings: this changes data on production account prod.", undefined]);
	});
});
