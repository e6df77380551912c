/**
 * Whether a store change can show: the design rule that nothing off screen costs a frame. An object re-adapted in
 * place shows when it is one the screen depends on (a row in the window, an expanded tree anywhere in the list,
 * the first screen's default expansion, the open object); any other object only when its outcome changes (the
 * header counts it) or it moves between the list's groups (failed, running, the rest: the rows shift) or its cells
 * change width or its timer changes (the column widths come from every object). Anything else (an object added or
 * deleted, the connection, …) shows. The header's counts and event age follow the 1 Hz tick instead. Pure.
 */
import type {PlanObject} from '../model/plan-tree.js';
import type {StoreChange} from '../state/change-log.js';
import type {NodeTiming} from '../state/store.js';
import type {TextWidths} from './list-columns.js';
import {attentionRank, listKey} from './list-rows.js';
import type {ScrollWindow} from './scroll-window.js';
import {rowsIn, type TreeList} from './tree-list.js';

/** The rows of a window: `start` up to `end`. */
type Shown = Pick<ScrollWindow, 'start' | 'end'>;

export type ScreenInterest = {
	/** Objects whose every change shows. */
	readonly keys: ReadonlySet<string>;
	/** The list is shown: the cell widths of any object (cached per object) feed its column widths. */
	readonly widths?: (object: PlanObject) => TextWidths;
};

/** Nothing of the objects is shown (the help overlay): only changes that are not an object's show. */
export const noInterest: ScreenInterest = {keys: new Set()};

/** The list screen: the rows in the window, every expanded object, and the objects the first screen walked. */
export function listInterest(list: TreeList, window: Shown, widths: (object: PlanObject) => TextWidths): ScreenInterest {
	const keys = new Set<string>();
	for (const row of rowsIn(list, window.start, window.end)) {
		keys.add(row.key);
	}

	// Their rows shift every row below them; an object the first screen walked may open or close by default.
	for (const block of list.blocks) {
		keys.add(block.key);
	}

	for (let i = 0; i < list.walked; i++) {
		keys.add(listKey(list.objects[i]!));
	}

	return {keys, widths};
}

/** The tree screen: the open object (its lines, tree and events). */
export function treeInterest(openKey: string | undefined): ScreenInterest {
	return {keys: new Set(openKey === undefined ? [] : [openKey])};
}

/** `changes` undefined: unknown (too many, or not only objects in place): it shows. */
export function changesShow(interest: ScreenInterest, changes: readonly StoreChange[] | undefined): boolean {
	return changes === undefined || changes.some(change => changeShows(interest, change));
}

function changeShows(interest: ScreenInterest, change: StoreChange): boolean {
	if (interest.keys.has(change.key)) {
		return true;
	}

	if ('eventsOnly' in change || !interest.widths) {
		return false;
	}

	const {before, after} = change;
	// A new outcome also moves the header's counts: the frame a wait ends on must not show the old ones.
	return before.outcome !== after.outcome
		|| attentionRank(before) !== attentionRank(after)
		|| !sameWidths(interest.widths(before), interest.widths(after))
		|| !sameTiming(change.timingBefore, change.timingAfter);
}

/** Every column's width (a column added to TextWidths is compared without a change here). */
function sameWidths(a: TextWidths, b: TextWidths): boolean {
	return (Object.keys(a) as Array<keyof TextWidths>).every(column => a[column] === b[column]);
}

function sameTiming(a: NodeTiming | undefined, b: NodeTiming | undefined): boolean {
	return a?.startedAt === b?.startedAt && a?.endedAt === b?.endedAt && a?.atLeast === b?.atLeast;
}
