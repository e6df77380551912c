import {createContext, useContext, useRef, useSyncExternalStore} from 'react';
import type {Clock} from '../core/clock.js';
import {Listeners} from '../core/external-store.js';

/**
 * The time views show: the clock's time as of its last 1 Hz tick (or of the first subscription), the same for
 * every reader between ticks, so a frame never mixes two seconds.
 */
export type Ticks = {
	now(): number;
	subscribe(listener: () => void): () => void;
};

/** `jumps`: more moments to re-read the clock (a replay's seeks). */
export function tickSource(clock: Clock, jumps?: (listener: () => void) => () => void): Ticks {
	let now = clock.now();
	const listeners = new Listeners();
	let off: (() => void) | undefined;
	return {
		now: () => now,
		subscribe(listener) {
			if (listeners.size === 0) {
				now = clock.now();
				const refresh = () => {
					now = clock.now();
					listeners.notify();
				};

				const offTick = clock.onTick(refresh);
				const offJumps = jumps?.(refresh);
				off = () => {
					offTick();
					offJumps?.();
				};
			}

			const remove = listeners.add(listener);
			return () => {
				remove();
				if (listeners.size === 0) {
					off?.();
					off = undefined;
				}
			};
		},
	};
}

/** A static snapshot's time: the views read `at` and never move on (no tick, no spinner frame). */
export function frozenTicks(at: number): Ticks {
	return {now: () => at, subscribe: () => () => undefined};
}

export const TicksContext = createContext<Ticks>({now: () => 0, subscribe: () => () => undefined});

/**
 * What a view shows of the time, e.g. a timer's text. The component re-renders only when the selected value
 * changes: on a tick, the few texts that show a running timer, not the screen. `select` must return a primitive.
 */
export function useTickValue<T extends string | number | boolean | undefined>(select: (now: number) => T): T {
	return useTickValueOf(useContext(TicksContext), select);
}

/** useTickValue for the component that provides the ticks (the App), which cannot read its own context. */
export function useTickValueOf<T extends string | number | boolean | undefined>(ticks: Ticks, select: (now: number) => T): T {
	// React reads the snapshot at render and again after the commit (each render hands it a new function, so it
	// checks nothing changed in between): the same selection at the same tick is computed once. The header's
	// version choice measures every variant of its line; profiled at 10 updates/s it was ~6 % of the busy time.
	const last = useRef<{select?: (now: number) => T; now: number; value?: T}>({now: Number.NaN});
	return useSyncExternalStore(ticks.subscribe, () => {
		const now = ticks.now();
		const seen = last.current;
		if (seen.select !== select || seen.now !== now) {
			seen.value = select(now);
			seen.select = select;
			seen.now = now;
		}

		return seen.value as T;
	});
}
