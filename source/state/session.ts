/**
 * The one wiring of a run, shared by the CLI and the library: a clock, a source and the store it feeds.
 * What is drawn or awaited on top of the store (TUI, stream, wait controller) is the caller's.
 */
import type {Clock} from '../core/clock.js';
import type {ObjectSource} from './object-source.js';
import {Store} from './store.js';

export type Session = {
	readonly clock: Clock;
	readonly source: ObjectSource;
	readonly store: Store;
};

/** Start `source` feeding a new store on `clock`. Stop it with `session.source.stop()`. */
export function openSession(source: ObjectSource, clock: Clock): Session {
	const store = new Store(clock);
	source.start(store.apply);
	return {clock, source, store};
}
