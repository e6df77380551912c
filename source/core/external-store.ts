/**
 * The shape every long-lived part the views read has (the store, framed snapshots, the wait session): an external
 * store in React's `useSyncExternalStore` sense. And the listener set behind it, written once.
 */

/** Notifies its subscribers on change; `getSnapshot` then returns the new picture (the same object until then). */
export type ExternalStore<Snapshot> = {
	subscribe(listener: () => void): () => void;
	getSnapshot(): Snapshot;
};

/** A set of change listeners: add returns the remove function; notify calls each once, in order added. */
export class Listeners {
	readonly #listeners = new Set<() => void>();

	get size(): number {
		return this.#listeners.size;
	}

	add(listener: () => void): () => void {
		this.#listeners.add(listener);
		return () => {
			this.#listeners.delete(listener);
		};
	}

	notify(): void {
		// A copy: a listener may unsubscribe (itself or another) while being notified.
		for (const listener of [...this.#listeners]) {
			listener();
		}
	}
}
