// REST Client's history keeps no token of ours (issue 65): where the file is, by REST Client's rules; the
// rewrite keeps every entry, its order and every other field (generated histories); and the rewrite of a
// real file, raced by a writer that does what REST Client 0.25.0's addToRequestHistory does (read the
// whole file, put the new request first, keep 50, write it back in place), loses nothing and leaves no token.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as fc from 'fast-check';
import { historyReplacements, HistoryKeeper, restClientHistoryPath, rewriteHistory, type HistoryReplacement } from '../../src/core/restClient/history';
import { rewriteSharedFile, type TextRewrite } from '../../src/system/sharedFile';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.c2lnbmF0dXJlLW9mLXRoZS11c2Vy';
const EARLIER = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.ZWFybGllci10b2tlbi1vZi11c2Vy';
const REFRESH = 'c0ffee00-refresh-token-of-the-user-0123456789';

const replacements: HistoryReplacement[] = historyReplacements([{ name: 'user', variable: 'TELEMATICS_TOKEN_USER', exposed: true, accessTokens: [TOKEN, EARLIER], refreshToken: REFRESH }]);

const entry = (i: number, token = TOKEN) => ({ method: 'GET', url: `https://user.telematicssdk.com/v1/Me?i=${i}`, headers: { Authorization: `Bearer ${token}`, 'X-N': String(i) }, body: i % 2 ? `{"refresh":"${REFRESH}"}` : undefined, startTime: 1_700_000_000_000 + i });

describe('REST Client\'s history: where it is', () => {
	const exists = (set: string[]) => (folder: string) => set.includes(folder);
	it('follows REST Client\'s rules: VSC_REST_CLIENT_HOME, ~/.rest-client when it exists, else XDG_CACHE_HOME, else ~/.rest-client', () => {
		assert.equal(restClientHistoryPath({ VSC_REST_CLIENT_HOME: '/rc' }, '/home/u', exists(['/home/u/.rest-client'])), path.join('/rc', 'history.json'));
		assert.equal(restClientHistoryPath({ XDG_CACHE_HOME: '/cache' }, '/home/u', exists(['/home/u/.rest-client'])), path.join('/home/u/.rest-client', 'history.json'));
		assert.equal(restClientHistoryPath({ XDG_CACHE_HOME: '/cache' }, '/home/u', exists([])), path.join('/cache', 'rest-client', 'history.json'));
		assert.equal(restClientHistoryPath({}, '/home/u', exists([])), path.join('/home/u/.rest-client', 'history.json'));
	});
});

