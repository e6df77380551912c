import {describe, expect, test} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import {diagnoseKanisterPhase, diagnoseKudoStep, isDiagnosable, kanisterNamespaces, logKey, type WatchedView} from '../../source/model/diagnosis.js';
import {appendLog, emptyLogTail} from '../../source/model/log-tail.js';
import type {PlanNode, PlanObject} from '../../source/model/plan-tree.js';

function node(kind: PlanNode['kind'], name: string, state: PlanNode['state'], extra: Partial<PlanNode> = {}): PlanNode {
	return {id: `${kind}:${name}`, kind, name, status: state, state, children: [], ...extra};
}

function object(kind: PlanObject['kind'], namespace: string, name: string): PlanObject {
	const wait = {kind: 'ActionSet', state: '', deferPending: false, deferRunning: false, runningPhase: ''} as const;
	return {kind, namespace, name, outcome: 'running', summary: '', state: 'running', status: '', wait, tree: []};
}

const view = (parts: Partial<WatchedView>): WatchedView => ({workloads: [], pods: [], gonePods: [], events: [], logs: new Map(), ...parts});

const deployment: KubeObject = {
	apiVersion: 'apps/v1',
	kind: 'Deployment',
	metadata: {
		name: 'web', namespace: 'ns', generation: 1,
		labels: {heritage: 'kudo', 'kudo.dev/instance': 'inst'},
		annotations: {'kudo.dev/plan': 'deploy', 'kudo.dev/phase': 'main', 'kudo.dev/step': 'app'},
	},
	spec: {replicas: 1, selector: {matchLabels: {app: 'web'}}},
	status: {observedGeneration: 1, replicas: 1, updatedReplicas: 1, readyReplicas: 0},
};

function pod(name: string, labels: Record<string, string>, status: Record<string, unknown>, namespace = 'ns', created = '2026-01-01T00:00:10Z'): KubeObject {
	return {apiVersion: 'v1', kind: 'Pod', metadata: {name, namespace, uid: name, labels, creationTimestamp: created}, spec: {containers: [{name: 'app'}]}, status};
}

const crashing = {phase: 'Running', containerStatuses: [{name: 'app', restartCount: 5, state: {waiting: {reason: 'CrashLoopBackOff'}}, lastState: {terminated: {exitCode: 1}}}]};
const fine = {phase: 'Running', conditions: [{type: 'Ready', status: 'True'}], containerStatuses: [{name: 'app', ready: true, state: {running: {}}}]};

describe('isDiagnosable', () => {
	test('KUDO steps and Kanister phases that run, retry or failed', () => {
		const inst = object('Instance', 'ns', 'i');
		const as = object('ActionSet', 'ns', 'a');
		expect(isDiagnosable(inst, node('step', 's', 'running'))).toBe(true);
		expect(isDiagnosable(inst, node('step', 's', 'retrying'))).toBe(true);
		expect(isDiagnosable(inst, node('step', 's', 'failed'))).toBe(true);
		expect(isDiagnosable(inst, node('step', 's', 'succeeded'))).toBe(false);
		expect(isDiagnosable(inst, node('plan', 's', 'failed'))).toBe(false);
		expect(isDiagnosable(as, node('phase', 'p', 'running'))).toBe(true);
		expect(isDiagnosable(as, node('deferPhase', 'p', 'failed'))).toBe(true);
		expect(isDiagnosable(as, node('action', 'p', 'failed'))).toBe(false);
		expect(isDiagnosable(as, node('phase', 'p', 'pending'))).toBe(false);
	});
});

