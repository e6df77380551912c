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
