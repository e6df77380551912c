/**
 * What is on screen now, row by row: the objects and plan nodes a person can see. The App reports it after each
 * frame; a reader that fetches more for what is shown (a node's pods or logs) asks `onScreenNodes` and hears of
 * a change through `subscribe`, and a store change whose object is not here costs no frame (screen-interest.ts).
 */
import {Listeners, type ExternalStore} from '../core/external-store.js';
import type {PlanNode, PlanObject} from '../model/plan-tree.js';
import {listKey} from './list-rows.js';
import type {ScrollWindow} from './scroll-window.js';
import {rowsIn, type TreeList} from './tree-list.js';
import type {TreeRow} from './tree-rows.js';

/** One line of the body: an object's own row (no `node`), or one of its plan nodes. */
export type OnScreenRow = {readonly key: string; readonly object: PlanObject; readonly node?: PlanNode};

/** A row of a plan node. */
export type NodeOnScreen = OnScreenRow & {readonly node: PlanNode};

/** The rows of a window: `start` up to `end`. */
type Shown = Pick<ScrollWindow, 'start' | 'end'>;

export type OnScreen = {
	/** `help`: the overlay covers the body, no row is shown. */
	readonly screen: 'list' | 'tree' | 'help';
	readonly rows: readonly OnScreenRow[];
};

export const nothingOnScreen: OnScreen = {screen: 'help', rows: []};

/** The list's rows in its window. */
export function listOnScreen(list: TreeList, window: Shown): OnScreen {
	return {
		screen: 'list',
		rows: rowsIn(list, window.start, window.end).map(row => {
			const node = row.type === 'node' ? {node: row.row.node} : {};
			return {key: row.key, object: row.object, ...node};
		}),
	};
}

/** The open object's tree rows in the tree screen's window (the object's lines above them name it too). */
export function treeOnScreen(object: PlanObject | undefined, rows: readonly TreeRow[], window: Shown): OnScreen {
	if (!object) {
		return {screen: 'tree', rows: []};
	}

	const key = listKey(object);
	return {screen: 'tree', rows: [{key, object}, ...rows.slice(window.start, window.end).map(row => ({key, object, node: row.node}))]};
}

/** The plan nodes on screen, e.g. `(r) => r.node.state === 'running'` for the running ones. */
export function onScreenNodes(screen: OnScreen, wanted: (row: NodeOnScreen) => boolean = () => true): NodeOnScreen[] {
	return screen.rows.filter((row): row is NodeOnScreen => row.node !== undefined && wanted(row as NodeOnScreen));
}

/** Where the App reports what it drew; readers subscribe. A new picture only when a row changed. */
export type ScreenWatch = ExternalStore<OnScreen> & {report(next: OnScreen): void};

export function screenWatch(): ScreenWatch {
	let current = nothingOnScreen;
	const listeners = new Listeners();
	return {
		subscribe: listener => listeners.add(listener),
		getSnapshot: () => current,
		report(next) {
			const same = next.screen === current.screen && next.rows.length === current.rows.length;
			if (same && next.rows.every((row, i) => sameRow(row, current.rows[i]!))) {
				return;
			}

			current = next;
			listeners.notify();
		},
	};
}

function sameRow(a: OnScreenRow, b: OnScreenRow): boolean {
	return a.key === b.key && a.object === b.object && a.node === b.node;
}
