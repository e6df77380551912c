/**
 * A change to one object on the list's screen that only changes that object's own cells (its PROGRESS, its
 * message, a step's state in its open tree) is drawn by re-rendering that object's rows alone: no App render, no
 * list, no header. The App's render gate hands such changes to this feed (`rowLocalChanges` says which they are);
 * the list's row components read their object from it when it is newer than the one the App gave them. The next
 * App render for any reason passes the latest objects as props again, and the feed's entries then stand aside.
 *
 * Everything the App computes from the objects must come out the same for a change to go this way: the list's order
 * and filter (the outcome and the attention group), the column widths (every cell's width and the row's timer),
 * the list's rows (the tree's visible rows: ids, depths and folds), the row's ETA, and the pods and logs the rows
 * on screen ask to watch. Anything else, or any doubt, renders the App as before.
 */
import type {Expectation} from '../model/eta.js';
import type {PlanNode, PlanObject} from '../model/plan-tree.js';
import type {StoreChange} from '../state/change-log.js';
import type {NodeTiming} from '../state/store.js';
import {watchWants} from '../state/watch-wants.js';
import type {Diagnosis} from '../model/diagnosis.js';
import type {TextWidths} from './list-columns.js';
import {attentionRank} from './list-rows.js';
import type {OnScreen} from './on-screen.js';
import {changeShows} from './screen-interest.js';
import {noFoldOverrides, treeLayoutOf, type FoldOverrides} from './tree-rows.js';

/** The latest state of one row's object, and what it was given by the App when this arrived. */
export type RowEntry = {
	/** The object the row had from the App's last render: the entry applies while that is still its prop. */
	readonly base: PlanObject;
	readonly object: PlanObject;
	/** The object's node timings then (the store's map of this object). */
	readonly timings: ReadonlyMap<string, NodeTiming> | undefined;
	/** What past runs say per node of the new object (the open tree's ETAs). */
	readonly expectations: ReadonlyMap<string, Expectation> | undefined;
};

export class RowFeed {
	readonly #rows = new Map<string, PlanObject>();
	readonly #entries = new Map<string, RowEntry>();
	readonly #listeners = new Map<string, Set<() => void>>();

	/** An object row is on screen with `object` (its prop from the App's last render). */
	register(key: string, object: PlanObject): () => void {
		this.#rows.set(key, object);
		const entry = this.#entries.get(key);
		if (entry && entry.base !== object) {
			// The App caught up: the prop is at least as new as the entry.
			this.#entries.delete(key);
		}

		return () => {
			if (this.#rows.get(key) === object) {
				this.#rows.delete(key);
				this.#entries.delete(key);
			}
		};
	}

	/** Whether the object row of `key` is on screen. */
	has(key: string): boolean {
		return this.#rows.has(key);
	}

