// One figure the benchmark prints.
export interface BenchRow {
	name: string;
	value: number | undefined;
	unit: string;
	/** e.g. `≤ 40 KB`; a row without one is informational. */
	target?: string;
	/** Why there is no value (the measurement could not run here). */
	note?: string;
}

/** Whether `value` meets a `≤ N` / `≥ N` target; undefined when there is nothing to compare. */
export function withinTarget(row: BenchRow): boolean | undefined {
	if (row.value === undefined || !row.target) return undefined;
	const m = /([≤≥<>]=?)\s*([\d.]+)/.exec(row.target);
	if (!m) return undefined;
	const limit = Number(m[2]);
	return m[1] === '≥' || m[1]!.startsWith('>') ? row.value >= limit : row.value <= limit;
}

export function median(samples: readonly number[]): number {
	const sorted = [...samples].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export const round = (n: number, digits = 2): number => Number(n.toFixed(digits));
