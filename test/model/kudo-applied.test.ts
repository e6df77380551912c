import {describe, expect, test} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import {appliedFor, isAppliedFor, kudoHealth, kudoInstanceSelector, selectsPod} from '../../source/model/kudo-applied.js';

/** The marks kudobuilder/kudo v0.19.0's enhancer puts on what it applies for step `app` of plan `deploy`. */
function applied(kind: string, spec: Record<string, unknown>, status: Record<string, unknown>, meta: Record<string, unknown> = {}): KubeObject {
	return {
		apiVersion: kind === 'Job' ? 'batch/v1' : 'apps/v1',
		kind,
		metadata: {
			name: 'web',
			namespace: 'ns',
			generation: 1,
			labels: {heritage: 'kudo', 'kudo.dev/operator': 'op', 'kudo.dev/instance': 'inst'},
			annotations: {'kudo.dev/plan': 'deploy', 'kudo.dev/phase': 'main', 'kudo.dev/step': 'app', 'kudo.dev/last-plan-execution-uid': 'u-1', 'kudo.dev/operator-version': '0.1.0'},
			ownerReferences: [{apiVersion: 'kudo.dev/v1beta1', kind: 'Instance', name: 'inst', uid: 'i', controller: true, blockOwnerDeletion: true}],
			...meta,
		},
		spec,
		status,
	};
}

const step = {instance: 'inst', plan: 'deploy', phase: 'main', step: 'app'};

describe('appliedFor: the marks of the KUDO manager', () => {
	test('reads instance, plan, phase, step and plan uid', () => {
		expect(appliedFor(applied('Deployment', {}, {}))).toEqual({instance: 'inst', plan: 'deploy', phase: 'main', step: 'app', planUid: 'u-1'});
		expect(isAppliedFor(applied('Deployment', {}, {}), step)).toBe(true);
		expect(isAppliedFor(applied('Deployment', {}, {}), {...step, step: 'other'})).toBe(false);
		expect(isAppliedFor(applied('Deployment', {}, {}), {...step, instance: 'other'})).toBe(false);
	});

	test.each([
		['without heritage=kudo', {labels: {'kudo.dev/instance': 'inst'}}],
		['without the instance label', {labels: {heritage: 'kudo'}}],
		['without the step annotation', {annotations: {'kudo.dev/plan': 'deploy'}}],
		['owned by another Instance', {ownerReferences: [{kind: 'Instance', name: 'else', controller: true}]}],
	])('not applied by KUDO for the step %s', (_name, meta) => {
		expect(appliedFor(applied('Deployment', {}, {}, meta))).toBeUndefined();
	});

	test('the selector names heritage and the instance', () => {
		expect(kudoInstanceSelector('inst')).toBe('heritage=kudo,kudo.dev/instance=inst');
	});
});

