// Insert Authorization Header over every real file in ../shared/corpus/http (read there, never copied), both
// styles, LF and CRLF, checked against an independent reading of each request's header block.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { planAuthEdit } from '../../src/core/restFile/authHeaderEdit';
import { parseRestFile } from '../../src/core/restFile/requestParser';
import { applyEdits } from '../../src/core/restFile/textEdit';
import { CORPUS, corpusFiles, offsetOfLine } from './corpus';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjb3JwdXMifQ.c2ln';

interface OracleRequest {
	/** Index of the request line. */
	line: number;
	/** Last line of the target (request line or its continuations). */
	targetEnd: number;
	/** Lines of the header block: from targetEnd + 1 up to (not including) the first blank or body line. */
	headerEnd: number;
	/** The Authorization header's line and value, if any. */
	auth?: { line: number; value: string };
}

/**
 * The oracle: a reading of the format independent of src/httpFiles. Regions are cut at lines
 * starting with `###`, and, as httpYac reads them, at a method line after a blank line once the
 * region has a request. In a region, everything before the request is skipped: blank lines,
 * `#` and `//` comments, `@` lines, `import`/`run` directives, `< file` script lines, and the
 * multi-line parts `< {% … %}`, `{{ … }}`, `/* … *\/` and GraphQL `fragment … ` up to a blank
 * line. The request line is the first remaining line with a method word or a scheme or a
 * `{{host}}/path`. The target goes on over lines that start with `?`/`&`, or are indented and
 * have no `name:`; headers follow until a blank line or a line that is not `name: value`
 * (comments inside are allowed).
 */
const METHOD = /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|TRACE|CONNECT|GRAPHQL|GRPC|WS|WSS|SSE|MQTT|AMQP|PROPFIND)\s+\S/i;

