// Shared by the integration suites: the TestApi, a scripted Prompter, the emulator's demo credentials and
// `useEmulatorSuite` (start the emulator, point the extension at it, clean up).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEMO_ADMINS, DEMO_USERS, LIFTED_RATE_LIMIT, type RiggedEmulator, startEmulator } from '../emulator/rig';
import type { AccountKind } from '../../src/core/api/types';
import { secretKeyFor } from '../../src/core/sessions/storage';
import { LOGIN_ATTEMPTS_KEY } from '../../src/core/login/loginBudget';
import type { Session } from '../../src/core/sessions/types';
import type { TestHandles } from '../../src/extension';
import { testApiOf, type TestApi } from './testApi';
import type { AccountResult } from '../../src/core/sessions/types';
import type { AccountChoice, GitStatus, LoginBudgetAnswer, LoginBudgetQuestion, Prompter, TerminalTokenQuestion, TrackedFileAnswer } from '../../src/core/models/prompter';
import type { SendAnswer, SendQuestion } from '../../src/core/agent/changeGuard';
import type { LoginField, LoginStep, StepAnswer } from '../../src/core/login/steps';

export const EXTENSION_ID = 'telematics-tools.telematics-auth';

export async function testApi(): Promise<TestApi> {
	const handles = await vscode.extensions.getExtension<TestHandles | undefined>(EXTENSION_ID)!.activate();
	assert.ok(handles, 'activate() hands out its parts in test mode');
	const api = testApiOf(handles);
	// Activation does not wait for SecretStorage; the stored sessions are read right after.
	await api.services.store.ready;
	return api;
}

export type Credentials = Record<LoginField, string>;

export function userCredentials(emu: RiggedEmulator, index = 0): Credentials {
	const user = DEMO_USERS[index]!;
	return { serviceUrl: emu.url, instanceId: user.instanceId, login: user.deviceToken, password: user.instanceKey };
}

export function adminCredentials(emu: RiggedEmulator): Credentials {
	const admin = DEMO_ADMINS[0]!;
	return { serviceUrl: emu.url, instanceId: admin.instanceId, login: admin.email, password: admin.password };
}

/**
 * Answers from a script: each entry is a step answer, or a function of the step asked.
 * When the script runs out it cancels (Escape). Records every step and confirmation asked.
 */
export class ScriptedPrompter implements Prompter {
	readonly asked: LoginStep[] = [];
	readonly confirmations: string[] = [];

	constructor(
		private readonly script: (StepAnswer | ((step: LoginStep) => StepAnswer))[],
		private readonly kind: AccountKind | undefined = 'user',
		private readonly confirmAnswer = true,
	) {}

	static answering(credentials: Credentials, kind: AccountKind = 'user'): ScriptedPrompter {
		const fields: LoginField[] = ['serviceUrl', 'instanceId', 'login', 'password'];
		return new ScriptedPrompter(fields.map((f) => ({ value: credentials[f] })), kind);
	}

	async pickKind(): Promise<AccountKind | undefined> {
		return this.kind;
	}

	async ask(step: LoginStep): Promise<StepAnswer> {
		this.asked.push(step);
		const next = this.script.shift();
		return typeof next === 'function' ? next(step) : next;
	}

	async confirm(message: string, detail: string): Promise<boolean> {
		this.confirmations.push(`${message} ${detail}`);
		return this.confirmAnswer;
	}

	/** Answers to "this file may be committed", first to last (then Cancel), and what was asked (`status:offerReference`). */
	readonly trackedAnswers: TrackedFileAnswer[] = [];
	readonly trackedAsked: string[] = [];

	async askTrackedFile(status: GitStatus, offerReference: boolean): Promise<TrackedFileAnswer> {
		this.trackedAsked.push(`${status}:${offerReference}`);
		return this.trackedAnswers.shift() ?? 'cancel';
	}

