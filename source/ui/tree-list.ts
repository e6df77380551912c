/**
 * The list as a tree: every object is a top-level row that expands in place to the rows of its plan tree (the
 * rows its own tree screen shows, one level deeper). Pure.
 *
 * Which objects start expanded: the running ones (outcome `running`, queued plans included), in list order, as long
 * as the whole of each fits on the first screen (`budget` lines); the rest, and everything finished, stay
 * collapsed. The user's choices (`expand`) win. The walk stops at the first screen, so a list of thousands costs
 * what fits on a screen; an object the user expanded further down is found by its key.
 */
import type {PlanObject} from '../model/plan-tree.js';
import {listKey} from './list-rows.js';
import {noFoldOverrides, treeLayoutOf, type FoldOverrides, type TreeLayout, type TreeRow} from './tree-rows.js';

/** One line of the list: an object, or a node of an expanded object's tree. */
export type ListRow =
	| {readonly type: 'object'; readonly object: PlanObject; readonly key: string; readonly expandable: boolean; readonly expanded: boolean}
	| {readonly type: 'node'; readonly object: PlanObject; readonly key: string; readonly row: TreeRow; readonly block: TreeBlock};

/** An expanded object: its place in the list and its tree's visible rows. */
export type TreeBlock = {
	/** Index of the object in the list's objects. */
	readonly index: number;
	readonly key: string;
	/** The tree screen's layout for the same fold choices (node ids, parents). */
	readonly layout: TreeLayout;
	/** `layout.rows`, one level deeper (below the object's row). */
	readonly rows: readonly TreeRow[];
	/** Tree rows of the blocks before this one: the object's row is at `index + before`. */
	readonly before: number;
};

export type TreeList = {
	readonly objects: readonly PlanObject[];
	/** Expanded objects, in list order. */
	readonly blocks: readonly TreeBlock[];
	/** Rows: objects plus the rows of their expanded trees. */
	readonly total: number;
	/** The first objects, looked at for default expansion: a change to one of them can open or close its tree. */
	readonly walked: number;
};

export type TreeListOptions = {
	/** The user's choices per object key: expanded or collapsed. */
	readonly expand: ReadonlyMap<string, boolean>;
	/** Fold choices per object key inside its tree (shared with the tree screen). */
	readonly folds: ReadonlyMap<string, FoldOverrides>;
	/** Lines of the first screen: running objects start expanded while their rows fit in it. */
	readonly budget: number;
};

/** Whether an object starts expanded (when it fits): its work is not done. */
export function startsExpanded(object: PlanObject): boolean {
	return object.outcome === 'running';
}

const shifted = new WeakMap<readonly TreeRow[], readonly TreeRow[]>();

/** An expanded object's rows in the list for its fold choices (a block's `rows`): the same array for the same tree. */
export function listTreeRows(object: PlanObject, folds: FoldOverrides): readonly TreeRow[] {
	return deeper(treeLayoutOf(listKey(object), object.tree, folds).rows);
}

/** Tree rows one level deeper, remembered per layout (the same rows keep the same objects, so rows stay memoized). */
function deeper(rows: readonly TreeRow[]): readonly TreeRow[] {
	let found = shifted.get(rows);
	if (!found) {
		found = rows.map(r => ({...r, depth: r.depth + 1}));
		shifted.set(rows, found);
	}

	return found;
}

const keyIndexes = new WeakMap<readonly PlanObject[], Map<string, number>>();

/** Index of the object with `key`, or -1; the key → index map is built once per list, only when asked. */
function indexByKey(objects: readonly PlanObject[], key: string): number {
	let map = keyIndexes.get(objects);
	if (!map) {
		map = new Map(objects.map((o, i) => [listKey(o), i]));
		keyIndexes.set(objects, map);
	}

	return map.get(key) ?? -1;
}

