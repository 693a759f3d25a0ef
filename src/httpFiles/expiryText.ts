// How long since something expired, and a clock time, in the words the lenses and
// diagnostics use. Pure: no `vscode`. (Time left uses session/token's `formatRemaining`.)

/** Time since something happened: `12 min`, `3 h`, `2 days`; under a minute: `<1 min`. */
export function formatElapsed(ms: number): string {
	const minutes = Math.floor(Math.max(0, ms) / 60_000);
	if (minutes < 1) return '<1 min';
	if (minutes < 60) return `${minutes} min`;
	const hours = Math.floor(minutes / 60);
	if (hours < 48) return `${hours} h`;
	return `${Math.floor(hours / 24)} days`;
}

/** `14:05` in local time; a date is added when it is not on the same day as `now`. */
export function formatClock(at: number, now: number): string {
	const date = new Date(at);
	const time = `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
	if (new Date(now).toDateString() === date.toDateString()) return time;
	const day = `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
	return `${day} ${time}`;
}
