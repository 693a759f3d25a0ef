// Packages the extension as users get it: a production build staged with the manifest, README, media and
// licence in a temporary folder, then `vsce package` there; dist/ is left alone.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from './codeServer';
import { projectRoot } from './paths';

const STAGED = ['package.json', 'package.nls.json', 'README.md', 'CHANGELOG.md', 'LICENSE', '.vscodeignore', 'media'];

/** Builds the VSIX and returns its path. */
export function packageVsix(): string {
	const staging = makeTempDir('vsix');
	for (const item of STAGED) fs.cpSync(path.join(projectRoot, item), path.join(staging, item), { recursive: true });
	execFileSync(process.execPath, ['esbuild.js', '--production', `--outdir=${path.join(staging, 'dist')}`], { cwd: projectRoot, stdio: 'pipe' });
	const vsce = path.join(projectRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
	const out = path.join(staging, 'telematics-auth.vsix');
	execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--no-rewrite-relative-links', '--out', out], { cwd: staging, stdio: 'pipe' });
	return out;
}

/** The file names inside a VSIX (a zip): read from its central directory. */
export function vsixEntries(vsix: string): string[] {
	const zip = fs.readFileSync(vsix);
	let end = zip.length - 22;
	while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end--;
	if (end < 0) throw new Error(`${vsix} is not a zip file`);
	const count = zip.readUInt16LE(end + 10);
	let at = zip.readUInt32LE(end + 16);
	const names: string[] = [];
	for (let i = 0; i < count; i++) {
		if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`${vsix}: a broken central directory`);
		const nameLength = zip.readUInt16LE(at + 28);
		names.push(zip.toString('utf8', at + 46, at + 46 + nameLength));
		at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
	}
	return names;
}
