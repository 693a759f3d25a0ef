// The environments a REST file's clients would fill its variables from, read for the host check
// (core/restFile/environments.ts): `http-client.env.json`, `http-client.private.env.json` and every
// dotenv file (`.env`, `.env.prod`, `prod.env`) in the file's folder and each folder above it up to the
// workspace folder and in its `env/` folder (httpYac's), `.httpyac.json` at the workspace folder (its
// JSON only), and REST Client's `rest-client.environmentVariables`. Only regular files (no link is
// followed, nor a folder whose real path leads out of the workspace folder), bounded. More readings can
// only add hosts, so a source read too many is harmless; one missed could hide a host, so a folder with
// an httpYac JavaScript config (which may set any variable, and is never run), an `httpyac` section in
// package.json or an `envDirName` (environments elsewhere) gets no environment values at all: its
// undefined names stay "does not say", as do those a skipped folder would give.
import { readdir, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import vscode = require('vscode');
import { httpyacLooksElsewhere, MAX_ENVIRONMENT_FILE_CHARS, readDotenv, readEnvironmentObject, readHttpClientEnv, readHttpyacJson, withEnvironments, type EnvironmentReadings } from '../../core/restFile/environments';
import { variableReadings, type VariableReadings } from '../../core/restFile/requestHost';
import type { ParsedFile } from '../../core/restFile/requestParser';
import { readRegularFile } from '../../platform/regularFile';

/** Folders looked in, from the file's up: at most this many. */
const MAX_FOLDERS = 8;

/** Most environment files read from one folder, and in all (each at most MAX_ENVIRONMENT_FILE_CHARS bytes, larger ones unread). */
const MAX_FILES_PER_FOLDER = 32;
const MAX_FILES = 64;

/** How a file of that name is read, or undefined when it is not an environment file. */
function readerFor(name: string): ((text: string, into: EnvironmentReadings) => EnvironmentReadings) | undefined {
	if (name === 'http-client.env.json' || name === 'http-client.private.env.json') return readHttpClientEnv;
	if (/^\.env(\..+)?$/.test(name) || /^[^.].*\.env$/.test(name)) return (text, into) => readDotenv(text, into, name);
	return undefined;
}

/** An httpYac configuration that is code (`.httpyac.js`, `httpyac.config.mjs`, …): what it sets cannot be read. */
const CODE_CONFIG = /^(\.httpyac|httpyac\.config|\.httpyac\.config)\.(c|m)?(j|t)s$/;

/** A regular file's text within the bound; undefined when there is none; null when one is there but is not read. */
async function textOf(file: string): Promise<string | null | undefined> {
	const result = await readRegularFile(file, MAX_ENVIRONMENT_FILE_CHARS).catch(() => null);
	return result === null || result.kind === 'refused' ? null : result.kind === 'text' ? result.text : undefined;
}

async function readInto(file: string, read: (text: string, into: EnvironmentReadings) => EnvironmentReadings, into: EnvironmentReadings): Promise<void> {
	const result = await readRegularFile(file, MAX_ENVIRONMENT_FILE_CHARS).catch(() => undefined);
	if (result?.kind === 'text') read(result.text, into);
}

/** What the environments give the variables of the file at `uri`. */
export async function environmentReadings(uri: vscode.Uri): Promise<EnvironmentReadings> {
	const readings: EnvironmentReadings = new Map();
	readEnvironmentObject(vscode.workspace.getConfiguration('rest-client', uri).get<unknown>('environmentVariables'), readings);
	if (uri.scheme !== 'file') return readings;
	const root = vscode.workspace.getWorkspaceFolder(uri)?.uri.fsPath;
	// The file's folder, then each one above it while inside the workspace folder.
	const folders: string[] = [];
	for (let dir = dirname(uri.fsPath); folders.length < MAX_FOLDERS; dir = dirname(dir)) {
		folders.push(dir);
		const rel = root === undefined ? '..' : relative(root, dir);
		if (rel === '' || rel.startsWith('..') || isAbsolute(rel) || dirname(dir) === dir) break;
	}
	if (root !== undefined) {
		const top = await readdir(root).catch(() => [] as string[]);
		if (top.some((name) => CODE_CONFIG.test(name))) return new Map();
		const packageJson = await textOf(join(root, 'package.json'));
		const httpyacJson = await textOf(join(root, '.httpyac.json'));
		if (httpyacLooksElsewhere(packageJson, httpyacJson)) return new Map();
		folders.push(join(root, 'env'));
		if (typeof httpyacJson === 'string') readHttpyacJson(httpyacJson, readings);
	}
	// A folder reached through a link that leads out of the workspace folder is not read.
	const realRoot = root === undefined ? undefined : await realpath(root).catch(() => undefined);
	const inWorkspace = async (dir: string): Promise<boolean> => {
		if (root === undefined) return true; // a file outside any workspace folder: its own folder only
		const real = await realpath(dir).catch(() => undefined);
		return real !== undefined && realRoot !== undefined && (real === realRoot || real.startsWith(realRoot + sep));
	};
	let budget = MAX_FILES;
	for (const dir of folders) {
		if (!(await inWorkspace(dir))) continue;
		const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => readerFor(name) !== undefined).sort().slice(0, Math.min(MAX_FILES_PER_FOLDER, budget));
		budget -= names.length;
		for (const name of names) await readInto(join(dir, name), readerFor(name)!, readings);
	}
	return readings;
}

/** What a file's variables may be: its own readings with the environments' values for the names it does not define, and the environments read. */
export interface Readings {
	variables: VariableReadings;
	environments: EnvironmentReadings;
}

export async function readingsWithEnvironments(file: ParsedFile, uri: vscode.Uri): Promise<Readings> {
	const own = variableReadings(file);
	// A file that references no variable takes nothing from an environment: no folder is read for it.
	if (!file.lines.some((line) => line.text.includes('{{'))) return { variables: own, environments: new Map() };
	const environments = await environmentReadings(uri);
	return { variables: withEnvironments(own, environments), environments };
}
