// The login's questions on screen, one QuickInput per step: numbered (VS Code shows `(n/4)` after
// the title from `step`/`totalSteps`), Back from step 2, live validation through the step's own
// check, Escape cancels, focus loss does not. The service URL step is a quick pick of known URLs.
import vscode = require('../../system/vscodeApi');
import type { AccountKind } from '../../core/api/types';
import type { LoginStep, StepAnswer } from '../../core/login/steps';

interface UrlItem extends vscode.QuickPickItem {
	value: string;
	valid: boolean;
}

function validation(step: LoginStep, value: string): string | undefined {
	const checked = step.check(value);
	return checked.ok ? undefined : checked.message;
}

/** "User or Admin", for the plain Log In command. Undefined: cancelled. */
export async function pickKind(): Promise<AccountKind | undefined> {
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

/** One login step: a quick pick when it has suggestions (the service URL), else an input box. */
export function askStep(step: LoginStep): Promise<StepAnswer> {
	return step.suggestions ? urlPick(step) : inputBox(step);
}

/** A text box (masked for the password); Back takes what was typed along. */
function inputBox(step: LoginStep): Promise<StepAnswer> {
	const box = vscode.window.createInputBox();
	box.title = step.title;
	box.step = step.step;
	box.totalSteps = step.totalSteps;
	box.prompt = step.prompt;
	box.placeholder = step.placeholder;
	box.password = step.password;
	box.value = step.value ?? '';
	box.ignoreFocusOut = true;
	box.validationMessage = step.validationMessage;
	box.buttons = step.step > 1 ? [vscode.QuickInputButtons.Back] : [];
	return settleOnce(box, (settle) => [
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
function urlPick(step: LoginStep): Promise<StepAnswer> {
	const picker = vscode.window.createQuickPick<UrlItem>();
	picker.title = step.title;
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
	return settleOnce(picker, (settle) => [
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
function settleOnce(input: vscode.QuickPick<UrlItem> | vscode.InputBox, wire: (settle: (answer: StepAnswer) => void) => vscode.Disposable[]): Promise<StepAnswer> {
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
