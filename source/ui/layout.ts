/**
 * Line budget of a frame. The whole frame stays within `rows - 1` lines so Ink never falls back to clearing the
 * screen (a frame as tall as the terminal scrolls). Lines are handed out by importance: header, one body line,
 * the timeout banner, the object lines, the footer, then the body up to three lines, then the events pane and the
 * detail lines, and whatever is left goes to the body. Pure.
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

/** The events pane never takes more than this share of the screen. */
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
	let events = 0;
	if (request.events > 0) {
		events = take(Math.min(request.events, Math.max(2, Math.floor((request.rows - 1) * eventsShare))));
		if (events === 1) {
			// A title with no room for a single event says nothing: give the line back.
			left += 1;
			events = 0;
		}
	}

	const detail = take(request.detail);
	return {header, top, banner, footer, body: bodyMin + bodyMore + left, events, detail};
}
