// How an access token's expiry reads (status bar tooltip, Accounts view): the clock time plus
// the time left. Its own file so the activation bundle's status bar does not carry the tree model.
// Pure: no `vscode` import.
import { formatClockTime } from '../util/time';
import { untranslated, type Translate } from '../util/translate';
import { formatRemaining } from './token';

export interface ExpiryTextOptions {
	t?: Translate;
	/** Clock time of an epoch-ms instant; default: util/time's `formatClockTime` (a date when not today). */
	formatTime?: (ms: number) => string;
}

/** Clock time plus relative time: `14:05:00 (in 1h 59m)` or `14:05:00 (expired)`. */
export function describeExpiry(expiresAt: number, now: number, options: ExpiryTextOptions = {}): string {
	const t = options.t ?? untranslated;
	const clock = (options.formatTime ?? ((ms: number) => formatClockTime(ms, now)))(expiresAt);
	const remaining = expiresAt - now;
	return remaining > 0 ? t('{0} (in {1})', clock, formatRemaining(remaining)) : t('{0} (expired)', clock);
}
