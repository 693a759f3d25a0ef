// How long since something expired, and a clock time, in the words the lenses and
// diagnostics use. Pure: no `vscode`. (Time left uses session/token's `formatRemaining`.)
import { INVALID_TIME } from '../util/time';

/** Time since something happened: `12 min`, `3 h`, `2 days`; under a minute: `<1 min`. */
export function formatElapsed(ms: number): string {
	if (Number.isNaN(ms) || ms === Infinity) return INVALID_TIME;
	const minutes = Math.floor(Math.max(0, ms) / 60_000);
	if (minutes < 1) return '<1 min';
	if (minutes < 60) return `${minutes} min`;
	const hours = Math.floor(minutes / 60);
	if (hours < 48) return `${hours} h`;
	return `${Math.floor(hours / 24)} days`;
}
