// Checks what a person types into the login steps before anything is sent. Messages say what to do
// and never repeat the input (a password in the wrong field must not reach the screen or a log).
import { untranslated, type Translate } from '../util/translate';
import { withoutTrailingSlashes, isLoopbackHost } from '../util/url';
import type { Checked } from '../util/checked';


const ok = (value: string): Checked => ({ ok: true, value });
const problem = (message: string): Checked => ({ ok: false, message });

/** Longest value we accept in any field; a JWT used as device token fits. */
const MAX_LENGTH = 8192;

/** Control characters (CR/LF would split an HTTP header) and other invisible breakers. */
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The service URL as typed: trimmed, `https://` (or `http://` for a loopback host), no
 * credentials, query or fragment. The value is normalized: no trailing slash.
 */
export function checkServiceUrl(input: string, t: Translate = untranslated): Checked {
	const text = input.trim();
	if (!text) return problem(t('Enter the service URL, for example https://user.telematicssdk.com.'));
	if (/\s/.test(text) || CONTROL.test(text)) return problem(t('Remove the spaces from the URL.'));
	if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return problem(t('Start the URL with https://, for example https://user.telematicssdk.com.'));
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return problem(t('This is not a valid URL. Use the form https://host[:port], for example https://user.telematicssdk.com.'));
	}
	const loopback = isLoopbackHost(url.hostname);
	if (url.protocol === 'http:' && !loopback) {
		return problem(t('Use https://. Plain http:// is accepted only for the local emulator on localhost, 127.x.x.x or [::1].'));
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') return problem(t('Use an https:// URL.'));
	if (!url.hostname) return problem(t('Add the host name, for example https://user.telematicssdk.com.'));
	if (url.username || url.password || /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(text)) {
		return problem(t('Remove the user name and password from the URL; credentials are asked for in the next steps.'));
	}
	if (text.includes('?')) return problem(t('Remove the query (the part from "?") from the URL.'));
	if (text.includes('#')) return problem(t('Remove the fragment (the part from "#") from the URL.'));
	const path = withoutTrailingSlashes(url.pathname);
	return ok(`${url.protocol}//${url.host}${path}`);
}

/** What a plain-token field says when it is empty, too long, or has spaces or line breaks. */
interface FieldMessages {
	empty: string;
	tooLong: string;
	spaces: string;
}

function instanceIdMessages(t: Translate): FieldMessages {
	return {
		empty: t('Enter the InstanceID (you find it on the management page of the data platform).'),
		tooLong: t('The InstanceID is too long; paste only the InstanceID itself.'),
		spaces: t('The InstanceID cannot contain spaces or line breaks; paste only the InstanceID itself.'),
	};
}

function deviceTokenMessages(t: Translate): FieldMessages {
	return {
		empty: t('Enter the device token.'),
		tooLong: t('The device token is too long; paste only the device token itself.'),
		spaces: t('The device token cannot contain spaces or line breaks; paste only the device token itself.'),
	};
}

/** A header-safe token: trimmed, non-empty, no spaces or control characters. */
function checkPlainToken(input: string, messages: FieldMessages): Checked {
	const text = input.trim();
	if (!text) return problem(messages.empty);
	if (text.length > MAX_LENGTH) return problem(messages.tooLong);
	if (/\s/.test(text) || CONTROL.test(text)) return problem(messages.spaces);
	return ok(text);
}

/** User Group InstanceID or API InstanceID. */
export function checkInstanceId(input: string, t: Translate = untranslated): Checked {
	return checkPlainToken(input, instanceIdMessages(t));
}

/** The admin's API InstanceID, which the vendor's current credentials may not have: empty is accepted, as `''` (no `InstanceId` header). */
export function checkOptionalInstanceId(input: string, t: Translate = untranslated): Checked {
	return input.trim() ? checkInstanceId(input, t) : ok('');
}

/** The user's DeviceToken (some services accept a JWT in its place). */
export function checkDeviceToken(input: string, t: Translate = untranslated): Checked {
	return checkPlainToken(input, deviceTokenMessages(t));
}

/** The API Login, an email address. */
export function checkEmail(input: string, t: Translate = untranslated): Checked {
	const text = input.trim();
	if (!text) return problem(t('Enter the API login, the email address shown on the management page of the data platform.'));
	if (text.length > 320 || /\s/.test(text) || CONTROL.test(text) || !/^[^@]+@[^@]+\.[^@.]+$/.test(text)) {
		return problem(t('Enter the API login as an email address, for example api@example.com.'));
	}
	return ok(text);
}

function passwordMessages(what: 'InstanceKey' | 'API password', t: Translate): FieldMessages {
	return what === 'InstanceKey'
		? {
			empty: t('Enter the InstanceKey.'),
			tooLong: t('The InstanceKey is too long; paste only the InstanceKey itself.'),
			spaces: t('The InstanceKey cannot contain line breaks; paste only the InstanceKey itself.'),
		}
		: {
			empty: t('Enter the API password.'),
			tooLong: t('The API password is too long; paste only the API password itself.'),
			spaces: t('The API password cannot contain line breaks; paste only the API password itself.'),
		};
}

/** InstanceKey or API password: taken as typed (not trimmed), but never empty. */
export function checkPassword(input: string, what: 'InstanceKey' | 'API password', t: Translate = untranslated): Checked {
	const messages = passwordMessages(what, t);
	if (!input || !input.trim()) return problem(messages.empty);
	if (input.length > MAX_LENGTH) return problem(messages.tooLong);
	if (CONTROL.test(input)) return problem(messages.spaces);
	return ok(input);
}
