/**
 * Why a KUDO step is stuck, on the real KUDO v0.19.0 manager (harness/kudo.ts): the manager applies the `stuck`
 * plan's Deployment (test/e2e/operators/planwatch-e2e/templates/stuck.yaml) and keeps the step IN_PROGRESS; the
 * test checks the marks the manager put on it (what source/model/kudo-applied.ts reads), then creates the pod a
 * ReplicaSet would and writes the status a kubelet would (CrashLoopBackOff, restarts), and planwatch -o json shows
 * the Deployment with KUDO's health, the pod with its reason, and the next command. The pod runs on a Node whose
 * kubelet is a stand-in on 127.0.0.1 (harness/kubelet.ts): planwatch reads its logs through the real apiserver's
 * pods/log, which proxies to the stand-in as it would to a kubelet — the previous container's log of a crash-looping
 * pod, and the current one followed while lines come. As the restricted `viewer` (no pods, no deployments), the
 * same run carries one note and the tree as before. A `--once` picture reads the pods before it draws: the same
 * cause and next command (json; plain once each).
 */
import {mkdtempSync} from 'node:fs';
import {readFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest';
import type {JsonNode, JsonObject} from '../../source/render/json.js';
import {deadline} from '../helpers/deadline.js';
import {cliFinal, hasControlSequence, killAllClis, startCli} from './harness/cli.js';
import {startKubelet, type KubeletStandIn} from './harness/kubelet.js';
import {lastPlanStatus, planExecution, startKudoCluster, type Kudo} from './harness/kudo.js';
import {record} from './harness/results.js';
import {freshNamespace} from './harness/scenario-run.js';

let kudo: Kudo;
let kubelet: KubeletStandIn;

beforeAll(async () => {
	kudo = await startKudoCluster();
	kubelet = await startKubelet(kudo.cluster);
});

afterEach(() => {
	killAllClis();
});

afterAll(async () => {
	killAllClis();
	await kubelet?.stop();
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

/** The manager's marks on the Deployment it applied (what source/model/kudo-applied.ts reads); its pod template's labels. */
async function appliedDeployment(namespace: string): Promise<Record<string, any>> {
	const deployment = await kubectlJson(['get', 'deployment', `${name}-stuck`, '-n', namespace]);
	expect(deployment['metadata'].labels).toMatchObject({heritage: 'kudo', 'kudo.dev/instance': name, 'kudo.dev/operator': 'planwatch-e2e'});
	expect(deployment['metadata'].annotations).toMatchObject({'kudo.dev/plan': 'stuck', 'kudo.dev/phase': 'rollout', 'kudo.dev/step': 'app'});
	expect(deployment['metadata'].annotations['kudo.dev/last-plan-execution-uid']).toMatch(/^[0-9a-f-]{36}$/);
	expect(deployment['metadata'].ownerReferences).toEqual([expect.objectContaining({kind: 'Instance', name, controller: true})]);
	expect(deployment['spec'].template.metadata.labels).toMatchObject({heritage: 'kudo', 'kudo.dev/instance': name});
	return deployment;
}

/**
 * What the deployment controller, the scheduler and a kubelet would write: the Deployment's status, its pod bound
 * to the stand-in's Node, and the pod's `status`. Returns the pod's name.
 */
async function podOf(namespace: string, deployment: Record<string, any>, status: Record<string, unknown>): Promise<string> {
	const replaced = await kudo.cluster.kubectl(['replace', '--subresource=status', '-f', '-'], {
		input: JSON.stringify({...deployment, status: {observedGeneration: deployment['metadata'].generation, replicas: 1, updatedReplicas: 1, readyReplicas: 0, availableReplicas: 0}}),
	});
	expect(replaced.code, replaced.stderr).toBe(0);
	const podName = `${name}-stuck-5d8c7b9f4-q7x2m`;
	const pod = {
		apiVersion: 'v1',
		kind: 'Pod',
		metadata: {name: podName, namespace, labels: {...deployment['spec'].template.metadata.labels, 'pod-template-hash': '5d8c7b9f4'}},
		spec: {...deployment['spec'].template.spec, nodeName: kubelet.nodeName},
	};
	const created = await kudo.cluster.kubectl(['create', '-f', '-'], {input: JSON.stringify(pod)});
	expect(created.code, created.stderr).toBe(0);
	const current = await kubectlJson(['get', 'pod', podName, '-n', namespace]);
	const podStatus = await kudo.cluster.kubectl(['replace', '--subresource=status', '-f', '-'], {input: JSON.stringify({...current, status})});
	expect(podStatus.code, podStatus.stderr).toBe(0);
	return podName;
}

/** `count` log lines as a program writes them; one carries an escape sequence a terminal would obey. */
function logLines(prefix: string, count: number): string[] {
	return Array.from({length: count}, (_, i) => i === count - 2
		? `${prefix} ${i + 1}: \u001B[31mred\u001B[0m \u001B]52;c;cGF5bG9hZA==\u0007 copied`
		: `${prefix} ${i + 1}: [ERROR] InnoDB: the innodb_system data file 'ibdata1' must be writable`);
}

describe('why a step of the real KUDO manager is stuck', () => {
	it('the applied Deployment with KUDO\'s health, its crash-looping pod, its previous log through the apiserver and the next command; a viewer gets one note', async () => {
		const namespace = freshNamespace('kudo-why');
		await stuckInstance(namespace);
		const deployment = await appliedDeployment(namespace);
		const podName = await podOf(namespace, deployment, {
			phase: 'Running',
			conditions: [{type: 'PodScheduled', status: 'True'}, {type: 'Ready', status: 'False', reason: 'ContainersNotReady'}],
			containerStatuses: [{
				name: 'app', image: 'registry.invalid/planwatch-e2e:1', imageID: '', ready: false, started: false, restartCount: 4,
				state: {waiting: {reason: 'CrashLoopBackOff', message: `back-off 1m20s restarting failed container=app pod=${name}-stuck-5d8c7b9f4-q7x2m`}},
				lastState: {terminated: {exitCode: 1, reason: 'Error', startedAt: '2026-01-01T00:00:00Z', finishedAt: '2026-01-01T00:00:01Z'}},
			}],
		});
		// What the kubelet keeps of the container: the run that crashed last (current) and the one before (previous).
		const ref = {namespace, pod: podName, container: 'app'};
		const previous = logLines('previous', 30);
		kubelet.setLog(ref, `${previous.join('\n')}\n`, {previous: true});
		kubelet.setLog(ref, `${logLines('current', 3).join('\n')}\n`);
		const viaApiserver = await kudo.cluster.kubectl(['logs', '-n', namespace, podName, '-c', 'app', '--previous', '--tail=2']);
		expect(viaApiserver.stdout, viaApiserver.stderr).toBe(`${previous.slice(-2).join('\n')}\n`);

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

		// The previous container's log, read through the apiserver's pods/log from the Node's kubelet: its last 20
		// lines (planwatch's tailLines, applied by the kubelet), the escape sequences gone.
		expect(step?.logTail?.pod).toBe(podName);
		expect(step?.logTail?.container).toBe('app');
		expect(step?.logTail?.previous).toBe(true);
		expect(step?.logTail?.lines).toHaveLength(20);
		expect(step?.logTail?.lines[0]).toBe(previous[10]);
		expect(step?.logTail?.lines.at(-1)).toBe(previous[29]);
		expect(step?.logTail?.lines[18]).toBe('previous 29: red  copied');
		// The container running now (after the crash): its own log, read the same way.
		expect(step?.logTail?.currentLines).toEqual(['current 1: [ERROR] InnoDB: the innodb_system data file \'ibdata1\' must be writable', 'current 2: red  copied',
			'current 3: [ERROR] InnoDB: the innodb_system data file \'ibdata1\' must be writable']);
		expect(hasControlSequence(admin.stdout())).toBe(false);
		const asked = kubelet.requests.filter(r => r.path === `/containerLogs/${namespace}/${podName}/app` && r.query['previous'] === 'true');
		expect(asked[0] && [asked[0].client, asked[0].status, asked[0].query['tailLines']]).toEqual(['kube-apiserver-kubelet-client', 200, '2']); // kubectl logs above
		// planwatch (the --wait run and both --once pictures): reads of an ended container, bounded.
		expect(asked.length).toBeGreaterThanOrEqual(2);
		expect(new Set(asked.slice(1).map(r => JSON.stringify([r.client, r.status, r.query['tailLines'], r.query['limitBytes'], r.query['follow'] ?? null]))))
			.toEqual(new Set([JSON.stringify(['kube-apiserver-kubelet-client', 200, '20', '65536', null])]));

		const onceStep = stepNode((JSON.parse(onceJson.stdout()) as {objects: JsonObject[]}).objects.find(o => o.name === name));
		expect(onceStep?.cause, onceJson.describe()).toBe(step?.cause);
		expect(onceStep?.next, onceJson.describe()).toBe(step?.next);
		expect(onceStep?.resources).toEqual(step?.resources);
		expect(onceStep?.logTail?.lines, onceJson.describe()).toEqual(step?.logTail?.lines);
		const plainLines = oncePlain.stdout().split('\n');
		expect(plainLines.filter(l => l.endsWith(`why: ${step!.cause!}`)), oncePlain.describe()).toHaveLength(1);
		expect(plainLines.filter(l => l.endsWith(`next: ${step!.next!}`)), oncePlain.describe()).toHaveLength(1);
		expect(onceViewer.stdout()).not.toContain('why: ');
		expect(onceViewer.stderr(), onceViewer.describe()).toMatch(/^planwatch: .*forbidden/m);

		// Without RBAC for pods and deployments: one note, the tree the same, and no log asked for.
		const seen = stepNode(cliFinal(viewer.stdout()).objects.find(o => o.name === name));
		expect(seen?.status, viewer.describe()).toBe('IN_PROGRESS');
		expect(seen?.watchNote, viewer.describe()).toMatch(/cannot be read: forbidden/);
		expect(seen?.pods).toBeUndefined();
		expect(seen?.logTail).toBeUndefined();
		record({scenarios: 1, note: 'real KUDO: a stuck step\'s Deployment, its crash-looping pod, its previous log via pods/log, the next command; a viewer gets one note'});
	});

	it('a running container that is not ready: its current log followed through the apiserver, lines shown as the kubelet sends them', async () => {
		const namespace = freshNamespace('kudo-follow');
		await stuckInstance(namespace);
		const deployment = await appliedDeployment(namespace);
		const podName = await podOf(namespace, deployment, {
			phase: 'Running',
			conditions: [{type: 'PodScheduled', status: 'True'}, {type: 'Ready', status: 'False', reason: 'ContainersNotReady'}],
			containerStatuses: [{
				name: 'app', image: 'registry.invalid/planwatch-e2e:1', imageID: '', ready: false, started: true, restartCount: 0,
				state: {running: {startedAt: '2026-01-01T00:00:00Z'}},
			}],
		});
		const ref = {namespace, pod: podName, container: 'app'};
		kubelet.append(ref, 'waiting for the database\n');

		// A json stream writes the picture at its end only: the recording shows each piece of log as planwatch gets it.
		const recording = path.join(mkdtempSync(path.join(tmpdir(), 'planwatch-e2e-follow-')), 'run.ndjson');
		const cli = startCli(['--kubeconfig', kudo.cluster.adminKubeconfig, `instance/${name}`, '-n', namespace, '--wait', '--timeout', '2m', '--no-history',
			'-o', 'json', '--record', recording]);
		const logText = async (): Promise<string> => {
			const text = await readFile(recording, 'utf8').catch(() => '');
			return text.split('\n').filter(line => line.includes('"type":"log"')).map(line => (JSON.parse(line) as {text: string}).text).join('');
		};

		const seen = async (wanted: string, what: string): Promise<void> => {
			const bound = deadline(20_000);
			while (!(await logText()).endsWith(wanted)) {
				expect(bound.expired(), `${what}; recorded: ${JSON.stringify(await logText())}\n${cli.describe()}`).toBe(false);
				await new Promise(resolve => setTimeout(resolve, 100));
			}
		};

		await seen('waiting for the database\n', 'the first log line');
		// The apiserver holds a follow open to the kubelet for planwatch; what the container writes next comes through.
		expect(kubelet.following(ref)).toBe(1);
		kubelet.append(ref, 'still waiting for the database\nconnected to db-0 ');
		await seen('waiting for the database\nstill waiting for the database\nconnected to db-0 ', 'the followed lines');
		const asked = kubelet.requests.filter(r => r.path === `/containerLogs/${namespace}/${podName}/app`);
		expect(asked.map(r => [r.client, r.query['follow'], r.query['previous'], r.query['tailLines'], r.query['limitBytes']])).toEqual([
			['kube-apiserver-kubelet-client', 'true', undefined, '20', '65536'],
		]);

		cli.kill('SIGINT');
		await cli.waitForExit(60_000);
		const step = stepNode(cliFinal(cli.stdout()).objects.find(o => o.name === name));
		expect(step?.pods?.map(p => [p.name, p.reason]), cli.describe()).toEqual([[podName, 'not-ready']]);
		expect(step?.logTail).toEqual({pod: podName, container: 'app', previous: false, lines: ['waiting for the database', 'still waiting for the database', 'connected to db-0 ']});
		expect(step?.next).toBe(`kubectl describe pod -n ${namespace} ${podName}`);

		// planwatch gone: the apiserver closes its follow of the kubelet.
		const bound = deadline(10_000);
		while (kubelet.following(ref) > 0) {
			expect(bound.expired(), 'the follow to end after planwatch exited').toBe(false);
			await new Promise(resolve => setTimeout(resolve, 100));
		}

		record({scenarios: 1, note: 'real apiserver: a running container\'s log followed through pods/log from a kubelet stand-in on 127.0.0.1'});
	});
});
