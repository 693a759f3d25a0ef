// The environments a REST file's clients would fill its variables from, read for the host check: REST
// Client's `rest-client.environmentVariables`, and the folder's environment files (platform/folderEnvironments.ts,
// which says when the folder holds what the check does not read: then no request of the file says where it goes).
import vscode = require('vscode');
import { withEnvironments, type EnvironmentReadings } from '../../core/restFile/environments';
import { variableReadings, type VariableReadings } from '../../core/restFile/requestHost';
import type { ParsedFile } from '../../core/restFile/requestParser';
import { globalNames } from '../../core/restFile/requestShape';
import { readFolderEnvironments, type FolderEnvironments } from '../../platform/folderEnvironments';
import { readEnvironmentObject } from '../../core/restFile/environments';

/** What the environments give the variables of the file at `uri`, and why they do not say, if they do not. */
export async function environmentReadings(uri: vscode.Uri): Promise<FolderEnvironments> {
	const readings: EnvironmentReadings = new Map();
	readEnvironmentObject(vscode.workspace.getConfiguration('rest-client', uri).get<unknown>('environmentVariables'), readings);
	if (uri.scheme !== 'file') return { environments: readings };
	return readFolderEnvironments(uri.fsPath, vscode.workspace.getWorkspaceFolder(uri)?.uri.fsPath, readings);
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
