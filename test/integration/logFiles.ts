// Reading what VS Code wrote to disk, through its own file system API: the secrets' and the httpYac tests'
// scans of the log folders.
import * as vscode from 'vscode';

/** The file's text, or undefined when it cannot be read. */
export async function readText(uri: vscode.Uri): Promise<string | undefined> {
	try {
		return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
	} catch {
		return undefined;
	}
}

/** Every `.log` file under `folder`, at any depth. */
export async function logFiles(folder: vscode.Uri): Promise<vscode.Uri[]> {
	let entries: [string, vscode.FileType][];
	try {
		entries = await vscode.workspace.fs.readDirectory(folder);
	} catch {
		return [];
	}
	const files: vscode.Uri[] = [];
	for (const [name, type] of entries) {
		const uri = vscode.Uri.joinPath(folder, name);
		if (type === vscode.FileType.Directory) files.push(...await logFiles(uri));
		else if (name.endsWith('.log')) files.push(uri);
	}
	return files;
}
