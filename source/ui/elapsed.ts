import type {NodeTiming} from '../state/store.js';

/**
 * How long a node (or object) has been worked on, from the store's timings: a running timer reads up to `now`,
 * a finished one its final duration. Undefined when it never started.
 */
export function elapsedOf(timing: NodeTiming | undefined, now: number): number | undefined {
	if (timing?.startedAt === undefined) {
		return undefined;
	}

	return Math.max(0, (timing.endedAt ?? now) - timing.startedAt);
}
