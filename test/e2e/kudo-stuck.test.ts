/**
 * Why a KUDO step is stuck, on the real KUDO v0.19.0 manager (harness/kudo.ts): the manager applies the `stuck`
 * plan's Deployment (test/e2e/operators/planwatch-e2e/templates/stuck.yaml) and keeps the step IN_PROGRESS; the
 * test checks the marks the manager put on it (what source/model/kudo-applied.ts reads), then creates the pod a
 * ReplicaSet would and writes the status a kubelet would (CrashLoopBackOff, restarts), and planwatch -o json shows
 * the Deployment with KUDO's health, the pod with its reason, and the next command. Logs are not part of this
 * case: there is no kubelet for the apiserver to proxy pods/log to (and it must never reach another address).
 * As the restricted `viewer` (no pods, no deployments), the same run carries one note and the tree as before. A
 * `--once` picture reads the pods before it draws: the same cause and next command (json; plain once each).
 */
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest';
import type {JsonNode, JsonObject} from '../../source/render/json.js';
import {cliFinal, killAllClis, startCli} from './harness/cli.js';
import {lastPlanStatus, planExecution, startKudoCluster, type Kudo} from './harness/kudo.js';
import {record} from './harness/results.js';
import {freshNamespace} from './harness/scenario-run.js';

let kudo: Kudo;

beforeAll(async () => {
	kudo = await startKudoCluster();
});

afterEach(() => {
	killAllClis();
});

afterAll(async () => {
	killAllClis();
	await kudo?.stop();
});

const name = 'app';

function stepNode(object: JsonObject | undefined): JsonNode | undefined {
	return object?.tree.find(n => n.name === 'stuck')?.children.find(n => n.name === 'rollout')?.children.find(n => n.name === 'app');
}

async function kubectlJson(args: string[]): Promise<Record<string, any>> {
	const result = await kudo.cluster.kubectl([...args, '-o', 'json']);
	expect(result.code, result.stderr).toBe(0);
	return JSON.parse(result.stdout) as Record<string, any>;
}

async function stuckInstance(namespace: string): Promise<void> {
	const watch = await kudo.watchInstance(namespace, name);
	const install = await kudo.install(namespace, name);
	expect(install.code, install.stderr + install.stdout).toBe(0);
	await watch.until(entries => lastPlanStatus(entries, 'deploy') === 'COMPLETE' && !planExecution(entries.at(-1)?.object).planName, 'deploy COMPLETE');
	for (let attempt = 1; ; attempt++) {
		const result = await kudo.kudo(['plan', 'trigger', '--name', 'stuck', '--instance', name], namespace);
		if (result.code === 0) {
			break;
		}

		expect(attempt, result.stderr).toBeLessThan(50);
		await new Promise(resolve => setTimeout(resolve, 100));
	}

	await watch.until(entries => lastPlanStatus(entries, 'stuck') === 'IN_PROGRESS', 'stuck IN_PROGRESS');
	watch.stop();
}

