// Talking to the emulator in its tests: POST with fetch, a raw request whose Host header is anything,
// the reply read once, a JWT's claims.
import { request as httpRequest } from 'node:http';
import { DEMO_ADMINS, DEMO_USERS } from '../emulator/rig';

export const USER = DEMO_USERS[0]!;
export const USER2 = DEMO_USERS[1]!;
export const ADMIN = DEMO_ADMINS[0]!;

export interface Reply {
	status: number;
	headers: Headers;
	text: string;
	json: any;
}

export async function post(url: string, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<Reply> {
	const res = await fetch(url, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', ...headers },
		body: typeof body === 'string' ? body : JSON.stringify(body),
		signal,
	});
	return reply(res);
}

/** A raw request, so the Host header can be anything (fetch will not let us set it). */
export function raw(url: string, method: string, headers: Record<string, string>, body = ''): Promise<number> {
	return new Promise((resolve, reject) => {
		const req = httpRequest(url, { method, headers }, (res) => {
			res.resume();
			res.on('end', () => resolve(res.statusCode ?? 0));
		});
		req.on('error', reject);
		req.end(body);
	});
}

export async function reply(res: Response): Promise<Reply> {
	const text = await res.text();
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return { status: res.status, headers: res.headers, text, json };
}

export function claimsOf(jwt: string): Record<string, any> {
	return JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8'));
}
