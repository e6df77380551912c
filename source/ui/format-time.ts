/**
 * Ages as the views print them (durations: model/format-duration.ts; clock times: model/clock-time.ts). Pure: callers pass
 * the clock's `now`, so frames are deterministic in tests.
 */

/** How long ago, in the largest whole unit: `58s`, `3m`, `5h`, `2d`. */
export function formatAge(ms: number): string {
	const seconds = Math.max(0, Math.floor(ms / 1000));
	if (seconds < 60) {
		return `${seconds}s`;
	}

	if (seconds < 3600) {
		return `${Math.floor(seconds / 60)}m`;
	}

	if (seconds < 48 * 3600) {
		return `${Math.floor(seconds / 3600)}h`;
	}

	return `${Math.floor(seconds / 86_400)}d`;
}

/** Milliseconds from an ISO time to `now`; undefined when the time is missing or unparsable. */
export function ageOf(iso: string | undefined, now: number): number | undefined {
	if (!iso) {
		return undefined;
	}

	const t = Date.parse(iso);
	return Number.isNaN(t) ? undefined : now - t;
}
