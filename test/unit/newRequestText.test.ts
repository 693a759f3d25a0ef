// New Request's text (issue 43): a complete request for an operation, at the cursor, kept apart from its
// neighbours with `###`, in the file's line endings; and what httpYac reads of it.
import * as assert from 'node:assert/strict';
import { operationById } from '../../src/core/platform/catalog';
import { OPERATIONS, type Operation } from '../../src/core/platform/operations';
import { bodySkeleton, composeAfterInsert, insertionLine, insertRequest, planNewRequest, requestLines, requestName } from '../../src/core/restFile/requestText';
import { parseRestFile } from '../../src/core/restFile/requestParser';
import { applyEdits } from '../../src/core/restFile/textEdit';
import { fakeJwt } from '../support/doubles/fakeTokenService';

const API = 'https://api.telematicssdk.com';
const op = (id: string): Operation => operationById(id)!;
const ADMIN_REF = { style: 'environment', source: 'processEnv', variable: 'TELEMATICS_TOKEN_ADMIN' } as const;

describe('New Request: the request text', () => {
	it("writes the admin's trips request: name, method, api host, the named reference, content type, required body", () => {
		assert.deepEqual(requestLines(op('trips.admin.list'), { origin: API, auth: ADMIN_REF, name: 'trips_admin_list' }), [
			"# A user's trips (admin) (needs an admin token)",
			'# @name trips_admin_list',
			`POST ${API}/trips/get/admin/v1`,
			'Authorization: Bearer {{$processEnv TELEMATICS_TOKEN_ADMIN}}',
			'Content-Type: application/json',
			'',
			'{',
			'  "Identifiers": {',
			'    "UserId": "00000000-0000-0000-0000-000000000000"',
			'  },',
			'  "StartDate": "2026-11-01T00:00:00Z",',
			'  "EndDate": "2026-11-30T23:59:59Z"',
			'}',
		]);
	});

	it('nests dotted body fields and leaves optional ones out', () => {
		assert.deepEqual(bodySkeleton(op('users.page')), { InstanceIds: ['00000000-0000-0000-0000-000000000000'], PageNumber: 1, PageSize: 20 });
		assert.deepEqual(bodySkeleton(op('applications.update')), {});
		const nested: Operation = { ...op('users.page'), parameters: [
			{ name: 'A.B.C', in: 'body', type: 'integer', required: true, description: '' },
			{ name: 'A.B.D', in: 'body', type: 'boolean', required: true, description: '' },
			{ name: 'A.E', in: 'body', type: 'date', required: true, description: '' },
		] };
		assert.deepEqual(bodySkeleton(nested), { A: { B: { C: 0, D: false }, E: '2026-01-01' } });
	});

	// [operation, production account, the # @note line or none]: REST Client and httpYac ask before sending a request with one.
	const notes: Array<[string, boolean, string | undefined]> = [
		['users.delete', false, '# @note Delete the user and all their data: this cannot be undone.'],
		['users.delete', true, '# @note Delete the user and all their data: this cannot be undone (production account).'],
		['instances.delete', false, '# @note Delete the instance: this cannot be undone.'],
		['users.update', true, '# @note Change a user\'s profile and settings, on a production account.'],
		['users.update', false, undefined],
		['trips.admin.list', true, undefined],
		['users.find', true, undefined],
	];
	for (const [id, production, note] of notes) {
		it(`${id} for a ${production ? 'production' : 'non-production'} account: ${note ?? 'no note'}`, () => {
			const lines = requestLines(op(id), { origin: API, auth: ADMIN_REF, name: 'x', production });
			assert.deepEqual(lines.filter((l) => l.startsWith('# @note')), note ? [note] : []);
			if (note) assert.equal(lines.indexOf(note), lines.indexOf('# @name x') + 1, 'the note sits in the request\'s metadata, before its request line');
		});
	}

	it('a path parameter\'s value never adds or removes a segment, and the note is the one of the URL as written (issue 50)', () => {
		const tagDelete: Operation = { ...op('users.delete'), id: 'openapi.tags', path: '/v1/Instances/{id}/tags/{tag}', summary: 'Remove a tag', irreversible: undefined, changesData: true, parameters: [
			{ name: 'id', in: 'path', type: 'string', required: true, description: '', example: 'i1' },
			{ name: 'tag', in: 'path', type: 'string', required: true, description: '', example: '..' },
		] };
		for (const example of ['..', '.', '', 'a/b', 'a\\b']) {
			const lines = requestLines({ ...tagDelete, parameters: [tagDelete.parameters[0]!, { ...tagDelete.parameters[1]!, example }] }, { origin: API, auth: ADMIN_REF, name: 'x' });
			assert.equal(lines.find((l) => l.startsWith('DELETE ')), `DELETE ${API}/v1/Instances/i1/tags/00000000-0000-0000-0000-000000000000`, JSON.stringify(example));
		}
		assert.equal(requestLines({ ...tagDelete, parameters: [tagDelete.parameters[0]!, { ...tagDelete.parameters[1]!, example: 'fleet-1' }] }, { origin: API, auth: ADMIN_REF, name: 'x' }).find((l) => l.startsWith('DELETE ')), `DELETE ${API}/v1/Instances/i1/tags/fleet-1`);
		// Whatever path is written, its note is the one of the operation it reaches.
		const seen: string[] = [];
		const instanceDelete = { ...op('users.delete'), irreversible: 'Delete the instance' };
		const lines = requestLines({ ...tagDelete, parameters: [tagDelete.parameters[0]!, { ...tagDelete.parameters[1]!, example: 'fleet-1' }] }, { origin: API, auth: ADMIN_REF, name: 'x', operationFor: (method, host, path) => {
			seen.push(`${method} ${host} ${path}`);
			return instanceDelete;
		} });
		assert.deepEqual(seen, [`DELETE ${tagDelete.host} /v1/Instances/i1/tags/fleet-1`]);
		assert.deepEqual(lines.filter((l) => l.startsWith('# @note')), ['# @note Delete the instance: this cannot be undone.']);
		assert.deepEqual(requestLines(tagDelete, { origin: API, auth: ADMIN_REF, name: 'x', operationFor: () => undefined }).filter((l) => l.startsWith('# @note')), [], 'a URL no operation is known for: the operation\'s own note (none here)');
	});

	it('puts required query parameters on the request line, and path parameters as values', () => {
		const [, , line] = requestLines(op('indicators.admin.statistics'), { origin: API, auth: ADMIN_REF, name: 'x' });
		assert.equal(line, `GET ${API}/indicators/admin/v3/Statistics?UserId=00000000-0000-0000-0000-000000000000&StartDate=2026-11-01&EndDate=2026-11-30&TransportType=Driver`);
		const del = requestLines(op('users.delete'), { origin: 'https://user.telematicssdk.com', auth: ADMIN_REF, name: 'x' }).find((l) => l.startsWith('DELETE '));
		assert.equal(del, 'DELETE https://user.telematicssdk.com/v1/Management/users/00000000-0000-0000-0000-000000000000');
		assert.match(requestLines(op('users.delete'), { origin: API, auth: ADMIN_REF, name: 'x' })[0]!, /cannot be undone/);
	});

	it('signs an operation without a token with InstanceId and InstanceKey as variables, never values, and no Authorization', () => {
		const lines = requestLines(op('registration.create'), { origin: 'https://user.telematicssdk.com', auth: ADMIN_REF, name: 'x' });
		assert.ok(lines.includes('InstanceId: {{InstanceId}}'));
		assert.ok(lines.includes('InstanceKey: {{InstanceKey}}'));
		assert.ok(!lines.some((l) => /^Authorization/i.test(l)));
	});

	it('writes a token only through the token grammar', () => {
		const token = fakeJwt(Date.UTC(2030, 0, 1));
		assert.ok(requestLines(op('trips.user.list'), { origin: API, auth: { style: 'header', token }, name: 'x' }).includes(`Authorization: Bearer ${token}`));
		assert.throws(() => requestLines(op('trips.user.list'), { origin: API, auth: { style: 'header', token: 'eyJ.x\r\nHost: evil' }, name: 'x' }));
	});

	it('gives every operation a request both parsers read as one request with its method and host', () => {
		for (const operation of OPERATIONS) {
			const text = requestLines(operation, { origin: API, auth: ADMIN_REF, name: 'n' }).join('\n');
			const file = parseRestFile(text);
			assert.equal(file.requests.length, 1, operation.id);
			assert.match(file.lines[file.requests[0]!.requestLine]!.text, new RegExp(`^${operation.method} ${API}/`), operation.id);
			const body = text.split('\n\n')[1];
			if (operation.contentType) assert.doesNotThrow(() => JSON.parse(body!), operation.id);
		}
	});

	it('names requests uniquely, in word characters', () => {
		assert.equal(requestName(op('trips.admin.list'), new Set()), 'trips_admin_list');
		assert.equal(requestName(op('trips.admin.list'), new Set(['trips_admin_list', 'trips_admin_list_2'])), 'trips_admin_list_3');
	});
});

