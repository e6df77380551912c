/**
 * What the user is looking at: screen, cursors, folds, overlays, list filter. A pure reducer; the App feeds it
 * commands from the keymap plus the data they act on (`ViewContext`), and renders from the result.
 */
import {objectKey, type PlanObject} from '../model/plan-tree.js';
import type {Command, Mode} from './keymap.js';
import {indexOfRow, rowAt, type ListRow, type TreeList} from './tree-list.js';
import {
	allExpanded, cursorIndex, expandableNodes, noFoldOverrides, treeLayoutOf, type FoldOverrides, type Parents, type TreeRow,
} from './tree-rows.js';

export type Screen = 'list' | 'tree';

export type ViewState = {
	readonly screen: Screen;
	/** Whether there is a list to go back to (false when exactly one object was targeted). */
	readonly hasList: boolean;
	/** Object key shown in the tree screen. */
	readonly openKey?: string;
	/** Per object: the node id under the cursor. Missing = follow the running step. */
	readonly treeCursors: ReadonlyMap<string, string>;
	/** Object key under the list cursor. */
	readonly listCursor?: string;
	/** Node id under the list cursor inside that object's tree; undefined: the object's own row. */
	readonly listNode?: string;
	/** Per object: the user's choice to expand its tree in the list (otherwise running ones start expanded). */
	readonly listExpand: ReadonlyMap<string, boolean>;
	/** Per object: the user's fold choices. */
	readonly folds: ReadonlyMap<string, FoldOverrides>;
	readonly help: boolean;
	/** Help lines scrolled off the top (the overlay can be taller than the terminal). */
	readonly helpScroll: number;
	readonly events: boolean;
	/** List filter text (matches namespace/name). */
	readonly filter: string;
	/** The filter prompt has the keyboard. */
	readonly filterEditing: boolean;
	readonly failingOnly: boolean;
	/** The user asked to quit; the App tells the wait session and its owner once. */
	readonly quit: boolean;
};

/** The data a command acts on, as currently shown. */
export type ViewContext = {
	/** The object open in the tree screen. */
	readonly object?: PlanObject;
	/** The list as shown (after filters): objects and the rows of their expanded trees. */
	readonly list?: TreeList;
	/** Lines of the body: how far PgUp/PgDn move. */
	readonly page: number;
	/** How far the help overlay can scroll at the current size. */
	readonly helpScrollMax?: number;
};

export type ViewAction =
	| {readonly type: 'command'; readonly command: Command; readonly context: ViewContext}
	/** Text typed into the filter prompt. */
	| {readonly type: 'filter.type'; readonly text: string};

export function initialViewState(targets?: readonly string[]): ViewState {
	const single = targets?.length === 1 ? targets[0] : undefined;
	return {
		screen: single === undefined ? 'list' : 'tree',
		hasList: single === undefined,
		openKey: single,
		treeCursors: new Map(),
		listExpand: new Map(),
		folds: new Map(),
		help: false,
		helpScroll: 0,
		events: false,
		filter: '',
		filterEditing: false,
		failingOnly: false,
		quit: false,
	};
}

/** Who gets the keys now. */
export function viewMode(state: ViewState): Mode {
	if (state.help) {
		return 'help';
	}

	if (state.screen === 'list' && state.filterEditing) {
		return 'filter';
	}

	return state.screen;
}

function withEntry<V>(map: ReadonlyMap<string, V>, key: string, value: V): ReadonlyMap<string, V> {
	const next = new Map(map);
	next.set(key, value);
	return next;
}

function moveBy(index: number, delta: number, count: number): number {
	return Math.min(Math.max(index + delta, 0), Math.max(count - 1, 0));
}

/** Cursor movement shared by both screens: the new index, or undefined for other commands. */
function movement(command: Command, index: number, count: number, page: number): number | undefined {
	const pageStep = Math.max(1, page - 2);
	switch (command) {
		case 'cursor.up': {
			return moveBy(index, -1, count);
		}

		case 'cursor.down': {
			return moveBy(index, 1, count);
		}

		case 'cursor.top': {
			return 0;
		}

		case 'cursor.bottom': {
			return Math.max(count - 1, 0);
		}

		case 'cursor.pageUp': {
			return moveBy(index, -pageStep, count);
		}

		case 'cursor.pageDown': {
			return moveBy(index, pageStep, count);
		}

		default: {
			return undefined;
		}
	}
}

/** The tree of `object` as the view shows it: visible rows and the cursor row (-1 when there are none). */
export type TreeSelection = {
	readonly rows: readonly TreeRow[];
	readonly cursor: number;
	readonly parents: Parents;
	readonly overrides: FoldOverrides;
};

