import {useCallback, useRef, useSyncExternalStore} from 'react';
import type {WaitSession, WaitView} from '../../state/wait-session.js';

/** The wait session's current view (deadline, grace prompt, result). `getSnapshot` must return a cached object. */
export function useWait(wait: WaitSession): WaitView {
	return useSyncExternalStore(wait.subscribe, wait.getSnapshot);
}

/** Equal but for the text of the line waited for (whether there is one counts). */
export function sameButLine(a: WaitView, b: WaitView): boolean {
	return a.phase === b.phase && a.startedAt === b.startedAt && a.deadlineAt === b.deadlineAt && a.extendMs === b.extendMs
		&& a.extendedMs === b.extendedMs && a.graceEndsAt === b.graceEndsAt && a.result === b.result
		&& (a.waitingFor === undefined || a.waitingFor === '') === (b.waitingFor === undefined || b.waitingFor === '');
}

/**
 * The view as the layout reads it: a new line waited for (the running objects' summaries, which move with every
 * update) keeps the view of before, so it redraws only the banner that shows it (which reads the session itself),
 * not the whole App. Anything else about the wait is new at once.
 */
export function useWaitLayout(wait: WaitSession): WaitView {
	const kept = useRef<WaitView | undefined>(undefined);
	const getSnapshot = useCallback(() => {
		const view = wait.getSnapshot();
		if (kept.current === undefined || !sameButLine(kept.current, view)) {
			kept.current = view;
		}

		return kept.current;
	}, [wait]);
	return useSyncExternalStore(wait.subscribe, getSnapshot);
}
