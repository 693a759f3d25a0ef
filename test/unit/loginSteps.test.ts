import * as assert from 'node:assert/strict';
import type { AccountKind } from '../../src/core/api/types';
import { checkInstanceId, checkPassword, checkServiceUrl } from '../../src/core/login/checks';
import { askLogin, loginSteps, runSteps, type LoginStep, type StepAnswer } from '../../src/core/login/steps';
import { PrompterSlot, type Prompter } from '../../src/core/models/prompter';

/** Answers steps from a script and records what it was asked. */
class ScriptedPrompter implements Prompter {
	readonly asked: LoginStep[] = [];
	constructor(private readonly answers: StepAnswer[]) {}
	async pickKind(): Promise<AccountKind | undefined> { return 'user'; }
	async ask(step: LoginStep): Promise<StepAnswer> {
		this.asked.push(step);
		return this.answers.shift();
	}
	async confirm(): Promise<boolean> { return false; }
	async askTrackedFile(): Promise<'cancel'> { return 'cancel'; }
	async askReplaceForeign(): Promise<boolean> { return false; }
	async askTerminalToken(): Promise<boolean> { return false; }
	async askLoginBudget(): Promise<undefined> { return undefined; }
	async pickAccount(): Promise<string | undefined> { return undefined; }
	async askBeforeSending(): Promise<'refuse'> { return 'refuse'; }
}

const STEPS: Omit<LoginStep, 'step' | 'totalSteps'>[] = [
	{ field: 'serviceUrl', title: 'Log In', prompt: 'URL', value: 'https://default.example.com', suggestions: ['https://default.example.com'], password: false, check: checkServiceUrl },
	{ field: 'instanceId', title: 'Log In', prompt: 'InstanceID', password: false, check: checkInstanceId },
	{ field: 'password', title: 'Log In', prompt: 'InstanceKey', password: true, check: (v) => checkPassword(v, 'InstanceKey') },
];

