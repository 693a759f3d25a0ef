// Deciding a login: which account the credentials name, or why they are refused (401 for anything
// wrong, as the real service; 403 for the wrong kind of login at an instance).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { EmulatorAdmin, EmulatorUser } from './config';
import type { LoginAttempt } from './requests';

export type Identity = { role: 'user'; user: EmulatorUser } | { role: 'admin'; admin: EmulatorAdmin };

export type AuthOutcome = { ok: true; identity: Identity } | { ok: false; status: 401 | 403 };

const REFUSED: AuthOutcome = { ok: false, status: 401 };
const WRONG_KIND: AuthOutcome = { ok: false, status: 403 };

export function authenticate(attempt: LoginAttempt, users: readonly EmulatorUser[], admins: readonly EmulatorAdmin[]): AuthOutcome {
	const { kind, login, instanceId } = attempt;
	if (kind === undefined || login === undefined) return REFUSED;
	const isUserInstance = (id: string) => users.some((u) => u.instanceId === id);
	const isAdminInstance = (id: string) => admins.some((a) => a.instanceId === id);
	if (kind === 'user') {
		const candidates = users.filter((u) => safeEqual(u.deviceToken, login));
		if (candidates.length === 0 || instanceId === undefined) return REFUSED;
		if (isAdminInstance(instanceId) && !isUserInstance(instanceId)) return WRONG_KIND;
		const user = candidates.find((u) => u.instanceId === instanceId);
		if (!user || !safeEqual(user.instanceKey, attempt.password)) return REFUSED;
		if (attempt.instanceKey !== undefined && !safeEqual(user.instanceKey, attempt.instanceKey)) return REFUSED;
		return { ok: true, identity: { role: 'user', user } };
	}
	const candidates = admins.filter((a) => a.email.toLowerCase() === login.toLowerCase());
	if (candidates.length === 0) return REFUSED;
	if (instanceId !== undefined && isUserInstance(instanceId) && !isAdminInstance(instanceId)) return WRONG_KIND;
	const admin = candidates.find((a) => (instanceId === undefined || a.instanceId === instanceId) && safeEqual(a.password, attempt.password));
	return admin ? { ok: true, identity: { role: 'admin', admin } } : REFUSED;
}

/** Compares secrets in constant time (over their digests, so lengths may differ). */
export function safeEqual(a: string, b: string): boolean {
	return timingSafeEqual(digest(a), digest(b));
}

function digest(value: string): Buffer {
	return createHash('sha256').update(value, 'utf8').digest();
}