	publish(key: string, entry: Omit<RowEntry, 'base'>): void {
		const base = this.#rows.get(key);
		if (base === undefined) {
			return;
		}

		this.#entries.set(key, {...entry, base});
		for (const listener of [...(this.#listeners.get(key) ?? [])]) {
			listener();
		}
	}

	subscribe(key: string, listener: () => void): () => void {
		let set = this.#listeners.get(key);
		if (!set) {
			set = new Set();
			this.#listeners.set(key, set);
		}

		set.add(listener);
		return () => {
			set.delete(listener);
			if (set.size === 0) {
				this.#listeners.delete(key);
			}
		};
	}

	/** The entry newer than `prop`, if any. */
	entry(key: string, prop: PlanObject): RowEntry | undefined {
		const entry = this.#entries.get(key);
		return entry?.base === prop ? entry : undefined;
	}
}

/** What the row-local decision reads of the App's last render. */
export type RowLocalContext = {
	/** The list is shown without a filter by failure (help, the tree screen, `f`: no). */
	readonly enabled: boolean;
	readonly screen: OnScreen;
	readonly folds: ReadonlyMap<string, FoldOverrides>;
	readonly widths: (object: PlanObject) => TextWidths;
	/** The row's ETA text now (`~2m left`), when ETAs are known. */
	readonly eta: ((object: PlanObject) => string | undefined) | undefined;
	readonly explain: (object: PlanObject, node: PlanNode) => Diagnosis | undefined;
};

/**
 * The changes that show, if every one of them can be drawn by its own rows alone (see the module comment); else
 * undefined (the App renders). Unknown changes never can. A change to an object with no row in the window that
 * keeps everything the App computes from it draws nothing: it is left out (an empty answer: no frame at all).
 */
export function rowLocalChanges(
	context: RowLocalContext,
	feed: RowFeed,
	changes: readonly StoreChange[] | undefined,
): Array<{readonly key: string; readonly object: PlanObject}> | undefined {
	if (!context.enabled || changes === undefined) {
		return undefined;
	}

	const out: Array<{readonly key: string; readonly object: PlanObject}> = [];
	for (const change of changes) {
		if (!changeShows(context.screen, change)) {
			continue;
		}

		if ('eventsOnly' in change) {
			return undefined;
		}

		const {before, after, timingBefore: t0, timingAfter: t1} = change;
		if (t0?.startedAt !== t1?.startedAt || t0?.endedAt !== t1?.endedAt || t0?.atLeast !== t1?.atLeast
			|| before.outcome !== after.outcome || attentionRank(before) !== attentionRank(after)
			|| before.tree.length > 0 !== after.tree.length > 0
			|| !sameWidths(context.widths(before), context.widths(after))
			|| !sameTreeRows(change.key, before, after, context.folds.get(change.key) ?? noFoldOverrides)) {
			return undefined;
		}

		if (!feed.has(change.key)) {
			// An object the screen depends on without a row in the window (an open tree above it, one the first
			// screen looked at for default expansion): with its place, its rows' count and the widths the same,
			// nothing of it is drawn.
			if (context.screen.rows.some(row => row.key === change.key)) {
				return undefined;
			}

			continue;
		}

		if (context.eta?.(before) !== context.eta?.(after) || !sameWants(context, change.key, before, after)) {
			return undefined;
		}

		out.push({key: change.key, object: after});
	}

	return out;
}

function sameWidths(a: TextWidths, b: TextWidths): boolean {
	return (Object.keys(a) as Array<keyof TextWidths>).every(column => a[column] === b[column]);
}

/** The same visible rows (ids, depths, folds): the list's rows and the cursor's stay where they are. */
function sameTreeRows(key: string, before: PlanObject, after: PlanObject, folds: FoldOverrides): boolean {
	const was = treeLayoutOf(key, before.tree, folds).rows;
	const now = treeLayoutOf(key, after.tree, folds).rows;
	return was.length === now.length && now.every((row, i) => {
		const old = was[i]!;
		return row.node.id === old.node.id && row.depth === old.depth && row.expanded === old.expanded && row.expandable === old.expandable;
	});
}

/** The same pods and logs asked for by the object's rows on screen. */
function sameWants(context: RowLocalContext, key: string, before: PlanObject, after: PlanObject): boolean {
	const ids = new Set<string>();
	// An index loop: this runs for every change on screen, over every row there.
	const {rows} = context.screen;
	for (let index = 0; index < rows.length; index++) {
		const row = rows[index]!;
		if (row.key === key && row.node) {
			ids.add(row.node.id);
		}
	}

	return ids.size === 0 || wantsOf(context, key, ids, before) === wantsOf(context, key, ids, after);
}

/**
 * What an object's rows ask to watch, as worked out under one App render's context: a change's `before` is the
 * previous change's `after`, already worked out while the App has not rendered since (the rows drew that change).
 * Weak both ways: a context's answers go with it (the next App render makes another), an object's with the object.
 */
const wantsMemo = new WeakMap<RowLocalContext, WeakMap<PlanObject, string>>();

function wantsOf(context: RowLocalContext, key: string, ids: ReadonlySet<string>, object: PlanObject): string {
	let known = wantsMemo.get(context);
	if (known === undefined) {
		known = new WeakMap();
		wantsMemo.set(context, known);
	}

	let wants = known.get(object);
	if (wants === undefined) {
		const folds = context.folds.get(key) ?? noFoldOverrides;
		const nodes = treeLayoutOf(key, object.tree, folds).rows.map(r => r.node).filter(n => ids.has(n.id));
		wants = JSON.stringify(watchWants(object, nodes, node => context.explain(object, node)));
		known.set(object, wants);
	}

	return wants;
}
