// The real Prompter: the login's steps (features/login/stepInput.ts), the account picker, and modal
// questions before anything risky.
import vscode = require('../../system/vscodeApi');
import { dialogText } from '../../core/util/displayText';
import { sendQuestionDetail } from '../../core/agent/questionText';
import type { AccountChoice, GitStatus, LoginBudgetAnswer, LoginBudgetQuestion, Prompter, TerminalTokenQuestion, TrackedFileAnswer } from '../../core/models/prompter';
import type { SendAnswer, SendQuestion } from '../../core/agent/changeGuard';
import { askText } from '../../core/login/loginBudget';
import { displayText } from '../../core/util/displayText';
import { askStep, pickKind } from '../login/stepInput';

/** Longest part of a request body a question shows. */

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
	/** The login's questions go straight to their QuickInputs. */
	readonly pickKind = pickKind;
	readonly ask = askStep;

	async pickAccount(accounts: readonly AccountChoice[], placeHolder: string, title?: string): Promise<string | undefined> {
		const picked = await vscode.window.showQuickPick(accounts.map(accountItem), { title: title === undefined ? undefined : displayText(title, 200), placeHolder, matchOnDescription: true, matchOnDetail: true });
		return picked?.id;
	}

	async confirm(message: string, detail: string, action: string): Promise<boolean> {
		const chosen = await vscode.window.showWarningMessage(dialogText(message), { modal: true, detail: dialogText(detail) }, action);
		return chosen === action;
	}

	async askTrackedFile(status: GitStatus, offerReference: boolean): Promise<TrackedFileAnswer> {
		const proceed = status === 'untrusted' ? vscode.l10n.t('Write the Token') : vscode.l10n.t('Continue');
		const reference = vscode.l10n.t('Use {{variable}} Only');
		const manageTrust = vscode.l10n.t('Manage Workspace Trust');
		const where = {
			tracked: vscode.l10n.t('This file is tracked by git.'),
			remote: vscode.l10n.t('This file lives in a remote repository.'),
			unknown: vscode.l10n.t('This file may be in a git repository that Telematics Auth cannot safely ask.'),
			untrusted: vscode.l10n.t('This folder is not trusted (Restricted Mode).'),
			notIgnored: vscode.l10n.t('This file is in a git repository and not ignored.'),
		}[status === 'ignored' || status === 'none' ? 'notIgnored' : status];
		const detail = [
			status === 'untrusted'
				? vscode.l10n.t('In a folder you have not trusted, Telematics Auth runs no git (its settings can start programs), so it cannot tell whether this file would be committed. The token stays in the file until you remove it. Trust the folder with "Manage Workspace Trust", or write the token now for this file only.')
				: vscode.l10n.t('An access token written here can end up in a commit, where anyone with the repository can use it until it expires.'),
			offerReference
				? vscode.l10n.t('"Use {{variable}} Only" writes "Authorization: Bearer {{telematicsToken}}" and no token: define telematicsToken in an untracked environment file (REST Client: your user settings\' rest-client.environmentVariables or {{$dotenv}}; httpYac: .env or http-client.private.env.json).')
				: '',
			status === 'untrusted' ? '' : vscode.l10n.t('"Continue" writes the token and does not ask again in this workspace.'),
		].filter(Boolean).join('\n\n');
		const choices = [proceed, ...(offerReference ? [reference] : []), ...(status === 'untrusted' ? [manageTrust] : [])];
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
			// What the product cannot clean (issue 65), said where it applies.
			vscode.l10n.t('What a program prints stays in the terminal\'s scrollback and in any file it writes: Telematics Auth cannot take a token back from there.'),
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
		// Who sends first, then the URL, then the body: each line well below the dialog's cut (questionText.ts).
		const detail = sendQuestionDetail(q, q.secrets ?? [], vscode.l10n.t);
		const choice = await vscode.window.showWarningMessage(dialogText(message), { modal: true, detail: dialogText(detail) }, ...(q.offerSnooze ? [send, snooze] : [send]));
		return choice === send ? 'send' : choice === snooze ? 'snooze' : 'refuse';
	}
}
