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

export function listObjects(objects: readonly PlanObject[], filter: ListFilter): readonly PlanObject[] {
	const text = filter.text.toLowerCase();
	const targets = filter.targets && filter.targets.length > 0 ? new Set(filter.targets) : undefined;
	if (!targets && !filter.failingOnly && text === '') {
		// Nothing filtered: the store's array as it is (a copy of thousands of objects on every frame costs memory).
		return objects;
	}

	return objects.filter(o =>
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
