import {createContext, useContext, useSyncExternalStore} from 'react';
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
	return useSyncExternalStore(ticks.subscribe, () => select(ticks.now()));
}
