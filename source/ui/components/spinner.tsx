import {Text, useAnimation} from 'ink';
import {createContext, useContext, type ReactNode} from 'react';

/** Braille "dots" frames (the cli-spinners set ink-spinner uses). */
const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

const SpinnerContext = createContext(frames[0]!);

/**
 * One spinner for the whole screen: every running node shows the same frame, driven by Ink's shared animation
 * timer, and only the spinners re-render on a frame. (One ink-spinner per node would start a timer per node and
 * the spinners would drift apart.)
 */
export function SpinnerProvider({active, children}: {readonly active: boolean; readonly children: ReactNode}) {
	const {frame} = useAnimation({interval: 80, isActive: active});
	return <SpinnerContext.Provider value={frames[frame % frames.length]!}>{children}</SpinnerContext.Provider>;
}

export function Spinner() {
	return <Text>{useContext(SpinnerContext)}</Text>;
}
