import type {ExternalStore} from '../core/external-store.js';
import type {StoreSnapshot} from '../state/store.js';

/** The first snapshot in which the source has listed everything once, or has failed for good. */
export async function whenSynced(store: ExternalStore<StoreSnapshot>): Promise<StoreSnapshot> {
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
