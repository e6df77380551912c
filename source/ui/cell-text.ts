/**
 * Fitting text into cells. Layout only, not sanitizing: the adapters already removed control characters; here
 * line breaks and tabs become spaces so a tree row can never turn into two rows.
 */
import {displayWidth, sliceToWidth} from '../model/display-width.js';
import {lineBreakMarker} from '../model/sanitize.js';

const lineBreaks = /[\r\n\t]/;

/**
 * Collapse line breaks and tabs so the text stays on one row; the sanitizer's line-break marker becomes
 * `lineBreak` (the theme's: ASCII output must not carry `⏎`).
 */
export function singleLine(text: string, lineBreak = lineBreakMarker): string {
	// Most text is one line already: a tree's columns are measured from every row whenever its object changes.
	if (!lineBreaks.test(text) && (lineBreak === lineBreakMarker || !text.includes(lineBreakMarker))) {
		return text;
	}

	const flat = text.replaceAll(/\s*[\r\n]+\s*/g, ' ').replaceAll('\t', ' ');
	return lineBreak === lineBreakMarker ? flat : flat.replaceAll(lineBreakMarker, lineBreak);
}

/** Cut to `width` cells, marking the cut with `ellipsis`; a wide character that would straddle the end goes. */
export function truncate(text: string, width: number, ellipsis = '…'): string {
	if (width <= 0) {
		return '';
	}

	if (displayWidth(text) <= width) {
		return text;
	}

	const mark = displayWidth(ellipsis);
	if (width <= mark) {
		return sliceToWidth(text, width);
	}

	return sliceToWidth(text, width - mark) + ellipsis;
}

/** Truncate, then pad with spaces to exactly `width` cells. */
export function fit(text: string, width: number, ellipsis = '…'): string {
	const cut = truncate(text, width, ellipsis);
	return cut + ' '.repeat(Math.max(0, width - displayWidth(cut)));
}

/** Right-align in `width` cells. */
export function fitRight(text: string, width: number): string {
	const cut = truncate(text, width, '');
	return ' '.repeat(Math.max(0, width - displayWidth(cut))) + cut;
}
