/**
 * A static snapshot (`-f FILE`) is a picture of one moment: the newest time its objects record. Views draw it at
 * that moment (timers frozen, no spinner, `as of <time>`), never as though the file were live now.
 */
import type {KubeObject} from '../core/kube-object.js';
import {isoTime, record, records, timeValue, type RawRecord} from './read-raw.js';

/** The moment a static snapshot is drawn at; `recorded` false when its objects record no time (then: when read). */
export type AsOf = {readonly at: number; readonly recorded: boolean};

/** Every time a KUDO Instance, Kanister ActionSet, Event or their definitions carry (where each kind keeps them). */
function timesOf(o: KubeObject): unknown[] {
	const meta = record(o.metadata);
	const times: unknown[] = [meta['creationTimestamp'], meta['deletionTimestamp'], ...records(meta['managedFields']).map(f => f['time'])];
	const status = record(o['status']);
	// KUDO: each plan's lastUpdatedTimestamp (status.planStatus.<plan>).
	for (const plan of Object.values(record(status['planStatus']))) {
		times.push(record(plan)['lastUpdatedTimestamp']);
	}

	// Kanister: the ActionSet's and each phase's progress.lastTransitionTime.
	times.push(record(status['progress'])['lastTransitionTime']);
	for (const action of records(status['actions'])) {
		const phases: RawRecord[] = [...records(action['phases']), record(action['deferPhase'])];
		times.push(...phases.map(p => record(p['progress'])['lastTransitionTime']));
	}

	// core/v1 and events.k8s.io Events.
	times.push(o['lastTimestamp'], o['firstTimestamp'], o['eventTime'], record(o['series'])['lastObservedTime']);
	return times;
}

/** The newest time recorded in the objects (ms), or undefined when none records any. */
export function newestRecordedTime(objects: Iterable<KubeObject>): number | undefined {
	let newest = Number.NEGATIVE_INFINITY;
	for (const o of objects) {
		for (const t of timesOf(o)) {
			newest = Math.max(newest, timeValue(isoTime(t)));
		}
	}

	return Number.isFinite(newest) ? newest : undefined;
}
