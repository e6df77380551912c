/**
 * THE sanitizer. Every string that comes from a Kubernetes object (or a file pretending to be one) passes
 * through here before it reaches state, the TUI, plain logs or JSON: cluster text is hostile (CVE-2021-25743:
 * escape sequences in an Event message can set the window title, write the clipboard, clear the screen or
 * overwrite lines). Ink's own stripping differs per major and keeps OSC 8, so we never rely on it.
 *
 * Removed: whole ESC-initiated sequences (CSI with its parameters, OSC up to BEL/ST, DCS/SOS/PM/APC up to ST,
 * two-character ESC sequences), their 8-bit C1 forms (0x9B CSI, 0x9D OSC, 0x90/0x98/0x9E/0x9F strings),
 * every other control, and every character that is invisible by Unicode category (see `invisible`); a
 * variation selector only where it does not follow a visible character. Lone UTF-16 surrogates become U+FFFD. The
 * result is cut to a maximum number of code points, ending in `…` when cut.
 */

/** Default cap for free text (messages, errors). */
export const maxMessageLength = 1000;
/** Default cap for names (Kubernetes names are at most 253 characters). */
export const maxNameLength = 253;

/** What a newline becomes in a one-line cell: visible, so a message never silently loses its structure. */
export const lineBreakMarker = ' ⏎ ';
/** The same marker for `--ascii` output; renderers swap it in (same width, so layout does not change). */
export const asciiLineBreakMarker = ' / ';

const ellipsis = '…';
const esc = 0x1b;
const bel = 0x07;

/**
 * Invisible by Unicode category, not by a list: controls (Cc), format characters (Cf: bidi controls, zero-width
 * characters, soft hyphen, U+206A–206F, tags, interlinear annotations, the Mongolian vowel separator…) and every
 * Default_Ignorable_Code_Point (Hangul fillers, combining grapheme joiner, reserved ignorables). They either draw
 * nothing or reorder what is drawn, so a name could hide or fake text.
 */
const invisible = /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]/u;

/** Variation selectors: meaningful right after a visible character (`❤️`), invisible anywhere else. */
export function isVariationSelector(cp: number): boolean {
	return (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef) || (cp >= 0x180b && cp <= 0x180d) || cp === 0x180f;
}

/**
 * Code points that never survive, whatever the mode (tab and newline are decided by the mode, U+2028/2029 become
 * line breaks, a variation selector is kept only after a visible character).
 */
export function isForbiddenCodePoint(cp: number): boolean {
	if (cp >= 0x20 && cp < 0x7f) {
		return false;
	}

	if (cp < 0x20) {
		return cp !== 0x09 && cp !== 0x0a;
	}

	if (cp >= 0xd800 && cp <= 0xdfff) {
		return true; // a surrogate code point on its own (never a valid scalar value)
	}

	return !isVariationSelector(cp) && invisible.test(String.fromCodePoint(cp));
}

type Mode = 'text' | 'line';

const printableAscii = /^[\x20-\x7e]*$/;

/**
 * Every code point the walk below may change, by mode: a string without any is returned as it is, so most
 * non-ASCII text (names in other scripts, multi-line messages) costs one regex test. Derived from the same
 * categories as `isForbiddenCodePoint`, plus what each mode rewrites (line breaks, U+2028/2029, tab in a line) and
 * the variation selectors (Default_Ignorable), which the walk keeps or drops by what precedes them. It may
 * match more than the walk changes (the walk then decides), never less: test/model/sanitize.test.ts feeds it
 * every code point.
 */
const walkNeeded: Readonly<Record<Mode, RegExp>> = {
	text: /[\0-\x08\x0B-\x1F\x7F-\x9F\p{Cf}\p{Cs}\p{Default_Ignorable_Code_Point}\u2028\u2029]/u,
	line: /[\p{Cc}\p{Cf}\p{Cs}\p{Default_Ignorable_Code_Point}\u2028\u2029]/u,
};

/**
 * A value the user typed (a flag value, an argument), as an error message may quote it: one line, no escape
 * sequences, cut to `max` code points. Typed text is as hostile as cluster text (it may come from a script).
 */
export function shownInput(value: unknown, max = 80): string {
	return sanitizeLine(value, max);
}

/** Multi-line text: keeps `\n` and tab; removes CR and everything unsafe. */
export function sanitizeText(value: unknown, max = maxMessageLength): string {
	return sanitize(value, max, 'text');
}

/**
 * One-line cell: like `sanitizeText`, but runs of line breaks become one visible ` ⏎ ` marker (none at the
 * start or end) and a tab becomes a space, so the cell's width is what it looks like.
 */
export function sanitizeLine(value: unknown, max = maxMessageLength): string {
	return sanitize(value, max, 'line');
}

function toRawString(value: unknown): string {
	if (typeof value === 'string') {
		return value;
	}

	if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') {
		return String(value);
	}

	return '';
}

/** Reads code points from a string; knows how to skip escape sequences. */
class Reader {
	i = 0;
	constructor(readonly s: string) {}

	get done(): boolean {
		return this.i >= this.s.length;
	}

	/** Next code point without consuming it; lone surrogates read as themselves. */
	peek(): number {
		return this.s.codePointAt(this.i)!;
	}

