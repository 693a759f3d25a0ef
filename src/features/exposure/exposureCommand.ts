// "Choose How Tools Get the Token…": the explicit choice behind telematicsAuth.exposeToken,
// with what each option exposes, and the matching insert style offered afterwards.
import vscode = require('../../system/vscodeApi');
import type { Config, ExposeMode } from '../../system/config';
import type { InsertStyle } from '../../core/restFile/insertPlan';
import { ENVIRONMENT_REFERENCES } from '../../core/restFile/authHeaderEdit';
import { notify } from '../messages/notify';
import type { Services } from '../../services';
import { Command } from '../../commands';
import { registerCommand } from '../commands/registerCommand';
import { httpyacInstalled } from '../httpyac/index';

interface Choice extends vscode.QuickPickItem {
	mode: ExposeMode;
	files: string[];
	/** The insert style that reads what this choice keeps current. */
	style?: Extract<InsertStyle, 'processEnv' | 'envVariable'>;
}

export async function chooseTokenExposure(config: Config): Promise<ExposeMode | undefined> {
	const t = vscode.l10n.t;
	const current = config.exposeToken();
	// httpYac for VS Code reads the live tokens from our plugin at Send (features/httpyac/): nothing exposed.
	const httpyac: Choice[] = httpyacInstalled()
		? [{ mode: 'off', files: [], style: 'envVariable', label: `$(plug) ${t('httpYac reads it at Send')}`, description: '{{TELEMATICS_TOKEN}} · {{TELEMATICS_TOKEN_USER}}', detail: t('httpYac, installed here, gets the live token from Telematics Auth when it sends, and asks you before a token goes anywhere but its service. Nothing is exposed; other clients get nothing.') }]
		: [];
	const choices: Choice[] = [
		...httpyac,
		{ mode: 'off', files: [], label: `$(circle-slash) ${t('Off')}`, description: t('the default'), detail: t('Nothing is exposed. Insert the token into files, or copy it.') },
		{ mode: 'environment', files: [], style: 'processEnv', label: `$(terminal) ${t('Process environment')}`, description: ENVIRONMENT_REFERENCES.processEnv, detail: t('REST Client reads TELEMATICS_TOKEN from the extension host, always current. Visible to every extension in that process and to processes it starts.') },
		{ mode: 'environmentAndFiles', files: ['.env'], style: 'envVariable', label: `$(file) ${t('Process environment and .env')}`, description: `${ENVIRONMENT_REFERENCES.dotenv} · ${ENVIRONMENT_REFERENCES.envVariable}`, detail: t('Also a git-ignored .env in each workspace folder (REST Client $dotenv, httpYac). Readable by anything that can read the folder.') },
		{ mode: 'environmentAndFiles', files: ['.env', 'http-client.private.env.json'], style: 'envVariable', label: `$(files) ${t('Process environment, .env and http-client.private.env.json')}`, description: ENVIRONMENT_REFERENCES.envVariable, detail: t('Also the JetBrains HTTP Client\'s private env file ($shared), read by httpYac too. Readable by anything that can read the folder.') },
	];
	const httpyacPicked = httpyac.length > 0 && current === 'off' && config.insertStyle() === 'envVariable';
	const picked = await vscode.window.showQuickPick(choices.map((c) => ({ ...c, picked: c.mode === current && (c.mode !== 'off' || (c.style !== undefined) === httpyacPicked) })), {
		title: t('How should other tools get the live token?'),
		placeHolder: t('Files hold no token in any of these: tools read the current one, refreshed and removed on logout.'),
		matchOnDetail: true,
		ignoreFocusOut: true, // run from the walkthrough, whose page takes the focus back
	});
	if (!picked) return undefined;
	await config.setExposure(picked.mode, picked.files);
	if (picked.style && config.insertStyle() !== picked.style) {
		const use = t('Use for Insert Authorization Header');
		const chosen = await notify('info', t('Tools now read the live token. In .http files, write "Authorization: Bearer {0}".', ENVIRONMENT_REFERENCES[picked.style]), use);
		if (chosen === use) await config.setInsertStyle(picked.style);
	}
	return picked.mode;
}

export function registerExposureCommand(services: Services): vscode.Disposable {
	return registerCommand(services, Command.chooseTokenExposure, () => chooseTokenExposure(services.config));
}
