// The real Prompter: a quick input per login step (numbered, Back from step 2, live validation,
// Escape cancels, focus loss does not) and modal questions before anything risky.
import vscode = require('vscode');
import type { AccountKind } from '../../core/api/types';
import { dialogText } from '../../core/util/displayText';
import type { AccountChoice, GitExposure, LoginBudgetAnswer, LoginBudgetQuestion, LoginStep, Prompter, SendAnswer, SendQuestion, StepAnswer, TerminalTokenQuestion, TrackedFileAnswer } from '../../core/models/prompter';
import { askText } from '../../core/sessions/loginBudget';
import { displayText } from '../../core/util/displayText';

interface UrlItem extends vscode.QuickPickItem {
	value: string;
	valid: boolean;
}

function validation(step: LoginStep, value: string): string | undefined {
	const checked = step.check(value);
	return checked.ok ? undefined : checked.message;
}

/** Longest part of a request body a question shows. */
const SHOWN_BODY_CHARS = 600;

/** An account as a quick pick row, name first (every account picker shows it so), production said in words. */
export function accountItem(account: AccountChoice): vscode.QuickPickItem & { id: string } {
	return {
		label: `$(${account.production ? 'flame' : account.kind === 'admin' ? 'shield' : 'person'}) ${account.name}`,
		description: [account.production ? vscode.l10n.t('PRODUCTION') : undefined, displayText(account.label), account.active ? vscode.l10n.t('active') : undefined].filter(Boolean).join(' · '),
		detail: displayText([account.serviceUrl, account.instanceId].filter(Boolean).join(' · '), 200),
		id: account.id,
	};
}

export class ScreenPrompter implements Prompter {
	async pickKind(): Promise<AccountKind | undefined> {
		const items: (vscode.QuickPickItem & { accountKind: AccountKind })[] = [
			{
				accountKind: 'user',
				label: `$(person) ${vscode.l10n.t('User')}`,
				detail: vscode.l10n.t('User Group InstanceID, your device token and the User Group InstanceKey'),
			},
			{
				accountKind: 'admin',
				label: `$(shield) ${vscode.l10n.t('Admin')}`,
				detail: vscode.l10n.t('API login (email) and API password from the management page, and the API InstanceID where you have one'),
			},
		];
		const picked = await vscode.window.showQuickPick(items, {
			title: vscode.l10n.t('Log In to Telematics'),
			placeHolder: vscode.l10n.t('Log in as a user or as an admin?'),
			ignoreFocusOut: true,
		});
		return picked?.accountKind;
	}

	ask(step: LoginStep): Promise<StepAnswer> {
		return step.suggestions ? this.pick(step) : this.input(step);
	}

	async pickAccount(accounts: readonly AccountChoice[], placeHolder: string, title?: string): Promise<string | undefined> {
		const picked = await vscode.window.showQuickPick(accounts.map(accountItem), { title: title === undefined ? undefined : displayText(title, 200), placeHolder, matchOnDescription: true, matchOnDetail: true });
		return picked?.id;
	}

	async confirm(message: string, detail: string, action: string): Promise<boolean> {
		const chosen = await vscode.window.showWarningMessage(dialogText(message), { modal: true, detail: dialogText(detail) }, action);
		return chosen === action;
	}

	async askTrackedFile(exposure: GitExposure, offerReference: boolean): Promise<TrackedFileAnswer> {
		const proceed = exposure === 'untrusted' ? vscode.l10n.t('Write the Token') : vscode.l10n.t('Continue');
		const reference = vscode.l10n.t('Use {{variable}} Only');
		const manageTrust = vscode.l10n.t('Manage Workspace Trust');
		const where = {
			tracked: vscode.l10n.t('This file is tracked by git.'),
			remote: vscode.l10n.t('This file lives in a remote repository.'),
			unknown: vscode.l10n.t('This file may be in a git repository that Telematics Auth cannot safely ask.'),
			untrusted: vscode.l10n.t('This folder is not trusted (Restricted Mode).'),
			notIgnored: vscode.l10n.t('This file is in a git repository and not ignored.'),
		}[exposure === 'ignored' || exposure === 'none' ? 'notIgnored' : exposure];
		const detail = [
			exposure === 'untrusted'
				? vscode.l10n.t('In a folder you have not trusted, Telematics Auth runs no git (its settings can start programs), so it cannot tell whether this file would be committed. The token stays in the file until you remove it. Trust the folder with "Manage Workspace Trust", or write the token now for this file only.')
				: vscode.l10n.t('An access token written here can end up in a commit, where anyone with the repository can use it until it expires.'),
			offerReference
				? vscode.l10n.t('"Use {{variable}} Only" writes "Authorization: Bearer {{telematicsToken}}" and no token: define telematicsToken in an untracked environment file (REST Client: your user settings\' rest-client.environmentVariables or {{$dotenv}}; httpYac: .env or http-client.private.env.json).')
				: '',
			exposure === 'untrusted' ? '' : vscode.l10n.t('"Continue" writes the token and does not ask again in this workspace.'),
		].filter(Boolean).join('\n\n');
		const choices = [proceed, ...(offerReference ? [reference] : []), ...(exposure === 'untrusted' ? [manageTrust] : [])];
		const choice = await vscode.window.showWarningMessage(where, { modal: true, detail: dialogText(detail) }, ...choices);
		if (choice === manageTrust) void vscode.commands.executeCommand('workbench.trust.manage');
		return choice === proceed ? 'continue' : choice === reference ? 'reference' : 'cancel';
	}

