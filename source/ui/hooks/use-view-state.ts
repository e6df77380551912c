import {useCallback, useReducer, useRef} from 'react';
import {reduceView, type ViewAction, type ViewState} from '../view-state.js';

/**
 * The view reducer, applied synchronously: `dispatch` returns the new state at once, so a key handler can act on
 * the result (quit) in the same keypress, and several keys in one input chunk see each other's effects.
 */
export function useViewState(initial: () => ViewState): [ViewState, (action: ViewAction) => {previous: ViewState; next: ViewState}] {
	const ref = useRef<ViewState | undefined>(undefined);
	ref.current ??= initial();
	const [, rerender] = useReducer((n: number) => n + 1, 0);
	const dispatch = useCallback((action: ViewAction) => {
		const previous = ref.current!;
		const next = reduceView(previous, action);
		if (next !== previous) {
			ref.current = next;
			rerender();
		}

		return {previous, next};
	}, []);
	return [ref.current, dispatch];
}
