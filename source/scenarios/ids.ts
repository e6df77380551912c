/**
 * Deterministic identifiers for scenario data: the same scenario always plays the same uids, so tests and
 * screenshots are reproducible. Not random, not secret: they only need to look like what a cluster hands out.
 */

/** 32-bit FNV-1a. */
function fnv1a(text: string): number {
	let hash = 0x81_1C_9D_C5;
	for (let i = 0; i < text.length; i++) {
		hash ^= text.charCodeAt(i);
		hash = Math.imul(hash, 0x01_00_01_93) >>> 0;
	}

	return hash >>> 0;
}

function hex(seed: string, words: number): string {
	let out = '';
	for (let i = 0; i < words; i++) {
		out += fnv1a(`${i}:${seed}`).toString(16).padStart(8, '0');
	}

	return out;
}

/** A UUID-shaped (version 4 layout) id derived from `seed`. */
export function uuidFor(seed: string): string {
	const h = hex(seed, 4);
	const variant = ((Number.parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
	return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Lower-case alphanumeric suffix like kanctl's `<action>-<rand5>` names. */
export function suffixFor(seed: string, length = 5): string {
	const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
	let value = fnv1a(seed);
	let out = '';
	for (let i = 0; i < length; i++) {
		out += alphabet[value % alphabet.length];
		value = Math.floor(value / alphabet.length) || fnv1a(`${i}${seed}`);
	}

	return out;
}

/** Hex tail of an event name (`<object>.<16 hex>`), as client-go derives it from the timestamp. */
export function eventNameFor(involvedName: string, timeMs: number, sequence: number): string {
	const nanos = (BigInt(Math.max(0, Math.floor(timeMs))) * 1_000_000n) + BigInt(sequence);
	return `${involvedName}.${nanos.toString(16).padStart(16, '0')}`;
}
