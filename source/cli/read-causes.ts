/**
 * `--once` (any output): before the one picture is drawn, the pods, applied objects and log tails of its running,
 * retrying and failed steps and phases are read, so a failed node is drawn with its cause and next command
 * (docs/stuck.md). Bounded: the whole wait takes at most `limitMs` (the request timeout); past it, or when the
 * source cannot follow at all, the picture is drawn with what was read and the tree's one note says so.
 */
import type {Clock} from '../core/clock.js';
import {formatDurationWords} from '../model/format-duration.js';
import type {ObjectSource} from '../state/object-source.js';
import type {Store} from '../state/store.js';
import {allWatchWants} from '../state/watch-wants.js';
import {diagnoseIn} from '../state/workloads.js';

/** Rounds at most: pods listed → the log a diagnosis points at → that log read (a third only if a pod moved). */
const maxRounds = 4;

export type ReadCauses = {
	readonly store: Store;
	readonly source: Pick<ObjectSource, 'followed'>;
	readonly clock: Clock;
	readonly limitMs: number;
};

/** `'read'`: everything wanted was read; `'timed-out'`: not within `limitMs` (noted); `'none'`: nothing to read. */
export async function readCauses({store, source, clock, limitMs}: ReadCauses): Promise<'read' | 'timed-out' | 'none'> {
	if (!source.followed) {
		return 'none';
	}

	let timedOut = false;
	let cancel: (() => void) | undefined;
	const deadline = new Promise<void>(resolve => {
		cancel = clock.after(limitMs, () => {
			timedOut = true;
			resolve();
		});
	});
	let asked = '';
	try {
		for (let round = 0; round < maxRounds; round++) {
			const snapshot = store.getSnapshot();
			const wants = allWatchWants(snapshot.objects, (object, node) => diagnoseIn(snapshot, object, node));
			const key = JSON.stringify(wants);
			if (wants.interest.length === 0 || key === asked) {
				return round === 0 ? 'none' : 'read';
			}

			asked = key;
			store.workloads.setInterest(wants.interest);
			store.workloads.setWantedLogs(wants.logs);
			await Promise.race([source.followed(), deadline]);
			if (timedOut) {
				const within = formatDurationWords(limitMs);
				store.workloads.noteUnread(`pods and logs not all read within ${within} (--request-timeout): drawn without them`);
				return 'timed-out';
			}
		}

		return 'read';
	} finally {
		cancel?.();
	}
}