describe('why a step of the real KUDO manager is stuck', () => {
	it('the applied Deployment with KUDO\'s health, its crash-looping pod and the next command; a viewer gets one note', async () => {
		const namespace = freshNamespace('kudo-why');
		await stuckInstance(namespace);

		// The marks of the real manager, as planwatch reads them.
		const deployment = await kubectlJson(['get', 'deployment', `${name}-stuck`, '-n', namespace]);
		expect(deployment['metadata'].labels).toMatchObject({heritage: 'kudo', 'kudo.dev/instance': name, 'kudo.dev/operator': 'planwatch-e2e'});
		expect(deployment['metadata'].annotations).toMatchObject({'kudo.dev/plan': 'stuck', 'kudo.dev/phase': 'rollout', 'kudo.dev/step': 'app'});
		expect(deployment['metadata'].annotations['kudo.dev/last-plan-execution-uid']).toMatch(/^[0-9a-f-]{36}$/);
		expect(deployment['metadata'].ownerReferences).toEqual([expect.objectContaining({kind: 'Instance', name, controller: true})]);
		const templateLabels = deployment['spec'].template.metadata.labels as Record<string, string>;
		expect(templateLabels).toMatchObject({heritage: 'kudo', 'kudo.dev/instance': name});

		// What the deployment controller and a kubelet would write: the Deployment's status, a pod and its status.
		const replaced = await kudo.cluster.kubectl(['replace', '--subresource=status', '-f', '-'], {
			input: JSON.stringify({...deployment, status: {observedGeneration: deployment['metadata'].generation, replicas: 1, updatedReplicas: 1, readyReplicas: 0, availableReplicas: 0}}),
		});
		expect(replaced.code, replaced.stderr).toBe(0);
		const podName = `${name}-stuck-5d8c7b9f4-q7x2m`;
		const pod = {
			apiVersion: 'v1',
			kind: 'Pod',
			metadata: {name: podName, namespace, labels: {...templateLabels, 'pod-template-hash': '5d8c7b9f4'}},
			spec: deployment['spec'].template.spec,
		};
		const created = await kudo.cluster.kubectl(['create', '-f', '-'], {input: JSON.stringify(pod)});
		expect(created.code, created.stderr).toBe(0);
		const current = await kubectlJson(['get', 'pod', podName, '-n', namespace]);
		const status = {
			phase: 'Running',
			conditions: [{type: 'PodScheduled', status: 'True'}, {type: 'Ready', status: 'False', reason: 'ContainersNotReady'}],
			containerStatuses: [{
				name: 'app', image: 'registry.invalid/planwatch-e2e:1', imageID: '', ready: false, started: false, restartCount: 4,
				state: {waiting: {reason: 'CrashLoopBackOff', message: `back-off 1m20s restarting failed container=app pod=${podName}`}},
				lastState: {terminated: {exitCode: 1, reason: 'Error', startedAt: '2026-01-01T00:00:00Z', finishedAt: '2026-01-01T00:00:01Z'}},
			}],
		};
		const podStatus = await kudo.cluster.kubectl(['replace', '--subresource=status', '-f', '-'], {input: JSON.stringify({...current, status})});
		expect(podStatus.code, podStatus.stderr).toBe(0);

		const args = [`instance/${name}`, '-n', namespace, '--wait', '--timeout', '6s', '--no-history', '-o', 'json'];
		const admin = startCli(['--kubeconfig', kudo.cluster.adminKubeconfig, ...args]);
		const viewer = startCli(['--kubeconfig', kudo.cluster.viewerKubeconfig, ...args]);
		// One picture (--once) reads the pods before it draws: the same cause and next command, in json and plain.
		const once = (output: string, kubeconfig = kudo.cluster.adminKubeconfig) => startCli(['--kubeconfig', kubeconfig, `instance/${name}`, '-n', namespace, '--once', '--no-history', '-o', output]);
		const [onceJson, oncePlain, onceViewer] = [once('json'), once('plain'), once('plain', kudo.cluster.viewerKubeconfig)];
		const [adminExit, viewerExit] = await Promise.all([admin.waitForExit(60_000), viewer.waitForExit(60_000)]);
		await Promise.all([onceJson.waitForExit(60_000), oncePlain.waitForExit(60_000), onceViewer.waitForExit(60_000)]);
		expect(adminExit.code, admin.describe()).toBe(3);
		expect(viewerExit.code, viewer.describe()).toBe(3);

		const step = stepNode(cliFinal(admin.stdout()).objects.find(o => o.name === name));
		expect(step?.status, admin.describe()).toBe('IN_PROGRESS');
		expect(step?.resources, admin.describe()).toEqual([{
			kind: 'Deployment',
			namespace,
			name: `${name}-stuck`,
			healthy: false,
			terminal: false,
			health: '0/1 ready, 0 of 1 updated replicas available',
		}]);
		expect(step?.pods?.map(p => [p.name, p.reason, p.restarts])).toEqual([[podName, 'crash-loop', 4]]);
		expect(step?.cause).toBe(`pod ${podName}: CrashLoopBackOff: container app keeps crashing, 4 restarts, last exit code 1 (Error)`);
		expect(step?.next).toBe(`kubectl logs -n ${namespace} ${podName} -c app --previous`);

		const onceStep = stepNode((JSON.parse(onceJson.stdout()) as {objects: JsonObject[]}).objects.find(o => o.name === name));
		expect(onceStep?.cause, onceJson.describe()).toBe(step?.cause);
		expect(onceStep?.next, onceJson.describe()).toBe(step?.next);
		expect(onceStep?.resources).toEqual(step?.resources);
		const plainLines = oncePlain.stdout().split('\n');
		expect(plainLines.filter(l => l.endsWith(`why: ${step!.cause!}`)), oncePlain.describe()).toHaveLength(1);
		expect(plainLines.filter(l => l.endsWith(`next: ${step!.next!}`)), oncePlain.describe()).toHaveLength(1);
		expect(onceViewer.stdout()).not.toContain('why: ');
		expect(onceViewer.stderr(), onceViewer.describe()).toMatch(/^planwatch: .*forbidden/m);

		// Without RBAC for pods and deployments: one note, the tree the same.
		const seen = stepNode(cliFinal(viewer.stdout()).objects.find(o => o.name === name));
		expect(seen?.status, viewer.describe()).toBe('IN_PROGRESS');
		expect(seen?.watchNote, viewer.describe()).toMatch(/cannot be read: forbidden/);
		expect(seen?.pods).toBeUndefined();
		record({scenarios: 1, note: 'real KUDO: a stuck step\'s Deployment, its crash-looping pod and the next command; a viewer gets one note'});
	});
});
