/**
 * Go-style durations for --timeout and --extend: `45s`, `5m`, `1h30m`, `1.5h`, `300ms`; `0` means none.
 * Same grammar as Go's time.ParseDuration (what kubectl users type), minus negative values.
 */
import {shownInput} from './sanitize.js';

const unitMs: Record<string, number> = {
	ns: 1e-6,
	us: 1e-3,
	µs: 1e-3, // U+00B5 micro sign
	μs: 1e-3, // U+03BC Greek mu
	ms: 1,
	s: 1000,
	m: 60_000,
	h: 3_600_000,
};

const part = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;

/** Milliseconds (0 = none), or undefined when the text is not a duration. */
export function parseDuration(text: string): number | undefined {
	const s = text.trim();
	if (s === '0') {
		return 0;
	}

	if (s === '' || s.startsWith('-') || s.startsWith('+')) {
		return undefined;
	}

	let total = 0;
	part.lastIndex = 0;
	while (part.lastIndex < s.length) {
		const m = part.exec(s);
		if (!m) {
			return undefined;
		}

		total += Number(m[1]) * unitMs[m[2]!]!;
	}

	return Math.round(total);
}

/** A duration flag's value as milliseconds, or the one-line usage error to print. */
export function durationFlag(flag: string, text: string): {ms: number} | {error: string} {
	const ms = parseDuration(text);
	return ms === undefined ? {error: `invalid duration for ${flag}: "${shownInput(text)}" (use e.g. 45s, 5m, 1h30m; 0 = none)`} : {ms};
}
