/** The Instances and ActionSets seen deleted, with their last state: bounded, a new map after every change. */
import type {PlanObject} from '../model/plan-tree.js';
import type {DeletedObject} from './store-snapshot.js';

const maxDeleted = 1000;

export class DeletedObjects {
	#deleted = new Map<string, DeletedObject>();

	/** What snapshots hand out (a new map after each change: snapshots already handed out keep theirs). */
	get map(): ReadonlyMap<string, DeletedObject> {
		return this.#deleted;
	}

	add(key: string, object: PlanObject, at: number): void {
		const deleted = new Map(this.#deleted);
		deleted.delete(key);
		deleted.set(key, {object, at});
		for (const oldest of deleted.keys()) {
			if (deleted.size <= maxDeleted) {
				break;
			}

			deleted.delete(oldest);
		}

		this.#deleted = deleted;
	}

	/** An object of that key is listed again. */
	remove(key: string): void {
		if (this.#deleted.has(key)) {
			const deleted = new Map(this.#deleted);
			deleted.delete(key);
			this.#deleted = deleted;
		}
	}
}
