// Shared by the login, restore and secrets suites: the TestApi, a scripted Prompter that
// answers the login steps without UI, and the demo credentials of the in-process emulator.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEMO_ADMINS, DEMO_USERS, type RunningEmulator } from '../../src/emulator/server';
import type { AccountKind } from '../../src/api/types';
import { secretKeyFor } from '../../src/session/sessionStore';
import type { Session } from '../../src/session/types';
import type { TestApi } from '../../src/testApi';
import type { LoginField, LoginStep, Prompter, StepAnswer } from '../../src/ui/prompter';

export const EXTENSION_ID = 'telematics-tools.telematics-auth';

export async function testApi(): Promise<TestApi> {
	const api = await vscode.extensions.getExtension<TestApi>(EXTENSION_ID)!.activate();
	assert.ok(api, 'the TestApi is returned in test mode');
	// Activation does not wait for SecretStorage; the stored sessions are read right after.
	await api.services.store.ready;
	return api;
}

export type Credentials = Record<LoginField, string>;

export function userCredentials(emu: RunningEmulator, index = 0): Credentials {
	const user = DEMO_USERS[index]!;
	return { serviceUrl: emu.url, instanceId: user.instanceId, login: user.deviceToken, password: user.instanceKey };
}

export function adminCredentials(emu: RunningEmulator): Credentials {
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
}

export async function logIn(api: TestApi, credentials: Credentials, kind: AccountKind): Promise<Session> {
	api.setPrompter(ScriptedPrompter.answering(credentials, kind));
	const session = await vscode.commands.executeCommand<Session | undefined>(kind === 'admin' ? 'telematicsAuth.loginAdmin' : 'telematicsAuth.loginUser');
	assert.ok(session, `login as ${kind} succeeded`);
	return session;
}

export async function logOutAll(api: TestApi): Promise<void> {
	for (const s of api.services.store.list()) await api.services.store.remove(s.account.id);
}

/** The raw secret the store keeps for an account (see SessionStore: one key per account). */
export async function storedSecret(api: TestApi, accountId: string): Promise<string | undefined> {
	return api.services.context.secrets.get(secretKeyFor(accountId));
}

export function lastError(api: TestApi): string | undefined {
	return [...api.messages()].reverse().find((m) => m.severity === 'error')?.text;
}

export const settings = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('telematicsAuth');

/** Polls `probe` until it gives a value (not undefined/false); fails after `timeoutMs`. */
export async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs = 10_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = probe();
		if (value !== undefined && value !== false) return value;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}
