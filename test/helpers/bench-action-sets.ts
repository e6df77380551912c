/**
 * ActionSets shaped as the bench's (test/bench/workload.ts): a copy of a fixture under a name in namespace `bench`,
 * at a progress the list's PROGRESS cell shows. For the UI's counting tests of list updates.
 */
import type {KubeObject} from '../../source/core/kube-object.js';
import {loadFixtureObject} from './fixtures.js';

export const runningActionSet = loadFixtureObject('kanister/actionset-mysql-backup-running.yaml');
export const completeActionSet = loadFixtureObject('kanister/actionset-mysql-backup-complete.yaml');

/** An ActionSet `name` copied from `base` (the running fixture) at `percent`: the object's and its running phase's progress. */
export function benchActionSet(name: string, percent: number, base = runningActionSet): KubeObject {
	type Progress = Record<string, unknown>;
	const o = structuredClone(base) as KubeObject & {metadata: Record<string, unknown>; status: {progress: Progress; actions: Array<{phases?: Array<{progress?: Progress}>}>}};
	o.metadata = {...o.metadata, name, namespace: 'bench'};
	delete o.metadata['uid'];
	o.status.progress = {...o.status.progress, percentCompleted: String(percent)};
	const phase = o.status.actions[0]?.phases?.[0];
	if (phase) {
		phase.progress = {...phase.progress, progressPercent: String(percent)};
	}

	return o;
}
