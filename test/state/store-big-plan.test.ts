import {describe, expect, it} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import type {PlanNode} from '../../source/model/plan-tree.js';
import {Store} from '../../source/state/store.js';
import {FakeClock} from '../helpers/fake-clock.js';

const names = Array.from({length: 500}, (_, i) => `step-${String(i).padStart(3, '0')}`);
const operatorVersion: KubeObject = {
	apiVersion: 'kudo.dev/v1beta1',
	kind: 'OperatorVersion',
	metadata: {name: 'big-0.1.0', namespace: 'ns'},
	spec: {plans: {deploy: {strategy: 'serial', phases: [{name: 'all', strategy: 'serial', steps: names.map(name => ({name, tasks: [name]}))}]}}},
};

function instance(running: number, resourceVersion: number): KubeObject {
	return {
		apiVersion: 'kudo.dev/v1beta1',
		kind: 'Instance',
		metadata: {name: 'big', namespace: 'ns', uid: 'u1', resourceVersion: String(resourceVersion), creationTimestamp: '2026-11-30T11:00:00Z'},
		spec: {operatorVersion: {name: 'big-0.1.0'}},
		status: {
			planStatus: {
				deploy: {
					name: 'deploy',
					status: 'IN_PROGRESS',
					uid: 'run-1',
					phases: [{name: 'all', status: 'IN_PROGRESS', steps: names.map((name, i) => ({name, status: i < running ? 'COMPLETE' : i === running ? 'IN_PROGRESS' : 'PENDING'}))}],
				},
			},
		},
	};
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
