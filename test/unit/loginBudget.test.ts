// The login budget's one decision (records, time, service → go, ask or blocked until) as tables: each
// outcome, how many logins within the hour, when to ask, what a person agreed to, a 429's block and its
// Retry-After forms, records from several windows, and clocks that move; then two windows' LoginBudgets
// over one shared globalState, on fake clocks.
import * as assert from 'node:assert/strict';
import { parseRetryAfter } from '../../src/core/api/parse';
import {
	askText, blockedText, blockEnd, decideLogin, LOGIN_ATTEMPTS_KEY, LoginBudget, moreLoginsText, rateLimitedText, readLog, serviceOrigin,
	type BudgetDecision, type LoginLog, type ServiceLogins,
} from '../../src/core/login/loginBudget';
import { createTestClock, START } from '../support/doubles/fakeClock';
import { TestMemento } from '../support/doubles/testMemento';

const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;
const NOW = START;
/** Attempts `ago` ms before NOW (negative: stamped after NOW, by a clock that was ahead). */
const ago = (...ms: number[]) => ms.map((m) => NOW - m);
const SERVICE = 'https://svc.example.com';
/** The decision for SERVICE when its records are `entry`. */
const decide = (entry: ServiceLogins | undefined, now: number, agreed?: number): BudgetDecision =>
	decideLogin(entry ? { [SERVICE]: entry } : {}, now, SERVICE, agreed);
/** What a window decides now over the shared globalState, without counting a login. */
const decideIn = (memento: TestMemento, clock: { now(): number }, serviceUrl: string): BudgetDecision =>
	decideLogin(readLog(memento.get<unknown>(LOGIN_ATTEMPTS_KEY), clock.now()), clock.now(), serviceUrl);

describe('decideLogin: each outcome, on a fake clock', () => {
	const four = { attempts: ago(12 * MIN, 8 * MIN, 3 * MIN, 10 * S) };
	const blocked = { attempts: ago(1 * MIN), block: { at: NOW - MIN, until: NOW + 9 * MIN } };
	const records: LoginLog = { [SERVICE]: four, 'http://127.0.0.1:41234': blocked };
	const cases: Array<{ name: string; records: LoginLog; at: number; service?: string; agreed?: number; expect: BudgetDecision }> = [
		{ name: 'go: nothing recorded', records: {}, at: NOW, expect: { kind: 'go' } },
		{ name: 'ask: the fifth within the hour, saying how many and since when', records, at: NOW, expect: { kind: 'ask', count: 4, sinceMs: 12 * MIN } },
		{ name: 'blocked until the 429 ends', records, at: NOW, service: 'http://127.0.0.1:41234', expect: { kind: 'blocked', until: NOW + 9 * MIN } },
		{ name: 'go after the person agreed to that count', records, at: NOW, agreed: 4, expect: { kind: 'go' } },
		{ name: 'ask again when more went out than the person agreed to', records, at: NOW, agreed: 3, expect: { kind: 'ask', count: 4, sinceMs: 12 * MIN } },
		{ name: 'blocked whatever the person agreed to', records, at: NOW, service: 'http://127.0.0.1:41234', agreed: Infinity, expect: { kind: 'blocked', until: NOW + 9 * MIN } },
		{ name: 'go once the oldest of the four is an hour old', records, at: NOW + 48 * MIN, expect: { kind: 'go' } },
		{ name: 'go once the block is over', records, at: NOW + 9 * MIN, service: 'http://127.0.0.1:41234', expect: { kind: 'go' } },
		{ name: 'another service\'s records do not count', records, at: NOW, service: 'https://other.example.com', expect: { kind: 'go' } },
		{ name: 'the service found whatever the URL\'s form', records, at: NOW, service: 'HTTPS://SVC.example.com:443/path/', expect: { kind: 'ask', count: 4, sinceMs: 12 * MIN } },
	];
	for (const c of cases) it(c.name, () => assert.deepEqual(decideLogin(c.records, c.at, c.service ?? SERVICE, c.agreed), c.expect));
});