	next(): number {
		const c = this.peek();
		this.i += c > 0xff_ff ? 2 : 1;
		return c;
	}

	/** CSI body: parameter bytes 0x30–0x3F, intermediates 0x20–0x2F, then one final byte 0x40–0x7E. */
	skipCsiBody(): void {
		while (!this.done) {
			const c = this.peek();
			if (c >= 0x20 && c <= 0x3f) {
				this.i++;
				continue;
			}

			if (c >= 0x40 && c <= 0x7e) {
				this.i++;
			}

			// Anything else ends the (malformed) sequence; that character is judged on its own.
			return;
		}
	}

	/** A control string (OSC/DCS/SOS/PM/APC): everything up to ST (ESC \ or 0x9C), or BEL for OSC. Unterminated: to the end. */
	skipControlString(belEnds: boolean): void {
		while (!this.done) {
			const c = this.next();
			if (c === 0x9c || (belEnds && c === bel)) {
				return;
			}

			if (c === esc && !this.done && this.peek() === 0x5c) {
				this.i++;
				return;
			}
		}
	}

	/** After ESC: the rest of the sequence, whatever its type. */
	skipEscapeSequence(): void {
		if (this.done) {
			return;
		}

		const c = this.peek();
		switch (c) {
			case 0x5b: {
				// ESC [ = CSI
				this.i++;
				this.skipCsiBody();
				return;
			}

			case 0x5d: {
				// ESC ] = OSC (title, clipboard, hyperlink…)
				this.i++;
				this.skipControlString(true);
				return;
			}

			case 0x50: // ESC P = DCS
			case 0x58: // ESC X = SOS
			case 0x5e: // ESC ^ = PM
			case 0x5f: {
				// ESC _ = APC
				this.i++;
				this.skipControlString(false);
				return;
			}

			default: {
				// nF: intermediates 0x20–0x2F then a final 0x30–0x7E; Fp/Fe/Fs: one byte 0x30–0x7E.
				let j = this.i;
				while (j < this.s.length && this.s.charCodeAt(j) >= 0x20 && this.s.charCodeAt(j) <= 0x2f) {
					j++;
				}

				const f = j < this.s.length ? this.s.charCodeAt(j) : -1;
				if (f >= 0x30 && f <= 0x7e) {
					this.i = j + 1;
				} else {
					this.i = j;
				}
			}
		}
	}

	/** 8-bit C1 introducers carry a body just like their ESC forms. */
	skipC1Body(c: number): void {
		if (c === 0x9b) {
			this.skipCsiBody();
		} else if (c === 0x9d) {
			this.skipControlString(true);
		} else if (c === 0x90 || c === 0x98 || c === 0x9e || c === 0x9f) {
			this.skipControlString(false);
		}
	}
}

function sanitize(value: unknown, max: number, mode: Mode): string {
	if (!(max >= 1)) {
		return '';
	}

	const s = toRawString(value);
	// Nearly every string of an object is short printable ASCII, which nothing here changes: the same string back,
	// without a copy (an adapted object then shares its strings with the raw one) and without the walk below.
	if (s.length <= max && (printableAscii.test(s) || !walkNeeded[mode].test(s))) {
		return s;
	}

	const out: string[] = [];
	let count = 0;
	let pendingBreak = false; // line mode: a run of line breaks waiting for the next visible character
	const reader = new Reader(s);
	// Stop reading one past the cap: enough to know the text was cut, and bounded work for huge input.
	while (!reader.done && count <= max) {
		const c = reader.next();
		if (c === esc) {
			reader.skipEscapeSequence();
			continue;
		}

		if (c >= 0x80 && c <= 0x9f) {
			reader.skipC1Body(c);
			continue;
		}

		if (c === 0x0a || c === 0x2028 || c === 0x2029) {
			if (mode === 'text') {
				out.push('\n');
				count++;
			} else if (count > 0) {
				pendingBreak = true;
			}

			continue;
		}

		if (c === 0x09) {
			out.push(mode === 'text' ? '\t' : ' ');
			count++;
			continue;
		}

		let ch: string;
		if (c >= 0xd800 && c <= 0xdfff) {
			ch = '\uFFFD'; // codePointAt only returns a surrogate when it is unpaired
		} else if (isForbiddenCodePoint(c)) {
			continue;
		} else if (isVariationSelector(c) && (pendingBreak || !followsVisible(out))) {
			continue;
		} else {
			ch = String.fromCodePoint(c);
		}

		if (pendingBreak) {
			pendingBreak = false;
			for (const m of lineBreakMarker) {
				out.push(m);
				count++;
			}
		}

		out.push(ch);
		count++;
	}

	// The loop only stops early once something visible lies past the cap.
	return count > max ? cut(out, max) : out.join('');
}

/** Whether the last kept character can carry a variation selector (not a space, not another selector). */
function followsVisible(out: readonly string[]): boolean {
	const last = out.at(-1);
	return last !== undefined && !/^\s$/u.test(last) && !isVariationSelector(last.codePointAt(0)!);
}

function cut(out: string[], max: number): string {
	const kept = out.slice(0, max - 1);
	// Never end on the half of a line-break marker or a dangling space.
	while (kept.length > 0 && (kept.at(-1) === ' ' || kept.at(-1) === '⏎')) {
		kept.pop();
	}

	return kept.join('') + ellipsis;
}