describe('REST Client\'s history: the rewrite', () => {
	it('replaces the access tokens (current and earlier) with the account\'s variable and the refresh token with a placeholder', () => {
		const text = `${JSON.stringify([entry(1), entry(2, EARLIER)])}\n`;
		const result = rewriteHistory(text, replacements);
		assert.equal(result.kind, 'rewritten');
		if (result.kind !== 'rewritten') return;
		const entries = JSON.parse(result.text) as Array<ReturnType<typeof entry>>;
		assert.equal(entries[0]!.headers.Authorization, 'Bearer {{$processEnv TELEMATICS_TOKEN_USER}}');
		assert.equal(entries[1]!.headers.Authorization, 'Bearer {{$processEnv TELEMATICS_TOKEN_USER}}');
		assert.match(entries[0]!.body!, /refresh token of user, removed by Telematics Auth/);
		assert.equal(result.tokens, 3);
		assert.ok(result.text.endsWith(']\n'), 'written as REST Client writes it');
	});

	it('with the variable not in the environment: a placeholder that names the account and says how to send', () => {
		const [access] = historyReplacements([{ name: 'user', variable: 'TELEMATICS_TOKEN_USER', exposed: false, accessTokens: [TOKEN] }]);
		assert.match(access!.replacement, /token of user.*Insert Authorization Header.*telematicsAuth\.exposeToken/);
	});

	it('a clean file is not written; half a file is unreadable; another shape is left alone', () => {
		assert.deepEqual(rewriteHistory(JSON.stringify([{ ...entry(2), headers: {} }]), replacements), { kind: 'clean' });
		assert.deepEqual(rewriteHistory(JSON.stringify([entry(1)]).slice(0, 40), replacements), { kind: 'unreadable' });
		for (const foreign of [{ requests: [entry(1)] }, [entry(1), { note: TOKEN }], [{ ...entry(1), startTime: 'now' }], [{ ...entry(1), headers: [] }], 'history']) {
			assert.deepEqual(rewriteHistory(JSON.stringify(foreign), replacements), { kind: 'foreign' }, JSON.stringify(foreign).slice(0, 60));
		}
	});

	it('keeps every entry, its order and every other field, and leaves no token (generated histories)', () => {
		const text = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', '"', '\\', '{', '\n', 'é', '/', TOKEN, EARLIER, REFRESH), maxLength: 12 }).map((parts) => parts);
		const generated = fc.array(fc.record({
			method: fc.constantFrom('GET', 'POST'),
			url: text.map((t) => `https://h.example/${t}`),
			headers: fc.dictionary(fc.constantFrom('Authorization', 'X-A', 'Cookie'), text),
			body: fc.option(text, { nil: undefined }),
			startTime: fc.integer({ min: 0, max: 2 ** 40 }),
			extra: fc.option(fc.string(), { nil: undefined }),
		}, { requiredKeys: ['method', 'url', 'headers', 'startTime'] }), { maxLength: 50 });
		fc.assert(fc.property(generated, (entries) => {
			const result = rewriteHistory(JSON.stringify(entries), replacements);
			const holds = JSON.stringify(entries).includes(TOKEN) || JSON.stringify(entries).includes(EARLIER) || JSON.stringify(entries).includes(REFRESH);
			assert.equal(result.kind, holds ? 'rewritten' : 'clean');
			if (result.kind !== 'rewritten') return;
			for (const token of [TOKEN, EARLIER, REFRESH]) assert.ok(!result.text.includes(token));
			const after = JSON.parse(result.text) as typeof entries;
			assert.equal(after.length, entries.length);
			after.forEach((a, i) => {
				const b = entries[i]!;
				assert.deepEqual([a.method, a.startTime, a.extra, Object.keys(a.headers)], [b.method, b.startTime, b.extra, Object.keys(b.headers)]);
			});
		}), { numRuns: 300 });
	});
});

describe('REST Client\'s history: the keeper', () => {
	it('puts back an entry a write from an older read dropped, where it was; Clear Request History forgets them all', () => {
		const keeper = new HistoryKeeper(() => replacements);
		const text = (ns: number[]) => `${JSON.stringify(ns.map((n) => entry(n)))}\n`;
		assert.equal(keeper.take(text([2, 1])).kind, 'rewritten', 'tokens replaced');
		assert.ok(keeper.absorb(text([3, 2, 1])), 'a write to the file our rename replaced');
		const restored = keeper.take(text([4, 2, 1]));
		assert.equal(restored.kind, 'rewritten');
		if (restored.kind === 'rewritten') assert.deepEqual((JSON.parse(restored.text) as Array<{ startTime: number }>).map((e) => e.startTime - 1_700_000_000_000), [4, 3, 2, 1]);
		assert.equal(keeper.take('[]\n').kind, 'clean', 'a cleared history stays cleared');
		const after = keeper.take(text([5]));
		assert.ok(after.kind === 'rewritten' && (JSON.parse(after.text) as unknown[]).length === 1, 'nothing from before the clear comes back');
		assert.equal(keeper.absorb('[{"half'), false);
		keeper.take(text([7, 6]));
		const replaced = keeper.take(text([100, 99]));
		assert.equal(replaced.kind, 'rewritten');
		if (replaced.kind === 'rewritten') assert.deepEqual((JSON.parse(replaced.text) as Array<{ startTime: number }>).map((e) => e.startTime - 1_700_000_000_000), [100, 99], 'a file replaced whole is the history now');
	});
});

