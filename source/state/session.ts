/**
 * The one wiring of a run, shared by the CLI and the library: a clock, a source and the store it feeds.
 * What is drawn or awaited on top of the store (TUI, stream, wait controller, history, recording) is the caller's.
 */
import type {Clock} from '../core/clock.js';
import type {ObjectSource, SourceSink} from './object-source.js';
import {Store} from './store.js';

export type Session = {
	readonly clock: Clock;
	readonly source: ObjectSource;
	readonly store: Store;
	/** Start the source; its events go to `sink` (default: straight into the store). */
	start(sink?: SourceSink): void;
};

/**
 * A store for `source` on `clock`. `storeClock`: the time the store stamps changes with, when it must differ from
 * the run's clock (a recording pins it to the time each event is recorded at).
 */
export function openSession(source: ObjectSource, clock: Clock, storeClock: Clock = clock): Session {
	const store = new Store(storeClock);
	return {
		clock,
		source,
		store,
		start(sink = store.apply) {
			source.start(sink);
		},
	};
}
