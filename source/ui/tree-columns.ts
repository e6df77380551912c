/**
 * Column widths of a plan tree's rows (the tree screen and an object's tree in the list), from the widest text of
 * each column and the line's width. Pure.
 *
 * A row is `› ` + NAME (indent, fold, icon, name) + `  STRATEGY` + `  STATUS` + `  TIMER` + `  message`. When the
 * widest row does not fit, the cells are found in this order: a status's reason (`pending (running per
 * progress)` → `pending (ru…`: the word stays, a marker shows the cut), the name down to 24 cells, the room kept
 * for messages, the strategy, the name down to 12. The status word and the timer never give way. With room, every
 * name is shown in full.
 */

/** The widest text of each column over the tree's visible rows. */
export type TreeNatural = {
	/** Indent, fold marker, icon and name. */
	readonly name: number;
	/** 0: no row has one. */
	readonly strategy: number;
	/** Status words with their reasons. */
	readonly status: number;
	/** Status words alone (the raw word, at most 14 cells). */
	readonly word: number;
	/** The timer, a spinner in front of it included; 0: no row has one. */
	readonly elapsed: number;
	/** Some row has text after its timer (a message, a note, an update time, an ETA). */
	readonly trailing: boolean;
};

export type TreeWidths = {readonly name: number; readonly strategy: number; readonly status: number; readonly elapsed: number};

/** Cells kept after the timer for a row's message (its two-cell gap included), while names are not cut short. */
const messageRoom = 12;
/** The name gives way to the message's room down to this many cells, and below it only to the state and timer. */
const nameShort = 24;
const nameMin = 12;

/** `marker`: cells of the theme's cut marker (`…` 1, ASCII `...` 3): a reason is cut to the word, a space and it. */
export function treeColumnWidths(natural: TreeNatural, width: number, marker = 1): TreeWidths {
	const w = {name: natural.name, strategy: natural.strategy, status: natural.status, elapsed: natural.elapsed};
	let reserve = natural.trailing ? messageRoom : 0;
	const used = () => 2 + w.name + (w.strategy > 0 ? 2 + w.strategy : 0) + 2 + w.status + (w.elapsed > 0 ? 2 + w.elapsed : 0) + reserve;
	// A reason is cut to the marker after the longest word and a space; without reasons there is nothing to cut.
	const statusFloor = Math.min(natural.status, natural.word + 1 + marker);
	const steps: ReadonlyArray<() => void> = [
		() => {
			w.status -= Math.max(0, Math.min(used() - width, w.status - statusFloor));
		},
		() => {
			w.name -= Math.max(0, Math.min(used() - width, w.name - Math.min(natural.name, nameShort)));
		},
		() => {
			reserve -= Math.max(0, Math.min(used() - width, reserve));
		},
		() => {
			w.strategy = 0;
		},
		() => {
			w.name -= Math.max(0, Math.min(used() - width, w.name - Math.min(natural.name, nameMin)));
		},
	];
	for (const step of steps) {
		if (used() <= width) {
			break;
		}

		step();
	}

	return w;
}
