// New Request over the real corpus (issue 43): at any line of the 113 real REST files (40 spread over a long one), the request
// goes in whole and leaves its neighbours whole, as our parser reads it and as httpYac's own parser reads
// it (LF and CRLF): one request more, every other request with the same request line and headers.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as httpyac from 'httpyac';
import { operationById } from '../../src/core/platform/catalog';
import { namedRequest, planNewRequest } from '../../src/core/restFile/requestText';
import { parseRestFile } from '../../src/core/restFile/requestParser';
import { applyEdits } from '../../src/core/restFile/textEdit';
import { CORPUS, corpusFiles, offsetOfLine } from './corpus';

const OP = operationById('trips.admin.list')!;
const ORIGIN = 'https://api.telematicssdk.com';
const AUTH = { style: 'environment', source: 'processEnv', variable: 'TELEMATICS_TOKEN_ADMIN' } as const;
/** kulala's fixtures (their `run`/`import` lines) and httpYac's parser-rewriting example, which httpYac reads its own way. */
const skip = (file: string) => file.startsWith('mistweaverco__kulala.nvim__') || file === 'AnWeber__vscode-httpyac__examples__extendable.http';

/** Each request as httpYac reads it: its request line's text and its headers. */
async function httpyacRequests(text: string): Promise<string[]> {
	const file = await new httpyac.store.HttpFileStore().getOrCreate(path.join(CORPUS, 'new-request.http'), async () => text, 0, { workingDir: CORPUS });
	const lines = text.split(/\r\n|\n/);
	return file.httpRegions.flatMap((region) => {
		const requestLine = (region.symbol.children ?? []).find((c) => c.kind === httpyac.HttpSymbolKind.requestLine);
		return region.request && requestLine ? [`${lines[requestLine.startLine]} ${JSON.stringify(region.request.headers ?? {})}`] : [];
	});
}

/** Each request as we read it: its request line's text and its header lines. */
function ourRequests(text: string): string[] {
	const file = parseRestFile(text);
	return file.requests.map((r) => [file.lines[r.requestLine]!.text, ...r.headers.map((h) => file.lines[h.line]!.text)].join(' | '));
}

describe('New Request over the real corpus', function () {
	this.timeout(300_000);
	before(async function () {
		if (!fs.existsSync(CORPUS)) assert.fail(`${CORPUS} is missing`);
		httpyac.cli.initFileProvider();
		await httpyac.cli.initIOProvider();
	});

	for (const eol of ['\n', '\r\n'] as const) {
		it(`${eol === '\n' ? 'LF' : 'CRLF'}: at every line (40 a long file), one request more and the others whole (ours); at four lines a file, httpYac agrees`, async () => {
			const problems: string[] = [];
			let inserts = 0;
			let readBack = 0;
			for (const name of corpusFiles()) {
				if (skip(name)) continue;
				const text = fs.readFileSync(path.join(CORPUS, name), 'utf8').replace(/\r?\n/g, eol);
				const before = ourRequests(text);
				const lineCount = text.split(/\r\n|\n/).length;
				const theirsBefore = await httpyacRequests(text);
				const sampled = new Set([0, Math.floor(lineCount / 3), Math.floor((2 * lineCount) / 3), lineCount - 1]);
				// Every line of a short file, 40 spread over a long one, and the sampled ones.
				const stride = Math.max(1, Math.ceil(lineCount / 40));
				for (let line = 0; line < lineCount; line++) {
					if (line % stride !== 0 && !sampled.has(line)) continue;
					const { edits, name: requestName } = planNewRequest(text, offsetOfLine(text, line), OP, { origin: ORIGIN, auth: AUTH });
					const edited = applyEdits(text, edits);
					inserts++;
					const where = `${name}:${line + 1}`;
					if (edited.includes('\r\n') !== text.includes('\r\n') || (eol === '\r\n' && /[^\r]\n/.test(edits[0]!.newText))) problems.push(`${where}: line endings changed`);
					const after = ourRequests(edited);
					const added = namedRequest(parseRestFile(edited), requestName);
					if (after.length !== before.length + 1 || !added) {
						problems.push(`${where}: ${after.length} requests after, ${before.length} before`);
						continue;
					}
					const ours = after.filter((r) => r.startsWith(`POST ${ORIGIN}/trips/get/admin/v1 | Authorization`));
					const others = after.filter((r) => !ours.includes(r));
					if (JSON.stringify(others) !== JSON.stringify(before.filter((r) => !ours.includes(r)))) problems.push(`${where}: a neighbouring request changed`);
					if (!sampled.has(line)) continue;
					readBack++;
					const theirs = await httpyacRequests(edited);
					const mine = theirs.filter((r) => r.startsWith(`POST ${ORIGIN}/trips/get/admin/v1 `));
					if (theirs.length !== theirsBefore.length + 1 || mine.length !== 1 || !mine[0]!.includes('"Authorization":"Bearer {{$processEnv TELEMATICS_TOKEN_ADMIN}}"')) {
						problems.push(`${where}: httpYac reads ${theirs.length} requests after, ${theirsBefore.length} before: ${mine.join(' ')}`);
					} else if (JSON.stringify(theirs.filter((r) => r !== mine[0])) !== JSON.stringify(theirsBefore)) {
						problems.push(`${where}: httpYac reads a neighbouring request differently`);
					}
				}
			}
			assert.deepEqual(problems, [], problems.slice(0, 25).join('\n'));
			assert.ok(inserts > 2000 && readBack > 300, `${inserts} inserts, ${readBack} read back by httpYac`);
			console.log(`      ${inserts} inserts, ${readBack} of them read back by httpYac`);
		});
	}
});
