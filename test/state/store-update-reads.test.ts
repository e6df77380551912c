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

/** A running ActionSet whose action has `phases` phases, the `running`-th running at `percent`. */
function longActionSet(phases: number, running: number, percent: number, resourceVersion: number): KubeObject {
	const phase = (i: number) => ({
		name: `phase-${i}`,
		state: i < running ? 'complete' : i === running ? 'running' : 'pending',
		progress: {progressPercent: String(i < running ? 100 : i === running ? percent : 0), lastTransitionTime: '2026-11-30T11:00:00Z'},
	});
	return {
		apiVersion: 'cr.kanister.io/v1alpha1',
		kind: 'ActionSet',
		metadata: {name: 'long', namespace: 'ns', uid: 'a1', resourceVersion: String(resourceVersion), creationTimestamp: '2026-11-30T11:00:00Z'},
		spec: {actions: [{name: 'backup', blueprint: 'long-blueprint', object: {kind: 'statefulset', name: 'db', namespace: 'ns'}}]},
		status: {
			state: 'running',
			actions: [{
				name: 'backup',
				blueprint: 'long-blueprint',
				object: {kind: 'statefulset', name: 'db', namespace: 'ns'},
				phases: Array.from({length: phases}, (_, i) => phase(i)),
				deferPhase: {name: 'cleanup', state: 'pending'},
				artifacts: {snapshot: {keyValue: {path: '{{ .Phases.phase-0.Output.path }}'}}},
			}],
			progress: {runningPhase: `phase-${running}`, percentCompleted: String(percent), lastTransitionTime: '2026-11-30T11:00:00Z'},
			error: {message: ''},
		},
	};
}

describe('store: reading an update of a running ActionSet', () => {
	it('reads the phase whose progress moved again, not the other phases, the object reference or the artifacts', () => {
		const store = new Store(new FakeClock());
		const reads = vi.mocked(sanitize.sanitizeLine);
		store.apply({type: 'upsert', resource: 'ActionSet', object: longActionSet(100, 40, 10, 1)});
		reads.mockClear();
		store.apply({type: 'upsert', resource: 'ActionSet', object: longActionSet(100, 40, 20, 2)});
		const phase = store.getSnapshot().objects[0]!.tree[0]!.children[40]!;
		expect(phase.percent).toBe(20);
		// A read of every phase is two fields each (200 and more); the moved phase, the action and the object: a few dozen.
		expect(reads.mock.calls.length).toBeGreaterThan(0);
		expect(reads.mock.calls.length).toBeLessThan(60);
	});
});
