/** Which objects the list shows, and the text of their cells. Pure. */
import {objectKey, qualifiedName, type PlanObject} from '../model/plan-tree.js';
import type {ObjectChange, StoreChange} from '../state/change-log.js';

export type ListFilter = {
	/** Case-insensitive part of `namespace/name` (`context:namespace/name` with several contexts). */
	readonly text: string;
	readonly failingOnly: boolean;
	/** Object keys the user targeted (more than one); empty = everything in the store. */
	readonly targets?: readonly string[];
};

/** Failed, or retrying after errors: what "failing only" keeps. */
export function isFailing(object: PlanObject): boolean {
	return object.outcome === 'failed' || object.state === 'failed' || object.state === 'retrying';
}

/** The list's groups, in the order it shows them: what needs attention first. */
export type AttentionRank = 0 | 1 | 2;

/** 0: failed or retrying (what "failing only" keeps), 1: running, 2: the rest. The one sort key of the list; pure. */
export function attentionRank(object: PlanObject): AttentionRank {
	return isFailing(object) ? 0 : object.outcome === 'running' ? 1 : 2;
}

const ordered = new WeakMap<readonly PlanObject[], readonly PlanObject[]>();

/** The store array a list was made from, and what changed since (the store's change log). */
export type ListBasis = {readonly objects: readonly PlanObject[]; readonly changes: readonly StoreChange[] | undefined};

/**
 * The store's objects (sorted by context, kind, namespace, name) regrouped by attentionRank, the store's order
 * kept within each group: a stable partition, one pass and no comparisons, remembered per store array (a new
 * one comes only with a change, never with a frame). Kept incrementally: with the previous store array and the
 * changes since, objects that stayed in their group take their predecessors' places (no pass over all of them);
 * only a change of group partitions again.
 */
export function byAttention(objects: readonly PlanObject[], from?: ListBasis): readonly PlanObject[] {
	let result = ordered.get(objects);
	if (result === undefined && from?.changes && from.objects.length === objects.length) {
		const before = ordered.get(from.objects);
		// One group only: the store's array itself, as long as nothing changed group.
		if (before === from.objects) {
			result = from.changes.every(sameGroup) ? objects : undefined;
		} else if (before !== undefined) {
			result = patched(before, from.changes, true);
		}
	}

	if (result === undefined) {
		const groups: [PlanObject[], PlanObject[], PlanObject[]] = [[], [], []];
		for (const object of objects) {
			groups[attentionRank(object)].push(object);
		}

		// One group only: the store's array itself (no copy of thousands of objects).
		result = groups.filter(group => group.length > 0).length <= 1 ? objects : groups.flat();
	}

	ordered.set(objects, result);
	return result;
}

function sameGroup(change: StoreChange): boolean {
	return 'eventsOnly' in change || attentionRank(change.before) === attentionRank(change.after);
}

const positions = new WeakMap<readonly PlanObject[], ReadonlyMap<string, number>>();

/** Key → index in a list, built once per list and handed on to the lists patched from it (the same places). */
function positionsOf(list: readonly PlanObject[]): ReadonlyMap<string, number> {
	let found = positions.get(list);
	if (!found) {
		found = new Map(list.map((o, i) => [listKey(o), i]));
		positions.set(list, found);
	}

	return found;
}

/**
 * `list` with each object changed in place put where its predecessor was; undefined when one changed group (it
 * moves). An object not in `list` (filtered out) stays out: its group and name are the same; `whole`: every
 * object is in it, so one missing means the list is not the one the changes follow.
 */
function patched(list: readonly PlanObject[], changes: readonly StoreChange[], whole = false): readonly PlanObject[] | undefined {
	if (!changes.every(sameGroup)) {
		return undefined;
	}

	const at = positionsOf(list);
	let next: PlanObject[] | undefined;
	for (const change of changes) {
		if ('eventsOnly' in change) {
			continue;
		}

		const i = at.get(change.key);
		if (i === undefined && whole) {
			return undefined;
		}

		if (i !== undefined) {
			next ??= [...list];
			next[i] = (change as ObjectChange).after;
		}
	}

	if (!next) {
		return list;
	}

	positions.set(next, at);
	return next;
}

const counted = new WeakMap<readonly PlanObject[], {readonly separator: string; readonly text: string | undefined}>();

