import {Text} from 'ink';
import {createContext, useContext, type ReactNode} from 'react';
import {useTickValue} from '../ticks.js';

/** Braille "dots" frames (the cli-spinners set ink-spinner uses). */
const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

const SpinnerContext = createContext(frames[0]!);

/**
 * One spinner for the whole screen: every running node shows the same frame, and the frame moves on the app's
 * 1 Hz clock tick, with the timers. A faster spinner would redraw the screen between ticks (an 80 ms spinner costs
 * 12 frames a second, several KB/s on the terminal and a few % of a core while nothing happens). A tick
 * re-renders only the spinners (context readers), not the rows around them.
 */
export function SpinnerProvider({children}: {readonly children: ReactNode}) {
	const frame = useTickValue(now => Math.floor(now / 1000) % frames.length);
	return <SpinnerContext.Provider value={frames[frame]!}>{children}</SpinnerContext.Provider>;
}

/** The frame every spinner on screen shows now. */
export function useSpinnerFrame(): string {
	return useContext(SpinnerContext);
}

export function Spinner() {
	return <Text>{useSpinnerFrame()}</Text>;
}