export function treeSelection(state: ViewState, object: PlanObject): TreeSelection {
	const key = objectKey(object);
	return selectTree(object, state.folds.get(key), state.treeCursors.get(key));
}

/**
 * The same from exactly what it depends on, so the App can memoize it. The rows are remembered per tree and fold
 * choices (treeLayout): a walk of the whole tree (tens of milliseconds for 100 000 steps) happens when the object or
 * the folds change, never per tick or per cursor move.
 */
export function selectTree(object: PlanObject, overrides: FoldOverrides = noFoldOverrides, cursorId?: string): TreeSelection {
	const {rows, parents, index} = treeLayoutOf(objectKey(object), object.tree, overrides);
	return {rows, parents, overrides, cursor: cursorIndex(rows, parents, cursorId, object.tree, index)};
}

function treeCommand(state: ViewState, command: Command, context: ViewContext): ViewState {
	const {object} = context;
	if (!object) {
		return state;
	}

	const key = objectKey(object);
	const {rows, parents, overrides, cursor: index} = treeSelection(state, object);
	const row = rows[index];
	if (!row) {
		return state;
	}

	const setCursor = (id: string): ViewState => ({...state, treeCursors: withEntry(state.treeCursors, key, id)});
	const setFold = (id: string, expanded: boolean): ViewState => ({
		...setCursor(row.node.id),
		folds: withEntry(state.folds, key, withEntry(overrides, id, expanded)),
	});

	const moved = movement(command, index, rows.length, context.page);
	if (moved !== undefined) {
		return setCursor(rows[moved]!.node.id);
	}

	switch (command) {
		case 'fold.collapse': {
			if (row.expandable && row.expanded) {
				return setFold(row.node.id, false);
			}

			return row.parentId === undefined ? state : setCursor(row.parentId);
		}

		case 'fold.expand': {
			if (row.expandable && !row.expanded) {
				return setFold(row.node.id, true);
			}

			const child = rows[index + 1];
			return row.expanded && child ? setCursor(child.node.id) : state;
		}

		case 'fold.toggle': {
			return row.expandable ? setFold(row.node.id, !row.expanded) : state;
		}

		case 'fold.all': {
			const nodes = expandableNodes(object.tree);
			const expand = !allExpanded(object.tree, overrides);
			const folds = new Map(nodes.map(n => [n.id, expand]));
			let cursor = row.node.id;
			if (!expand) {
				// Everything folds to the top level: keep the cursor on the plan it was in.
				while (parents.get(cursor) !== undefined) {
					cursor = parents.get(cursor)!;
				}
			}

			return {...state, folds: withEntry(state.folds, key, folds), treeCursors: withEntry(state.treeCursors, key, cursor)};
		}

		default: {
			return state;
		}
	}
}

/** The list cursor on `row`: its object, and its node when it is one. */
function onListRow(state: ViewState, row: ListRow): ViewState {
	const listNode = row.type === 'node' ? row.row.node.id : undefined;
	return state.listCursor === row.key && state.listNode === listNode ? state : {...state, listCursor: row.key, listNode};
}

function listCommand(state: ViewState, command: Command, context: ViewContext): ViewState {
	const {list} = context;
	if (!list) {
		return state;
	}

	const index = Math.max(0, state.listCursor === undefined ? 0 : indexOfRow(list, state.listCursor, state.listNode));
	const moved = movement(command, index, list.total, context.page);
	if (moved !== undefined) {
		const row = rowAt(list, moved);
		return row ? onListRow(state, row) : state;
	}

	const row = rowAt(list, index);
	switch (command) {
		case 'list.open': {
			if (!row) {
				return state;
			}

			// On a node: the tree opens with its cursor there.
			const treeCursors = row.type === 'node' ? withEntry(state.treeCursors, row.key, row.row.node.id) : state.treeCursors;
			return {...onListRow(state, row), screen: 'tree', openKey: row.key, treeCursors};
		}

		case 'filter.start': {
			return {...state, filterEditing: true};
		}

		case 'failing.toggle': {
			return {...state, failingOnly: !state.failingOnly};
		}

		default: {
			return row ? listFold(state, command, row, rowAt(list, index + 1)) : state;
		}
	}
}

