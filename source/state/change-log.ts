/**
 * What changed in the store, version by version: which objects were re-adapted in place (with their state before
 * and after), or that something else changed (an object came or went, the connection, a context). A reader that
 * shows only part of the store (the TUI shows ~35 of thousands of objects) asks for the changes since the version
 * it last drew and skips a frame when none of them is on its screen. Bounded: past its horizon it answers
 * "unknown" and the reader draws.
 */
import type {PlanObject} from '../model/plan-tree.js';
import type {NodeTiming} from './store-snapshot.js';

/** One object re-adapted in place: the same key before and after. */
export type ObjectChange = {
	readonly key: string;
	readonly before: PlanObject;
	readonly after: PlanObject;
	/** The object's own timer (`objectTimingId`) before and after. */
	readonly timingBefore?: NodeTiming;
	readonly timingAfter?: NodeTiming;
};

/** Only the events about `key` changed (an object that is not, or no longer, in the store). */
export type EventsChange = {readonly key: string; readonly eventsOnly: true};

export type StoreChange = ObjectChange | EventsChange;

export type StoreChanges = {
	/**
	 * The changes after version `from` up to `to`, oldest first; undefined when anything else changed in between
	 * (an object added or deleted, connection, sync, fatal, missing, contexts) or the log no longer reaches back.
	 */
	between(from: number, to: number): readonly StoreChange[] | undefined;
};

/** Entries kept: thousands of updates between two frames are a relist, which a reader draws anyway. */
const maxEntries = 4096;

/** `change` undefined: something other than an object changing in place. */
type Entry = {readonly version: number; readonly change: StoreChange | undefined};

export class ChangeLog implements StoreChanges {
	#entries: Entry[] = [];
	/** Versions up to here are no longer known. */
	#horizon = 0;

	/** Record a change that will belong to `version` (the store's next one). */
	object(version: number, change: StoreChange): void {
		this.#push({version, change});
	}

	/** Something that is not an object changing in place happened in `version`. */
	other(version: number): void {
		const last = this.#entries.at(-1);
		if (last?.version === version && last.change === undefined) {
			return;
		}

		this.#push({version, change: undefined});
	}

	between(from: number, to: number): readonly StoreChange[] | undefined {
		if (from < this.#horizon) {
			return undefined;
		}

		const found: StoreChange[] = [];
		// Newest last: walk back to the first entry after `from`.
		let i = this.#entries.length;
		while (i > 0 && this.#entries[i - 1]!.version > from) {
			i--;
		}

		for (; i < this.#entries.length; i++) {
			const entry = this.#entries[i]!;
			if (entry.version > to) {
				break;
			}

			if (entry.change === undefined) {
				return undefined;
			}

			found.push(entry.change);
		}

		return found;
	}

	#push(entry: Entry): void {
		this.#entries.push(entry);
		if (this.#entries.length > maxEntries) {
			const dropped = this.#entries.splice(0, maxEntries / 2);
			this.#horizon = dropped.at(-1)!.version;
		}
	}
}
