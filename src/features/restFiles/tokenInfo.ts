// What a token found in a file is: whose, and until when. Shared by the CodeLens, hover
// and diagnostics; decoding happens here, nothing is sent anywhere.
import vscode = require('../../system/vscodeApi');

import { findOwner, identityOf } from '../../core/restFile/tokenMatch';
import type { Services } from '../../services';
import { formatClockTime, formatElapsed, formatRemaining } from '../../core/util/time';

import type { Session } from '../../core/sessions/types';
import { knownTokens } from '../shared/freshToken';

export interface TokenInfo {
	owner?: Session;
	isCurrent: boolean;
	newerAvailable: boolean;
	/** From the `exp` claim, epoch ms. */
	expiresAt?: number;
	expired: boolean;
}

export function tokenInfo(services: Services, token: string, now: number): TokenInfo {
	const owner = findOwner(token, knownTokens(services));
	const exp = identityOf(token)?.exp;
	const expiresAt = exp === undefined ? undefined : exp * 1000;
	return {
		owner: owner ? services.store.get(owner.accountId) : undefined,
		isCurrent: owner?.isCurrent ?? false,
		newerAvailable: owner?.newerAvailable ?? false,
		expiresAt,
		expired: expiresAt !== undefined && expiresAt <= now,
	};
}

/** `expires 14:05 (in 1h 59m)`, `expired 12 min ago`, or `no expiry`. */
export function expiryPhrase(info: TokenInfo, now: number): string {
	if (info.expiresAt === undefined) return vscode.l10n.t('no expiry');
	if (info.expired) return vscode.l10n.t('expired {0} ago', formatElapsed(now - info.expiresAt));
	return vscode.l10n.t('expires {0} (in {1})', formatClockTime(info.expiresAt, now), formatRemaining(info.expiresAt - now));
}

export function ownerPhrase(info: TokenInfo): string {
	return info.owner?.account.label ?? vscode.l10n.t('not a logged-in account');
}
