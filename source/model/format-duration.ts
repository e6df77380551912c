/**
 * Durations for people. Two styles: clock style for aligned tree columns (`0:41`, `3:41`, `1:02:03`) and words
 * for sentences (`41s`, `1m12s`, `1h2m3s`). Both floor to whole seconds; negative or non-finite input reads as 0.
 */

function wholeSeconds(ms: number): number {
	return Number.isFinite(ms) && ms > 0 ? Math.floor(ms / 1000) : 0;
}

/** `m:ss` below an hour, `h:mm:ss` from an hour on. */
export function formatDuration(ms: number): string {
	const total = wholeSeconds(ms);
	const h = Math.floor(total / 3600);
	const m = Math.floor((total % 3600) / 60);
	const s = total % 60;
	const ss = String(s).padStart(2, '0');
	return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/**
 * Clock style when it fits in `width` characters, else the largest units that do (`546d11h`, `546d`, `13115h`):
 * a column never cuts a duration, which would read as a different one (`13115:55:12` cut to `13115:55`).
 * Wider than `width` only when not even whole days fit.
 */
export function formatDurationFitting(ms: number, width: number): string {
	const clock = formatDuration(ms);
	if (clock.length <= width) {
		return clock;
	}

	const total = wholeSeconds(ms);
	const days = Math.floor(total / 86_400);
	const hours = Math.floor(total / 3600);
	const candidates = [
		...(days > 0 ? [`${days}d${hours % 24}h`] : []),
		`${hours}h${Math.floor((total % 3600) / 60)}m`,
		`${hours}h`,
		...(days > 0 ? [`${days}d`] : []),
	];
	return candidates.find(text => text.length <= width) ?? `${days}d`;
}

/** `41s`, `1m12s`, `10m`, `1h`, `1h0m3s`: Go-like, without trailing zero units. */
export function formatDurationWords(ms: number): string {
	const total = wholeSeconds(ms);
	if (total === 0) {
		return '0s';
	}

	const h = Math.floor(total / 3600);
	const m = Math.floor((total % 3600) / 60);
	const s = total % 60;
	if (h > 0) {
		return `${h}h` + (m > 0 || s > 0 ? `${m}m` : '') + (s > 0 ? `${s}s` : '');
	}

	return m > 0 ? `${m}m` + (s > 0 ? `${s}s` : '') : `${s}s`;
}
