import {useEffect, useState} from 'react';
import type {Clock} from '../../core/clock.js';

/**
 * The clock's time, refreshed on its shared 1 Hz tick. Call it once, at the top (the App), and pass `now` down:
 * every timer on screen then moves on the same tick. `jumps`: more moments to re-read the clock (a replay's seeks).
 */
export function useClock(clock: Clock, jumps?: (listener: () => void) => () => void): number {
	const [now, setNow] = useState(() => clock.now());
	useEffect(() => {
		setNow(clock.now());
		const read = (): void => {
			setNow(clock.now());
		};

		// A replay's clock also jumps (seek, pause) between ticks.
		const offJumps = jumps?.(read);
		const offTick = clock.onTick(read);
		return () => {
			offTick();
			offJumps?.();
		};
	}, [clock, jumps]);
	return now;
}