/**
 * `300 · 30 failed · 20 running` (the parts that are not 0), for the header of a list of more than one object.
 * Remembered per store array: the header reads it on every tick, and a new array comes only with a change.
 */
export function countsText(objects: readonly PlanObject[], separator: string): string | undefined {
	const hit = counted.get(objects);
	if (hit?.separator === separator) {
		return hit.text;
	}

	const text = countObjects(objects, separator);
	counted.set(objects, {separator, text});
	return text;
}

function countObjects(objects: readonly PlanObject[], separator: string): string | undefined {
	if (objects.length < 2) {
		return undefined;
	}

	let failed = 0;
	let running = 0;
	for (const object of objects) {
		if (object.outcome === 'failed') {
			failed++;
		} else if (object.outcome === 'running') {
			running++;
		}
	}

	return [String(objects.length), failed > 0 ? `${failed} failed` : '', running > 0 ? `${running} running` : '']
		.filter(Boolean)
		.join(separator);
}

const byContext = new WeakMap<readonly PlanObject[], ReadonlyMap<string, string>>();

/**
 * Context name → `3 failed, 1 running` (the parts that are not 0) for objects from several contexts: the header's
 * counts of each context, in the words of countsText. Remembered per store array.
 */
export function countsByContext(objects: readonly PlanObject[]): ReadonlyMap<string, string> {
	const hit = byContext.get(objects);
	if (hit) {
		return hit;
	}

	const tally = new Map<string, {failed: number; running: number}>();
	for (const object of objects) {
		if (object.context === undefined) {
			continue;
		}

		const t = tally.get(object.context) ?? {failed: 0, running: 0};
		tally.set(object.context, t);
		if (object.outcome === 'failed') {
			t.failed++;
		} else if (object.outcome === 'running') {
			t.running++;
		}
	}

	const counts = new Map<string, string>();
	for (const [context, {failed, running}] of tally) {
		const text = [failed > 0 ? `${failed} failed` : '', running > 0 ? `${running} running` : ''].filter(Boolean).join(', ');
		if (text !== '') {
			counts.set(context, text);
		}
	}

	byContext.set(objects, counts);
	return counts;
}

const filtered = new WeakMap<readonly PlanObject[], {readonly filter: string; readonly list: readonly PlanObject[]}>();

/**
 * The objects the list shows, in its order (byAttention), filtered. With `from` (the previous store array and the
 * changes since) an unchanged filter is kept incrementally too: the changed objects take their places.
 */
export function listObjects(objects: readonly PlanObject[], filter: ListFilter, from?: ListBasis): readonly PlanObject[] {
	const text = filter.text.toLowerCase();
	const targets = filter.targets && filter.targets.length > 0 ? new Set(filter.targets) : undefined;
	const all = byAttention(objects, from);
	if (!targets && !filter.failingOnly && text === '') {
		// Nothing filtered: the ordered array as it is (a copy of thousands of objects on every frame costs memory).
		return all;
	}

	const key = `${filter.failingOnly ? 'f' : ''}\u0000${text}\u0000${filter.targets?.join('\u0000') ?? ''}`;
	const hit = filtered.get(all);
	if (hit?.filter === key) {
		return hit.list;
	}

	const before = from?.changes && from.objects.length === objects.length ? ordered.get(from.objects) : undefined;
	const previous = before === undefined ? undefined : filtered.get(before);
	const list = (previous?.filter === key ? patched(previous.list, from!.changes!) : undefined) ?? all.filter(o =>
		(!targets || targets.has(objectKey(o)))
		&& (!filter.failingOnly || isFailing(o))
		&& (text === '' || qualifiedName(o).toLowerCase().includes(text)));
	filtered.set(all, {filter: key, list});
	return list;
}

const keys = new WeakMap<PlanObject, string>();

/** `objectKey`, remembered per adapted object: the list needs thousands of keys on every frame. */
export function listKey(object: PlanObject): string {
	let key = keys.get(object);
	if (key === undefined) {
		key = objectKey(object);
		keys.set(object, key);
	}

	return key;
}

/** PROGRESS cell: `3/5 steps` (KUDO) or `62%` (Kanister). */
export function progressText(object: PlanObject): string {
	if (object.steps) {
		return `${object.steps.done}/${object.steps.total} steps`;
	}

	return object.percent === undefined ? '' : `${Math.round(object.percent)}%`;
}
