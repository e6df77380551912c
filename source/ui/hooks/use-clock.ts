import {useEffect, useState} from 'react';
import type {Clock} from '../../core/clock.js';

/**
 * The clock's time, refreshed on its shared 1 Hz tick. Call it once, at the top (the App), and pass `now` down:
 * every timer on screen then moves on the same tick.
 */
export function useClock(clock: Clock): number {
	const [now, setNow] = useState(() => clock.now());
	useEffect(() => {
		setNow(clock.now());
		return clock.onTick(() => {
			setNow(clock.now());
		});
	}, [clock]);
	return now;
}
