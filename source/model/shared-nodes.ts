/**
 * Plan nodes are immutable values, and thousands of objects carry the same ones: every finished ActionSet of one
 * Blueprint has the same deferPhase node, every Instance of one OperatorVersion the same NEVER_RUN plans. The store
 * keeps one copy of each distinct node (children included) instead of one per object and per adaptation: at 10 000
 * watched objects the adapted trees were most of the heap the objects take.
 *
 * The table is bounded: when full it starts again (the nodes already shared stay shared, the table only forgets
 * them), so nodes of deleted objects or of old adaptations are held at most until then.
 */
import type {PlanNode} from './plan-tree.js';
import {sameFieldsExcept} from './same-fields.js';

const noChildren: readonly PlanNode[] = Object.freeze([]);

/** Sanitized text holds no control characters: this separates the parts of a key. */
const separator = '\u0000';

/** Longest JSON of a value field (a Kanister output or artifacts map) that still goes into a key. */
const maxValueKey = 4096;

/**
 * What tells a node apart, children aside: every field with its name (an explicit undefined too), so a field added
 * to PlanNode later is part of the key without a change here. A value field (`output`, `artifacts`: bounded JSON
 * data) counts by its JSON text while that is short. Undefined when a field is anything else.
 */
function ownKey(node: PlanNode): string | undefined {
	let key = '';
	for (const name in node) {
		if (name === 'children' || !Object.hasOwn(node, name)) {
			continue;
		}

		const value: unknown = node[name as keyof PlanNode];
		const type = typeof value;
		if ((name === 'output' || name === 'artifacts') && type === 'object' && value !== null) {
			// Sanitized strings hold no NUL, and JSON escapes it anyway: the text cannot run into the next part.
			const json = JSON.stringify(value);
			if (json.length > maxValueKey) {
				return undefined;
			}

			key += `${name}${separator}j${json}${separator}`;
			continue;
		}

		if (type !== 'string' && type !== 'number' && type !== 'boolean' && value !== undefined) {
			return undefined;
		}

		key += `${name}${separator}${type === 'undefined' ? '' : type[0]}${String(value)}${separator}`;
	}

	return key;
}

const maxSharedTree = 200;

/** Nodes in `tree`, counted up to `limit`. */
function countUpTo(tree: readonly PlanNode[], limit: number, counted = 0): number {
	for (const node of tree) {
		counted = countUpTo(node.children, limit, counted + 1);
		if (counted >= limit) {
			break;
		}
	}

	return counted;
}

export class SharedNodes {
	readonly #limit: number;
	#byKey = new Map<string, PlanNode>();
	/** A short stand-in for each shared node, so a parent's key names its children without spelling them out. */
	readonly #serials = new WeakMap<PlanNode, number>();
	#next = 0;
	/** An adapted tree → its shared copy (nodes in a tree are immutable, so the copy stays right). */
	readonly #trees = new WeakMap<readonly PlanNode[], readonly PlanNode[]>();

	/**
	 * A small table is enough: nodes that repeat come back soon after a restart (each restart costs one more copy of
	 * them), while one holding every distinct node of a large cluster would keep thousands of long keys.
	 */
	constructor(limit = 4096) {
		this.#limit = limit;
	}

	/** Distinct nodes held now. */
	get size(): number {
		return this.#byKey.size;
	}

	/**
	 * The same tree, each node replaced by the equal one already held (or held from now on). A tree of more than
	 * `maxSharedTree` nodes is not put in the table: such plans are few, rarely equal to another object's, and
	 * building their keys on every update would cost ~1 ms per 500 nodes. Its nodes that did not change since
	 * `previous` (the same object's last adaptation) are kept instead, found by id: the rows of a 500-step plan whose
	 * running step moves on keep their nodes, only the few that changed (and their ancestors) are new.
	 */
	share(tree: readonly PlanNode[], previous?: readonly PlanNode[]): readonly PlanNode[] {
		// The very tree shared before (an adapter reused its last one): its shared copy, no key built again.
		const known = this.#trees.get(tree);
		if (known !== undefined) {
			return known;
		}

		if (countUpTo(tree, maxSharedTree) < maxSharedTree) {
			const shared = tree.map(node => this.#node(node));
			this.#trees.set(tree, shared);
			return shared;
		}

		return previous ? keptFrom(tree, previous) : tree;
	}

	#node(node: PlanNode): PlanNode {
		// Already one of the table's (an adapter reused the node of the object's last adaptation): its key is not
		// built again, nor its children's.
		if (this.#serials.has(node)) {
			return node;
		}

		const children = node.children.length === 0 ? noChildren : node.children.map(child => this.#node(child));
		const own = ownKey(node);
		if (own === undefined) {
			return children === node.children ? node : {...node, children};
		}

		let key = own;
		for (const child of children) {
			const serial = this.#serials.get(child);
			if (serial === undefined) {
				return {...node, children};
			}

			key += `${serial},`;
		}

		const found = this.#byKey.get(key);
		if (found) {
			return found;
		}

		if (this.#byKey.size >= this.#limit) {
			this.#byKey = new Map();
		}

		const kept = children === node.children ? node : {...node, children};
		this.#byKey.set(key, kept);
		this.#serials.set(kept, ++this.#next);
		return kept;
	}
}

/**
 * `tree` with each node equal to the one of the same id in `previous` (own fields and children) replaced by it.
 * The trees are walked side by side: a node is matched with the previous node at the same place when the ids
 * agree (an index of the whole previous tree is built only when they do not), and a node that already is the
 * previous one (the adapter kept it) is taken as it is, its subtree unread.
 */
function keptFrom(tree: readonly PlanNode[], previous: readonly PlanNode[]): readonly PlanNode[] {
	let before: Map<string, PlanNode> | undefined;
	const oldOf = (node: PlanNode, olds: readonly PlanNode[] | undefined, i: number): PlanNode | undefined => {
		const here = olds?.[i];
		if (here !== undefined && here.id === node.id) {
			return here;
		}

		if (!before) {
			before = new Map();
			const index = (nodes: readonly PlanNode[]): void => {
				for (const n of nodes) {
					before!.set(n.id, n);
					index(n.children);
				}
			};

			index(previous);
		}

		return before.get(node.id);
	};

	const keepAll = (nodes: readonly PlanNode[], olds: readonly PlanNode[] | undefined): readonly PlanNode[] => {
		let kept: PlanNode[] | undefined;
		for (let i = 0; i < nodes.length; i++) {
			const node = nodes[i]!;
			// Kept at its place (the adapter reused it), checked before any field of it is read.
			const next = olds?.[i] === node ? node : keep(node, oldOf(node, olds, i));
			if (next !== node) {
				kept ??= nodes.slice(0, i);
			}

			kept?.push(next);
		}

		return kept ?? nodes;
	};

	const keep = (node: PlanNode, old: PlanNode | undefined): PlanNode => {
		if (node === old) {
			return node;
		}

		const children = node.children.length === 0 ? node.children : keepAll(node.children, old?.children);
		const same = old !== undefined && old.children.length === children.length
			&& children.every((child, i) => child === old.children[i]) && sameFieldsExcept(old, node, nodeChildren);
		if (same) {
			return old;
		}

		return children === node.children ? node : {...node, children};
	};

	const kept = keepAll(tree, previous);
	return kept.length === previous.length && kept.every((node, i) => node === previous[i]) ? previous : kept;
}

/** A kept node's own fields are compared: its children by identity, above. */
const nodeChildren: ReadonlySet<string> = new Set(['children']);
