// Reading the two request bodies (Login, RefreshToken) into plain values, or validation
// errors in the service's `{Key, Message}` form. Pure.
import type { EnvelopeError } from './envelope';

export type Parsed<T> = { ok: true; value: T } | { ok: false; errors: EnvelopeError[] };

/** The inner `LoginFields` key casings the emulator accepts; anything else is a bare 401. */
const DEVICE_TOKEN_KEYS = ['deviceToken', 'DeviceToken', 'Devicetoken'];
const EMAIL_KEYS = ['Email', 'email'];

export interface LoginAttempt {
	/** Undefined when LoginFields names neither a device token nor an email in an accepted casing. */
	kind?: 'user' | 'admin';
	/** The device token (user) or the email (admin). */
	login?: string;
	password: string;
	/** The `InstanceId` header, when sent. */
	instanceId?: string;
	/** The `InstanceKey` header, when sent. */
	instanceKey?: string;
}

export interface LoginHeaders {
	instanceId?: string;
	instanceKey?: string;
}

export interface RefreshAttempt {
	accessToken: string;
	refreshToken: string;
}

/** A JSON object from the raw body, or a 422 on `body`. */
export function parseJsonObject(text: string): Parsed<Record<string, unknown>> {
	if (text.trim() === '') return bodyError('A non-empty request body is required.');
	try {
		const value: unknown = JSON.parse(text);
		if (isObject(value)) return { ok: true, value };
		return bodyError('The request body must be a JSON object.');
	} catch {
		return bodyError('The request body is not valid JSON.');
	}
}

/** A top-level field, matched without regard to case (as the service's JSON binding does). */
export function field(body: Record<string, unknown>, name: string): unknown {
	const lower = name.toLowerCase();
	const key = Object.keys(body).find((k) => k.toLowerCase() === lower);
	return key === undefined ? undefined : body[key];
}

export function parseLogin(body: Record<string, unknown>, headers: LoginHeaders, requireInstanceHeaderForAdmin: boolean): Parsed<LoginAttempt> {
	const errors: EnvelopeError[] = [];
	const fields = readLoginFields(field(body, 'LoginFields'));
	if (fields === 'missing') errors.push({ Key: 'LoginFields', Message: 'The LoginFields field is required.' });
	if (fields === 'invalid') errors.push({ Key: 'LoginFields', Message: 'LoginFields must be an object or a JSON-encoded object.' });
	const password = field(body, 'Password');
	if (typeof password !== 'string' || password === '') errors.push({ Key: 'Password', Message: 'The Password field is required.' });
	const kind = typeof fields === 'object' ? fields.kind : undefined;
	const instanceId = nonEmpty(headers.instanceId);
	const needsInstance = kind === 'user' || (kind === 'admin' && requireInstanceHeaderForAdmin);
	if (needsInstance && instanceId === undefined) errors.push({ Key: 'InstanceId', Message: 'The InstanceId header is required.' });
	if (errors.length > 0) return { ok: false, errors };
	return {
		ok: true,
		value: {
			kind,
			login: typeof fields === 'object' ? fields.login : undefined,
			password: password as string,
			instanceId,
			instanceKey: nonEmpty(headers.instanceKey),
		},
	};
}

export function parseRefresh(body: Record<string, unknown>): Parsed<RefreshAttempt> {
	const errors: EnvelopeError[] = [];
	const accessToken = field(body, 'AccessToken');
	const refreshToken = field(body, 'RefreshToken');
	if (typeof accessToken !== 'string' || accessToken === '') errors.push({ Key: 'AccessToken', Message: 'The AccessToken field is required.' });
	if (typeof refreshToken !== 'string' || refreshToken === '') errors.push({ Key: 'RefreshToken', Message: 'The RefreshToken field is required.' });
	if (errors.length > 0) return { ok: false, errors };
	return { ok: true, value: { accessToken: accessToken as string, refreshToken: refreshToken as string } };
}

type LoginFields = { kind?: 'user' | 'admin'; login?: string };

function readLoginFields(raw: unknown): LoginFields | 'missing' | 'invalid' {
	if (raw === undefined || raw === null || raw === '') return 'missing';
	let value = raw;
	if (typeof raw === 'string') {
		try {
			value = JSON.parse(raw);
		} catch {
			return 'invalid';
		}
	}
	if (!isObject(value)) return 'invalid';
	const deviceToken = firstString(value, DEVICE_TOKEN_KEYS);
	if (deviceToken !== undefined) return { kind: 'user', login: deviceToken };
	const email = firstString(value, EMAIL_KEYS);
	if (email !== undefined) return { kind: 'admin', login: email };
	return {};
}

function firstString(value: Record<string, unknown>, keys: string[]): string | undefined {
	for (const key of keys) {
		const v = value[key];
		if (typeof v === 'string' && v !== '') return v;
	}
	return undefined;
}

function nonEmpty(value: string | undefined): string | undefined {
	return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function isObject(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function bodyError(message: string): Parsed<never> {
	return { ok: false, errors: [{ Key: 'body', Message: message }] };
}
