import type {StoreSnapshot} from '../../source/state/store.js';
import type {SnapshotSource} from '../../source/ui/hooks/use-store.js';

/** A Store stand-in: the test sets whole snapshots and subscribers hear about it. */
export class FakeStore implements SnapshotSource {
	#snapshot: StoreSnapshot;
	readonly #listeners = new Set<() => void>();

	constructor(snapshot: StoreSnapshot) {
		this.#snapshot = snapshot;
	}

	readonly subscribe = (listener: () => void): (() => void) => {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	};

	readonly getSnapshot = (): StoreSnapshot => this.#snapshot;

	set(snapshot: StoreSnapshot): void {
		this.#snapshot = snapshot;
		for (const l of [...this.#listeners]) {
			l();
		}
	}
}
