/**
 * Fitting text into cells. Layout only, not sanitizing: the adapters already removed control characters; here
 * line breaks and tabs become spaces so a tree row can never turn into two rows.
 */
import {lineBreakMarker} from '../model/sanitize.js';

/**
 * Collapse line breaks and tabs so the text stays on one row; the sanitizer's line-break marker becomes
 * `lineBreak` (the theme's: ASCII output must not carry `⏎`).
 */
export function singleLine(text: string, lineBreak = lineBreakMarker): string {
	const flat = text.replaceAll(/\s*[\r\n]+\s*/g, ' ').replaceAll('\t', ' ');
	return lineBreak === lineBreakMarker ? flat : flat.replaceAll(lineBreakMarker, lineBreak);
}

/** Width in terminal cells, counting code points (wide CJK is rare in object names; Ink clips any excess). */
export function cellWidth(text: string): number {
	let width = 0;
	for (const _ of text) {
		width++;
	}

	return width;
}

/** Cut to `width` cells, marking the cut with `ellipsis`. */
export function truncate(text: string, width: number, ellipsis = '…'): string {
	if (width <= 0) {
		return '';
	}

	const chars = [...text];
	if (chars.length <= width) {
		return text;
	}

	const mark = [...ellipsis];
	if (width <= mark.length) {
		return chars.slice(0, width).join('');
	}

	return chars.slice(0, width - mark.length).join('') + ellipsis;
}

/** Truncate, then pad with spaces to exactly `width` cells. */
export function fit(text: string, width: number, ellipsis = '…'): string {
	const cut = truncate(text, width, ellipsis);
	return cut + ' '.repeat(Math.max(0, width - cellWidth(cut)));
}

/** Right-align in `width` cells. */
export function fitRight(text: string, width: number): string {
	const cut = truncate(text, width, '');
	return ' '.repeat(Math.max(0, width - cellWidth(cut))) + cut;
}
