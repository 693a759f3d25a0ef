// Which requests send a token, against a plain model (issue 36): the search in tokenReach.ts indexes the
// references' words and reads each reference once, to stay linear on hostile files. Here the same rule is
// written the slow, obvious way (read every reference for every name until nothing changes), and both
// must agree on generated files built from the pieces that trip such code: names of several words or of
// none, `$`, adjacent and unclosed braces, references over a line break, request names, expressions and
// the environment read through a name the file does not say.
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { anyDefinitions } from '../../src/core/restFile/requestHost';
import { parseRestFile, type ParsedFile, type ParsedRequest } from '../../src/core/restFile/requestParser';
import { requestsSending, type TokenPlaces } from '../../src/core/restFile/tokenReach';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The rule as written in tokenReach.ts's comments, with no index, no budget and no shortcut. */
function modelSending(file: ParsedFile, places: TokenPlaces): ParsedRequest[] {
	const references = (text: string) => [...text.matchAll(/\{\{([\s\S]*?)\}\}/g)].map((m) => m[1]!);
	const holds = (reference: string, name: string) => new RegExp(`(?<![\\w$])${escape(name)}(?![\\w$])`).test(reference);
	const indirect = (reference: string) => /\$(?:processEnv|dotenv)\s+%/.test(reference) || /\bprocess\.env\b(?!\s*\.)/.test(reference);
	const nameOf = (request: ParsedRequest) => {
		for (let line = request.blockStart; line < request.requestLine; line++) {
			const name = /^\s*(?:#|\/\/)\s*@name\s*[=\s]\s*(\S+)\s*$/.exec(file.lines[line]!.text)?.[1];
			if (name) return name;
		}
		return undefined;
	};
	const parsed = new Set(file.variables.map((v) => v.line));
	const blockReferences = (request: ParsedRequest) => references(file.lines.slice(request.blockStart, request.blockEnd + 1)
		.filter((_, i) => !parsed.has(request.blockStart + i)).map((l) => l.text).join('\n'));
	const definitions = anyDefinitions(file).map((d) => ({ name: d.name, references: references(d.value) }));
	const names = new Set(places.variables ?? []);
	const sending = new Set(places.requests ?? []);
	if (places.environment) {
		for (const d of definitions) if (d.references.some(indirect)) names.add(d.name);
		for (const r of file.requests) if (blockReferences(r).some(indirect)) sending.add(r);
	}
	for (let changed = true; changed;) {
		changed = false;
		const reads = (refs: string[]) => refs.some((reference) => [...names].some((name) => holds(reference, name)));
		for (const r of sending) {
			const name = nameOf(r);
			if (name !== undefined && !names.has(name)) { names.add(name); changed = true; }
		}
		for (const d of definitions) {
			if (!names.has(d.name) && reads(d.references)) { names.add(d.name); changed = true; }
		}
		for (const r of file.requests) {
			if (!sending.has(r) && reads(blockReferences(r))) { sending.add(r); changed = true; }
		}
	}
	return file.requests.filter((r) => sending.has(r));
}

const NAMES = ['t', 'tt', 'a-b', 'a.b', 'b', '$x', '-', 'tok$'];
const name = fc.constantFrom(...NAMES);
/** What may stand between braces, or around them. */
const piece = fc.oneof(
	name,
	fc.constantFrom('{{', '}}', '{', '}', ' ', '+', '.response', 'x', '"Bearer " + ', '$processEnv %', 'process.env[', 'process.env.T', '$dotenv ', '\n'),
);
const text = fc.array(piece, { maxLength: 8 }).map((p) => p.join(''));
const line = fc.oneof(
	fc.tuple(name, text).map(([n, t]) => `@${n} = ${t}`),
	name.map((n) => `# @name ${n}`),
	name.map((n) => `// @name=${n}`),
	fc.tuple(fc.nat(3), text).map(([i, t]) => `GET https://h${i}.example/${t.replace(/\s/g, '')}`),
	text.map((t) => `Authorization: ${t}`),
	text.map((t) => `X: ${t}`),
	fc.constant('###'),
	fc.constant(''),
);

describe('which requests send a token, against a plain model (generated)', () => {
	it('the indexed search and the plain rule agree on every generated file', () => {
		fc.assert(fc.property(fc.array(line, { minLength: 1, maxLength: 14 }), fc.array(fc.nat(5), { maxLength: 2 }), fc.subarray(NAMES, { maxLength: 2 }), fc.boolean(), (lines, requestIndexes, variables, environment) => {
			const file = parseRestFile(lines.join('\n'));
			const requests = requestIndexes.map((i) => file.requests[i]).filter((r): r is ParsedRequest => r !== undefined);
			const places: TokenPlaces = { requests, variables, environment };
			const lineOf = (found: ParsedRequest[]) => found.map((r) => r.requestLine);
			assert.deepEqual(lineOf(requestsSending(file, places)), lineOf(modelSending(file, places)), lines.join('\n'));
		}), { numRuns: 1500 });
	});
});
