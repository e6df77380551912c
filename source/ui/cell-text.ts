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

/**
 * A part of a line for `fitParts`. `giveWay`: the order in which it is cut when the line is too long (1 first);
 * without it the part is never cut (state words, timers, keys). `min`: cells it keeps while others still can give.
 */
export type LinePart = {
	readonly text: string;
	readonly giveWay?: number;
	readonly min?: number;
	readonly keep?: number;
	readonly mark?: false;
};

/**
 * Fit the parts of one line into `width` cells: the parts that may give way are cut, in their order, each down
 * to its `min` (default: one character and the marker), then down to the marker alone, then to `keep` (default
 * nothing) — all but the last part to give way, which keeps its marker — every cut marked with `ellipsis` (`mark:
 * false`: padding, cut unmarked). The parts that never give way are returned whole, even when they alone are wider
 * than `width`.
 */
export function fitParts(parts: readonly LinePart[], width: number, ellipsis = '…'): string[] {
	const widths = parts.map(part => displayWidth(part.text));
	let excess = widths.reduce((a, b) => a + b, 0) - width;
	if (excess <= 0) {
		return parts.map(part => part.text);
	}

	const order = parts.map((part, i) => ({i, giveWay: part.giveWay})).filter(p => p.giveWay !== undefined);
	// Lowest `giveWay` first; among equals the later part first (the end of a line matters least).
	order.sort((a, b) => a.giveWay! - b.giveWay! || b.i - a.i);
	const target = [...widths];
	const markWidth = displayWidth(ellipsis);
	const floor = (i: number) => Math.min(widths[i]!, parts[i]!.min ?? Math.max(parts[i]!.keep ?? 0, markWidth + 1));
	// Below the floors a part keeps its marker alone; then the markers go too, all but the last part's (the cut shows).
	const marker = (i: number) => Math.min(target[i]!, parts[i]!.keep ?? (parts[i]!.mark === false ? 0 : markWidth));
	const marked = order.filter(({i}) => parts[i]!.mark !== false && parts[i]!.keep === undefined);
	const lastMark = marked.at(-1)?.i;
	const none = (i: number) => (i === lastMark ? target[i]! : Math.min(target[i]!, parts[i]!.keep ?? 0));
	for (const pass of [floor, marker, none]) {
		for (const {i} of order) {
			if (excess <= 0) {
				break;
			}

			const give = Math.max(0, Math.min(excess, target[i]! - pass(i)));
			target[i]! -= give;
			excess -= give;
		}
	}

	return parts.map((part, i) => {
		if (target[i] === widths[i]) {
			return part.text;
		}

		// truncate() cannot mark a cut as narrow as its marker: here the marker alone says something was there.
		if (part.mark !== false && target[i] === markWidth && markWidth > 0) {
			return ellipsis;
		}

		return truncate(part.text, target[i]!, part.mark === false ? '' : ellipsis);
	});
}

/**
 * Word-wrap `text` into at most `height` lines of `width` cells; when it needs more, the last line ends in
 * `ellipsis` so the cut shows. A word longer than a line is broken.
 */
export function wrapLines(text: string, width: number, height: number, ellipsis = '…'): string[] {
	if (width <= 0 || height <= 0) {
		return [];
	}

	const lines: string[] = [];
	let line = '';
	for (const word of text.split(' ')) {
		let rest = word;
		const joined = line === '' ? rest : `${line} ${rest}`;
		if (displayWidth(joined) <= width) {
			line = joined;
			continue;
		}

		if (line !== '') {
			lines.push(line);
		}

		while (displayWidth(rest) > width) {
			const head = sliceToWidth(rest, width);
			if (head === '') {
				// A character wider than the line: it cannot be placed (the caller's line is one cell wide).
				break;
			}

			lines.push(head);
			rest = rest.slice(head.length);
		}

		line = rest;
	}

	lines.push(line);
	if (lines.length <= height) {
		return lines;
	}

	// Two lines together are wider than one (the second did not fit after the first): the cut is always marked.
	const last = truncate(`${lines[height - 1]!} ${lines[height]!}`, width, ellipsis);
	return [...lines.slice(0, height - 1), last];
}
