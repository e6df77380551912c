/**
 * One read from the terminal can hold several keys: key repeat, a busy event loop, SSH and a fast typist all
 * deliver `jj` or `jq` in one chunk, and Ink hands such a run of text to `useInput` as one string. The keymap
 * matches single keys, so the chunk is split here first: escape sequences stay whole, everything else is one
 * key per code point.
 */
import type {Key} from 'ink';

export type KeyPress = {readonly input: string; readonly key: Partial<Key>};

const esc = '\u001B';

/** Length of the escape sequence at `i` (CSI `ESC [ … final`, SS3 `ESC O x`, or ESC plus one character). */
function escapeLength(text: string, i: number): number {
	const next = text[i + 1];
	if (next === undefined) {
		return 1;
	}

	if (next === '[') {
		let j = i + 2;
		// Legacy function keys: `ESC [ [ A`.
		if (text[j] === '[') {
			j++;
		}

		while (j < text.length) {
			const c = text.charCodeAt(j);
			if (c >= 0x40 && c <= 0x7e) {
				return j + 1 - i;
			}

			if (c < 0x20 || c > 0x3f) {
				// Not a CSI byte: the sequence ended malformed here; what follows is its own key.
				return j - i;
			}

			j++;
		}

		return text.length - i;
	}

	if (next === 'O' && i + 2 < text.length) {
		return 3;
	}

	if (next === esc) {
		// ESC ESC [ A: meta + arrow in some terminals; one key.
		return 1 + escapeLength(text, i + 1);
	}

	return 1 + (text.codePointAt(i + 1)! > 0xff_ff ? 2 : 1);
}

/** The keys of one input chunk, in order. */
export function splitKeys(chunk: string): string[] {
	const keys: string[] = [];
	let i = 0;
	while (i < chunk.length) {
		if (chunk[i] === esc) {
			const length = escapeLength(chunk, i);
			keys.push(chunk.slice(i, i + length));
			i += length;
			continue;
		}

		// CR LF from a paste or a terminal in cooked mode is one Enter.
		if (chunk[i] === '\r' && chunk[i + 1] === '\n') {
			keys.push('\r');
			i += 2;
			continue;
		}

		const cp = chunk.codePointAt(i)!;
		const size = cp > 0xff_ff ? 2 : 1;
		keys.push(chunk.slice(i, i + size));
		i += size;
	}

	return keys;
}

const sequences: Readonly<Record<string, Partial<Key>>> = {
	'[A': {upArrow: true},
	'[B': {downArrow: true},
	'[C': {rightArrow: true},
	'[D': {leftArrow: true},
	OA: {upArrow: true},
	OB: {downArrow: true},
	OC: {rightArrow: true},
	OD: {leftArrow: true},
	'[H': {home: true},
	'[F': {end: true},
	OH: {home: true},
	OF: {end: true},
	'[1~': {home: true},
	'[7~': {home: true},
	'[4~': {end: true},
	'[8~': {end: true},
	'[5~': {pageUp: true},
	'[6~': {pageDown: true},
	'[3~': {delete: true},
};

/** A single key as `useInput` would describe it (what the keymap matches on). */
export function keyPressOf(sequence: string): KeyPress {
	if (sequence === esc) {
		return {input: '', key: {escape: true}};
	}

	if (sequence.startsWith(esc)) {
		const known = sequences[sequence.slice(1)];
		return known ? {input: '', key: known} : {input: sequence.slice(1), key: {meta: true}};
	}

	const code = sequence.charCodeAt(0);
	if (sequence === '\r' || sequence === '\n') {
		return {input: '', key: {return: true}};
	}

	if (sequence === '\t') {
		return {input: '', key: {tab: true}};
	}

	if (sequence === '\u007F' || sequence === '\b') {
		return {input: '', key: {backspace: true}};
	}

	if (code >= 0x01 && code <= 0x1a) {
		return {input: String.fromCharCode(code + 0x60), key: {ctrl: true}};
	}

	return {input: sequence, key: /^[A-Z]$/.test(sequence) ? {shift: true} : {}};
}

const namedKeys = [
	'upArrow', 'downArrow', 'leftArrow', 'rightArrow', 'pageUp', 'pageDown', 'home', 'end', 'return', 'escape', 'tab', 'backspace',
	'delete', 'ctrl', 'meta',
] as const;

/**
 * What `useInput` delivered, as single keys: a named key or a modified one is one key already; a run of text
 * (several characters Ink did not tell apart) is split.
 */
export function keyPresses(input: string, key: Partial<Key>): KeyPress[] {
	if (namedKeys.some(name => key[name] === true) || input.length <= 1) {
		return [{input, key}];
	}

	return splitKeys(input).map(keyPressOf);
}
