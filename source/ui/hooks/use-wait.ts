import {useCallback, useRef, useSyncExternalStore} from 'react';
import {sameFieldsExcept} from '../../model/same-fields.js';
import type {WaitSession, WaitView} from '../../state/wait-session.js';

const lineField: ReadonlySet<string> = new Set(['waitingFor']);

/** Equal but for the text of the line waited for (whether there is one counts; a field added later is compared). */
export function sameButLine(a: WaitView, b: WaitView): boolean {
	return sameFieldsExcept(a, b, lineField) && !a.waitingFor === !b.waitingFor;
}

/**
 * The wait session's view as the layout reads it: a new line waited for (the running objects' summaries, which move
 * with every update) keeps the view of before, so it redraws only the banner that shows it (which reads the session
 * itself), not the whole App. Anything else about the wait is new at once.
 */
export function useWaitLayout(wait: WaitSession): WaitView {
	const kept = useRef<{readonly session: WaitSession; readonly view: WaitView} | undefined>(undefined);
	const getSnapshot = useCallback(() => {
		const view = wait.getSnapshot();
		if (kept.current?.session !== wait || !sameButLine(kept.current.view, view)) {
			kept.current = {session: wait, view};
		}

		return kept.current.view;
	}, [wait]);
	return useSyncExternalStore(wait.subscribe, getSnapshot);
}
