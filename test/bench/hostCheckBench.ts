// A warnings pass over the worst folder we can build (issue 41): what the host check reads on every edit and each
// minute (the folder's environments, the file's variables through them, where the token goes, the environments
// behind each host). Two folders at the bounds: 64 environment files of 256 KB read whole (under the value cap),
// and 64 files of 512 long values each (past it: "does not say"), each with env/ folders eight levels deep and a
// 100-request file that reads them. Median and spread of 11 passes each, the folders alternating; the first
// (cold) pass of each is printed apart.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { environmentsByHost, referencedNames, withEnvironments } from '../../src/core/restFile/environments';
import { findJwts } from '../../src/core/restFile/jwtScan';
import { variableReadings } from '../../src/core/restFile/requestHost';
import { parseRestFile } from '../../src/core/restFile/requestParser';
import { globalNames } from '../../src/core/restFile/requestShape';
import { foreignSends } from '../../src/core/restFile/tokenReach';
import { readFolderEnvironments } from '../../src/system/folderEnvironments';
import { median, round, type BenchRow } from './types';

const SERVICE = 'https://user.telematicssdk.com';
const RUNS = 11;
const FILE_BYTES = 256 * 1024 - 64;

/** A dotenv file of `values` values (each `long`: 480 characters) padded with a comment to the bound. */
function dotenv(values: number, long: boolean, seed: number): string {
	const lines = Array.from({ length: values }, (_, i) => `v${i}=https://h${seed}-${i}.example/${long ? 'p'.repeat(440) : ''}`);
	lines.push('host=https://collector.example', 'base=https://user.telematicssdk.com');
	const text = lines.join('\n') + '\n';
	return text.length < FILE_BYTES ? `${text}#${'x'.repeat(FILE_BYTES - text.length - 2)}\n` : text.slice(0, FILE_BYTES);
}

/** A workspace folder with a REST file eight folders down, 64 environment files on the way, 8 per level (.env and env/.env, named ones too). */
function worstFolder(root: string, long: boolean): string {
	let dir = root;
	let files = 0;
	for (let level = 0; level < 8; level++) {
		for (const folder of [dir, path.join(dir, 'env')]) {
			fs.mkdirSync(folder, { recursive: true });
			for (const name of ['.env', '.env.prod', 'prod.env', '.env.stage']) fs.writeFileSync(path.join(folder, name), dotenv(long ? 512 : 8, long, files++));
		}
		if (level < 7) dir = path.join(dir, `l${level}`);
	}
	const lines = ['@token = eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJiZW5jaCIsImV4cCI6NDEwMjQ0NDgwMH0.c2ln', ''];
	for (let i = 0; i < 100; i++) lines.push(`### r${i}`, `GET {{${i % 2 ? 'host' : 'base'}}}/v1/x/{{v${i % 600}}}`, 'Authorization: Bearer {{token}}', `X-Env: {{$processEnv TELEMATICS_TOKEN}}`, '');
	const file = path.join(dir, 'requests.http');
	fs.writeFileSync(file, lines.join('\n'));
	return file;
}

/** One warnings pass, as features/restFiles/diagnostics.ts runs it. */
async function pass(file: string, root: string, text: string): Promise<number> {
	const started = process.hrtime.bigint();
	const parsed = parseRestFile(text);
	const { environments, outside } = await readFolderEnvironments(file, root);
	const variables = withEnvironments(variableReadings(parsed), environments, globalNames(parsed));
	const accounts = [{ accountId: 'u', accessToken: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJiZW5jaCIsImV4cCI6NDEwMjQ0NDgwMH0.c2ln', expiresAt: 4102444800000, serviceUrl: SERVICE }];
	const sends = await foreignSends(text, accounts, [{ name: 'TELEMATICS_TOKEN', accountId: 'u' }], { file: parsed, jwts: findJwts(text, parsed), variables, ...(outside !== undefined && { outside }) });
	if (sends.some((s) => s.host !== undefined)) environmentsByHost(environments, referencedNames(parsed));
	return Number(process.hrtime.bigint() - started) / 1e6;
}

export async function benchHostCheck(): Promise<BenchRow[]> {
	const base = fs.mkdtempSync(path.join(os.tmpdir(), 'host-check-bench-'));
	try {
		const folders = (['read whole', 'past the value cap'] as const).map((label, i) => {
			const root = path.join(base, `w${i}`);
			const file = worstFolder(root, i === 1);
			return { label, root, file, text: fs.readFileSync(file, 'utf8'), cold: 0, warm: [] as number[] };
		});
		for (const folder of folders) folder.cold = await pass(folder.file, folder.root, folder.text);
		for (let run = 0; run < RUNS; run++) for (const folder of folders) folder.warm.push(await pass(folder.file, folder.root, folder.text));
		return folders.flatMap(({ label, cold, warm }) => [
			{ name: `a warnings pass, worst folder (64 env files of 256 KB, ${label}): median of ${RUNS}`, value: round(median(warm)), unit: 'ms', target: '≤ 50 ms' },
			{ name: `  spread (max − min) of those ${RUNS}`, value: round(Math.max(...warm) - Math.min(...warm)), unit: 'ms' },
			{ name: '  the first pass, every file read and parsed', value: round(cold), unit: 'ms' },
		]);
	} finally {
		fs.rmSync(base, { recursive: true, force: true });
	}
}
