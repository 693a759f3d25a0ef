// "Bind an Environment to an Account…": in that environment of http-client.private.env.json,
// `{{TELEMATICS_TOKEN}}` is the account's token (telematicsAuth.environmentAccounts, user settings).
// The environments offered are the ones the REST files' environment files name; a new name is checked.
import vscode = require('../../system/vscodeApi');
import { isEnvironmentName } from '../../core/restFile/environmentAccounts';
import { displayText } from '../../core/util/displayText';
import type { Services } from '../../services';
import { Command } from '../../commands';
import { registerCommand } from '../commands/registerCommand';
import { notify } from '../messages/notify';
import { accountChoices, accountIdOf } from '../accounts/accountPicker';
import { accountItem } from '../shared/prompter';
import { environmentReadings } from '../restFiles/environmentReadings';

/** `{ environment, accountId }` binds; `{ environment, unbind: true }` removes the binding. */
interface BindArg {
	environment?: unknown;
	unbind?: unknown;
}

/** A dotenv file's name (`.env`, `.env.prod`, `prod.env`), which the readings use as its environment. */
const DOTENV_FILE = /^\.env(\..+)?$|\.env$/;

/** The environment names the active REST file's (or the first folder's) environment files give, besides `$shared` and dotenv files. */
async function knownEnvironments(): Promise<string[]> {
	const editor = vscode.window.activeTextEditor?.document.uri;
	const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
	const uri = editor ?? (folder && vscode.Uri.joinPath(folder, 'requests.http'));
	if (!uri) return [];
	const names = new Set<string>();
	for (const values of (await environmentReadings(uri)).environments.values()) {
		for (const { environment } of values.values()) if (isEnvironmentName(environment) && !DOTENV_FILE.test(environment)) names.add(environment);
	}
	return [...names].sort();
}

async function askEnvironment(services: Services): Promise<string | undefined> {
	const t = vscode.l10n.t;
	const bound = services.config.environmentAccounts();
	const names = [...new Set([...bound.keys(), ...await knownEnvironments()])];
	const other = t('$(add) Another Environment…');
	const picked = await vscode.window.showQuickPick([
		...names.map((name) => ({ label: displayText(name, 64), name, description: bound.has(name) ? t('now {0}', bound.get(name)!) : undefined })),
		{ label: other, name: undefined },
	], { title: t('Bind an Environment to an Account'), placeHolder: t('In which environment should {{TELEMATICS_TOKEN}} be one account\'s token?') });
	if (!picked) return undefined;
	if (picked.name !== undefined) return picked.name;
	return vscode.window.showInputBox({
		title: t('Bind an Environment to an Account'),
		prompt: t('The environment\'s name, as in http-client.env.json (prod, dev-eu).'),
		validateInput: (value) => (isEnvironmentName(value) ? undefined : t('1 to 64 letters, digits, ".", "-" or "_" ($shared is every environment\'s and cannot be bound).')),
	});
}

export async function bindEnvironment(services: Services, arg?: unknown): Promise<Record<string, string> | undefined> {
	const t = vscode.l10n.t;
	const given = (arg && typeof arg === 'object' ? arg : {}) as BindArg;
	const environment = typeof given.environment === 'string' ? given.environment : await askEnvironment(services);
	if (environment === undefined) return undefined;
	if (!isEnvironmentName(environment)) {
		void notify('warning', t('"{0}" cannot be bound: an environment\'s name is 1 to 64 letters, digits, ".", "-" or "_".', displayText(environment, 64)));
		return undefined;
	}
	let name: string | undefined;
	if (given.unbind !== true) {
		const id = accountIdOf(arg);
		const sessions = services.store.list();
		const unbind = t('$(close) Remove the Binding');
		const session = id !== undefined ? services.store.get(id) : await (async () => {
			const picked = await vscode.window.showQuickPick<vscode.QuickPickItem & { id?: string }>([
				...accountChoices(services, sessions).map(accountItem),
				...(services.config.environmentAccounts().has(environment) ? [{ label: unbind }] : []),
			], { title: t('Bind {0} to an Account', environment), placeHolder: t('Whose token is {{TELEMATICS_TOKEN}} in {0}?', environment) });
			if (!picked) return null;
			return picked.id === undefined ? undefined : services.store.get(picked.id);
		})();
		if (session === null) return undefined;
		name = session?.account.name;
		if (session && name === undefined) return undefined;
	}
	await services.config.setEnvironmentAccount(environment, name);
	const bindings = Object.fromEntries(services.config.environmentAccounts());
	if (name !== undefined && !(services.config.exposeToken() === 'environmentAndFiles' && services.config.exposeFiles().includes('http-client.private.env.json'))) {
		const choose = t('Choose…');
		void notify('info', t('{0} is bound to {1}. It takes effect in http-client.private.env.json once telematicsAuth.exposeToken keeps that file.', environment, name), choose).then((c) => {
			if (c === choose) void vscode.commands.executeCommand(Command.chooseTokenExposure);
		});
	}
	return bindings;
}

export function registerBindEnvironmentCommand(services: Services): vscode.Disposable {
	return registerCommand(services, Command.bindEnvironment, (arg?: unknown) => bindEnvironment(services, arg));
}