describe('diagnoseKudoStep', () => {
	const inst = object('Instance', 'ns', 'inst');
	const path = {plan: 'deploy', phase: 'main', step: 'app'};

	test('the applied Deployment, its crash-looping pod, the previous log and the next command', () => {
		const logs = new Map([[logKey({namespace: 'ns', pod: 'web-1', container: 'app', previous: true}), appendLog(emptyLogTail, 'starting\npanic: no config\n')]]);
		const d = diagnoseKudoStep(inst, path, node('step', 'app', 'running'), view({
			workloads: [deployment],
			pods: [pod('web-1', {app: 'web'}, crashing), pod('web-2', {app: 'web'}, fine), pod('other', {app: 'db'}, crashing)],
			logs,
		}));
		expect(d.resources).toEqual([{kind: 'Deployment', namespace: 'ns', name: 'web', healthy: false, terminal: false, words: '0/1 ready, 0 of 1 updated replicas available'}]);
		expect(d.pods.map(p => p.name)).toEqual(['web-1', 'web-2']);
		expect(d.cause).toBe('pod web-1: CrashLoopBackOff: container app keeps crashing, 5 restarts, last exit code 1');
		expect(d.brief).toBe('CrashLoopBackOff · pod web-1');
		expect(d.log).toEqual({namespace: 'ns', pod: 'web-1', container: 'app', previous: true});
		expect(d.logTail).toEqual(['starting', 'panic: no config']);
		expect(d.next).toBe('kubectl logs -n ns web-1 -c app --previous');
	});

	test('objects of another step or instance are not listed; without pods the unhealthy object, else the plan', () => {
		const other = {...deployment, metadata: {...deployment.metadata, annotations: {...deployment.metadata!['annotations'] as object, 'kudo.dev/step': 'db'}}};
		expect(diagnoseKudoStep(inst, path, node('step', 'app', 'running'), view({workloads: [other]})).resources).toEqual([]);
		const unhealthy = diagnoseKudoStep(inst, path, node('step', 'app', 'running'), view({workloads: [deployment]}));
		expect(unhealthy.next).toBe('kubectl describe deployment -n ns web');
		expect(unhealthy.brief).toBe('0/1 ready · deployment web');
		expect(diagnoseKudoStep(inst, path, node('step', 'app', 'failed'), view({})).next).toBe('kubectl kudo plan trigger --name deploy --instance inst -n ns');
	});

	test('a running step with nothing wrong seen has no next command', () => {
		const healthy = {...deployment, status: {observedGeneration: 1, replicas: 1, updatedReplicas: 1, readyReplicas: 1, availableReplicas: 1}};
		const d = diagnoseKudoStep(inst, path, node('step', 'app', 'running'), view({workloads: [healthy], pods: [pod('web-2', {app: 'web'}, fine)]}));
		expect(d.resources.map(r => r.healthy)).toEqual([true]);
		expect(d.cause).toBeUndefined();
		expect(d.brief).toBeUndefined();
		expect(d.next).toBeUndefined();
		expect(diagnoseKudoStep(inst, path, node('step', 'app', 'running'), view({})).next).toBeUndefined();
	});

	test('the forbidden note is carried', () => {
		expect(diagnoseKudoStep(inst, path, node('step', 'app', 'running'), view({note: 'pods: forbidden'})).note).toBe('pods: forbidden');
	});
});