describe('REST Client\'s history: rewritten while REST Client writes it', function () {
	this.timeout(60_000);
	let dir: string;
	beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rest-client-history-')); });
	afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

	const rewrite = (text: string): TextRewrite<number> => {
		const r = keeper.take(text);
		return r.kind === 'rewritten' ? { kind: 'write', text: r.text, detail: r.tokens } : r.kind === 'unreadable' ? { kind: 'again' } : { kind: 'none' };
	};

	let keeper = new HistoryKeeper(() => replacements);
	beforeEach(() => { keeper = new HistoryKeeper(() => replacements); });
	const merge = (late: string): void => void keeper.absorb(late);

	/** REST Client 0.25.0's addToRequestHistory: fs-extra's readJson (an unreadable file is []), unshift, keep 50, writeJson in place. */
	async function restClientAdds(file: string, request: ReturnType<typeof entry>): Promise<void> {
		let requests: unknown[];
		try {
			requests = JSON.parse(await fs.promises.readFile(file, 'utf8')) as unknown[];
		} catch {
			requests = [];
		}
		requests.unshift(request);
		await fs.promises.writeFile(file, `${JSON.stringify(requests.slice(0, 50))}\n`);
	}

	it('a file of 50 entries rewritten while REST Client sends in a loop loses nothing and keeps no token', async () => {
		const file = path.join(dir, 'history.json');
		fs.writeFileSync(file, `${JSON.stringify(Array.from({ length: 50 }, (_, i) => entry(49 - i)).map((e) => ({ ...e, headers: { ...e.headers, Authorization: 'Bearer old' }, body: undefined })))}\n`);
		let sending = true;
		let sent = 50;
		const sender = (async () => {
			while (sending) {
				await restClientAdds(file, entry(sent++));
				await new Promise((resolve) => setImmediate(resolve));
			}
		})();
		// One rewrite at a time, as the guard runs them (a change during one runs the next after it).
		for (let i = 0; i < 40; i++) {
			await rewriteSharedFile(file, rewrite, merge, 5);
			await new Promise((resolve) => setTimeout(resolve, 3));
		}
		sending = false;
		await sender;
		// The last send's token is cleaned by the rewrite its change starts.
		await rewriteSharedFile(file, rewrite, merge, 5);
		const final = JSON.parse(fs.readFileSync(file, 'utf8')) as Array<{ startTime: number }>;
		const numbers = final.map((e) => e.startTime - 1_700_000_000_000);
		assert.equal(final.length, 50, 'still 50 entries');
		assert.deepEqual(numbers, Array.from({ length: 50 }, (_, i) => sent - 1 - i), `the 50 newest, newest first, none lost (sent ${sent})`);
		const text = fs.readFileSync(file, 'utf8');
		assert.ok(!text.includes(TOKEN) && !text.includes(REFRESH), 'no token left');
		assert.ok(sent > 60, `REST Client sent meanwhile (${sent - 50})`);
		assert.deepEqual(fs.readdirSync(dir), ['history.json'], 'no temporary file left');
	});

	it('leaves a link, a file with two links and a missing file alone', async () => {
		const target = path.join(dir, 'target.json');
		fs.writeFileSync(target, JSON.stringify([entry(1)]));
		fs.symlinkSync(target, path.join(dir, 'link.json'));
		assert.deepEqual(await rewriteSharedFile(path.join(dir, 'link.json'), rewrite, merge), { kind: 'refused', reason: 'notRegular' });
		fs.linkSync(target, path.join(dir, 'hard.json'));
		assert.deepEqual(await rewriteSharedFile(path.join(dir, 'hard.json'), rewrite, merge), { kind: 'refused', reason: 'notRegular' });
		assert.ok(fs.readFileSync(target, 'utf8').includes(TOKEN), 'untouched');
		assert.deepEqual(await rewriteSharedFile(path.join(dir, 'none.json'), rewrite, merge), { kind: 'missing' });
	});

	it('keeps the file\'s mode', async () => {
		const file = path.join(dir, 'history.json');
		fs.writeFileSync(file, JSON.stringify([entry(1)]), { mode: 0o600 });
		fs.chmodSync(file, 0o600);
		assert.equal((await rewriteSharedFile(file, rewrite, merge)).kind, 'rewritten');
		assert.equal(fs.statSync(file).mode & 0o777, 0o600);
	});
});
