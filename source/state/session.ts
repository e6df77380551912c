/**
 * The one wiring of a run, shared by the CLI and the library: its clocks, a source and the store it feeds.
 * What is drawn or awaited on top of the store (TUI, stream, wait controller, history, recording) is the caller's.
 */
import type {Clock} from '../core/clock.js';
import type {ObjectSource, SourceSink} from './object-source.js';
import {Store} from './store.js';

export type SessionClocks = {
	/**
	 * The run's time: what the wait counts and the views show. A replay's is recorded time: it pauses and seeks,
	 * backwards too.
	 */
	readonly clock: Clock;
	/**
	 * Wall time, for pacing what is drawn (one snapshot per frame). It must never stand still or jump back: a frame
	 * timer on a paused or rewound replay clock would hold the picture until recorded time caught up. Default: `clock`.
	 */
	readonly wallClock?: Clock;
	/** The time the store stamps changes with, when it differs from `clock` (a recording pins it per event). Default: `clock`. */
	readonly storeClock?: Clock;
};

export type Session = {
	readonly clock: Clock;
	readonly wallClock: Clock;
	readonly source: ObjectSource;
	readonly store: Store;
	/** Start the source; its events go to `sink` (default: straight into the store). */
	start(sink?: SourceSink): void;
};

/** A store for `source`; nothing runs until `start`. Stop it with `session.source.stop()`. */
export function openSession(source: ObjectSource, clocks: Clock | SessionClocks): Session {
	const {clock, wallClock = clock, storeClock = clock} = 'clock' in clocks ? clocks : {clock: clocks};
	const store = new Store(storeClock);
	return {
		clock,
		wallClock,
		source,
		store,
		start(sink = store.apply) {
			source.start(sink);
			// Pods and logs of the nodes the views show go through the same sink (so --record keeps them too).
			source.follow?.(store.workloads);
		},
	};
}
