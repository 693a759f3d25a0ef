// HS256 JSON Web Tokens: signing and checking the signature. Pure apart from node:crypto.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export interface EmulatorClaims {
	sub: string;
	iss: string;
	aud: string;
	iat: number;
	exp: number;
	nbf: number;
	jti: string;
	role: 'user' | 'admin';
	instanceId: string;
	name: string;
}

const HEADER = { alg: 'HS256', typ: 'JWT' };

function base64url(data: Buffer | string): string {
	return Buffer.from(data).toString('base64url');
}

function sign(input: string, secret: Buffer): Buffer {
	return createHmac('sha256', secret).update(input).digest();
}

export function newSecret(): Buffer {
	return randomBytes(32);
}

export function newJti(): string {
	return randomBytes(12).toString('base64url');
}

export function signJwt(claims: EmulatorClaims, secret: Buffer): string {
	const input = `${base64url(JSON.stringify(HEADER))}.${base64url(JSON.stringify(claims))}`;
	return `${input}.${base64url(sign(input, secret))}`;
}

function parseSegment(segment: string): Record<string, unknown> | undefined {
	try {
		const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
		return value !== null && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, unknown> : undefined;
	} catch {
		return undefined;
	}
}

/**
 * The claims of a token this secret signed with HS256, or undefined for anything else
 * (malformed, another algorithm, tampered). Expiry is not checked: refresh accepts expired tokens.
 */
export function verifyJwt(token: string, secret: Buffer): Record<string, unknown> | undefined {
	const parts = token.split('.');
	if (parts.length !== 3) return undefined;
	const [head, body, signature] = parts as [string, string, string];
	const header = parseSegment(head);
	if (header?.alg !== 'HS256') return undefined;
	const expected = sign(`${head}.${body}`, secret);
	const actual = Buffer.from(signature, 'base64url');
	if (actual.length !== expected.length || base64url(actual) !== signature) return undefined;
	if (!timingSafeEqual(actual, expected)) return undefined;
	return parseSegment(body);
}
