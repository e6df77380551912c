/**
 * Whether a store change can show: the design rule that nothing off screen costs a frame, read from what is on
 * screen (on-screen.ts). An object the screen depends on shows a change only when something it draws changed: a
 * field of its own (the tree aside), the rows its tree shows for the fold choices in force (a node inside a
 * collapsed subtree is not drawn), a drawn field of a node on such a row, its timer, or, on the tree screen, the row
 * the cursor rests on. Any other object only when its outcome changes (the header counts it) or it moves between
 * the list's groups (failed, running, the rest: the rows shift) or its cells change width or its timer changes (the
 * column widths come from every object). Anything else (an object added or deleted, the connection, …) shows. The
 * header's counts and event age follow the 1 Hz tick instead. Pure.
 */
import type {PlanObject} from '../model/plan-tree.js';
import {sameFieldsExcept} from '../model/same-fields.js';
import type {StoreChange} from '../state/change-log.js';
import type {NodeTiming} from '../state/store.js';
import type {TextWidths} from './list-columns.js';
import {attentionRank} from './list-rows.js';
import type {OnScreen, ShownObject} from './on-screen.js';
import {cursorIndex, treeLayout} from './tree-rows.js';

/** `changes` undefined: unknown (too many, or not only objects in place): it shows. */
export function changesShow(screen: OnScreen, changes: readonly StoreChange[] | undefined): boolean {
	return changes === undefined || changes.some(change => changeShows(screen, change));
}

/** Whether one change can show (`changesShow` for a single change). */
export function changeShows(screen: OnScreen, change: StoreChange): boolean {
	const shown = screen.objects.get(change.key);
	if ('eventsOnly' in change) {
		return shown !== undefined;
	}

	const {before, after} = change;
	if (shown) {
		return !sameTiming(change.timingBefore, change.timingAfter) || !drawnAlike(before, after, shown);
	}

	if (!screen.widths) {
		return false;
	}

	// A new outcome also moves the header's counts: the frame a wait ends on must not show the old ones.
	return before.outcome !== after.outcome
		|| attentionRank(before) !== attentionRank(after)
		|| !sameWidths(screen.widths(before), screen.widths(after))
		|| !sameTiming(change.timingBefore, change.timingAfter);
}

/** Fields of an object no view draws: a new resourceVersion alone, or a later update time, changes nothing shown. */
const undrawnObjectFields: ReadonlySet<string> = new Set(['tree', 'resourceVersion', 'updatedAt']);

/** Whether the screen draws `after` as it drew `before`. */
export function drawnAlike(before: PlanObject, after: PlanObject, shown: ShownObject): boolean {
	if (before === after) {
		return true;
	}

	if (!sameFieldsExcept(before, after, undrawnObjectFields)) {
		return false;
	}

	const was = treeLayout(before.tree, shown.folds);
	// Laid out from the rows before: the nodes kept by identity keep their rows, so the walk below skips them.
	const now = treeLayout(after.tree, shown.folds, before.tree);
	if (was.rows.length !== now.rows.length) {
		return false;
	}

	for (const [i, row] of now.rows.entries()) {
		const old = was.rows[i]!;
		if (row.node !== old.node && (row.depth !== old.depth || row.expanded !== old.expanded || row.expandable !== old.expandable
			|| !sameFieldsExcept(old.node, row.node, nodeChildren))) {
			return false;
		}
	}

	// The tree screen's cursor rests on the running node until the user moves it: it may move with a hidden node.
	if (!shown.cursor) {
		return true;
	}

	const id = shown.cursor.id;
	return cursorIndex(was.rows, was.parents, id, before.tree, was.index) === cursorIndex(now.rows, now.parents, id, after.tree, now.index);
}

const nodeChildren: ReadonlySet<string> = new Set(['children']);

/** Every column's width (a column added to TextWidths is compared without a change here). */
function sameWidths(a: TextWidths, b: TextWidths): boolean {
	return (Object.keys(a) as Array<keyof TextWidths>).every(column => a[column] === b[column]);
}

function sameTiming(a: NodeTiming | undefined, b: NodeTiming | undefined): boolean {
	return a?.startedAt === b?.startedAt && a?.endedAt === b?.endedAt && a?.atLeast === b?.atLeast;
}
