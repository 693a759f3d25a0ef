// The environments a REST file's clients would fill its variables from, read for the host check: REST
// Client's `rest-client.environmentVariables`, and the folder's environment files (system/folderEnvironments.ts,
// which says when the folder holds what the check does not read: then no request of the file says where it goes).
import vscode = require('../../system/vscodeApi');
import { environmentsOutside, withEnvironments, type EnvironmentReadings } from '../../core/restFile/environments';
import { variableReadings, type VariableReadings } from '../../core/restFile/requestHost';
import type { ParsedFile } from '../../core/restFile/requestParser';
import { globalNames } from '../../core/restFile/requestShape';
import { readFolderEnvironments, type FolderEnvironments } from '../../system/folderEnvironments';
import { MAX_ENVIRONMENT_FILE_CHARS, readEnvironmentObject } from '../../core/restFile/environments';
import { join } from 'node:path';
import { readRegularFile } from '../../system/regularFile';

/** REST Client settings a workspace may set that change what a request carries or how it is sent (not read: asked about). */
const REST_CLIENT_MOVERS = ['defaultHeaders', 'certificates', 'excludeHostsForProxy'];

/** Why the workspace's settings for the clients do not say (REST Client's headers or certificates, any httpYac setting), or undefined. */
async function settingsOutside(uri: vscode.Uri, root: string | undefined): Promise<string | undefined> {
	const restClient = vscode.workspace.getConfiguration('rest-client', uri);
	for (const key of REST_CLIENT_MOVERS) {
		const set = restClient.inspect(key);
		if (set?.workspaceValue !== undefined || set?.workspaceFolderValue !== undefined) return `the workspace sets rest-client.${key}`;
	}
	if (root === undefined) return undefined;
	const settings = await readRegularFile(join(root, '.vscode', 'settings.json'), MAX_ENVIRONMENT_FILE_CHARS).catch(() => undefined);
	if (settings?.kind === 'refused') return 'a .vscode/settings.json the check does not read';
	return settings?.kind === 'text' && /"httpyac\./.test(settings.text) ? 'the workspace sets httpYac settings' : undefined;
}

/** What the environments give the variables of the file at `uri`, and why they do not say, if they do not. */
export async function environmentReadings(uri: vscode.Uri): Promise<FolderEnvironments> {
	const readings: EnvironmentReadings = new Map();
	readEnvironmentObject(vscode.workspace.getConfiguration('rest-client', uri).get<unknown>('environmentVariables'), readings);
	const root = vscode.workspace.getWorkspaceFolder(uri)?.uri.fsPath;
	const outside = await settingsOutside(uri, uri.scheme === 'file' ? root : undefined);
	if (outside !== undefined) return { environments: new Map(), outside };
	if (uri.scheme !== 'file') {
		// No folder to read (an untitled document): REST Client's setting alone, held to the same bounds and options.
		const unsaid = environmentsOutside(readings);
		return unsaid ? { environments: new Map(), outside: unsaid } : { environments: readings };
	}
	return readFolderEnvironments(uri.fsPath, root, readings);
}

/**
 * What a file's variables may be: its own readings with the environments' values for the names a client
 * may take from them, the environments read, and why the folder does not say (`outside`), if it does not.
 */
export interface Readings {
	variables: VariableReadings;
	environments: EnvironmentReadings;
	outside?: string;
}

export async function readingsWithEnvironments(file: ParsedFile, uri: vscode.Uri): Promise<Readings> {
	const own = variableReadings(file);
	const { environments, outside } = await environmentReadings(uri);
	return { variables: withEnvironments(own, environments, globalNames(file)), environments, ...(outside !== undefined && { outside }) };
}
