import {useRef} from 'react';
import {scrollWindow, type ScrollWindow} from '../scroll-window.js';

/**
 * A scroll window that remembers its offset between renders, so the view moves only when the cursor leaves it;
 * the same object while it does not move (what is memoized on it stays).
 */
export function useScrollWindow(total: number, height: number, cursor: number): ScrollWindow {
	const last = useRef<ScrollWindow>({start: 0, end: 0, above: 0, below: 0});
	const window = scrollWindow({total, height, cursor, offset: last.current.start});
	const was = last.current;
	const same = window.start === was.start && window.end === was.end && window.above === was.above && window.below === was.below;
	if (!same) {
		last.current = window;
	}

	return last.current;
}
