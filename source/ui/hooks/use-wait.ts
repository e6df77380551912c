import {useSyncExternalStore} from 'react';
import type {WaitSession, WaitView} from '../../state/wait-session.js';

/** The wait session's current view (deadline, grace prompt, result). `getSnapshot` must return a cached object. */
export function useWait(wait: WaitSession): WaitView {
	return useSyncExternalStore(wait.subscribe, wait.getSnapshot);
}
