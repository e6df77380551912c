/**
 * The visible rows of one object's plan tree, from the tree and the user's fold overrides. Pure.
 *
 * Default folding follows the work: a node is open when something under it (or itself) is running, retrying or
 * failed, so the active plan opens down to its running step while finished plans stay closed. KUDO plans other
 * than the active one stay closed whatever their previous run left behind; a queued active plan opens down to its
 * steps. The user's choices (`overrides`) win over the default.
 */
import type {NodeState, PlanNode} from '../model/plan-tree.js';

/** User fold choices of one object: node id → expanded. */
export type FoldOverrides = ReadonlyMap<string, boolean>;

/** No fold choices: one shared map, so the remembered layout of a tree (treeLayout) serves the list and the tree screen alike. */
export const noFoldOverrides: FoldOverrides = new Map();

export type TreeRow = {
	readonly node: PlanNode;
	readonly depth: number;
	readonly parentId?: string;
	readonly expandable: boolean;
	readonly expanded: boolean;
};

const attention = new Set<NodeState>(['running', 'retrying', 'failed']);

function needsAttention(node: PlanNode): boolean {
	return attention.has(node.state) || node.children.some(c => needsAttention(c));
}

/** An active plan that has not started: queued, or triggered and waiting for the controller. */
function isQueued(node: PlanNode | undefined): boolean {
	return node?.kind === 'plan' && Boolean(node.active) && node.state === 'pending';
}

/** Whether a node starts expanded; `parent`: the node it is a child of. */
export function defaultExpanded(node: PlanNode, parent?: PlanNode): boolean {
	if (node.children.length === 0) {
		return false;
	}

	// A queued plan opens down to its steps (its phases still read NEVER_RUN): what is about to run, before anything
	// moves.
	if (isQueued(parent)) {
		return true;
	}

	if (node.kind === 'plan' && !node.active) {
		return false;
	}

	if (needsAttention(node)) {
		return true;
	}

	// An active plan that is queued or just started: show its phases.
	return Boolean(node.active) && node.state === 'pending';
}

export function isExpanded(node: PlanNode, overrides: FoldOverrides, parent?: PlanNode): boolean {
	return node.children.length > 0 && (overrides.get(node.id) ?? defaultExpanded(node, parent));
}

/** Whether every node that has children is expanded (hidden ones included). */
export function allExpanded(tree: readonly PlanNode[], overrides: FoldOverrides): boolean {
	const visit = (nodes: readonly PlanNode[], parent: PlanNode | undefined): boolean =>
		nodes.every(node => node.children.length === 0 || (isExpanded(node, overrides, parent) && visit(node.children, node)));
	return visit(tree, undefined);
}

export function visibleRows(tree: readonly PlanNode[], overrides: FoldOverrides): TreeRow[] {
	const rows: TreeRow[] = [];
	const visit = (nodes: readonly PlanNode[], depth: number, parent: PlanNode | undefined): void => {
		for (const node of nodes) {
			const expanded = isExpanded(node, overrides, parent);
			rows.push({node, depth, parentId: parent?.id, expandable: node.children.length > 0, expanded});
			if (expanded) {
				visit(node.children, depth + 1, node);
			}
		}
	};

	visit(tree, 0, undefined);
	return rows;
}

/** Every node id → its parent id (undefined for top-level nodes). */
export function parentsOf(tree: readonly PlanNode[]): Map<string, string | undefined> {
	const parents = new Map<string, string | undefined>();
	const visit = (nodes: readonly PlanNode[], parentId: string | undefined): void => {
		for (const node of nodes) {
			parents.set(node.id, parentId);
			visit(node.children, node.id);
		}
	};

	visit(tree, undefined);
	return parents;
}

/** All nodes that have children, hidden ones included. */
export function expandableNodes(tree: readonly PlanNode[]): PlanNode[] {
	const found: PlanNode[] = [];
	const visit = (nodes: readonly PlanNode[]): void => {
		for (const node of nodes) {
			if (node.children.length > 0) {
				found.push(node);
				visit(node.children);
			}
		}
	};

	visit(tree);
	return found;
}

function deepestFirst(nodes: readonly PlanNode[], wanted: (node: PlanNode) => boolean): PlanNode | undefined {
	for (const node of nodes) {
		const below = deepestFirst(node.children, wanted);
		if (below) {
			return below;
		}

		if (wanted(node)) {
			return node;
		}
	}

	return undefined;
}

/**
 * Where the cursor rests until the user moves it: the running (or retrying) step, else the failed one, else the
 * active plan/action, else the first node.
 */
export function focusNodeId(tree: readonly PlanNode[]): string | undefined {
	// Remembered per (immutable) tree: until the user moves it, every key and frame asks where the cursor rests.
	if (focusIds.has(tree)) {
		return focusIds.get(tree);
	}

	// Only inside the active plan when there is one: an older plan's failure is history.
	const active = tree.filter(n => n.active);
	const scope = active.length > 0 ? active : tree;
	const id = (
		deepestFirst(scope, n => n.state === 'running' || n.state === 'retrying')
		?? deepestFirst(scope, n => n.state === 'failed')
		?? scope[0]
	)?.id;
	focusIds.set(tree, id);
	return id;
}

const focusIds = new WeakMap<readonly PlanNode[], string | undefined>();

/**
 * Index of the cursor row. A cursor on a hidden node (inside a folded parent) lands on its nearest visible
 * ancestor; an unknown or missing cursor falls back to the focus node, then to the first row.
 */
