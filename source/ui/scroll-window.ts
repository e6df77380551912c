/**
 * Which rows of a long list fit in `height` lines, keeping the cursor in view and moving as little as possible
 * from the previous offset. "↑ N more" / "↓ +N more" markers take a line each when rows are hidden. Pure.
 */
export type ScrollWindow = {
	/** First shown row. */
	readonly start: number;
	/** One past the last shown row. */
	readonly end: number;
	/** Rows hidden above (a marker line is drawn when > 0). */
	readonly above: number;
	/** Rows hidden below (a marker line is drawn when > 0). */
	readonly below: number;
};

/** Row slots left for content when the window starts at `offset`. */
function slots(offset: number, total: number, height: number): number {
	const top = offset > 0 ? 1 : 0;
	const rest = height - top;
	return offset + rest < total ? rest - 1 : rest;
}

export function scrollWindow(
	options: {readonly total: number; readonly height: number; readonly cursor: number; readonly offset?: number},
): ScrollWindow {
	const {total} = options;
	const height = Math.max(0, options.height);
	if (total <= height) {
		return {start: 0, end: total, above: 0, below: 0};
	}

	const cursor = Math.min(Math.max(options.cursor, 0), total - 1);
	// Too small for markers: just the rows around the cursor.
	if (height < 3) {
		const start = Math.min(Math.max(0, cursor - height + 1), total - height);
		return {start, end: start + height, above: start, below: total - start - height};
	}

	let offset = Math.min(Math.max(options.offset ?? 0, 0), total - 1);
	if (cursor < offset) {
		offset = cursor;
	}

	while (cursor >= offset + slots(offset, total, height)) {
		offset++;
	}

	// Don't leave blank lines at the bottom when the list could fill the window.
	while (offset > 0 && offset - 1 + slots(offset - 1, total, height) >= total && cursor >= offset - 1) {
		offset--;
	}

	const end = Math.min(total, offset + slots(offset, total, height));
	return {start: offset, end, above: offset, below: total - end};
}