	/** The answer to "replace another kind of Authorization?", and the schemes each time it was asked. */
	replaceForeign = false;
	readonly foreignAsked: string[][] = [];

	async askReplaceForeign(schemes: readonly string[]): Promise<boolean> {
		this.foreignAsked.push([...schemes]);
		return this.replaceForeign;
	}

	/** Answers to "a program asks for the token", first to last (then Deny), and each question. */
	readonly terminalAnswers: boolean[] = [];
	readonly terminalAsked: TerminalTokenQuestion[] = [];

	async askTerminalToken(question: TerminalTokenQuestion): Promise<boolean> {
		this.terminalAsked.push(question);
		return this.terminalAnswers.shift() ?? false;
	}

	/** Answers to "N logins to this service lately: log in anyway?", first to last (then neither), and each question. */
	readonly budgetAnswers: LoginBudgetAnswer[] = [];
	readonly budgetAsked: LoginBudgetQuestion[] = [];

	async askLoginBudget(question: LoginBudgetQuestion): Promise<LoginBudgetAnswer> {
		this.budgetAsked.push(question);
		return this.budgetAnswers.shift();
	}

	/** Names to pick, first to last (then Escape), and each pick offered: its title and the names in order. */
	readonly accountPicks: string[] = [];
	readonly accountsOffered: Array<{ title?: string; names: string[] }> = [];

	async pickAccount(accounts: readonly AccountChoice[], _placeHolder: string, title?: string): Promise<string | undefined> {
		this.accountsOffered.push({ title, names: accounts.map((a) => a.name) });
		this.choicesOffered.push([...accounts]);
		const name = this.accountPicks.shift();
		return accounts.find((a) => a.name === name)?.id;
	}

	/** Every account list offered, as the picker got it. */
	readonly choicesOffered: AccountChoice[][] = [];

	/** Answers to the agent's "send this?" modal, first to last (then refuse), and each question. */
	readonly sendAnswers: SendAnswer[] = [];
	readonly sendAsked: SendQuestion[] = [];

	async askBeforeSending(question: SendQuestion): Promise<SendAnswer> {
		this.sendAsked.push(question);
		return this.sendAnswers.shift() ?? 'refuse';
	}
}

/** Logs in through the real command as the emulator's demo user (`userIndex`) or admin. */
export async function logIn(api: TestApi, emu: RiggedEmulator, kind: AccountKind, userIndex = 0): Promise<Session> {
	const credentials = kind === 'admin' ? adminCredentials(emu) : userCredentials(emu, userIndex);
	api.setPrompter(ScriptedPrompter.answering(credentials, kind));
	const result = await vscode.commands.executeCommand<AccountResult | undefined>(kind === 'admin' ? 'telematicsAuth.loginAdmin' : 'telematicsAuth.loginUser');
	assert.ok(result, `login as ${kind} succeeded`);
	return sessionOf(api, result);
}

/** The stored session a command's result names (commands hand back no tokens: the tests read the store). */
export function sessionOf(api: TestApi, result: AccountResult | undefined): Session {
	assert.ok(result, 'the command named an account');
	assert.deepEqual(Object.keys(result).sort().filter((k) => k !== 'expiresAt'), ['accountId', 'state'], 'a command hands back no more than the account, its state and expiry');
	const session = api.services.store.get(result.accountId);
	assert.ok(session, `account ${result.accountId} is stored`);
	return session;
}

/** Runs a command that names an account, and reads that account's session from the store. */
export async function commandSession(api: TestApi, command: string, ...args: unknown[]): Promise<Session | undefined> {
	const result = await vscode.commands.executeCommand<AccountResult | undefined>(command, ...args);
	return result && sessionOf(api, result);
}

export async function logOutAll(api: TestApi): Promise<void> {
	for (const s of api.services.store.list()) await api.services.store.remove(s.account.id);
}

/**
 * Forgets the logins this machine counted (core/login/loginBudget.ts): the suites log in far more
 * often than a person, and the budget's question must come only where a test asks for it.
 */
