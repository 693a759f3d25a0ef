// Where a run's minutes go: each file's suite timed from its first hook to its last (hooks included, which
// mocha's own durations leave out), printed slowest first when the run ends.
import type Mocha from 'mocha';

export function printSuiteTimes(runner: Mocha.Runner, write: (line: string) => void): void {
	const started = new Map<Mocha.Suite, number>();
	const times: Array<{ title: string; ms: number }> = [];
	runner.on('suite', (suite) => {
		if (suite.parent?.root) started.set(suite, Date.now());
	});
	runner.on('suite end', (suite) => {
		const start = started.get(suite);
		if (start !== undefined) times.push({ title: suite.title, ms: Date.now() - start });
	});
	runner.once('end', () => {
		const total = times.reduce((sum, t) => sum + t.ms, 0);
		write(`Time per suite, hooks included (${(total / 1000).toFixed(1)} s in all):`);
		for (const t of times.sort((a, b) => b.ms - a.ms)) write(`  ${(t.ms / 1000).toFixed(1).padStart(6)} s  ${t.title}`);
	});
}
