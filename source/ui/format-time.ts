/**
 * Ages and wall-clock times as the views print them (durations: model/format-duration.ts). Pure: callers pass
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

const pad2 = (n: number): string => String(n).padStart(2, '0');

/**
 * Local wall-clock time of an ISO timestamp: `11:02:51` on the same day as `now`, `2021-06-10 09:14` otherwise.
 * Undefined for a missing or unparsable time.
 */
export function formatClockTime(iso: string | undefined, now: number): string | undefined {
	if (!iso) {
		return undefined;
	}

	const t = Date.parse(iso);
	if (Number.isNaN(t)) {
		return undefined;
	}

	const date = new Date(t);
	const today = new Date(now);
	const time = `${pad2(date.getHours())}:${pad2(date.getMinutes())}`;
	if (date.toDateString() === today.toDateString()) {
		return `${time}:${pad2(date.getSeconds())}`;
	}

	return `${date.getFullYear()}-${pad2(date.getMonth() + 1)}-${pad2(date.getDate())} ${time}`;
}

/** Milliseconds from an ISO time to `now`; undefined when the time is missing or unparsable. */
export function ageOf(iso: string | undefined, now: number): number | undefined {
	if (!iso) {
		return undefined;
	}

	const t = Date.parse(iso);
	return Number.isNaN(t) ? undefined : now - t;
}
