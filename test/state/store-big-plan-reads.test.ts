import {describe, expect, it, vi} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import * as sanitize from '../../source/model/sanitize.js';
import {Store} from '../../source/state/store.js';
import {bigPlanInstance, bigPlanOperatorVersion} from '../helpers/big-plan.js';
import {FakeClock} from '../helpers/fake-clock.js';

// Every string the adapters read from the cluster goes through sanitizeLine: its calls count the fields read.
vi.mock('../../source/model/sanitize.js', async original => {
	const actual = await original<typeof sanitize>();
	return {...actual, sanitizeLine: vi.fn(actual.sanitizeLine)};
});

const steps = 500;
const operatorVersion = bigPlanOperatorVersion({steps, namespace: 'ns'});

function instance(running: number, resourceVersion: number): KubeObject {
	return bigPlanInstance(running, {steps, namespace: 'ns', metadata: {uid: 'u1', resourceVersion: String(resourceVersion)}, planUid: 'run-1'});
}

describe('store: reading an update of a 500-step plan', () => {
	it('reads the steps that changed again, not the ones the update left as they were (nor the OperatorVersion)', () => {
		const store = new Store(new FakeClock());
		const reads = vi.mocked(sanitize.sanitizeLine);
		store.apply({type: 'upsert', resource: 'OperatorVersion', object: operatorVersion});
		store.apply({type: 'upsert', resource: 'Instance', object: instance(10, 1)});
		reads.mockClear();
		// Each object a fresh copy, as a watch event parses it: only the store's reuse keeps unchanged records.
		store.apply({type: 'upsert', resource: 'Instance', object: instance(11, 2)});
		const step = store.getSnapshot().objects[0]!.tree[0]!.children[0]!.children[11]!;
		expect(step.status).toBe('IN_PROGRESS');
		// Two steps changed (three fields each), their phase and plan, and the object's own fields: a few dozen reads
		// against the 1500 of reading every step.
		expect(reads.mock.calls.length).toBeGreaterThan(0);
		expect(reads.mock.calls.length).toBeLessThan(100);
	});
});