describe('New Request: where it goes', () => {
	const LINES = ['# A', '# @name a', 'GET https://x.example/a'];
	/** The file after New Request with the cursor at `|`. */
	function insert(withCursor: string, eol = '\n'): string {
		const offset = withCursor.indexOf('|');
		const text = withCursor.replace('|', '').replace(/\n/g, eol);
		const file = parseRestFile(text);
		const line = insertionLine(file, withCursor.slice(0, offset).replace(/\n/g, eol).length);
		return applyEdits(text, [insertRequest(file, line, LINES)]);
	}

	it('fills an empty file with the request alone', () => {
		assert.equal(insert('|'), '# A\n# @name a\nGET https://x.example/a\n');
	});

	it('adds a ### before it after another request, and keeps the next request whole with a ### after it', () => {
		assert.equal(insert('GET https://a.example/|\n'), 'GET https://a.example/\n###\n# A\n# @name a\nGET https://x.example/a\n');
		assert.equal(insert('GET https://a.example/\n|\nGET https://b.example/\n'),
			'GET https://a.example/\n\n###\n# A\n# @name a\nGET https://x.example/a\n\n###\nGET https://b.example/\n',
			'a blank line between two requests that httpYac splits: after the first one\'s block');
	});

	it('never splits a request: a cursor in its headers or body puts it after the block', () => {
		assert.equal(insert('###\nPOST https://a.example/\nA: b\n|\n{}\n###\nGET https://b.example/\n'),
			'###\nPOST https://a.example/\nA: b\n\n{}\n###\n# A\n# @name a\nGET https://x.example/a\n\n###\nGET https://b.example/\n');
	});

	it('needs no ### after a separator line, and keeps file variables in a region of their own', () => {
		assert.equal(insert('###\n|\n'), '###\n# A\n# @name a\nGET https://x.example/a\n\n');
		assert.equal(insert('@host = x\n|'), '@host = x\n###\n# A\n# @name a\nGET https://x.example/a\n');
	});

	it("keeps the file's CRLF line endings", () => {
		const out = insert('GET https://a.example/|\n', '\r\n');
		assert.equal(out, 'GET https://a.example/\r\n###\r\n# A\r\n# @name a\r\nGET https://x.example/a\r\n');
	});

	it('at the end of a file without a final line ending, starts a line first', () => {
		assert.equal(insert('GET https://a.example/|'), 'GET https://a.example/\n###\n# A\n# @name a\nGET https://x.example/a\n');
	});
});

