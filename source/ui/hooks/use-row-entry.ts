import {createContext, useCallback, useContext, useLayoutEffect, useSyncExternalStore} from 'react';
import type {PlanObject} from '../../model/plan-tree.js';
import type {RowEntry, RowFeed} from '../row-feed.js';

/** The App's feed of row-local changes (row-feed.ts); none: rows show their props only. */
export const RowFeedContext = createContext<RowFeed | undefined>(undefined);

const noSubscription = () => () => {};

/**
 * The latest state of the object `key` when a row-local change arrived after the App gave the row `object`, else
 * undefined. Re-renders the calling row alone when one arrives. `register`: this is the object's own row (the
 * render gate hands changes only to objects whose row is on screen).
 */
export function useRowEntry(key: string, object: PlanObject, register = false): RowEntry | undefined {
	const feed = useContext(RowFeedContext);
	useLayoutEffect(() => (register && feed ? feed.register(key, object) : undefined), [register, feed, key, object]);
	const subscribe = useCallback((listener: () => void) => (feed ? feed.subscribe(key, listener) : noSubscription()), [feed, key]);
	return useSyncExternalStore(subscribe, () => feed?.entry(key, object));
}