describe('diagnoseKanisterPhase', () => {
	const as = object('ActionSet', 'kanister', 'backup-x');
	const action = node('action', 'backup', 'running', {detail: 'statefulset app-ns/db'});
	const kanisterPod = (name: string, created: string, extra: Record<string, string> = {}, namespace = 'app-ns'): KubeObject => (
		pod(name, {createdBy: 'kanister', ...extra}, crashing, namespace, created)
	);
	const run = {startedAt: Date.parse('2026-01-01T00:00:05.500Z')};

	test('namespaces: the ActionSet\'s and its subject\'s', () => {
		expect(kanisterNamespaces(as, action)).toEqual(['kanister', 'app-ns']);
		expect(kanisterNamespaces(as, node('action', 'a', 'running', {detail: 'namespace prod'}))).toEqual(['kanister', 'prod']);
		expect(kanisterNamespaces(as, undefined)).toEqual(['kanister']);
	});

	test('the pod created while the phase ran, in a namespace it concerns, labelled createdBy=kanister', () => {
		const d = diagnoseKanisterPhase(as, undefined, action, node('phase', 'dump', 'running'), run, view({
			pods: [
				kanisterPod('kanister-job-a', '2026-01-01T00:00:05Z'),
				kanisterPod('kanister-job-old', '2026-01-01T00:00:01Z'),
				kanisterPod('kanister-job-else', '2026-01-01T00:00:07Z', {}, 'elsewhere'),
				pod('not-kanister', {app: 'x'}, crashing, 'app-ns'),
			],
		}));
		expect(d.pods.map(p => p.name)).toEqual(['kanister-job-a']);
		expect(d.next).toBe('kubectl logs -n app-ns kanister-job-a -c app --previous');
	});

	test('a running phase with a healthy pod: its log is followed, no next command', () => {
		const running = pod('kanister-job-r', {createdBy: 'kanister'}, fine, 'app-ns', '2026-01-01T00:00:06Z');
		const d = diagnoseKanisterPhase(as, undefined, action, node('phase', 'dump', 'running'), run, view({pods: [running]}));
		expect(d.log).toEqual({namespace: 'app-ns', pod: 'kanister-job-r', container: 'app', previous: false});
		expect(d.next).toBeUndefined();
	});

	test('a pod still Pending (its container not started): no log asked for yet, then its log once it runs', () => {
		// The real controller's KubeTask pod is Pending for a while; a log read then only gets the kubelet's
		// `… is waiting to start` (test/fixtures/kanister-recorded/kubetask-*.ndjson).
		const pending = pod('kanister-job-p', {createdBy: 'kanister'}, {phase: 'Pending', conditions: [{type: 'PodScheduled', status: 'True'}]}, 'app-ns', '2026-01-01T00:00:06Z');
		const before = diagnoseKanisterPhase(as, undefined, action, node('phase', 'dump', 'running'), run, view({pods: [pending]}));
		expect(before.pods.map(p => [p.name, p.reason])).toEqual([['kanister-job-p', 'pending']]);
		expect(before.log).toBeUndefined();
		const started = {...pending, status: fine};
		const after = diagnoseKanisterPhase(as, undefined, action, node('phase', 'dump', 'running'), run, view({pods: [started]}));
		expect(after.log).toEqual({namespace: 'app-ns', pod: 'kanister-job-p', container: 'app', previous: false});
	});

	test('with a JobID on the ActionSet only pods that carry it', () => {
		const pods = [kanisterPod('mine', '2026-01-01T00:00:06Z', {'kanister.io/JobID': 'j1'}), kanisterPod('theirs', '2026-01-01T00:00:06Z', {'kanister.io/JobID': 'j2'})];
		expect(diagnoseKanisterPhase(as, 'j1', action, node('phase', 'dump', 'running'), run, view({pods})).pods.map(p => p.name)).toEqual(['mine']);
	});

	test('a failed phase whose pod is gone keeps the last log lines seen; the next command re-runs the action', () => {
		const gone = pod('kanister-job-z', {createdBy: 'kanister'}, {phase: 'Failed', containerStatuses: [{name: 'container', state: {terminated: {exitCode: 1}}}]}, 'app-ns', '2026-01-01T00:00:06Z');
		gone.spec = {containers: [{name: 'container'}]};
		const logs = new Map([[logKey({namespace: 'app-ns', pod: 'kanister-job-z', container: 'container', previous: false}), appendLog(emptyLogTail, 'pg_dump: error: connection refused\n')]]);
		const failedAction = node('action', 'backup', 'failed', {detail: 'statefulset app-ns/db'});
		const ended = {...run, endedAt: Date.parse('2026-01-01T00:00:20Z')};
		const watched = view({gonePods: [{pod: gone, goneAt: Date.parse('2026-01-01T00:00:19Z')}], logs});
		const d = diagnoseKanisterPhase(as, undefined, failedAction, node('phase', 'dump', 'failed'), ended, watched);
		expect(d.cause).toBe('pod kanister-job-z (gone): container container failed: exit code 1');
		expect(d.brief).toBe('exit code 1 · pod kanister-job-z (gone)');
		expect(d.logTail).toEqual(['pg_dump: error: connection refused']);
		expect(d.logGone).toBe(true);
		expect(d.next).toBe('kanctl create actionset --action backup --from backup-x --namespace kanister');
		expect(diagnoseKanisterPhase(as, undefined, failedAction, node('phase', 'dump', 'failed'), ended, view({pods: [gone], logs})).logGone).toBeUndefined();
	});
});