describe('runSteps (the login steps)', () => {
	it('returns the checked, normalized values in order and numbers the steps', async () => {
		const p = new ScriptedPrompter([{ value: 'https://x.example.com/' }, { value: ' inst ' }, { value: 'key' }]);
		const values = await runSteps(p, STEPS);
		assert.deepEqual(values, { serviceUrl: 'https://x.example.com', instanceId: 'inst', password: 'key' });
		assert.deepEqual(p.asked.map((s) => `${s.step}/${s.totalSteps}`), ['1/3', '2/3', '3/3']);
		assert.equal(p.asked[0]?.value, 'https://default.example.com', 'step 1 starts with the current URL');
	});

	it('cancels on Escape at any step', async () => {
		assert.equal(await runSteps(new ScriptedPrompter([undefined]), STEPS), undefined);
		assert.equal(await runSteps(new ScriptedPrompter([{ value: 'https://x.example.com' }, { value: 'i' }, undefined]), STEPS), undefined);
	});

	it('goes back one step on Back, showing what was typed there, and never refills the password', async () => {
		const p = new ScriptedPrompter([
			{ value: 'https://x.example.com' }, { value: 'first' }, 'back', 'back',
			{ value: 'https://y.example.com' }, { value: 'second' }, { value: 'key' },
		]);
		const values = await runSteps(p, STEPS);
		assert.deepEqual(values, { serviceUrl: 'https://y.example.com', instanceId: 'second', password: 'key' });
		assert.deepEqual(p.asked.map((s) => s.field), ['serviceUrl', 'instanceId', 'password', 'instanceId', 'serviceUrl', 'instanceId', 'password']);
		assert.equal(p.asked[3]?.value, 'first', 'Back to step 2 shows the InstanceID typed before');
		assert.equal(p.asked[4]?.value, 'https://x.example.com');
		assert.ok(p.asked.filter((s) => s.password).every((s) => s.value === undefined));
	});

	it('Back on the first step stays on the first step', async () => {
		const p = new ScriptedPrompter(['back', undefined]);
		assert.equal(await runSteps(p, STEPS), undefined);
		assert.deepEqual(p.asked.map((s) => s.step), [1, 1]);
	});

	it('asks the same step again with the message when an answer is rejected', async () => {
		const p = new ScriptedPrompter([{ value: 'http://example.com' }, undefined]);
		assert.equal(await runSteps(p, STEPS), undefined);
		assert.equal(p.asked.length, 2);
		assert.equal(p.asked[1]?.field, 'serviceUrl');
		assert.match(p.asked[1]?.validationMessage ?? '', /https:\/\//);
		assert.equal(p.asked[1]?.value, 'http://example.com', 'what was typed stays for correcting');
	});
});

describe('PrompterSlot', () => {
	it('uses the test prompter while set, then the real one again', () => {
		const real = new ScriptedPrompter([]);
		const test = new ScriptedPrompter([]);
		const slot = new PrompterSlot(real);
		assert.equal(slot.current, real);
		slot.set(test);
		assert.equal(slot.current, test);
		slot.set(undefined);
		assert.equal(slot.current, real);
	});
});

describe('runSteps: Back with what was typed', () => {
	it('keeps the value typed on a step left with Back, but never a password', async () => {
		const p = new ScriptedPrompter([
			{ value: 'https://x.example.com' }, { value: 'half-typed', back: true },
			{ value: 'https://x.example.com' }, { value: 'inst' }, { value: 'secret-key', back: true },
			{ value: 'inst' }, undefined,
		]);
		assert.equal(await runSteps(p, STEPS), undefined);
		assert.equal(p.asked[2]?.field, 'serviceUrl');
		assert.equal(p.asked[3]?.value, 'half-typed', 'step 2 shows what was typed before Back');
		assert.equal(p.asked[6]?.field, 'password');
		assert.equal(p.asked[6]?.value, undefined, 'the password is never refilled');
	});
});

describe('loginSteps (the step table)', () => {
	const choices = { baseUrl: 'https://user.example.com//', known: ['https://user.example.com', 'https://other.example.com'] };

	it('asks a user for the service URL, the User Group InstanceID, the device token and the InstanceKey', () => {
		const steps = loginSteps('user', {}, choices);
		assert.deepEqual(steps.map((s) => [s.field, s.prompt, s.password]), [
			['serviceUrl', 'Service URL', false],
			['instanceId', 'User Group InstanceID', false],
			['login', 'Device token', false],
			['password', 'InstanceKey', true],
		]);
		assert.ok(steps.every((s) => s.title === 'Log In as User'));
	});

	it('asks an admin for the API InstanceID (may be empty), the API login and the API password', () => {
		const steps = loginSteps('admin', {}, choices);
		assert.deepEqual(steps.map((s) => s.prompt), ['Service URL', 'API InstanceID (leave empty if your credentials have none)', 'API login (email)', 'API password']);
		assert.ok(steps.every((s) => s.title === 'Log In as Admin'));
		assert.deepEqual(steps[1]!.check('  '), { ok: true, value: '' }, 'an admin may leave the InstanceID empty');
		assert.equal(loginSteps('user', {}, choices)[1]!.check('  ').ok, false, 'a user may not');
		assert.equal(steps[2]!.check('not-an-email').ok, false);
	});

	it('starts with the configured URL (no trailing slash) and offers it with the stored accounts\' URLs, once each', () => {
		const [url] = loginSteps('user', {}, choices);
		assert.equal(url!.value, 'https://user.example.com');
		assert.deepEqual(url!.suggestions, ['https://user.example.com', 'https://other.example.com']);
	});

	it('starts Log In Again with the account\'s fields, never its password', () => {
		const steps = loginSteps('admin', { serviceUrl: 'https://other.example.com', instanceId: 'inst', login: 'api@example.com' }, choices);
		assert.deepEqual(steps.map((s) => s.value), ['https://other.example.com', 'inst', 'api@example.com', undefined]);
	});

	it('words every step through the translator', () => {
		const bracketed = (message: string) => `«${message}»`;
		for (const step of loginSteps('user', {}, choices, bracketed)) {
			assert.match(step.title, /^«.*»$/);
			assert.match(step.prompt, /^«.*»$/);
			assert.match(step.placeholder ?? '', /^«.*»$/);
		}
	});
});

describe('askLogin (the four fields, walked)', () => {
	const choices = { baseUrl: 'https://user.example.com', known: [] };

	it('hands back a user\'s checked answers', async () => {
		const p = new ScriptedPrompter([{ value: 'https://x.example.com/' }, { value: ' inst ' }, { value: ' device ' }, { value: ' key ' }]);
		assert.deepEqual(await askLogin(p, 'user', {}, choices), { serviceUrl: 'https://x.example.com', instanceId: 'inst', login: 'device', password: ' key ' });
	});

	it('leaves out an admin\'s empty InstanceID', async () => {
		const p = new ScriptedPrompter([{ value: 'https://x.example.com' }, { value: '' }, { value: 'api@example.com' }, { value: 'pw' }]);
		assert.deepEqual(await askLogin(p, 'admin', {}, choices), { serviceUrl: 'https://x.example.com', login: 'api@example.com', password: 'pw' });
	});

	it('asks a user again for an empty InstanceID, and is undefined when cancelled', async () => {
		const p = new ScriptedPrompter([{ value: 'https://x.example.com' }, { value: '' }, undefined]);
		assert.equal(await askLogin(p, 'user', {}, choices), undefined);
		assert.deepEqual(p.asked.map((s) => s.field), ['serviceUrl', 'instanceId', 'instanceId']);
		assert.match(p.asked[2]!.validationMessage ?? '', /InstanceID/);
	});
});