export async function forgetLoginBudget(api: TestApi): Promise<void> {
	await api.services.context.globalState.update(LOGIN_ATTEMPTS_KEY, undefined);
}

export interface EmulatorSuite {
	readonly api: TestApi;
	readonly emu: RiggedEmulator;
}

export interface EmulatorSuiteOptions {
	/** 'lifted' for suites that log in over and over; 'default' keeps the service's limit. */
	rateLimit: 'lifted' | 'default';
	/** Log every account out before each test (always done once before the suite). */
	logOutBetweenTests: boolean;
	/** The emulator's access token lifetime set back to this before each test, for suites that shorten it. */
	accessTokenLifetimeSeconds?: number;
	/** Further `telematicsAuth` settings the suite changes, reset after it (`baseUrl` always is). */
	resetsSettings?: readonly string[];
	/** The emulator answers other `Host` names too (behind a TLS front or proxy with its own name). */
	anyHost?: boolean;
}

/**
 * Registers the suite's mocha hooks: before it, the TestApi, a fresh emulator, `baseUrl`
 * pointing there and nobody logged in; after it, everything logged out, the prompter and the
 * settings back to their defaults and the emulator closed. Call it first in the `describe`,
 * so its hooks run before the suite's own; `started` receives the API and the emulator.
 */
export function useEmulatorSuite(options: EmulatorSuiteOptions, started: (suite: EmulatorSuite) => void): void {
	let api: TestApi | undefined;
	let emu: RiggedEmulator | undefined;

	before(async () => {
		api = await testApi();
		emu = await startEmulator({
			...(options.rateLimit === 'lifted' ? { loginRateLimit: LIFTED_RATE_LIMIT } : {}),
			...(options.anyHost ? { loopbackHostOnly: false } : {}),
		});
		await settings().update('baseUrl', emu.url, vscode.ConfigurationTarget.Global);
		await logOutAll(api);
		started({ api, emu });
	});

	beforeEach(() => forgetLoginBudget(api!));
	if (options.logOutBetweenTests) beforeEach(() => logOutAll(api!));
	const lifetime = options.accessTokenLifetimeSeconds;
	if (lifetime !== undefined) beforeEach(() => emu!.setAccessTokenLifetime(lifetime));

	after(async () => {
		if (api) {
			api.setPrompter(undefined);
			await logOutAll(api);
			await forgetLoginBudget(api);
		}
		for (const key of ['baseUrl', ...options.resetsSettings ?? []]) {
			await settings().update(key, undefined, vscode.ConfigurationTarget.Global);
		}
		await emu?.close();
	});
}

/** Runs `body` with a `telematicsAuth` setting changed, and resets it afterwards. */
export async function withSetting(key: string, value: unknown, body: () => Promise<void>): Promise<void> {
	await settings().update(key, value, vscode.ConfigurationTarget.Global);
	try {
		await body();
	} finally {
		await settings().update(key, undefined, vscode.ConfigurationTarget.Global);
	}
}

/** The raw secret the store keeps for an account (see SessionStore: one key per account). */
export async function storedSecret(api: TestApi, accountId: string): Promise<string | undefined> {
	return api.services.context.secrets.get(secretKeyFor(accountId));
}

export function lastError(api: TestApi): string | undefined {
	return [...api.messages()].reverse().find((m) => m.severity === 'error')?.text;
}

export const settings = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('telematicsAuth');

/**
 * Our lenses only: REST Client, installed beside us in the test host, adds its own (Send Request, and
 * "N references" without a command). Ours run a telematicsAuth command or, for the token's facts, none,
 * with a codicon first.
 */
export function ourLenses(lenses: readonly vscode.CodeLens[]): vscode.CodeLens[] {
	return lenses.filter((l) => l.command?.command.startsWith('telematicsAuth.') || (l.command?.command === '' && l.command.title.startsWith('$(')));
}

export { until } from '../support/until';
