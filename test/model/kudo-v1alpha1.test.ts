import {describe, expect, test} from 'vitest';
import {adaptInstance} from '../../source/model/adapt-kudo-instance.js';
import {waitVerdict} from '../../source/model/wait-rules.js';

/* kudo.dev/v1alpha1 Instances (old files, kuttl asserts of older operators): read in their own shape or refused. */
const options = {now: 0, deferGraceMs: 30_000, staleMs: 600_000};

describe('kudo.dev/v1alpha1 Instances', () => {
	test('KUDO 0.6–0.9: planStatus with lastFinishedRun, aggregatedStatus names the active plan', () => {
		const o = adaptInstance({
			apiVersion: 'kudo.dev/v1alpha1',
			kind: 'Instance',
			metadata: {name: 'zk', namespace: 'default'},
			spec: {operatorVersion: {name: 'zookeeper-0.1.0'}},
			status: {
				aggregatedStatus: {status: 'COMPLETE', activePlanName: 'deploy'},
				planStatus: {
					deploy: {
						name: 'deploy',
						status: 'COMPLETE',
						lastFinishedRun: '2019-08-01T10:00:00Z',
						phases: [{name: 'zookeeper', status: 'COMPLETE', steps: [{name: 'everything', status: 'COMPLETE'}]}],
					},
					validation: {name: 'validation', status: 'NEVER_RUN', lastFinishedRun: null, phases: []},
				},
			},
		});
		expect(o).toMatchObject({active: 'deploy', status: 'COMPLETE', outcome: 'succeeded', summary: 'deploy completed'});
		expect(o.tree.find(n => n.name === 'deploy')?.updatedAt).toBe('2019-08-01T10:00:00Z');
		expect(waitVerdict(o, o, options)).toMatchObject({done: true, exitCode: 0});
	});

	test('before KUDO 0.6 (status.activePlan, status.status): refused with one line, never a wrong state', () => {
		const o = adaptInstance({
			apiVersion: 'kudo.dev/v1alpha1',
			kind: 'Instance',
			metadata: {name: 'kafka', namespace: 'default'},
			spec: {frameworkVersion: {name: 'kafka-2.11-2.4.0'}},
			status: {activePlan: {name: 'kafka-deploy-414458000', kind: 'PlanExecution'}, status: 'COMPLETE'},
		});
		expect(o).toMatchObject({state: 'unknown', outcome: 'unknown', tree: []});
		expect(o.summary).toBe('kudo.dev/v1alpha1 Instance from KUDO before 0.6 (status COMPLETE): its plans are in PlanExecution objects, which planwatch does not read');
		expect(waitVerdict(o, o, options)).toEqual({done: true, exitCode: 1, summary: o.summary});
	});
});