describe('kudoHealth: as KUDO judges it', () => {
	const rows: Array<[string, KubeObject, boolean, string, boolean?]> = [
		['deployment rolled out', applied('Deployment', {replicas: 2}, {observedGeneration: 1, replicas: 2, updatedReplicas: 2, readyReplicas: 2, availableReplicas: 2}), true, '2/2 ready'],
		['deployment spec not observed', applied('Deployment', {replicas: 1}, {observedGeneration: 0}), false, '0/1 ready, waiting for the spec update to be observed'],
		[
			'deployment new replicas not updated',
			applied('Deployment', {replicas: 3}, {observedGeneration: 1, replicas: 3, updatedReplicas: 1, readyReplicas: 1}),
			false,
			'1/3 ready, 1 of 3 new replicas updated',
		],
		[
			'deployment old replicas pending',
			applied('Deployment', {replicas: 1}, {observedGeneration: 1, replicas: 2, updatedReplicas: 1, readyReplicas: 1}),
			false,
			'1/1 ready, 1 old replicas pending termination',
		],
		[
			'deployment not available',
			applied('Deployment', {replicas: 1}, {observedGeneration: 1, replicas: 1, updatedReplicas: 1, readyReplicas: 0, availableReplicas: 0}),
			false,
			'0/1 ready, 0 of 1 updated replicas available',
		],
		['deployment default replicas is 1', applied('Deployment', {}, {observedGeneration: 1, replicas: 1, updatedReplicas: 1, readyReplicas: 1, availableReplicas: 1}), true, '1/1 ready'],
		[
			'deployment past its progress deadline',
			applied('Deployment', {replicas: 1}, {observedGeneration: 1, conditions: [{type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded'}]}),
			false,
			'0/1 ready, exceeded its progress deadline',
		],
		['statefulset ready', applied('StatefulSet', {replicas: 3}, {observedGeneration: 1, readyReplicas: 3, currentRevision: 'r1', updateRevision: 'r1'}), true, '3/3 ready'],
		['statefulset waiting for pods', applied('StatefulSet', {replicas: 3}, {observedGeneration: 1, readyReplicas: 1}), false, '1/3 ready, waiting for 2 pods to be ready'],
		[
			'statefulset rolling update',
			applied('StatefulSet', {replicas: 1}, {observedGeneration: 1, readyReplicas: 1, currentRevision: 'r1', updateRevision: 'r2'}),
			false,
			'1/1 ready, rolling update to r2 not complete',
		],
		[
			'statefulset partitioned',
			applied('StatefulSet', {replicas: 4, updateStrategy: {type: 'RollingUpdate', rollingUpdate: {partition: 2}}}, {observedGeneration: 1, readyReplicas: 4, updatedReplicas: 1}),
			false,
			'4/4 ready, 1 of 2 new pods updated',
		],
		[
			'statefulset OnDelete',
			applied('StatefulSet', {replicas: 1, updateStrategy: {type: 'OnDelete'}}, {observedGeneration: 1, readyReplicas: 1}),
			false,
			'1/1 ready, rollout status is only available for the RollingUpdate strategy',
		],
		['statefulset spec not observed', applied('StatefulSet', {replicas: 2}, {observedGeneration: 0, readyReplicas: 2}), false, '2/2 ready, waiting for the spec update to be observed'],
		['job failed without reason or message', applied('Job', {}, {failed: 1, conditions: [{type: 'Failed', status: 'True'}]}), false, 'failed', true],
		['job succeeded', applied('Job', {}, {succeeded: 1}), true, 'succeeded'],
		['job running', applied('Job', {}, {active: 1, failed: 2}), false, 'running: 1 active, 2 failed'],
		[
			'job failed for good',
			applied('Job', {}, {failed: 7, conditions: [{type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit'}]}),
			false,
			'failed (BackoffLimitExceeded): Job has reached the specified backoff limit',
			true,
		],
		['a ConfigMap is healthy once created', {...applied('ConfigMap', {}, {}), apiVersion: 'v1'}, true, 'healthy once created'],
	];
	test.each(rows)('%s', (_name, object, healthy, words, terminal = false) => {
		const h = kudoHealth(object);
		expect(h).toMatchObject({healthy, words, terminal, namespace: 'ns', name: 'web'});
	});
});

describe('selectsPod', () => {
	const deployment = applied('Deployment', {selector: {matchLabels: {app: 'web'}}}, {});
	const podWith = (labels: Record<string, string>, namespace = 'ns'): KubeObject => ({kind: 'Pod', metadata: {name: 'p', namespace, labels}});
	test('matchLabels all on the pod, same namespace', () => {
		expect(selectsPod(deployment, podWith({app: 'web', 'pod-template-hash': 'x'}))).toBe(true);
		expect(selectsPod(deployment, podWith({app: 'db'}))).toBe(false);
		expect(selectsPod(deployment, podWith({app: 'web'}, 'other'))).toBe(false);
		expect(selectsPod(applied('Deployment', {}, {}), podWith({app: 'web'}))).toBe(false);
	});
});
