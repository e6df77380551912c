import type {Clock} from '../core/clock.js';
import type {StoreSnapshot} from './store.js';

type SnapshotStore = {subscribe(listener: () => void): () => void; getSnapshot(): StoreSnapshot};

export type FramedSnapshots = SnapshotStore & {
	/** Publish a pending snapshot now (before a last frame). */
	flush(): void;
	dispose(): void;
};

/**
 * The store as a view sees it: at most one new snapshot per frame. The first change after a quiet frame is
 * published at once; changes that follow within `frameMs` are folded into one snapshot at the end of the frame.
 * A burst of watch events then costs one render per frame instead of one per event, and the terminal (which
 * Ink redraws at most once per frame anyway) shows the same.
 */
export function framedSnapshots(store: SnapshotStore, clock: Clock, frameMs: number): FramedSnapshots {
	let published = store.getSnapshot();
	let publishedAt = Number.NEGATIVE_INFINITY;
	let cancel: (() => void) | undefined;
	const listeners = new Set<() => void>();
	const publish = () => {
		cancel?.();
		cancel = undefined;
		publishedAt = clock.now();
		const next = store.getSnapshot();
		if (next === published) {
			return;
		}

		published = next;
		for (const listener of [...listeners]) {
			listener();
		}
	};

	const unsubscribe = store.subscribe(() => {
		if (cancel) {
			return;
		}

		const wait = publishedAt + frameMs - clock.now();
		if (wait <= 0) {
			publish();
		} else {
			cancel = clock.after(wait, publish);
		}
	});
	return {
		subscribe(listener) {
			listeners.add(listener);
			return () => {
				listeners.delete(listener);
			};
		},
		getSnapshot: () => published,
		flush: publish,
		dispose() {
			cancel?.();
			unsubscribe();
		},
	};
}
