import type {Clock} from '../core/clock.js';
import type {ExternalStore} from '../core/external-store.js';
import type {StoreSnapshot} from './store.js';

/**
 * A subscriber may answer `false`: the snapshot changes nothing it shows (the TUI's render gate turned it down), so
 * it used no frame. Anything else counts as a frame drawn.
 */
export type FrameListener = () => boolean | void;

export type FramedSnapshots = Omit<ExternalStore<StoreSnapshot>, 'subscribe'> & {
	subscribe(listener: FrameListener): () => void;
	/** Publish a pending snapshot now (before a last frame). */
	flush(): void;
	dispose(): void;
};

/**
 * The store as a view sees it: at most one new snapshot per frame. The first change after a quiet frame is
 * published at once; changes that follow within `frameMs` are folded into one snapshot at the end of the frame.
 * A burst of watch events then costs one render per frame instead of one per event, and the terminal (which
 * Ink redraws at most once per frame anyway) shows the same. A snapshot every subscriber turned down (changes off
 * screen) starts no frame: the next change is published at once, so a stream of updates off screen does not make
 * one on screen wait for a frame slot.
 */
export function framedSnapshots(store: ExternalStore<StoreSnapshot>, clock: Clock, frameMs: number): FramedSnapshots {
	let published = store.getSnapshot();
	let publishedAt = Number.NEGATIVE_INFINITY;
	let cancel: (() => void) | undefined;
	const listeners = new Set<FrameListener>();
	const publish = () => {
		cancel?.();
		cancel = undefined;
		const now = clock.now();
		const next = store.getSnapshot();
		if (next === published) {
			publishedAt = now;
			return;
		}

		published = next;
		// A copy: a listener may unsubscribe (itself or another) while being notified.
		let drawn = listeners.size === 0;
		for (const listener of [...listeners]) {
			if (listener() !== false) {
				drawn = true;
			}
		}

		if (drawn) {
			publishedAt = now;
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
