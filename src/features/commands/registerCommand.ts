// Registers one of the manifest's commands. A command acts on the stored sessions, so one run
// before they are read (right after activation) waits for them.
import vscode = require('../../system/vscodeApi');
import type { CommandId } from '../../commands';
import type { Services } from '../../services';

export function registerCommand(services: Services, id: CommandId, run: (...args: unknown[]) => unknown): vscode.Disposable {
	return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
		await services.ready;
		return run(...args);
	});
}