describe('decideLogin: counts and windows', () => {
	const cases: Array<{ name: string; entry?: ServiceLogins; expect: BudgetDecision }> = [
		{ name: 'no login yet: go', expect: { kind: 'go' } },
		{ name: 'an empty record: go', entry: { attempts: [] }, expect: { kind: 'go' } },
		{ name: '3 within the hour: go (the next is the 4th)', entry: { attempts: ago(50 * MIN, 20 * MIN, 1 * MIN) }, expect: { kind: 'go' } },
		{ name: '4 within 12 minutes: ask, naming 4 and 12 minutes', entry: { attempts: ago(12 * MIN, 8 * MIN, 3 * MIN, 10 * S) }, expect: { kind: 'ask', count: 4, sinceMs: 12 * MIN } },
		{ name: '5 within the hour: ask again, naming 5', entry: { attempts: ago(59 * MIN, 40 * MIN, 30 * MIN, 2 * MIN, 1 * MIN) }, expect: { kind: 'ask', count: 5, sinceMs: 59 * MIN } },
		{ name: '4, the oldest 61 minutes ago: go (3 count)', entry: { attempts: ago(61 * MIN, 30 * MIN, 2 * MIN, 1 * MIN) }, expect: { kind: 'go' } },
		{ name: '4, the oldest exactly an hour ago: go (the window is open at its start)', entry: { attempts: ago(H, 30 * MIN, 2 * MIN, 1 * MIN) }, expect: { kind: 'go' } },
		{ name: '4, the oldest a millisecond inside the hour: ask', entry: { attempts: ago(H - 1, 30 * MIN, 2 * MIN, 1 * MIN) }, expect: { kind: 'ask', count: 4, sinceMs: H - 1 } },
		{ name: '4 at the same millisecond (two windows at once): ask', entry: { attempts: ago(0, 0, 0, 0) }, expect: { kind: 'ask', count: 4, sinceMs: 0 } },
		{ name: 'many old ones and 2 new: go', entry: { attempts: ago(5 * H, 4 * H, 3 * H, 2 * H, 90 * MIN, 5 * MIN, 1 * MIN) }, expect: { kind: 'go' } },
	];
	for (const c of cases) it(c.name, () => assert.deepEqual(decide(c.entry, NOW), c.expect));
});

describe('decideLogin: several windows of VS Code', () => {
	const cases: Array<{ name: string; entry: ServiceLogins; expect: BudgetDecision }> = [
		{
			name: 'two windows\' records, appended out of order: all count, the oldest names the time',
			entry: { attempts: ago(2 * MIN, 9 * MIN, 1 * MIN, 7 * MIN) },
			expect: { kind: 'ask', count: 4, sinceMs: 9 * MIN },
		},
		{
			name: 'a window whose clock runs 3 minutes ahead: its records count as just made',
			entry: { attempts: ago(10 * MIN, 5 * MIN, -3 * MIN, -2 * MIN) },
			expect: { kind: 'ask', count: 4, sinceMs: 10 * MIN },
		},
		{
			name: 'another window\'s block holds here too',
			entry: { attempts: [], block: { at: NOW - 10 * MIN, until: NOW + 50 * MIN } },
			expect: { kind: 'blocked', until: NOW + 50 * MIN },
		},
	];
	for (const c of cases) it(c.name, () => assert.deepEqual(decide(c.entry, NOW), c.expect));
});

describe('decideLogin: the clock going backwards and forwards', () => {
	const four = [0, 1 * MIN, 2 * MIN, 3 * MIN].map((m) => NOW - 10 * MIN + m); // four logins 10 to 7 minutes before NOW
	const cases: Array<{ name: string; shift: number; entry: ServiceLogins; expect: BudgetDecision }> = [
		{ name: 'steady clock: ask', shift: 0, entry: { attempts: four }, expect: { kind: 'ask', count: 4, sinceMs: 10 * MIN } },
		{ name: 'back 30 minutes: the logins look future, still count, as just made', shift: -30 * MIN, entry: { attempts: four }, expect: { kind: 'ask', count: 4, sinceMs: 0 } },
		{ name: 'back 2 hours: too far to tell, they no longer count', shift: -2 * H, entry: { attempts: four }, expect: { kind: 'go' } },
		{ name: 'forward 2 hours: they are past the window', shift: 2 * H, entry: { attempts: four }, expect: { kind: 'go' } },
		{ name: 'forward 45 minutes: still within the hour', shift: 45 * MIN, entry: { attempts: four }, expect: { kind: 'ask', count: 4, sinceMs: 55 * MIN } },
		{ name: 'a block, clock back 30 minutes: holds until its end', shift: -30 * MIN, entry: { attempts: [], block: { at: NOW, until: NOW + H } }, expect: { kind: 'blocked', until: NOW + H } },
		{ name: 'a block, clock back 2 hours: dropped', shift: -2 * H, entry: { attempts: [], block: { at: NOW, until: NOW + H } }, expect: { kind: 'go' } },
		{ name: 'a block, clock forward past its end: over', shift: H, entry: { attempts: [], block: { at: NOW, until: NOW + H } }, expect: { kind: 'go' } },
		{ name: 'a block, a second before its end: holds', shift: H - S, entry: { attempts: [], block: { at: NOW, until: NOW + H } }, expect: { kind: 'blocked', until: NOW + H } },
		{ name: 'a block that is over, four logins still within the hour: ask', shift: 0, entry: { attempts: four, block: { at: NOW - 2 * H, until: NOW - H } }, expect: { kind: 'ask', count: 4, sinceMs: 10 * MIN } },
	];
	for (const c of cases) it(c.name, () => assert.deepEqual(decide(c.entry, NOW + c.shift), c.expect));
});