	async askReplaceForeign(schemes: readonly string[]): Promise<boolean> {
		const replace = vscode.l10n.t('Replace');
		const leave = vscode.l10n.t('Leave Them Alone');
		const listed = [...new Set(schemes)].join(', ');
		const message = schemes.length === 1
			? vscode.l10n.t('This request already has an Authorization header of another kind ({0}).', listed)
			: vscode.l10n.t('{0} requests already have an Authorization header of another kind ({1}).', schemes.length, listed);
		const detail = vscode.l10n.t('It may be another service\'s credentials (an OAuth client\'s Basic login, a token from another tool). "Replace" puts the Telematics token in its place; "Leave Them Alone" changes only the other requests.');
		const choice = await vscode.window.showWarningMessage(dialogText(message), { modal: true, detail: dialogText(detail) }, replace, leave);
		return choice === replace;
	}

	async askTerminalToken(question: TerminalTokenQuestion): Promise<boolean> {
		const allow = question.terminalName === undefined ? vscode.l10n.t('Allow Once') : vscode.l10n.t('Allow for This Terminal');
		const deny = vscode.l10n.t('Deny');
		const message = question.terminalName === undefined
			? question.anyProgram ? vscode.l10n.t('A program asks for the token of {0}.', question.account) : vscode.l10n.t('A program with no terminal of its own asks for the token of {0}.', question.account)
			: vscode.l10n.t('A program in the terminal "{0}" asks for the token of {1}.', question.terminalName, question.account);
		const detail = [
			question.commandLine ? vscode.l10n.t('The command: {0}', question.commandLine)
				: question.anyProgram ? vscode.l10n.t('The system does not say which program asks: it could be any program running as you.')
					: vscode.l10n.t('The system does not say which command asks.'),
			question.terminalName === undefined
				? vscode.l10n.t('Agents and tasks run their commands this way, so it is asked about every time. "Allow Once" gives it the live access token now.')
				: vscode.l10n.t('"Allow for This Terminal" gives the live access token to any program in this terminal until it has not asked for 10 minutes, for 12 hours at most, or until the terminal closes.'),
		].join('\n\n');
		const choice = await vscode.window.showWarningMessage(dialogText(message), { modal: true, detail: dialogText(detail) }, allow, deny);
		return choice === allow;
	}

	async askLoginBudget(question: LoginBudgetQuestion): Promise<LoginBudgetAnswer> {
		const { message, detail } = askText(question.count, question.sinceMs, vscode.l10n.t);
		const logIn = vscode.l10n.t('Log In Anyway');
		// The label may come from the service (a JWT claim): one short line on a button.
		const refresh = question.refreshable === undefined ? undefined : vscode.l10n.t('Refresh {0} Instead', displayText(question.refreshable));
		const details = [detail, refresh ? vscode.l10n.t('Refreshing the token of {0} does not count as a login.', question.refreshable ?? '') : ''].filter(Boolean).join('\n\n');
		const choice = await vscode.window.showWarningMessage(dialogText(message), { modal: true, detail: dialogText(details) }, logIn, ...(refresh ? [refresh] : []));
		return choice === logIn ? 'login' : choice !== undefined && choice === refresh ? 'refresh' : undefined;
	}

