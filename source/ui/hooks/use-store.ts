import {useSyncExternalStore} from 'react';
import type {ExternalStore} from '../../core/external-store.js';
import type {StoreSnapshot} from '../../state/store.js';

/** What the views need of the store: an external store of snapshots (`Store` fits). */
export type SnapshotSource = ExternalStore<StoreSnapshot>;

/** The current store snapshot; re-renders when the store notifies. */
export function useStore(store: SnapshotSource): StoreSnapshot {
	return useSyncExternalStore(store.subscribe, store.getSnapshot);
}