describe('blockEnd: a 429\'s Retry-After in each form', () => {
	const inHalfAnHour = new Date(NOW + 30 * MIN).toUTCString();
	const cases: Array<{ name: string; header: string | undefined; until: number }> = [
		{ name: 'seconds', header: '120', until: NOW + 120 * S },
		{ name: 'seconds with spaces', header: ' 3600 ', until: NOW + H },
		{ name: 'a fraction of a second rounds up', header: '1.5', until: NOW + 2 * S },
		{ name: 'an HTTP date', header: inHalfAnHour, until: NOW + 30 * MIN },
		{ name: 'an HTTP date already past: no wait', header: new Date(NOW - H).toUTCString(), until: NOW },
		{ name: 'zero: no wait', header: '0', until: NOW },
		{ name: 'none: an hour', header: undefined, until: NOW + H },
		{ name: 'blank: an hour', header: '  ', until: NOW + H },
		{ name: 'not a number nor a date: an hour', header: 'soon', until: NOW + H },
		{ name: 'absurdly far: a day at most', header: '99999999', until: NOW + 24 * H },
		{ name: 'a date years ahead: a day at most', header: new Date(NOW + 3 * 365 * 24 * H).toUTCString(), until: NOW + 24 * H },
	];
	for (const c of cases) it(c.name, () => assert.equal(blockEnd(NOW, parseRetryAfter(c.header, NOW)), c.until));

	it('a number that is not finite or is negative waits the hour', () => {
		assert.equal(blockEnd(NOW, Number.NaN), NOW + H);
		assert.equal(blockEnd(NOW, Infinity), NOW + H);
		assert.equal(blockEnd(NOW, -1), NOW + H);
	});
});

describe('readLog: what another window or version stored', () => {
	const cases: Array<{ name: string; raw: unknown; expect: unknown }> = [
		{ name: 'nothing', raw: undefined, expect: {} },
		{ name: 'not an object', raw: 'x', expect: {} },
		{ name: 'an array', raw: [1, 2], expect: {} },
		{ name: 'non-numbers dropped, the rest sorted', raw: { o: { attempts: [NOW - MIN, 'x', null, Number.NaN, NOW - 2 * MIN] } }, expect: { o: { attempts: [NOW - 2 * MIN, NOW - MIN] } } },
		{ name: 'old attempts and an ended block pruned, the service with them', raw: { o: { attempts: [NOW - 2 * H], block: { at: NOW - 3 * H, until: NOW - 2 * H } } }, expect: {} },
		{ name: 'a broken block dropped', raw: { o: { attempts: [NOW], block: { at: 'then', until: NOW + H } } }, expect: { o: { attempts: [NOW] } } },
		{ name: 'a block longer than a day cut to a day', raw: { o: { attempts: [], block: { at: NOW, until: NOW + 1000 * H } } }, expect: { o: { attempts: [], block: { at: NOW, until: NOW + 24 * H } } } },
		{ name: 'attempts not a list', raw: { o: { attempts: 5 } }, expect: {} },
		{ name: 'at most 50 attempts kept, the latest', raw: { o: { attempts: Array.from({ length: 80 }, (_, i) => NOW - i * S) } }, expect: { o: { attempts: Array.from({ length: 50 }, (_, i) => NOW - (49 - i) * S) } } },
	];
	for (const c of cases) it(c.name, () => assert.deepEqual(readLog(c.raw, NOW), c.expect));
});

