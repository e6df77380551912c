import {useRef} from 'react';
import {scrollWindow, type ScrollWindow} from '../scroll-window.js';

/** A scroll window that remembers its offset between renders, so the view moves only when the cursor leaves it. */
export function useScrollWindow(total: number, height: number, cursor: number): ScrollWindow {
	const offset = useRef(0);
	const window = scrollWindow({total, height, cursor, offset: offset.current});
	offset.current = window.start;
	return window;
}
