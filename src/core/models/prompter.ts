// Everything the extension asks a person, as one interface (features/shared/prompter.ts asks on
// screen, the login's steps through features/login/stepInput.ts; integration tests answer
// through TestApi.setPrompter).
import type { AccountKind } from '../api/types';
import type { LoginStep, StepAnswer } from '../login/steps';
import type { SendAnswer, SendQuestion } from '../agent/changeGuard';

/**
 * How a token written into a file could reach git. `tracked`: git tracks it. `notIgnored`: in a
 * repository and not ignored. `remote`: a virtual or remote-repository workspace (a save may be a
 * commit). `unknown`: a repository may hold it but git could not be asked safely. `untrusted`: the
 * folder is in Restricted Mode, where git is not run at all.
 */
export type GitStatus = 'tracked' | 'notIgnored' | 'remote' | 'unknown' | 'untrusted' | 'ignored' | 'none';

/** Write the token, write a `{{telematicsToken}}` reference only, or nothing. */
export type TrackedFileAnswer = 'continue' | 'reference' | 'cancel';

/** A program asks for a token through `telematics-token` (telematicsAuth.terminalToken: "ask"). */
export interface TerminalTokenQuestion {
	/** The account whose token it asks for (its label). */
	account: string;
	/** The VS Code terminal it runs in: an allowance holds for that terminal. Absent: no terminal of its own (asked every time). */
	terminalName?: string;
	/** The command and the command line that ran it, where the system tells (secrets masked). */
	commandLine?: string;
	/** The system does not say which process asks (no kernel answer): any program of the person's could be asking. */
	anyProgram?: boolean;
}

/** Before a login that would be the fifth to a service within the hour (core/login/loginBudget.ts). */
export interface LoginBudgetQuestion {
	/** Logins sent to the service within the hour, the first of them `sinceMs` ago. */
	count: number;
	sinceMs: number;
	/** An account of that service that still has a refresh token: Refresh is offered instead (its label). */
	refreshable?: string;
}

/** Log in anyway, refresh the offered account instead, or neither. */
export type LoginBudgetAnswer = 'login' | 'refresh' | undefined;

/** An account a person may pick (names first: the name is how files and terminals call it). */
export interface AccountChoice {
	id: string;
	name: string;
	label: string;
	kind: AccountKind;
	serviceUrl: string;
	instanceId?: string;
	active: boolean;
	/** A production account (production.ts): the picker says so. */
	production: boolean;
}

export interface Prompter {
	/** "User or Admin", for the plain Log In command. Undefined: cancelled. */
	pickKind(): Promise<AccountKind | undefined>;
	/** One login step (core/login/steps.ts walks them). */
	ask(step: LoginStep): Promise<StepAnswer>;
	/** A modal confirmation; true only when the person chose `action`. */
	confirm(message: string, detail: string, action: string): Promise<boolean>;
	/** A token is about to go into a file git may commit; `offerReference`: a reference would do. */
	askTrackedFile(status: GitStatus, offerReference: boolean): Promise<TrackedFileAnswer>;
	/** Requests already carry another kind of Authorization (`schemes`): replace them (true) or leave them alone. */
	askReplaceForeign(schemes: readonly string[]): Promise<boolean>;
	/** Whether the program may have the token (for its terminal, or this once when it has none). */
	askTerminalToken(question: TerminalTokenQuestion): Promise<boolean>;
	/** Whether to send a login the service may answer with its block (refreshing does not count). */
	askLoginBudget(question: LoginBudgetQuestion): Promise<LoginBudgetAnswer>;
	/** One of `accounts`, by id; `title` says what for (a request's line and target). Undefined: cancelled. */
	pickAccount(accounts: readonly AccountChoice[], placeHolder: string, title?: string): Promise<string | undefined>;
	/** A modal question before the agent's request that changes a production account or cannot be undone. */
	askBeforeSending(question: SendQuestion): Promise<SendAnswer>;
}

/** Holds the prompter in use, so tests can swap in theirs. */
export class PrompterSlot {
	private override: Prompter | undefined;

	constructor(private readonly real: Prompter) {}

	get current(): Prompter {
		return this.override ?? this.real;
	}

	/** A test prompter, or undefined to go back to the real one. */
	set(prompter: Prompter | undefined): void {
		this.override = prompter;
	}
}
