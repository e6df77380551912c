import type {StoreSnapshot} from '../state/store.js';

type SnapshotStore = {subscribe(listener: () => void): () => void; getSnapshot(): StoreSnapshot};

/** The first snapshot in which the source has listed everything once, or has failed for good. */
export async function whenSynced(store: SnapshotStore): Promise<StoreSnapshot> {
	const ready = (s: StoreSnapshot): boolean => s.synced || s.fatal !== undefined;
	const now = store.getSnapshot();
	if (ready(now)) {
		return now;
	}

	return new Promise(resolve => {
		const unsubscribe = store.subscribe(() => {
			const s = store.getSnapshot();
			if (ready(s)) {
				unsubscribe();
				resolve(s);
			}
		});
	});
}
