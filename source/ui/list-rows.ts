/** Which objects the list shows, and the text of their cells. Pure. */
import {objectKey, qualifiedName, type PlanObject} from '../model/plan-tree.js';

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

/**
 * The store's objects (sorted by context, kind, namespace, name) regrouped by attentionRank, the store's order
 * kept within each group: a stable partition, one pass and no comparisons, remembered per store array (a new
 * one comes only with a change, never with a frame).
 */
export function byAttention(objects: readonly PlanObject[]): readonly PlanObject[] {
	let result = ordered.get(objects);
	if (result === undefined) {
		const groups: [PlanObject[], PlanObject[], PlanObject[]] = [[], [], []];
		for (const object of objects) {
			groups[attentionRank(object)].push(object);
		}

		// One group only: the store's array itself (no copy of thousands of objects).
		result = groups.filter(group => group.length > 0).length <= 1 ? objects : groups.flat();
		ordered.set(objects, result);
	}

	return result;
}

/** `300 · 30 failed · 20 running` (the parts that are not 0), for the header of a list of more than one object. */
export function countsText(objects: readonly PlanObject[], separator: string): string | undefined {
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

/** The objects the list shows, in its order (byAttention), filtered. */
export function listObjects(objects: readonly PlanObject[], filter: ListFilter): readonly PlanObject[] {
	const text = filter.text.toLowerCase();
	const targets = filter.targets && filter.targets.length > 0 ? new Set(filter.targets) : undefined;
	const all = byAttention(objects);
	if (!targets && !filter.failingOnly && text === '') {
		// Nothing filtered: the ordered array as it is (a copy of thousands of objects on every frame costs memory).
		return all;
	}

	return all.filter(o =>
		(!targets || targets.has(objectKey(o)))
		&& (!filter.failingOnly || isFailing(o))
		&& (text === '' || qualifiedName(o).toLowerCase().includes(text)));
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
