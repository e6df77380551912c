/**
 * What is on screen now: the one home of that answer. The App computes it once per render from the list or the
 * tree and its window; the render gate (screen-interest.ts: a store change to anything not here costs no frame)
 * and the watch wants (state/watch-wants.ts: the pods and logs of the nodes shown) both read it. Pure.
 */
import type {PlanNode, PlanObject} from '../model/plan-tree.js';
import type {TextWidths} from './list-columns.js';
import {listKey} from './list-rows.js';
import type {ScrollWindow} from './scroll-window.js';
import {rowsIn, type TreeList} from './tree-list.js';
import {noFoldOverrides, type FoldOverrides, type TreeRow} from './tree-rows.js';

/** One line of the body: an object's own row (no `node`), or one of its plan nodes. */
export type OnScreenRow = {readonly key: string; readonly object: PlanObject; readonly node?: PlanNode};

/** A row of a plan node. */
export type NodeOnScreen = OnScreenRow & {readonly node: PlanNode};

/** How an object the screen depends on is drawn: its tree's visible rows follow these fold choices. */
export type ShownObject = {
	readonly folds: FoldOverrides;
	/** The tree screen: the cursor row the user chose (undefined: it rests on the running node). */
	readonly cursor?: {readonly id: string | undefined};
};

/** The rows of a window: `start` up to `end`. */
type Shown = Pick<ScrollWindow, 'start' | 'end'>;

export type OnScreen = {
	/** `help`: the overlay covers the body, no row is shown. */
	readonly screen: 'list' | 'tree' | 'help';
	/** The body's rows in the window. */
	readonly rows: readonly OnScreenRow[];
	/**
	 * Objects whose changes can move what is drawn, by key: those with rows in the window, every expanded object
	 * of the list (its rows shift the rows below), the objects the list's first screen walked for default
	 * expansion, the tree screen's open object.
	 */
	readonly objects: ReadonlyMap<string, ShownObject>;
	/** The list is shown: the cell widths of any object (cached per object) feed its column widths. */
	readonly widths?: (object: PlanObject) => TextWidths;
};

export const nothingOnScreen: OnScreen = {screen: 'help', rows: [], objects: new Map()};

/** The list's rows in its window. `folds`: the fold choices per object key (the view's). */
export function listOnScreen(
	list: TreeList,
	window: Shown,
	folds: ReadonlyMap<string, FoldOverrides>,
	widths: (object: PlanObject) => TextWidths,
): OnScreen {
	const objects = new Map<string, ShownObject>();
	const add = (key: string) => {
		if (!objects.has(key)) {
			objects.set(key, {folds: folds.get(key) ?? noFoldOverrides});
		}
	};

	const rows = rowsIn(list, window.start, window.end).map(row => {
		add(row.key);
		const node = row.type === 'node' ? {node: row.row.node} : {};
		return {key: row.key, object: row.object, ...node};
	});
	for (const block of list.blocks) {
		add(block.key);
	}

	for (let i = 0; i < list.walked; i++) {
		add(listKey(list.objects[i]!));
	}

	return {screen: 'list', rows, objects, widths};
}

/**
 * The open object's tree rows in the tree screen's window (the object's lines above them name it too). `key`: the
 * open key (its object may be missing: not there yet, or gone).
 */
export function treeOnScreen(
	key: string | undefined,
	object: PlanObject | undefined,
	tree: {readonly rows: readonly TreeRow[]; readonly overrides: FoldOverrides} | undefined,
	window: Shown,
	cursor: string | undefined,
): OnScreen {
	const objects = new Map<string, ShownObject>();
	if (key !== undefined) {
		objects.set(key, {folds: tree?.overrides ?? noFoldOverrides, cursor: {id: cursor}});
	}

	if (!object || key === undefined) {
		return {screen: 'tree', rows: [], objects};
	}

	const rows = tree ? tree.rows.slice(window.start, window.end).map(row => ({key, object, node: row.node})) : [];
	return {screen: 'tree', rows: [{key, object}, ...rows], objects};
}

/** The plan nodes on screen, e.g. `(r) => r.node.state === 'running'` for the running ones. */
export function onScreenNodes(screen: OnScreen, wanted: (row: NodeOnScreen) => boolean = () => true): NodeOnScreen[] {
	return screen.rows.filter((row): row is NodeOnScreen => row.node !== undefined && wanted(row as NodeOnScreen));
}
