/**
 * THE display width of text in terminal cells, for every column the project lines up (plain output, TUI cells,
 * media): string-width, the function Ink itself lays text out with, so our columns and Ink's agree on CJK,
 * fullwidth forms and emoji (two cells), combining marks (none) and everything else (one).
 */
import stringWidth from 'string-width';

const segmenter = new Intl.Segmenter(undefined, {granularity: 'grapheme'});

// Printable ASCII takes one cell a character: most names, words and numbers, measured without string-width's
// grapheme work (every tree row's name is measured whenever its object changes).
const printableAscii = /^[\u0020-\u007E]*$/;

// Other text is measured once: the same few non-ASCII texts (status icons, the cursor, fold marks, an ellipsis,
// a row's cells) come again on every render of a row; string-width segments each into graphemes (~3-4 % of the
// main thread in a profile of the side bench's 100 updates/s window). Bounded: starts over when full.
const maxMeasured = 4096;
const measured = new Map<string, number>();

/** Cells `text` takes (no escape sequences expected: text here is sanitized). */
export function displayWidth(text: string): number {
	if (printableAscii.test(text)) {
		return text.length;
	}

	let width = measured.get(text);
	if (width === undefined) {
		if (measured.size >= maxMeasured) {
			measured.clear();
		}

		width = stringWidth(text);
		measured.set(text, width);
	}

	return width;
}

/** The longest start of `text` that fits in `width` cells, never splitting a character (grapheme). */
export function sliceToWidth(text: string, width: number): string {
	if (width <= 0) {
		return '';
	}

	let used = 0;
	let end = 0;
	for (const {segment, index} of segmenter.segment(text)) {
		const w = stringWidth(segment);
		if (used + w > width) {
			return text.slice(0, end);
		}

		used += w;
		end = index + segment.length;
	}

	return text;
}
