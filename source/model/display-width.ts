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

/** Cells `text` takes (no escape sequences expected: text here is sanitized). */
export function displayWidth(text: string): number {
	return printableAscii.test(text) ? text.length : stringWidth(text);
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
