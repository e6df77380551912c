/** Small statistics for the bench: percentiles of samples, and median/min/max of a figure over runs. */

/** Nearest-rank percentile (p in 0..100) of unsorted samples; undefined when there are none. */
export function percentile(samples: readonly number[], p: number): number | undefined {
	if (samples.length === 0) {
		return undefined;
	}

	const sorted = [...samples].sort((a, b) => a - b);
	const rank = Math.ceil((p / 100) * sorted.length);
	return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export type Spread = {readonly median: number; readonly min: number; readonly max: number; readonly runs: number};

/** Median, min and max of one figure over several runs (runs that produced no value are left out). */
export function spread(values: ReadonlyArray<number | undefined>): Spread | undefined {
	const known = values.filter((v): v is number => v !== undefined && Number.isFinite(v)).sort((a, b) => a - b);
	if (known.length === 0) {
		return undefined;
	}

	const middle = Math.floor(known.length / 2);
	const median = known.length % 2 === 1 ? known[middle]! : (known[middle - 1]! + known[middle]!) / 2;
	return {median, min: known[0]!, max: known.at(-1)!, runs: known.length};
}
