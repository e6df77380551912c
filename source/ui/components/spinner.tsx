import {Text} from 'ink';
import {useTickValue} from '../ticks.js';

/** Braille "dots" frames (the cli-spinners set ink-spinner uses). */
const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/*
 * One spinner for the whole screen: every running node shows the same frame, and the frame moves on the app's
 * 1 Hz clock tick, with the timers. A faster spinner would redraw the screen between ticks (an 80 ms spinner costs
 * 12 frames a second, several KB/s on the terminal and a few % of a core while nothing happens). Each spinner reads
 * the tick itself (not a context), so a tick re-renders only the spinners, and React does not walk the whole tree
 * looking for a context's readers.
 */

/** The frame every spinner on screen shows now. */
export function useSpinnerFrame(): string {
	return frames[useTickValue(now => Math.floor(now / 1000) % frames.length)]!;
}

export function Spinner() {
	return <Text>{useSpinnerFrame()}</Text>;
}
