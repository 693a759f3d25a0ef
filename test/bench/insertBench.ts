// How long planning "Insert Authorization Header" takes in a 10,000-line REST file (cursors in the first,
// middle and last request), updating every token in it, and finding where its tokens go. Pure core only.
import { planAuthEdit } from '../../src/core/restFile/authHeaderEdit';
import { parseRestFile } from '../../src/core/restFile/requestParser';
import { findJwts, planTokenUpdates } from '../../src/core/restFile/jwtScan';
import { foreignSends, type AccountToken } from '../../src/core/restFile/tokenReach';
import { worstShapes } from '../support/worstRestFiles';

function jwt(claims: Record<string, unknown>): string {
	const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
	return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}.c2lnbmF0dXJl`;
}

/** ~10,000 lines: 1,000 requests of 10 lines, every fifth with an old token. */
export function bigRestFile(oldToken: string): string {
	const lines: string[] = ['@host = https://api.example.com', ''];
	for (let i = 0; lines.length < 10_000; i++) {
		lines.push(`### request ${i}`, `# @name r${i}`, `POST {{host}}/v1/items/${i}`, 'Content-Type: application/json');
		lines.push(i % 5 === 0 ? `Authorization: Bearer ${oldToken}` : 'Accept: application/json');
		lines.push('', '{', `  "id": ${i},`, '  "name": "item"', '}');
	}
	return lines.join('\n') + '\n';
}

function median(samples: number[]): number {
	const sorted = [...samples].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)]!;
}

/** Median wall-clock ms, and median CPU ms (steadier on a busy machine). */
function time(run: () => unknown, rounds = 40): { wall: number; cpu: number } {
	for (let i = 0; i < 5; i++) run(); // warm up
	const wall: number[] = [];
	const cpu: number[] = [];
	for (let i = 0; i < rounds; i++) {
		const cpuStart = process.cpuUsage();
		const start = process.hrtime.bigint();
		run();
		wall.push(Number(process.hrtime.bigint() - start) / 1e6);
		const used = process.cpuUsage(cpuStart);
		cpu.push((used.user + used.system) / 1000);
	}
	return { wall: median(wall), cpu: median(cpu) };
}

const round = (ms: number): number => Number(ms.toFixed(2));

/** Median wall-clock ms of an asynchronous run. */
async function timeAsync(run: () => Promise<unknown>, rounds = 9): Promise<number> {
	await run(); // warm up
	const wall: number[] = [];
	for (let i = 0; i < rounds; i++) {
		const start = process.hrtime.bigint();
		await run();
		wall.push(Number(process.hrtime.bigint() - start) / 1e6);
	}
	return median(wall);
}

/** A hostile shape: `n` requests, each reading the one before by its name, the first holding the token. */
function chainedRequests(n: number, token: string): string {
	const lines: string[] = [];
	for (let i = 0; i < n; i++) {
		lines.push(`### r${i}`, `# @name r${i}`, `GET https://h${i}.example/`, i === 0 ? `Authorization: Bearer ${token}` : `X: {{r${i - 1}.request.headers.X}}`, '');
	}
	return lines.join('\n');
}

export async function benchInsert(): Promise<{ name: string; value: number; unit: string; target?: string }[]> {
	const oldToken = jwt({ sub: 'u1', exp: 1000 });
	const newToken = jwt({ sub: 'u1', exp: 2000 });
	const text = bigRestFile(oldToken);
	const cursors = [text.indexOf('POST'), Math.floor(text.length / 2), text.length - 5];
	const header = time(() => planAuthEdit(parseRestFile(text), cursors, { style: 'header', token: newToken }));
	const variable = time(() => planAuthEdit(parseRestFile(text), cursors, { style: 'variable', token: newToken }));
	const update = time(() => planTokenUpdates(text, new Map([[oldToken, newToken]])));
	const accounts: AccountToken[] = [{ accountId: 'a', accessToken: newToken, expiresAt: 2_000_000, serviceUrl: 'https://user.telematicssdk.com' }];
	const reach = await timeAsync(() => foreignSends(text, accounts));
	const chain = chainedRequests(5000, oldToken);
	const chainReach = await timeAsync(() => foreignSends(chain, accounts));
	// What the warnings do on every edit and each minute: one reading of the file, its JWTs, where they go.
	const pass = (text: string) => async () => {
		const file = parseRestFile(text);
		await foreignSends(text, accounts, [], { file, jwts: findJwts(text, file) });
	};
	const worst: { name: string; value: number; unit: string; target?: string }[] = [];
	for (const [size, label, target] of [[256 * 1024, '256 KB (the largest file the lenses and warnings read)', '≤ 50 ms'], [1024 * 1024, '1 MB (left alone by the lenses and warnings)', undefined]] as const) {
		for (const [shape, text] of Object.entries(worstShapes(size, newToken))) {
			worst.push({ name: `a warnings pass, ${label}: ${shape} (median of 9)`, value: round(await timeAsync(pass(text))), unit: 'ms', ...(target ? { target } : {}) });
		}
	}
	return [
		...worst,
		{ name: 'insert header, 10,000-line file, 3 cursors (median)', value: round(header.wall), unit: 'ms', target: '≤ 10 ms' },
		{ name: 'insert header, 10,000-line file, 3 cursors (median CPU time)', value: round(header.cpu), unit: 'ms' },
		{ name: 'insert variable style, 10,000-line file (median)', value: round(variable.wall), unit: 'ms', target: '≤ 10 ms' },
		{ name: 'update 200 tokens, 10,000-line file (median)', value: round(update.wall), unit: 'ms' },
		{ name: 'requests sending a token elsewhere, 10,000-line file (median of 9)', value: round(reach), unit: 'ms', target: '≤ 100 ms' },
		{ name: 'requests sending a token elsewhere, 5,000 requests chained by name (median of 9)', value: round(chainReach), unit: 'ms', target: '≤ 100 ms' },
	];
}
