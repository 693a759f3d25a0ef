// Checks what a person types into the login steps, before anything is sent.
// Pure: no `vscode` import. Messages say what to do and never repeat the input
// (a password typed into the wrong field must not end up on screen or in a log).

export type Checked = { ok: true; value: string } | { ok: false; message: string };

const ok = (value: string): Checked => ({ ok: true, value });
const problem = (message: string): Checked => ({ ok: false, message });

/** Longest value we accept in any field; a JWT used as device token fits. */
const MAX_LENGTH = 8192;

/** Control characters (CR/LF would split an HTTP header) and other invisible breakers. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** `localhost`, 127.0.0.0/8 and `[::1]`: the only hosts plain http is allowed for. */
export function isLoopbackHost(hostname: string): boolean {
	const host = hostname.toLowerCase();
	return host === 'localhost' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === '[::1]' || host === '::1';
}

/**
 * The service URL as typed: trimmed, `https://` (or `http://` for a loopback host), no
 * credentials, query or fragment. The value is normalized: no trailing slash.
 */
export function checkServiceUrl(input: string): Checked {
	const text = input.trim();
	if (!text) return problem('Enter the service URL, for example https://user.telematicssdk.com.');
	if (/\s/.test(text) || CONTROL.test(text)) return problem('Remove the spaces from the URL.');
	if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return problem('Start the URL with https://, for example https://user.telematicssdk.com.');
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return problem('This is not a valid URL. Use the form https://host[:port], for example https://user.telematicssdk.com.');
	}
	const loopback = isLoopbackHost(url.hostname);
	if (url.protocol === 'http:' && !loopback) {
		return problem('Use https://. Plain http:// is accepted only for the local emulator on localhost, 127.x.x.x or [::1].');
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') return problem('Use an https:// URL.');
	if (!url.hostname) return problem('Add the host name, for example https://user.telematicssdk.com.');
	if (url.username || url.password || /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(text)) {
		return problem('Remove the user name and password from the URL; credentials are asked for in the next steps.');
	}
	if (text.includes('?')) return problem('Remove the query (the part from "?") from the URL.');
	if (text.includes('#')) return problem('Remove the fragment (the part from "#") from the URL.');
	const path = url.pathname.replace(/\/+$/, '');
	return ok(`${url.protocol}//${url.host}${path}`);
}

/** A header-safe token: trimmed, non-empty, no spaces or control characters. */
function checkPlainToken(input: string, what: string, example: string): Checked {
	const text = input.trim();
	if (!text) return problem(`Enter the ${what}${example}.`);
	if (text.length > MAX_LENGTH) return problem(`The ${what} is too long; paste only the ${what} itself.`);
	if (/\s/.test(text) || CONTROL.test(text)) return problem(`The ${what} cannot contain spaces or line breaks; paste only the ${what} itself.`);
	return ok(text);
}

/** User Group InstanceID or API InstanceID. */
export function checkInstanceId(input: string): Checked {
	return checkPlainToken(input, 'InstanceID', ' (you find it on the management page of the data platform)');
}

/** The user's DeviceToken (some services accept a JWT in its place). */
export function checkDeviceToken(input: string): Checked {
	return checkPlainToken(input, 'device token', '');
}

/** The API Login, an email address. */
export function checkEmail(input: string): Checked {
	const text = input.trim();
	if (!text) return problem('Enter the API login, the email address shown on the management page of the data platform.');
	if (text.length > 320 || /\s/.test(text) || CONTROL.test(text) || !/^[^@]+@[^@]+\.[^@.]+$/.test(text)) {
		return problem('Enter the API login as an email address, for example api@example.com.');
	}
	return ok(text);
}

/** InstanceKey or API password: taken as typed (not trimmed), but never empty. */
export function checkPassword(input: string, what: 'InstanceKey' | 'API password'): Checked {
	if (!input || !input.trim()) return problem(`Enter the ${what}.`);
	if (input.length > MAX_LENGTH) return problem(`The ${what} is too long; paste only the ${what} itself.`);
	if (CONTROL.test(input)) return problem(`The ${what} cannot contain line breaks; paste only the ${what} itself.`);
	return ok(input);
}