function oracle(text: string): OracleRequest[] {
	const lines = text.split(/\r\n|\n|\r/);
	const out: OracleRequest[] = [];
	let i = 0;
	while (i < lines.length) {
		let end = i + 1;
		while (end < lines.length && !lines[end]!.startsWith('###')) end++;
		let j = lines[i]!.startsWith('###') ? i + 1 : i;
		let found = -1;
		while (j < end) {
			const t = lines[j]!.trim();
			const skipTo = (stop: (s: string) => boolean, from: number) => {
				let k = from;
				while (k < end && !stop(lines[k]!)) k++;
				return k;
			};
			if (t === '' || t.startsWith('#') || t.startsWith('//') || t.startsWith('@') || /^(import|run)\s/.test(t) || /^proto\s*</.test(t) || /^<\s+[^{]/.test(t)) { j++; continue; }
			if (t.startsWith('<') && t.includes('{%')) { j = skipTo((s) => s.includes('%}'), j) + 1; continue; }
			if (t.startsWith('/*')) { j = skipTo((s) => s.includes('*/'), j) + 1; continue; }
			if (t.startsWith('{{') && !/^\{\{[^{}\s]+\}\}\S*[/?:]/.test(t)) {
				j = t.length > 2 && t.endsWith('}}') ? j + 1 : skipTo((s) => s.trim().startsWith('}}'), j + 1) + 1;
				continue;
			}
			if (/^fragment\s/i.test(t)) { j = skipTo((s) => s.trim() === '', j); continue; }
			if (/^[A-Za-z]+\s+\S/.test(t) && METHOD.test(t)) { found = j; break; }
			if (/^(https?|wss?|grpcs?):\/\//i.test(t) || /^\{\{[^{}\s]+\}\}\S*[/?:]/.test(t) || /^\/\S/.test(t)) { found = j; break; }
			break; // anything else: no request in this region
		}
		if (found >= 0) {
			let targetEnd = found;
			while (targetEnd + 1 < end && (/^\s*(\?(?!\?)|&)/.test(lines[targetEnd + 1]!) || (/^[ \t]+\S/.test(lines[targetEnd + 1]!) && !/^\s*[\w!#$%&'*+.^`|~-]+\s*:/.test(lines[targetEnd + 1]!)))) targetEnd++;
			let headerEnd = targetEnd + 1;
			let auth: OracleRequest['auth'];
			while (headerEnd < end) {
				const l = lines[headerEnd]!;
				if (l.trim() === '') break;
				if (/^\s*(#|\/\/)/.test(l) || /^\s*\.\.\.[A-Za-z_$][\w$.]*\s*$/.test(l)) { headerEnd++; continue; }
				const m = /^\s*([\w!#$%&'*+.^`|~-]+)\s*:\s?(.*)$/.exec(l);
				if (!m) break;
				if (m[1]!.toLowerCase() === 'authorization' && !auth) auth = { line: headerEnd, value: m[2]!.trim() };
				headerEnd++;
			}
			// httpYac's reading: a method line right after the header section, or after a blank line, starts the
			// next request; not inside a multipart body (an OData batch), which holds request lines of its own.
			const multipart = lines.slice(targetEnd + 1, headerEnd).some((l) => /^\s*content-type\s*:\s*multipart\//i.test(l));
			if (multipart) { /* the body stays whole */ } else if (headerEnd < end && METHOD.test(lines[headerEnd]!.trim())) end = headerEnd;
			else {
				for (let k = found + 2; k < end; k++) {
					if (lines[k - 1]!.trim() === '' && METHOD.test(lines[k]!.trim())) {
						end = k;
						break;
					}
				}
			}
			out.push({ line: found, targetEnd, headerEnd, ...(auth && { auth }) });
		}
		i = end;
	}
	return out;
}



describe('Insert Authorization Header over the real corpus', function () {
	this.timeout(60_000);
	if (!fs.existsSync(CORPUS)) {
		it('needs ../shared/corpus/http beside the project', () => assert.fail(`${CORPUS} is missing`));
		return;
	}
	const all = corpusFiles();

	it('holds the 113 files', () => assert.equal(all.length, 113));

	const variants: Array<{ name: string; convert: (t: string) => string }> = [
		{ name: 'as written', convert: (t) => t },
		{ name: 'as LF', convert: (t) => t.replace(/\r\n/g, '\n') },
		{ name: 'as CRLF', convert: (t) => t.replace(/\r?\n/g, '\r\n') },
	];
	for (const variant of variants) {
		it(`${variant.name}, variable style: @telematicsToken lands once in a region with no request, the header references it`, () => {
			const problems: string[] = [];
			let requests = 0;
			for (const file of all) {
				const text = variant.convert(fs.readFileSync(path.join(CORPUS, file), 'utf8'));
				const eol = (text.match(/\r\n/g) ?? []).length > (text.match(/(?<!\r)\n/g) ?? []).length ? '\r\n' : '\n';
				for (const request of oracle(text)) {
					if (request.auth && !/^Bearer\s+(eyJ[\w-]*\.[\w-]+\.[\w-]*|\{\{telematicsToken\}\})\s*$/i.test(request.auth.value)) continue;
					requests++;
					const cursor = offsetOfLine(text, request.line) + 1;
					const edited = applyEdits(text, planAuthEdit(parseRestFile(text), [cursor], { style: 'variable', token: TOKEN }));
					const where = `${file}:${request.line + 1}`;
					const lines = edited.split(/\r\n|\n|\r/);
					const definitions = lines.map((l, k) => (l === `@telematicsToken = ${TOKEN}` ? k : -1)).filter((k) => k >= 0);
					if (definitions.length !== 1) { problems.push(`${where}: ${definitions.length} definitions`); continue; }
					// The definition's region (cut at ### lines) holds no request, by the oracle.
					let first = definitions[0]!;
					while (first > 0 && !lines[first]!.startsWith('###')) first--;
					let last = definitions[0]!;
					while (last + 1 < lines.length && !lines[last + 1]!.startsWith('###')) last++;
					const regionText = lines.slice(first, last + 1).join('\n');
					if (oracle(regionText).length !== 0) problems.push(`${where}: the variable shares a region with a request`);
					// Take out what the insert added: the rest is the file byte for byte.
					let rest = edited;
					const prefix = `@telematicsToken = ${TOKEN}${eol}${eol}`;
					if (rest.startsWith(prefix)) {
						rest = rest.slice(prefix.length);
						if (!/^###/.test(text) && rest.startsWith(`###${eol}`)) rest = rest.slice(3 + eol.length);
					} else {
						rest = rest.replace(`${eol}@telematicsToken = ${TOKEN}`, '');
						if (rest === edited) rest = rest.replace(`@telematicsToken = ${TOKEN}${eol}`, '');
					}
					rest = rest.replace(new RegExp(`(\\r\\n|\\n)[ \\t]*Authorization: Bearer \\{\\{telematicsToken\\}\\}(?=\\r\\n|\\n|$)`), '');
					if (request.auth) {
						if (rest.split(/\r\n|\n|\r/).length !== text.split(/\r\n|\n|\r/).length - 1) problems.push(`${where}: more than the header line changed`);
					} else if (rest !== text) {
						problems.push(`${where}: something besides the variable and the header changed`);
					}
					// The request moved down by the lines added above it (the header itself goes below).
					const shift = lines.length - text.split(/\r\n|\n|\r/).length - (request.auth ? 0 : 1);
					const again = applyEdits(edited, planAuthEdit(parseRestFile(edited), [offsetOfLine(edited, request.line + shift) + 1], { style: 'variable', token: TOKEN }));
					if (again !== edited) problems.push(`${where}: a second insert changed the file`);
				}
			}
			assert.deepEqual(problems, [], problems.slice(0, 20).join('\n'));
			assert.ok(requests >= 450, `${requests} requests`);
		});

		it(`${variant.name}: the parser finds the requests the oracle finds, and the header lands in each one's header block`, () => {
			let requests = 0;
			let bearerOrNone = 0;
			const problems: string[] = [];
			for (const file of all) {
				const text = variant.convert(fs.readFileSync(path.join(CORPUS, file), 'utf8'));
				const expected = oracle(text);
				const parsed = parseRestFile(text).requests;
				if (JSON.stringify(parsed.map((r) => r.requestLine)) !== JSON.stringify(expected.map((r) => r.line))) {
					problems.push(`${file}: parser ${JSON.stringify(parsed.map((r) => r.requestLine))}, oracle ${JSON.stringify(expected.map((r) => r.line))}`);
					continue;
				}
				const crlf = (text.match(/\r\n/g) ?? []).length;
				const lf = (text.match(/(?<!\r)\n/g) ?? []).length;
				for (const request of expected) {
					requests++;
					const cursor = offsetOfLine(text, request.line) + 1;
					let edits;
					try {
						edits = planAuthEdit(parseRestFile(text), [cursor], { style: 'header', token: TOKEN });
					} catch (e) {
						problems.push(`${file}:${request.line + 1}: ${String(e)}`);
						continue;
					}
					const edited = applyEdits(text, edits);
					// Ours: Bearer with a JWT or one of the references we write. Anything else is asked about first.
					const foreign = request.auth !== undefined && !/^Bearer\s+(eyJ[\w-]*\.[\w-]+\.[\w-]*|\{\{(telematicsToken|TELEMATICS_TOKEN|\$processEnv TELEMATICS_TOKEN|\$dotenv TELEMATICS_TOKEN)\}\})\s*$/i.test(request.auth.value);
					if (foreign) {
						if (edited !== text) problems.push(`${file}:${request.line + 1}: a ${request.auth!.value.split(' ')[0]} Authorization was replaced without asking`);
						continue;
					}
					bearerOrNone++;
					const before = text.split(/\r\n|\n|\r/);
					const after = edited.split(/\r\n|\n|\r/);
					if (request.auth) {
						// Replaced in place: only that line differs.
						const changed = after.map((l, k) => (l !== before[k] ? k : -1)).filter((k) => k >= 0);
						if (after.length !== before.length || changed.some((k) => k !== request.auth!.line) || after[request.auth.line]!.trim() !== `Authorization: Bearer ${TOKEN}`) {
							problems.push(`${file}:${request.line + 1}: the existing Bearer header was not replaced in place`);
						}
					} else {
						// One new line, inside the header block: right after the target's last line.
						const at = request.targetEnd + 1;
						const rest = [...after.slice(0, at), ...after.slice(at + 1)];
						if (after.length !== before.length + 1 || after[at]!.trim() !== `Authorization: Bearer ${TOKEN}` || rest.join('\n') !== before.join('\n')) {
							problems.push(`${file}:${request.line + 1}: the header is not the one new line after line ${at}`);
						}
						// The same line ending as the file's (CRLF files stay CRLF).
						const crlfAfter = (edited.match(/\r\n/g) ?? []).length;
						const lfAfter = (edited.match(/(?<!\r)\n/g) ?? []).length;
						if (crlfAfter + lfAfter !== crlf + lf + 1 || (crlf > lf && crlfAfter !== crlf + 1) || (lf > crlf && lfAfter !== lf + 1)) {
							problems.push(`${file}:${request.line + 1}: the line endings changed`);
						}
					}
					if (planAuthEdit(parseRestFile(edited), [cursor], { style: 'header', token: TOKEN }).length !== 0) problems.push(`${file}:${request.line + 1}: a second insert changed the file`);
				}
			}
			assert.deepEqual(problems, [], problems.slice(0, 20).join('\n'));
			assert.ok(requests >= 600, `${requests} requests`);
			assert.ok(bearerOrNone >= 450, `${bearerOrNone} requests took the header`);
			console.log(`      (${requests} requests in ${all.length} files; ${bearerOrNone} took the header, ${requests - bearerOrNone} with another scheme were left alone)`);
		});
	}
});
