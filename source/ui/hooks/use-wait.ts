import {useCallback, useRef, useSyncExternalStore} from 'react';
import {sameFieldsExcept} from '../../model/same-fields.js';
import type {WaitSession, WaitView} from '../../state/wait-session.js';

const lineField: ReadonlySet<string> = new Set(['waitingFor']);

/** Equal but for the text of the line waited for (whether there is one counts; a field added later is compared). */
export function sameButLine(a: WaitView, b: WaitView): boolean {
	return sameFieldsExcept(a, b, lineField) && !a.waitingFor === !b.waitingFor;
}

/**
 * The wait session's view, the one read before kept while `same(before, now)`: whoever reads it renders only when
 * what it shows of the wait changed. `same` compares just what that reader shows.
 */
export function useKeptWaitView(session: WaitSession, same: (before: WaitView, now: WaitView) => boolean): WaitView {
	const kept = useRef<{readonly session: WaitSession; readonly view: WaitView} | undefined>(undefined);
	const getSnapshot = useCallback(() => {
		const view = session.getSnapshot();
		const before = kept.current;
		if (before?.session !== session || (before.view !== view && !same(before.view, view))) {
			kept.current = {session, view};
		}

		return kept.current!.view;
	}, [session, same]);
	return useSyncExternalStore(session.subscribe, getSnapshot);
}

/**
 * The wait session's view as the layout reads it: a new line waited for (the running objects' summaries, which move
 * with every update) keeps the view of before, so it redraws only the banner that shows it (which reads the session
 * itself), not the whole App. Anything else about the wait is new at once.
 */
export function useWaitLayout(session: WaitSession): WaitView {
	return useKeptWaitView(session, sameButLine);
}