/** ← → space x in the list: an object's row folds its tree away, a node's row folds as in the tree screen. */
function listFold(state: ViewState, command: Command, row: ListRow, next: ListRow | undefined): ViewState {
	const at = onListRow(state, row);
	const expand = (expanded: boolean): ViewState => ({...at, listExpand: withEntry(state.listExpand, row.key, expanded)});
	const fold = (id: string, expanded: boolean): ViewState => ({
		...at,
		folds: withEntry(state.folds, row.key, withEntry(state.folds.get(row.key) ?? noFoldOverrides, id, expanded)),
	});
	const intoChild = (): ViewState => (next && next.type === 'node' && next.key === row.key ? onListRow(state, next) : state);
	if (command === 'fold.all') {
		const nodes = expandableNodes(row.object.tree);
		const overrides = state.folds.get(row.key) ?? noFoldOverrides;
		const open = row.type === 'node' || row.expanded;
		const all = open && allExpanded(row.object.tree, overrides);
		const folds = withEntry(state.folds, row.key, new Map(nodes.map(n => [n.id, !all])));
		// Everything folds into the object's row, which keeps the cursor.
		return {
			...state,
			listCursor: row.key,
			listNode: all ? undefined : at.listNode,
			folds,
			listExpand: withEntry(state.listExpand, row.key, !all),
		};
	}

	if (row.type === 'object') {
		switch (command) {
			case 'fold.expand': {
				return row.expanded ? intoChild() : row.expandable ? expand(true) : state;
			}

			case 'fold.collapse': {
				return row.expanded ? expand(false) : state;
			}

			case 'fold.toggle': {
				return row.expandable ? expand(!row.expanded) : state;
			}

			default: {
				return state;
			}
		}
	}

	const tree = row.row;
	switch (command) {
		case 'fold.expand': {
			return tree.expandable && !tree.expanded ? fold(tree.node.id, true) : tree.expanded ? intoChild() : state;
		}

		case 'fold.collapse': {
			if (tree.expandable && tree.expanded) {
				return fold(tree.node.id, false);
			}

			// Up to the parent node, or to the object's row from a top-level node.
			return {...state, listCursor: row.key, listNode: tree.parentId};
		}

		case 'fold.toggle': {
			return tree.expandable ? fold(tree.node.id, !tree.expanded) : state;
		}

		default: {
			return state;
		}
	}
}

/** Esc: close the innermost thing that is open; with nothing left to close, quit. */
function back(state: ViewState): ViewState {
	if (state.help) {
		return {...state, help: false, helpScroll: 0};
	}

	if (state.events) {
		return {...state, events: false};
	}

	if (state.screen === 'tree' && state.hasList) {
		return {...state, screen: 'list'};
	}

	if (state.screen === 'list' && state.filter !== '') {
		return {...state, filter: ''};
	}

	return {...state, quit: true};
}

export function reduceView(state: ViewState, action: ViewAction): ViewState {
	if (state.quit) {
		return state;
	}

	if (action.type === 'filter.type') {
		return state.filterEditing ? {...state, filter: state.filter + action.text} : state;
	}

	const {command, context} = action;
	switch (command) {
		case 'quit': {
			return {...state, quit: true};
		}

		case 'back': {
			return back(state);
		}

		case 'help.toggle': {
			return {...state, help: !state.help, helpScroll: 0};
		}

		case 'events.toggle': {
			return {...state, events: !state.events};
		}

		case 'filter.commit': {
			return {...state, filterEditing: false};
		}

		case 'filter.cancel': {
			return {...state, filterEditing: false, filter: ''};
		}

		case 'filter.erase': {
			return {...state, filter: [...state.filter].slice(0, -1).join('')};
		}

		case 'timeout.extend':
		case 'timeout.retract':
		case 'copy.tree':
		case 'copy.json':
		case 'snapshot.save':
		case 'notify.toggle': {
			// Not view state: the App hands these to the wait session or its actions.
			return state;
		}

		default: {
			if (state.help) {
				return helpCommand(state, command, context);
			}

			return state.screen === 'tree' ? treeCommand(state, command, context) : listCommand(state, command, context);
		}
	}
}

/** Moving keys scroll the help overlay while it is open. */
function helpCommand(state: ViewState, command: Command, context: ViewContext): ViewState {
	const max = context.helpScrollMax ?? 0;
	const page = Math.max(1, context.page - 1);
	const moves: Partial<Record<Command, number>> = {
		'cursor.up': state.helpScroll - 1,
		'cursor.down': state.helpScroll + 1,
		'cursor.pageUp': state.helpScroll - page,
		'cursor.pageDown': state.helpScroll + page,
		'cursor.top': 0,
		'cursor.bottom': max,
	};
	const to = moves[command];
	if (to === undefined) {
		return state;
	}

	const helpScroll = Math.min(max, Math.max(0, to));
	return helpScroll === state.helpScroll ? state : {...state, helpScroll};
}