export function buildTreeList(objects: readonly PlanObject[], options: TreeListOptions): TreeList {
	const {expand, folds, budget} = options;
	const found: Array<Omit<TreeBlock, 'before'>> = [];
	const layoutOf = (object: PlanObject, key: string) => treeLayoutOf(key, object.tree, folds.get(key) ?? noFoldOverrides);
	let used = 0;
	let walked = 0;
	for (; walked < objects.length && used < budget; walked++) {
		const object = objects[walked]!;
		const key = listKey(object);
		const choice = expand.get(key);
		used++;
		if (choice === false || (choice === undefined && !startsExpanded(object)) || object.tree.length === 0) {
			continue;
		}

		const layout = layoutOf(object, key);
		// A "↓ more" line follows when anything does: the tree must fit above it.
		const marker = walked + 1 < objects.length ? 1 : 0;
		if (choice === true || used + layout.rows.length + marker <= budget) {
			found.push({index: walked, key, layout, rows: deeper(layout.rows)});
			used += layout.rows.length;
		}
	}

	// Below the first screen only what the user expanded.
	let late = false;
	for (const [key, expanded] of expand) {
		if (!expanded) {
			continue;
		}

		const index = indexByKey(objects, key);
		const object = objects[index];
		if (index >= walked && object && object.tree.length > 0) {
			const layout = layoutOf(object, key);
			found.push({index, key, layout, rows: deeper(layout.rows)});
			late = true;
		}
	}

	if (late) {
		found.sort((a, b) => a.index - b.index);
	}

	let before = 0;
	const blocks = found.map(b => {
		const block = {...b, before};
		before += b.rows.length;
		return block;
	});
	return {objects, blocks, total: objects.length + before, walked};
}

/** The last block whose object row is at or above row `index`, by binary search. */
function blockAtOrAbove(list: TreeList, index: number): TreeBlock | undefined {
	let lo = 0;
	let hi = list.blocks.length - 1;
	let found: TreeBlock | undefined;
	while (lo <= hi) {
		const mid = (lo + hi) >> 1;
		const block = list.blocks[mid]!;
		if (block.index + block.before <= index) {
			found = block;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}

	return found;
}

/** The block of the object at `objectIndex`, if it is expanded. */
function blockOf(list: TreeList, objectIndex: number): TreeBlock | undefined {
	let lo = 0;
	let hi = list.blocks.length - 1;
	while (lo <= hi) {
		const mid = (lo + hi) >> 1;
		const block = list.blocks[mid]!;
		if (block.index === objectIndex) {
			return block;
		}

		if (block.index < objectIndex) {
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}

	return undefined;
}

function objectRow(list: TreeList, index: number): ListRow | undefined {
	const object = list.objects[index];
	if (!object) {
		return undefined;
	}

	return {type: 'object', object, key: listKey(object), expandable: object.tree.length > 0, expanded: blockOf(list, index) !== undefined};
}

/** The row at `index`: O(log expanded objects). */
export function rowAt(list: TreeList, index: number): ListRow | undefined {
	if (index < 0 || index >= list.total) {
		return undefined;
	}

	const block = blockAtOrAbove(list, index);
	if (!block) {
		return objectRow(list, index);
	}

	const offset = index - block.index - block.before;
	if (offset === 0) {
		return {type: 'object', object: list.objects[block.index]!, key: block.key, expandable: true, expanded: true};
	}

	if (offset <= block.rows.length) {
		return {type: 'node', object: list.objects[block.index]!, key: block.key, row: block.rows[offset - 1]!, block};
	}

	return objectRow(list, block.index + offset - block.rows.length);
}

/** Rows `start` up to `end`: what a window of the list shows. */
export function rowsIn(list: TreeList, start: number, end: number): ListRow[] {
	const out: ListRow[] = [];
	for (let i = Math.max(0, start); i < Math.min(end, list.total); i++) {
		out.push(rowAt(list, i)!);
	}

	return out;
}

/**
 * Row of the object `key` (or of its node `nodeId`), or -1 when the object is not listed. A node inside a folded
 * parent (or a collapsed object) lands on its nearest visible ancestor, the object's row at last. `hint`: the
 * object's index last time, tried first (the same object frame after frame).
 */
export function indexOfRow(list: TreeList, key: string, nodeId?: string, hint?: {current: number}): number {
	let index = hint && list.objects[hint.current] !== undefined && listKey(list.objects[hint.current]!) === key
		? hint.current
		: indexByKey(list.objects, key);
	if (index === -1) {
		return -1;
	}

	if (hint) {
		hint.current = index;
	}

	const block = blockOf(list, index);
	index += beforeObject(list, index);
	if (!block || nodeId === undefined) {
		return index;
	}

	let id: string | undefined = nodeId;
	while (id !== undefined) {
		const at = block.layout.index.get(id);
		if (at !== undefined) {
			return index + 1 + at;
		}

		id = block.layout.parents.get(id);
	}

	return index;
}

/** Tree rows above the object at `objectIndex` (the blocks of the objects before it). */
function beforeObject(list: TreeList, objectIndex: number): number {
	let lo = 0;
	let hi = list.blocks.length - 1;
	let rows = 0;
	while (lo <= hi) {
		const mid = (lo + hi) >> 1;
		const block = list.blocks[mid]!;
		if (block.index < objectIndex) {
			rows = block.before + block.rows.length;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}

	return rows;
}