describe('serviceOrigin: one count per service', () => {
	const cases: Array<[string, string]> = [
		['https://user.telematicssdk.com', 'https://user.telematicssdk.com'],
		['https://USER.telematicssdk.com/', 'https://user.telematicssdk.com'],
		['https://user.telematicssdk.com:443/some/path', 'https://user.telematicssdk.com'],
		['http://127.0.0.1:41234', 'http://127.0.0.1:41234'],
		['http://127.0.0.1:41235', 'http://127.0.0.1:41235'],
		['not a url', 'not a url'],
	];
	for (const [url, origin] of cases) it(`${url} → ${origin}`, () => assert.equal(serviceOrigin(url), origin));
});

describe('the budget\'s words', () => {
	it('asks naming the count, the minutes and what the service does', () => {
		assert.deepEqual(askText(4, 12 * MIN), {
			message: '4 logins to this service in the last 12 minutes.',
			detail: 'The service blocks further logins for up to an hour after about 5. Log in anyway?',
		});
		assert.equal(askText(4, 11 * MIN + 1).message, '4 logins to this service in the last 12 minutes.', 'minutes round up');
		assert.equal(askText(5, 20 * S).message, '5 logins to this service in the last minute.');
		assert.equal(askText(4, 0).message, '4 logins to this service in the last minute.');
	});

	it('says until when a block holds, before sending and after the 429', () => {
		const clock = (ms: number) => new Date(ms).toISOString().slice(11, 16);
		assert.equal(blockedText('svc.example.com', NOW + H, NOW, undefined, clock),
			'svc.example.com blocks logins from this machine until 10:00 (in 1h 0m) (it answered "too many logins", HTTP 429). Nothing was sent: Telematics Auth sends no login to this service before then.');
		assert.match(rateLimitedText(NOW + 30 * MIN, NOW, undefined, clock), /^The service answered "too many logins" \(HTTP 429\) and blocks logins until 09:30 \(in 30m\)\./);
	});
});

