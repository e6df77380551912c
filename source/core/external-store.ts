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
	/**
	 * The listeners as an array, made again only after an add or a remove: a clock tick notifies a few hundred
	 * timer texts, and copying the set for each notification allocated an array and an iterator result per listener.
	 * Never changed in place, so a listener may unsubscribe (itself or another) while the others are notified.
	 */
	#inOrder: ReadonlyArray<() => void> | undefined;

	get size(): number {
		return this.#listeners.size;
	}

	add(listener: () => void): () => void {
		this.#listeners.add(listener);
		this.#inOrder = undefined;
		return () => {
			if (this.#listeners.delete(listener)) {
				this.#inOrder = undefined;
			}
		};
	}

	notify(): void {
		this.#inOrder ??= [...this.#listeners];
		const listeners = this.#inOrder;
		for (let index = 0; index < listeners.length; index++) {
			listeners[index]!();
		}
	}
}