	async askBeforeSending(q: SendQuestion): Promise<SendAnswer> {
		const send = vscode.l10n.t('Send');
		const snooze = vscode.l10n.t('Allow for 10 Minutes');
		const { question } = q;
		const message = question.kind === 'irreversible'
			? vscode.l10n.t('{0}: {1}? This cannot be undone.', question.operation.name, question.operation.target)
			: vscode.l10n.t('Send {0} to the production account {1}?', q.method, q.account);
		const body = q.body === undefined
			? vscode.l10n.t('No body.')
			: vscode.l10n.t('Body ({0} characters): {1}', q.body.length, q.body.length > SHOWN_BODY_CHARS ? `${q.body.slice(0, SHOWN_BODY_CHARS)}…` : q.body);
		const detail = [
			vscode.l10n.t('The agent asks to send {0} {1} as {2} ({3}{4}).', q.method, q.url, q.account, q.label, question.kind === 'irreversible' && !question.production ? '' : vscode.l10n.t(', production')),
			body,
			q.offerSnooze ? vscode.l10n.t('"Allow for 10 Minutes" sends it, and lets this window send the agent\'s changing requests to {0} without asking for 10 minutes (operations that cannot be undone still ask).', q.account) : '',
		].filter(Boolean).join('\n\n');
		const choice = await vscode.window.showWarningMessage(dialogText(message), { modal: true, detail: dialogText(detail) }, ...(q.offerSnooze ? [send, snooze] : [send]));
		return choice === send ? 'send' : choice === snooze ? 'snooze' : 'refuse';
	}

	/** VS Code itself shows `(n/4)` after the title from `step`/`totalSteps`. */
	private title(step: LoginStep): string {
		return step.title;
	}

	private input(step: LoginStep): Promise<StepAnswer> {
		const box = vscode.window.createInputBox();
		box.title = this.title(step);
		box.step = step.step;
		box.totalSteps = step.totalSteps;
		box.prompt = step.prompt;
		box.placeholder = step.placeholder;
		box.password = step.password;
		box.value = step.value ?? '';
		box.ignoreFocusOut = true;
		box.validationMessage = step.validationMessage;
		box.buttons = step.step > 1 ? [vscode.QuickInputButtons.Back] : [];
		return this.run(box, (settle) => [
			box.onDidChangeValue((value) => {
				box.validationMessage = value ? validation(step, value) : undefined;
			}),
			box.onDidAccept(() => {
				const message = validation(step, box.value);
				if (message) {
					box.validationMessage = message;
					return;
				}
				settle({ value: box.value });
			}),
			box.onDidTriggerButton((button) => {
				if (button === vscode.QuickInputButtons.Back) settle({ value: box.value, back: true });
			}),
		]);
	}

	/** A quick pick of known values; what is typed becomes an item of its own. */
	private pick(step: LoginStep): Promise<StepAnswer> {
		const picker = vscode.window.createQuickPick<UrlItem>();
		picker.title = this.title(step);
		picker.step = step.step;
		picker.totalSteps = step.totalSteps;
		picker.placeholder = step.placeholder ?? step.prompt;
		picker.ignoreFocusOut = true;
		picker.matchOnDescription = true;
		picker.buttons = step.step > 1 ? [vscode.QuickInputButtons.Back] : [];
		const known = [...new Set([step.value, ...(step.suggestions ?? [])].filter((v): v is string => !!v))];
		const knownItems: UrlItem[] = known.map((value, i) => {
			const message = validation(step, value);
			return {
				value,
				valid: !message,
				label: value,
				description: i === 0 ? vscode.l10n.t('current') : undefined,
				detail: message ? `$(error) ${message}` : undefined,
			};
		});
		const rebuild = (typed: string): void => {
			const text = typed.trim();
			if (!text || known.includes(text)) {
				picker.items = knownItems;
				return;
			}
			const message = validation(step, text);
			const typedItem: UrlItem = {
				value: text,
				valid: !message,
				label: text,
				description: message ? undefined : vscode.l10n.t('use this URL'),
				detail: message ? `$(error) ${message}` : undefined,
				alwaysShow: true,
			};
			picker.items = [typedItem, ...knownItems];
		};
		rebuild('');
		if (step.validationMessage) {
			picker.items = [{ value: '', valid: false, label: `$(error) ${step.validationMessage}`, alwaysShow: true }, ...knownItems];
		}
		return this.run(picker, (settle) => [
			picker.onDidChangeValue(rebuild),
			picker.onDidAccept(() => {
				const item = picker.selectedItems[0] ?? picker.activeItems[0];
				if (!item || !item.valid) return; // the item's detail already says what to fix
				settle({ value: item.value });
			}),
			picker.onDidTriggerButton((button) => {
				if (button === vscode.QuickInputButtons.Back) settle('back');
			}),
		]);
	}

	/** Shows `input`; resolves once with the answer; Escape or hiding it means cancel. */
	private run(input: vscode.QuickPick<UrlItem> | vscode.InputBox, wire: (settle: (answer: StepAnswer) => void) => vscode.Disposable[]): Promise<StepAnswer> {
		return new Promise<StepAnswer>((resolve) => {
			let done = false;
			const disposables: vscode.Disposable[] = [];
			const settle = (answer: StepAnswer): void => {
				if (done) return;
				done = true;
				resolve(answer);
				for (const d of disposables) d.dispose();
				input.dispose();
			};
			disposables.push(...wire(settle), input.onDidHide(() => settle(undefined)));
			input.show();
		});
	}
}
