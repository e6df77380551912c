import {describe, expect, it} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import type {PlanNode} from '../../source/model/plan-tree.js';
import {Store} from '../../source/state/store.js';
import {bigPlanInstance, bigPlanOperatorVersion, bigStepNames} from '../helpers/big-plan.js';
import {FakeClock} from '../helpers/fake-clock.js';

const names = bigStepNames(500);
const operatorVersion = bigPlanOperatorVersion({steps: 500, namespace: 'ns'});

function instance(running: number, resourceVersion: number): KubeObject {
	return bigPlanInstance(running, {steps: 500, namespace: 'ns', metadata: {uid: 'u1', resourceVersion: String(resourceVersion)}, planUid: 'run-1'});
}

const nodes = (tree: readonly PlanNode[]): PlanNode[] => tree.flatMap(n => [n, ...nodes(n.children)]);

describe('store: an update of a 500-step plan', () => {
	it('leaves every node but the changed steps and their ancestors the object it was, with the timing it had', () => {
		const clock = new FakeClock();
		const store = new Store(clock);
		store.apply({type: 'upsert', resource: 'OperatorVersion', object: operatorVersion});
		for (let running = 0; running < 5; running++) {
			const before = store.getSnapshot();
			// The snapshot's map of maps is the store's own; each object's map is new per adaptation.
			const was = before.timings.get([...before.timings.keys()][0] ?? '');
			store.apply({type: 'upsert', resource: 'Instance', object: instance(running, 10 + running)});
			clock.advance(1000);
			if (running === 0) {
				continue;
			}

			const after = store.getSnapshot();
			const old = new Set(nodes(before.objects[0]!.tree));
			const made = nodes(after.objects[0]!.tree).filter(n => !old.has(n));
			expect(made.map(n => n.name)).toEqual(['deploy', 'all', names[running - 1], names[running]]);
			const [key] = [...after.timings.keys()];
			const now = after.timings.get(key!)!;
			const moved = [...now].filter(([id, timing]) => was!.get(id) !== timing).map(([id]) => id.split(':').at(-1));
			// The step that ended and the one that started; the steps that ended before keep their timing objects.
			expect(moved.filter(id => id?.startsWith('step-'))).toEqual([names[running - 1], names[running]]);
		}
	});
});
