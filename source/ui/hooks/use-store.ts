import {useCallback, useRef, useSyncExternalStore} from 'react';
import type {ExternalStore} from '../../core/external-store.js';
import type {StoreChange} from '../../state/change-log.js';
import type {StoreSnapshot} from '../../state/store.js';

/**
 * What the views need of the store: an external store of snapshots (`Store` fits). Its listener answers false when
 * the render gate turned a snapshot down (framed snapshots then start no frame for it).
 */
export type SnapshotSource = Omit<ExternalStore<StoreSnapshot>, 'subscribe'> & {subscribe(listener: () => boolean | void): () => void};

/**
 * What the render gate says of the changes since the last render: they show (render), they do not (no render, no
 * frame), or they were drawn by the rows they change alone (`drawn`: no render here, but a frame was used).
 */
export type GateAnswer = boolean | 'drawn';

/**
 * The current store snapshot. Re-renders when the store notifies and `shows` says the changes since the snapshot
 * last rendered can show (undefined changes: unknown); a change it turns down costs no render, and the next
 * render for any reason (a key, a change that shows) reads the latest snapshot.
 */
export function useStore(store: SnapshotSource, shows?: (changes: readonly StoreChange[] | undefined) => GateAnswer): StoreSnapshot {
	const rendered = useRef<StoreSnapshot | undefined>(undefined);
	const filter = useRef(shows);
	filter.current = shows;
	// Changes since the last render already turned down (up to `version`): each is judged once, not again with every
	// later notification (off-screen updates notify one by one; the screen they were judged against is unchanged).
	const declined = useRef<{readonly after: StoreSnapshot; readonly version: number} | undefined>(undefined);
	const subscribe = useCallback(
		(listener: () => void) =>
			store.subscribe(() => {
				const last = rendered.current;
				const next = store.getSnapshot();
				// Versions compare only within one store's log.
				const sameLog = last?.changes !== undefined && last.changes === next.changes;
				const judged = declined.current;
				const from = judged !== undefined && judged.after === last ? judged.version : last?.version;
				const changes = sameLog && from !== undefined ? next.changes.between(from, next.version) : undefined;
				const answer = last === undefined || next === last || !filter.current || filter.current(changes);
				if (answer === true) {
					listener();
					return true;
				}

				declined.current = {after: last, version: next.version};
				// Drawn by the rows: the frame slot holds the next changes back as for a render.
				return answer === 'drawn';
			}),
		[store],
	);
	const snapshot = useSyncExternalStore(subscribe, store.getSnapshot);
	rendered.current = snapshot;
	return snapshot;
}