export function cursorIndex(
	rows: readonly TreeRow[],
	parents: Parents,
	cursorId: string | undefined,
	tree: readonly PlanNode[],
	index: ReadonlyMap<string, number> = rowIndex(rows),
): number {
	if (rows.length === 0) {
		return -1;
	}

	// The focus node is looked for (a walk of the whole tree) only when the cursor's own node is not there.
	for (const start of [() => cursorId, () => focusNodeId(tree)]) {
		let id = start();
		while (id !== undefined) {
			const i = index.get(id);
			if (i !== undefined) {
				return i;
			}

			id = parents.has(id) ? parents.get(id) : undefined;
		}
	}

	return 0;
}

/** Node id → row index. */
export function rowIndex(rows: readonly TreeRow[]): Map<string, number> {
	return new Map(rows.map((r, i) => [r.node.id, i]));
}

/** Node id → its parent id, of every node (hidden ones too). */
export type Parents = Pick<ReadonlyMap<string, string | undefined>, 'get' | 'has'>;

/** A tree's visible rows for one set of fold choices, with what finding the cursor in them needs. */
export type TreeLayout = {
	readonly rows: readonly TreeRow[];
	readonly parents: Parents;
	readonly index: ReadonlyMap<string, number>;
};

const layouts = new WeakMap<readonly PlanNode[], {readonly overrides: FoldOverrides; readonly layout: TreeLayout}>();
const parentMaps = new WeakMap<readonly PlanNode[], Map<string, string | undefined>>();

/**
 * visibleRows, parentsOf and rowIndex, remembered for the last fold choices of each (immutable) tree: moving the
 * cursor, or a key that changes nothing, in a 100 000-step plan then costs a lookup instead of three walks.
 * `previous`: the same object's tree before its last change. With its layout at hand (same fold choices), the rows
 * of every subtree kept by identity are that layout's rows, and the row index is kept when the rows' ids are the
 * same: an update of one step of a 500-step plan makes one new row, its ancestors' and nothing else.
 */
export function treeLayout(tree: readonly PlanNode[], overrides: FoldOverrides, previous?: readonly PlanNode[]): TreeLayout {
	const hit = layouts.get(tree);
	if (hit?.overrides === overrides) {
		return hit.layout;
	}

	const was = previous === undefined ? undefined : layouts.get(previous);
	const before = was?.overrides === overrides ? was.layout : undefined;
	const rows = before ? rowsFrom(tree, overrides, before.rows) : visibleRows(tree, overrides);
	const parents = lazyParents(tree);
	const index = before && sameIds(rows, before.rows) ? before.index : rowIndex(rows);
	const layout = {rows, parents, index};
	layouts.set(tree, {overrides, layout});
	return layout;
}

/** The last tree laid out per object key: what `treeLayoutOf` builds the next layout from. Bounded. */
const lastTrees = new Map<string, readonly PlanNode[]>();
const maxLastTrees = 256;

/** treeLayout of an object's tree (`key`: its objectKey), from the layout of its tree before, when one was made. */
export function treeLayoutOf(key: string, tree: readonly PlanNode[], overrides: FoldOverrides): TreeLayout {
	const previous = lastTrees.get(key);
	if (previous !== tree) {
		if (lastTrees.size >= maxLastTrees && previous === undefined) {
			lastTrees.clear();
		}

		lastTrees.set(key, tree);
	}

	return treeLayout(tree, overrides, previous);
}

/**
 * visibleRows of `tree`, taking from `old` (the rows of the tree before, same fold choices) the rows of each node
 * that is the very node at the same place with the same parent there: its whole visible subtree follows it there.
 * A node's default fold depends on its subtree and, through isQueued, on its parent: checked for the parent.
 */
function rowsFrom(tree: readonly PlanNode[], overrides: FoldOverrides, old: readonly TreeRow[]): TreeRow[] {
	const rows: TreeRow[] = [];
	let k = 0;
	const skipBelow = (depth: number): void => {
		while (k < old.length && old[k]!.depth > depth) {
			k++;
		}
	};

	const visit = (nodes: readonly PlanNode[], depth: number, parent: PlanNode | undefined, parentAlike: boolean): void => {
		for (const node of nodes) {
			const at = old[k];
			if (at !== undefined && at.node === node && at.depth === depth && parentAlike && at.parentId === parent?.id) {
				rows.push(at);
				k++;
				while (k < old.length && old[k]!.depth > depth) {
					rows.push(old[k++]!);
				}

				continue;
			}

			const expanded = isExpanded(node, overrides, parent);
			rows.push({node, depth, parentId: parent?.id, expandable: node.children.length > 0, expanded});
			if (at !== undefined && at.depth === depth && at.node.id === node.id) {
				// The same node, changed: its old row is used up, and its old children's rows follow when it was open.
				k++;
				if (expanded) {
					visit(node.children, depth + 1, node, at.expanded && isQueued(node) === isQueued(at.node));
				}

				skipBelow(depth);
			} else if (expanded) {
				visit(node.children, depth + 1, node, false);
			}
		}
	};

	visit(tree, 0, undefined, true);
	return rows;
}

/** Whether two row lists show the same node ids in the same order (rows taken over are the same objects). */
function sameIds(rows: readonly TreeRow[], old: readonly TreeRow[]): boolean {
	return rows.length === old.length && rows.every((row, i) => row === old[i] || row.node.id === old[i]!.node.id);
}

/**
 * The parents of a tree's nodes, walked for only when first asked: a tree whose cursor is on a visible row (the
 * running step after each update of a 500-step plan) never needs them.
 */
function lazyParents(tree: readonly PlanNode[]): Parents {
	const map = () => {
		let parents = parentMaps.get(tree);
		if (!parents) {
			parents = parentsOf(tree);
			parentMaps.set(tree, parents);
		}

		return parents;
	};

	return {get: id => map().get(id), has: id => map().has(id)};
}