describe('LoginBudget: two windows over one globalState', () => {
	const URL_A = 'https://svc.example.com';
	const URL_B = 'http://127.0.0.1:41234';

	it('counts the logins of both windows, per service, and asks before the fifth', async () => {
		const shared = new TestMemento();
		const one = createTestClock(NOW);
		const two = createTestClock(NOW + 2 * MIN); // the second window's clock runs 2 minutes ahead
		const first = new LoginBudget(shared, one.clock);
		const second = new LoginBudget(shared, two.clock);
		await first.claim(URL_A, Infinity).written;
		one.timers.tick(MIN);
		await second.claim(URL_A, Infinity).written;
		await second.claim(URL_B, Infinity).written;
		await first.claim(`${URL_A}/`, Infinity).written;
		assert.deepEqual(decideIn(shared, one.clock, URL_A), { kind: 'go' }, 'three so far');
		await second.claim(URL_A.toUpperCase(), Infinity).written;
		assert.deepEqual(decideIn(shared, one.clock, URL_A), { kind: 'ask', count: 4, sinceMs: MIN });
		assert.equal(decideIn(shared, two.clock, URL_A).kind, 'ask');
		assert.deepEqual(decideIn(shared, one.clock, URL_B), { kind: 'go' }, 'another service has its own count');
		one.timers.tick(H);
		assert.deepEqual(decideIn(shared, one.clock, URL_A), { kind: 'go' }, 'an hour later the count is spent');
	});

	it('a 429 seen in one window blocks the logins of the other until its end, and nothing but times is kept', async () => {
		const shared = new TestMemento();
		const one = createTestClock(NOW);
		const first = new LoginBudget(shared, one.clock);
		const second = new LoginBudget(shared, one.clock);
		await first.claim(URL_A, Infinity).written;
		assert.equal(await first.recordBlock(URL_A, 1800), NOW + 30 * MIN);
		assert.deepEqual(decideIn(shared, one.clock, URL_A), { kind: 'blocked', until: NOW + 30 * MIN });
		await second.claim(URL_B, Infinity).written;
		assert.deepEqual(decideIn(shared, one.clock, URL_A), { kind: 'blocked', until: NOW + 30 * MIN }, 'the other window\'s write keeps the block');
		one.timers.tick(30 * MIN);
		assert.deepEqual(decideIn(shared, one.clock, URL_A), { kind: 'go' });
		assert.deepEqual(shared.keys(), [LOGIN_ATTEMPTS_KEY]);
		assert.deepEqual(Object.keys(shared.get<Record<string, unknown>>(LOGIN_ATTEMPTS_KEY)!).sort(), [URL_B, URL_A].sort());
	});

	it('the budget decides again right before sending: a login another window sent while the question was open stops this one', async () => {
		const shared = new TestMemento();
		const one = createTestClock(NOW);
		const first = new LoginBudget(shared, one.clock);
		const second = new LoginBudget(shared, one.clock);
		for (let i = 0; i < 4; i++) await first.claim(URL_A, Infinity).written;
		// Both windows ask about the fifth; both people say "log in".
		const askedFirst = decideIn(shared, one.clock, URL_A);
		const askedSecond = decideIn(shared, one.clock, URL_A);
		assert.deepEqual([askedFirst, askedSecond], [{ kind: 'ask', count: 4, sinceMs: 0 }, { kind: 'ask', count: 4, sinceMs: 0 }]);
		const sent = first.claim(URL_A, 4);
		assert.deepEqual(sent.decision, { kind: 'go' }, 'the count the person agreed to');
		await sent.written;
		assert.deepEqual(second.claim(URL_A, 4).decision, { kind: 'ask', count: 5, sinceMs: 0 }, 'a sixth is asked about again, not sent');
		assert.equal((shared.get<Record<string, { attempts: number[] }>>(LOGIN_ATTEMPTS_KEY)![URL_A]!.attempts).length, 5, 'only what was sent is counted');
	});

	it('two windows at three logins each decide "go" together: the second to send is stopped, as the fifth', async () => {
		const shared = new TestMemento();
		const one = createTestClock(NOW);
		const first = new LoginBudget(shared, one.clock);
		const second = new LoginBudget(shared, one.clock);
		for (let i = 0; i < 3; i++) await first.claim(URL_A, Infinity).written;
		assert.equal(decideIn(shared, one.clock, URL_A).kind, 'go');
		assert.equal(decideIn(shared, one.clock, URL_A).kind, 'go');
		await first.claim(URL_A, undefined).written;
		assert.deepEqual(second.claim(URL_A, undefined).decision, { kind: 'ask', count: 4, sinceMs: 0 });
	});

	it('a 429 recorded by another window while the question is open stops the login, saying until when', async () => {
		const shared = new TestMemento();
		const one = createTestClock(NOW);
		const first = new LoginBudget(shared, one.clock);
		const second = new LoginBudget(shared, one.clock);
		for (let i = 0; i < 4; i++) await first.claim(URL_A, Infinity).written;
		assert.equal(decideIn(shared, one.clock, URL_A).kind, 'ask');
		await second.recordBlock(URL_A, 600);
		assert.deepEqual(first.claim(URL_A, 4).decision, { kind: 'blocked', until: NOW + 10 * MIN });
		assert.deepEqual(first.claim(URL_A, Infinity).decision, { kind: 'blocked', until: NOW + 10 * MIN }, 'no answer sends past a block');
	});

	it('claims count only a login that may go: not one asked about, not one blocked', async () => {
		const shared = new TestMemento();
		const one = createTestClock(NOW);
		const budget = new LoginBudget(shared, one.clock);
		const count = () => shared.get<Record<string, { attempts: number[] }>>(LOGIN_ATTEMPTS_KEY)?.[URL_A]?.attempts.length ?? 0;
		for (let i = 0; i < 4; i++) {
			const claimed = budget.claim(URL_A);
			assert.deepEqual(claimed.decision, { kind: 'go' });
			await claimed.written;
		}
		await budget.claim(URL_B).written;
		assert.equal(count(), 4);
		assert.deepEqual(budget.claim(URL_A).decision, { kind: 'ask', count: 4, sinceMs: 0 });
		assert.equal(count(), 4, 'the one asked about is not counted');
		assert.equal(budget.blockedUntil(URL_A), undefined);
		await budget.recordBlock(URL_A, undefined);
		assert.equal(budget.blockedUntil(URL_A), NOW + H, 'no Retry-After: an hour');
		assert.deepEqual(budget.claim(URL_A, Infinity).decision, { kind: 'blocked', until: NOW + H });
		assert.equal(count(), 4, 'nor the one blocked');
		one.timers.tick(H);
		assert.equal(budget.blockedUntil(URL_A), undefined);
		const later = budget.claim(URL_A);
		assert.deepEqual(later.decision, { kind: 'go' }, 'an hour later both the block and the count are spent');
		await later.written;
		assert.equal(count(), 1);
	});

	it('the words of a login stopped because more went out while the question was open', () => {
		assert.match(moreLoginsText(6), /^Login not sent: 6 logins to this service within the hour now, more than when you were asked/);
	});
});