describe('New Request: the variable style in one edit', () => {
	const token = fakeJwt(Date.UTC(2030, 0, 1));

	it('adds @telematicsToken in a region of its own, and the request reads it', () => {
		const { edits, name } = planNewRequest('', 0, op('trips.user.list'), { origin: API, auth: { style: 'variable', token } });
		assert.equal(name, 'trips_user_list');
		assert.equal(edits.length, 1);
		const out = applyEdits('', edits);
		assert.ok(out.startsWith(`@telematicsToken = ${token}\n\n###\n`), out);
		assert.match(out, /Authorization: Bearer \{\{telematicsToken\}\}/);
		assert.equal(parseRestFile(out).requests.length, 1);
	});

	it('updates an existing @telematicsToken above, and inserts the request below, as separate edits', () => {
		const text = `@telematicsToken = ${fakeJwt(Date.UTC(2029, 0, 1))}\n\n###\nGET https://a.example/\n\n`;
		const { edits } = planNewRequest(text, text.length, op('trips.user.list'), { origin: API, auth: { style: 'variable', token } });
		const out = applyEdits(text, edits);
		assert.ok(out.startsWith(`@telematicsToken = ${token}\n`));
		assert.equal(parseRestFile(out).requests.length, 2);
	});

	it('tells edits after an insertion in the offsets before it', () => {
		const insertEdit = { start: 5, end: 5, newText: 'abc' };
		assert.deepEqual(composeAfterInsert(insertEdit, [{ start: 0, end: 1, newText: 'X' }, { start: 6, end: 7, newText: 'Y' }, { start: 9, end: 10, newText: 'Z' }]),
			[{ start: 0, end: 1, newText: 'X' }, { start: 5, end: 5, newText: 'aYc' }, { start: 6, end: 7, newText: 'Z' }]);
		assert.throws(() => composeAfterInsert(insertEdit, [{ start: 4, end: 6, newText: '' }]));
	});
});
