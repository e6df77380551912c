/**
 * Line budget of a frame. The whole frame stays within `rows - 1` lines so Ink never falls back to clearing the
 * screen (a frame as tall as the terminal scrolls). Lines are handed out by importance: header, one body line,
 * the timeout banner, the object lines, the footer, then the body up to three lines, the detail lines, then the
 * events pane (up to 40% of the screen, or all the body does not need), and whatever is left goes to the body.
 * Pure.
 */
export type LayoutRequest = {
	/** Terminal rows. */
	readonly rows: number;
	/** Lines above the body: object title + summary (tree), filter + column header (list). */
	readonly top: number;
	readonly banner: boolean;
	/** Lines the events pane would like (title + events); 0 when closed. */
	readonly events: number;
	/** Lines the detail of the selected node would like. */
	readonly detail: number;
	/** Lines the body would use if it could (rows of the tree or list); unknown = as many as it gets. */
	readonly bodyWanted?: number;
};

export type Layout = {
	readonly header: number;
	readonly top: number;
	readonly banner: number;
	readonly footer: number;
	/** Most lines the body (tree, list, help) may use. */
	readonly body: number;
	readonly events: number;
	readonly detail: number;
};

/** The events pane gets up to this share of the screen, more when the body does not need the room. */
const eventsShare = 0.4;

export function computeLayout(request: LayoutRequest): Layout {
	let left = Math.max(0, request.rows - 1);
	const take = (wanted: number): number => {
		const n = Math.max(0, Math.min(wanted, left));
		left -= n;
		return n;
	};

	const header = take(1);
	const bodyMin = take(1);
	const banner = take(request.banner ? 1 : 0);
	const top = take(request.top);
	const footer = take(1);
	const bodyMore = take(2);
	const detail = take(request.detail);
	let events = 0;
	if (request.events > 0) {
		const bodyNeeds = Math.max(0, (request.bodyWanted ?? Number.POSITIVE_INFINITY) - bodyMin - bodyMore);
		const share = Math.max(2, Math.floor((request.rows - 1) * eventsShare), left - bodyNeeds);
		events = take(Math.min(request.events, share));
		if (events === 1) {
			// A title with no room for a single event says nothing: give the line back.
			left += 1;
			events = 0;
		}
	}

	return {header, top, banner, footer, body: bodyMin + bodyMore + left, events, detail};
}

/**
 * Which key hints of the footer fit in `width` cells (two spaces between them): a hint is shown whole or not at
 * all, never cut. Those that `keep` says must stay (help, back, quit) stay; the others give way from the end,
 * the least used first (the keymap lists the hints by use). Returns the indexes shown, in order.
 */
export function fitHints(widths: readonly number[], width: number, keep: (index: number) => boolean): number[] {
	const shown = widths.map((_, i) => i);
	const total = () => shown.reduce((sum, i) => sum + widths[i]!, 0) + 2 * Math.max(0, shown.length - 1);
	for (let at = shown.length - 1; at >= 0 && total() > width; at--) {
		if (!keep(shown[at]!)) {
			shown.splice(at, 1);
		}
	}

	return shown;
}
