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
	/** The object's summary line (the MESSAGE column wide terminals show). */
	readonly message: number;
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

const columns = ['context', 'kind', 'namespace', 'name', 'active', 'state', 'progress', 'message'] as const;

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
	return {widths: {context: 0, kind: 0, namespace: 0, name: 0, active: 0, state: 0, progress: 0, message: 0}};
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

/** The list's columns, left to right. STATE, ELAPSED and ETA never give way; MESSAGE is shown only with room. */
export const listColumns = ['context', 'kind', 'namespace', 'name', 'active', 'state', 'progress', 'elapsed', 'eta', 'message'] as const;
export type ListColumn = (typeof listColumns)[number];
export type ListWidths = Readonly<Record<ListColumn, number>>;

/** Widths where a column stops giving way on a short line: the old fixed caps (a wide line shows everything). */
const caps: Partial<Record<ListColumn, number>> = {context: 16, namespace: 20, name: 36, active: 16};
/** The order columns give way in, at each stage; a later stage starts when the earlier one could not make room. */
const stages: ReadonlyArray<{readonly columns: readonly ListColumn[]; readonly to: (column: ListColumn, title: number) => number}> = [
	// PROGRESS (`3/5 steps`, `62%`) is a state, not a name: it is shown whole or not at all.
	{columns: ['name', 'namespace', 'active', 'context'], to: column => caps[column] ?? 0},
	{columns: ['namespace', 'active', 'context', 'name'], to: (column, title) => (column === 'name' ? 16 : title)},
	// Whole columns go before a name is cut short, the least needed first; the name, STATE and the timers stay.
	{columns: ['active', 'progress', 'context'], to: () => 0},
	{columns: ['name', 'namespace', 'kind'], to: column => (column === 'name' ? 10 : column === 'namespace' ? 6 : 4)},
	{columns: ['namespace', 'kind'], to: () => 0},
	{columns: ['name'], to: () => 5},
];
/** The columns that get back what the stages cut beyond need, in this order. */
const giveBack: readonly ListColumn[] = ['name', 'namespace', 'kind', 'context', 'progress', 'active'];
/** Fewest cells the MESSAGE column is shown in. */
const messageMin = 16;

/**
 * Widths of the list's columns for a line of `width` cells (after the 4-cell cursor and fold marker), from each
 * column's widest text (`natural`, its title included; 0: no such column, as CONTEXT for one context and ETA
 * without history): on a narrow line the names and words give way (cut with a marker) and then whole columns go;
 * STATE, ELAPSED and ETA never do, PROGRESS is whole or gone. A wide line shows names in full, and the MESSAGE column gets what is left.
 * Columns are two cells apart. Pure.
 */
export function listColumnWidths(natural: ListWidths, titles: ListWidths, width: number): ListWidths {
	const widths: Record<ListColumn, number> = {...natural, message: 0};
	const used = () => listColumns.reduce((sum, column) => sum + widths[column] + (widths[column] > 0 ? 2 : 0), 2);
	for (const stage of stages) {
		for (const column of stage.columns) {
			const excess = used() - width;
			if (excess <= 0) {
				break;
			}

			const to = Math.min(widths[column], stage.to(column, titles[column]));
			// A column given up altogether takes its gap with it.
			const give = to === 0 ? widths[column] : Math.min(excess, widths[column] - to);
			widths[column] -= Math.max(0, give);
		}
	}

	// A stage may have cut more than was needed (a name cut to 16 before a whole column went): what is left goes back,
	// the name first, and a dropped column comes back only whole.
	for (const column of giveBack) {
		const left = width - used();
		if (left <= 0) {
			break;
		}

		const short = natural[column] - widths[column];
		if (short > 0 && widths[column] > 0) {
			widths[column] += Math.min(short, left);
		} else if (short > 0 && natural[column] + 2 <= left) {
			widths[column] = natural[column];
		}
	}

	const room = width - used() - 2;
	if (natural.message > 0 && room >= messageMin) {
		widths.message = Math.min(room, natural.message);
	}

	return widths;
}
