/**
 * What the list's column widths need from every object, kept up to date in O(changed) per frame. Pure.
 *
 * The widths come from all objects (not just the window, so scrolling does not shift columns). At 10 000
 * objects a walk over all of them per frame cost more than the frame itself; the store replaces an object only
 * when it changes, so a new array is compared with the previous one by identity and only the replaced objects
 * are measured. Only when a replaced object was the widest of a column (and is narrower now), or the length
 * changed, is every object measured again.
 */
import type {NodeTiming} from '../state/store.js';

export type TextWidths = {
	/** 0 unless objects come from several contexts. */
	readonly context: number;
	readonly kind: number;
	readonly namespace: number;
	readonly name: number;
	readonly active: number;
	readonly state: number;
	readonly progress: number;
};

/** What one object contributes: its cell widths and its own timer. */
export type ColumnItem = {readonly widths: TextWidths; readonly timing?: NodeTiming};

export type ColumnBasis = {
	/** Widest text of each column (uncapped). */
	readonly widths: TextWidths;
	/** Longest finished timer, ms. */
	readonly closed?: number;
	/** Earliest start of a running timer: the longest one at any `now`. */
	readonly openFrom?: number;
};

const columns = ['context', 'kind', 'namespace', 'name', 'active', 'state', 'progress'] as const;

type Mutable = {widths: Record<keyof TextWidths, number>; closed?: number; openFrom?: number};

function add(basis: Mutable, item: ColumnItem): void {
	for (const column of columns) {
		basis.widths[column] = Math.max(basis.widths[column], item.widths[column]);
	}

	const {timing} = item;
	if (timing?.startedAt === undefined) {
		return;
	}

	if (timing.endedAt === undefined) {
		basis.openFrom = Math.min(basis.openFrom ?? timing.startedAt, timing.startedAt);
	} else {
		const ms = Math.max(0, timing.endedAt - timing.startedAt);
		basis.closed = Math.max(basis.closed ?? ms, ms);
	}
}

/** Whether taking `before` away could make a column narrower (it held a maximum and `after` does not reach it). */
function wasWidest(basis: ColumnBasis, before: ColumnItem, after: ColumnItem): boolean {
	for (const column of columns) {
		if (before.widths[column] === basis.widths[column] && after.widths[column] < basis.widths[column]) {
			return true;
		}
	}

	const was = before.timing;
	if (was?.startedAt === undefined) {
		return false;
	}

	const now = after.timing;
	if (was.endedAt === undefined) {
		return was.startedAt === basis.openFrom &&
			!(now?.startedAt !== undefined && now.endedAt === undefined && now.startedAt <= was.startedAt);
	}

	const ms = Math.max(0, was.endedAt - was.startedAt);
	return ms === basis.closed && !(now?.startedAt !== undefined && now.endedAt !== undefined && now.endedAt - now.startedAt >= ms);
}

function empty(): Mutable {
	return {widths: {context: 0, kind: 0, namespace: 0, name: 0, active: 0, state: 0, progress: 0}};
}

/** The basis of `objects`; with the previous array and its basis, only what was replaced is measured. */
export function columnBasis<T>(
	objects: readonly T[],
	item: (object: T) => ColumnItem,
	previous?: {readonly objects: readonly T[]; readonly basis: ColumnBasis},
): ColumnBasis {
	if (previous && previous.objects.length === objects.length) {
		let next: Mutable | undefined;
		const old = previous.objects;
		for (let i = 0; i < objects.length; i++) {
			if (objects[i] === old[i]) {
				continue;
			}

			const after = item(objects[i]!);
			if (wasWidest(next ?? previous.basis, item(old[i]!), after)) {
				return columnBasis(objects, item);
			}

			next ??= {widths: {...previous.basis.widths}, closed: previous.basis.closed, openFrom: previous.basis.openFrom};
			add(next, after);
		}

		return next ?? previous.basis;
	}

	const basis = empty();
	for (const object of objects) {
		add(basis, item(object));
	}

	return basis;
}
