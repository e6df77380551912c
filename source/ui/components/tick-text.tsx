import {useTickValue} from '../ticks.js';
import {useSpinnerFrame} from './spinner.js';

/**
 * A piece of text that follows the clock (a timer, an age), inside a `<Text>`: on a tick only this text node is
 * re-rendered, and only when its text changed; the row around it is not.
 */
export function TickText({text}: {readonly text: (now: number) => string}) {
	return useTickValue(text);
}

/** The spinner's current frame as bare text, for a row that draws it inside one of its own `<Text>` runs. */
export function SpinnerFrame() {
	return useSpinnerFrame();
}
