/**
 * The adapted objects in the snapshot's order (context, kind, namespace, name), kept up to date per change: a
 * replaced object takes its predecessor's place (looked up by key: the places are noted when the array is sorted),
 * and the array is copied at most once per snapshot, not once per change; only an object added or deleted sorts
 * again.
 */
import type {PlanObject} from '../model/plan-tree.js';

export class SortedObjects {
	readonly #objects = new Map<string, PlanObject>();
	#sorted: PlanObject[] | undefined;
	/** key → place in `#sorted`, noted when it is sorted (a binary search compares with localeCompare: ~10 µs). */
	#places: Map<string, number> | undefined;
	/** `#sorted` was handed out (a snapshot holds it): copy before the next change. */
	#shared = false;

	get(key: string): PlanObject | undefined {
		return this.#objects.get(key);
	}

	/** The array a snapshot holds: never changed afterwards. */
	array(): readonly PlanObject[] {
		if (!this.#sorted) {
			const keyed = [...this.#objects].sort(([, a], [, b]) => compareObjects(a, b));
			this.#sorted = keyed.map(([, object]) => object);
			this.#places = new Map(keyed.map(([key], i) => [key, i]));
		}

		this.#shared = true;
		return this.#sorted;
	}

	set(key: string, object: PlanObject): void {
		const previous = this.#objects.get(key);
		this.#objects.set(key, object);
		if (!previous) {
			this.#sorted = undefined;
			return;
		}

		if (!this.#sorted) {
			return;
		}

		const i = this.#places?.get(key);
		if (i === undefined || this.#sorted[i] !== previous) {
			this.#sorted = undefined;
			return;
		}

		// Earlier snapshots hold the old array and must not change under their readers.
		if (this.#shared) {
			this.#sorted = [...this.#sorted];
			this.#shared = false;
		}

		this.#sorted[i] = object;
	}

	delete(key: string): void {
		if (this.#objects.delete(key)) {
			this.#sorted = undefined;
		}
	}
}

/** Several contexts: each context's objects together, then as with one. */
function compareObjects(a: PlanObject, b: PlanObject): number {
	return (a.context ?? '').localeCompare(b.context ?? '') ||
		a.kind.localeCompare(b.kind) ||
		a.namespace.localeCompare(b.namespace) ||
		a.name.localeCompare(b.name);
}
