/**
 * `--once` from a cluster (the loopback watch-server double) reads the failed node's pods, applied objects and log
 * before it draws: the one picture says why and what to run next (plain: under the node, once each; json: cause,
 * pods, logTail, next). Pods refused → one note and the tree as before; pods that cannot be listed in time → the
 * picture is drawn after --request-timeout with a note saying so.
 */
import {afterEach, beforeAll, describe, expect, it} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import type {JsonDocument, JsonNode} from '../../source/render/json.js';
import {loadFixture, loadFixtureObject} from '../helpers/fixtures.js';
import {kudoInitJob} from '../helpers/kudo-workloads.js';
import {buildBin, runBin, runBinInTerminal} from '../helpers/run-bin.js';
import {allResources, instances, operatorVersions, WatchServer, writeKubeconfig, type ResourceDef} from '../helpers/watch-server.js';

const pods: ResourceDef = {group: '', version: 'v1', plural: 'pods', kind: 'Pod'};
const deployments: ResourceDef = {group: 'apps', version: 'v1', plural: 'deployments', kind: 'Deployment'};
const statefulSets: ResourceDef = {group: 'apps', version: 'v1', plural: 'statefulsets', kind: 'StatefulSet'};
const jobs: ResourceDef = {group: 'batch', version: 'v1', plural: 'jobs', kind: 'Job'};

type Raw = {status: {planStatus: Record<string, {status: string; phases: Array<{status: string; steps: Array<{name: string; status: string; message?: string}>}>}>}; spec: Record<string, unknown>};

/** mysql-instance whose deploy › deploy › init step failed for good (its Job failed). */
function failedInstance(): KubeObject {
	const o = structuredClone(loadFixtureObject('kudo/instance-mysql-deploy-in-progress.yaml')) as KubeObject & Raw;
	const plan = o.status.planStatus['deploy']!;
	plan.status = 'FATAL_ERROR';
	plan.phases[0]!.status = 'FATAL_ERROR';
	plan.phases[0]!.steps[1]!.status = 'FATAL_ERROR';
	plan.phases[0]!.steps[1]!.message = 'job "init-job" has failed terminally';
	o.spec['planExecution'] = {};
	return o;
}

const job = kudoInitJob({failed: 3, conditions: [{type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'backoff limit'}]});
const pod = {
	apiVersion: 'v1',
	kind: 'Pod',
	metadata: {name: 'init-job-x1', namespace: 'default', labels: {'controller-uid': 'c1', heritage: 'kudo', 'kudo.dev/instance': 'mysql-instance'}},
	spec: {containers: [{name: 'init'}]},
	status: {phase: 'Failed', containerStatuses: [{name: 'init', restartCount: 0, state: {terminated: {exitCode: 1, reason: 'Error'}}}]},
};

const servers: WatchServer[] = [];
beforeAll(() => {
	buildBin();
});
afterEach(async () => {
	await Promise.all(servers.splice(0).map(async s => s.close()));
});

async function cluster(): Promise<{server: WatchServer; kubeconfig: string}> {
	const server = await WatchServer.start({resources: [...allResources, pods, deployments, statefulSets, jobs]});
	servers.push(server);
	type Put = Parameters<WatchServer['put']>[1];
	server.put(operatorVersions, loadFixture('kudo/operatorversion-mysql.yaml')[0]! as Put);
	server.put(instances, failedInstance() as Put);
	server.put(jobs, job as Put);
	server.put(pods, pod);
	server.setLog('default', 'init-job-x1', 'init', 'connecting to mysql\nERROR 2003: cannot connect to mysql:3306\n');
	return {server, kubeconfig: await writeKubeconfig({server: server.url, namespace: 'default'})};
}

const initStep = (document: JsonDocument): JsonNode | undefined =>
	document.objects[0]?.tree.find(n => n.name === 'deploy')?.children[0]?.children.find(n => n.name === 'init');

const cause = 'pod init-job-x1: container init failed: exit code 1 (Error)';
const next = 'kubectl logs -n default init-job-x1 -c init';

describe('--once says why a node failed', () => {
	it('-o plain: why and next under the failed step, once each; the log was read, not followed', async () => {
		const {server, kubeconfig} = await cluster();
		const result = await runBin(['--kubeconfig', kubeconfig, 'instance/mysql-instance', '--once', '-o', 'plain'], {timeoutMs: 60_000});
		expect(result.code, result.stderr).toBe(1);
		const lines = result.stdout.split('\n');
		const at = lines.findIndex(l => /✖ init\b/.test(l));
		expect(at, result.stdout).toBeGreaterThan(0);
		expect(lines[at + 1]).toMatch(/^[│ ]+why: /);
		expect(lines[at + 1]!.endsWith(`why: ${cause}`)).toBe(true);
		expect(lines[at + 2]!.endsWith(`next: ${next}`)).toBe(true);
		expect(lines.filter(l => l.includes('why: ')), result.stdout).toHaveLength(1);
		expect(lines.filter(l => l.includes(`next: ${next}`)), result.stdout).toHaveLength(1);
		const logReads = server.requests.filter(r => r.path.endsWith('/log'));
		expect(logReads.map(r => r.query['follow'])).toEqual([undefined]);
		expect(result.stderr).toBe('');
	});

	it('-o json: cause, pods, logTail and next in the node', async () => {
		const {kubeconfig} = await cluster();
		const result = await runBin(['--kubeconfig', kubeconfig, 'instance/mysql-instance', '--once', '-o', 'json'], {timeoutMs: 60_000});
		expect(result.code, result.stderr).toBe(1);
		const step = initStep(JSON.parse(result.stdout) as JsonDocument);
		expect(step?.cause).toBe(cause);
		expect(step?.next).toBe(next);
		expect(step?.pods?.map(p => [p.name, p.reason])).toEqual([['init-job-x1', 'exited']]);
		expect(step?.resources?.map(r => [r.kind, r.name, r.healthy])).toEqual([['Job', 'init-job', false]]);
		expect(step?.logTail).toEqual({pod: 'init-job-x1', container: 'init', previous: false, lines: ['connecting to mysql', 'ERROR 2003: cannot connect to mysql:3306']});
		expect(step?.watchNote).toBeUndefined();
	});

	it('the TUI\'s one frame: the why pane of the failed step, with its log lines and next command', async () => {
		const {kubeconfig} = await cluster();
		const result = await runBinInTerminal(['--kubeconfig', kubeconfig, 'instance/mysql-instance', '--once', '--no-color']);
		expect(result.code, result.output).toBe(1);
		expect(result.output).toContain(cause);
		expect(result.output).toContain('cannot connect to mysql:3306');
		expect(result.output).toContain(next);
	});

	it('pods forbidden: one note (stderr for plain, watchNote in json), the tree as before', async () => {
		const {server, kubeconfig} = await cluster();
		server.forbid('tester', 'pods');
		const plain = await runBin(['--kubeconfig', kubeconfig, 'instance/mysql-instance', '--once', '-o', 'plain'], {timeoutMs: 60_000});
		expect(plain.code, plain.stderr).toBe(1);
		expect(plain.stdout).toMatch(/✖ init\b/);
		expect(plain.stderr.split('\n').filter(Boolean), plain.stderr).toEqual([expect.stringMatching(/^planwatch: .*forbidden.*pods/)]);
		const json = await runBin(['--kubeconfig', kubeconfig, 'instance/mysql-instance', '--once', '-o', 'json'], {timeoutMs: 60_000});
		const step = initStep(JSON.parse(json.stdout) as JsonDocument);
		expect(step?.state).toBe('failed');
		expect(step?.watchNote).toMatch(/^pods cannot be read: .*forbidden/);
		expect(step?.pods).toBeUndefined();
	});

	it('pods/log forbidden: the cause and next command, one note for the log', async () => {
		const {server, kubeconfig} = await cluster();
		server.forbidLogs();
		const plain = await runBin(['--kubeconfig', kubeconfig, 'instance/mysql-instance', '--once', '-o', 'plain'], {timeoutMs: 60_000});
		expect(plain.stdout).toContain(`why: ${cause}`);
		expect(plain.stderr).toBe('planwatch: pod logs cannot be read: forbidden: cannot get pods/log in namespace default\n');
	});

	it('pods that cannot be listed: drawn after --request-timeout, with a note saying so', async () => {
		const {server, kubeconfig} = await cluster();
		server.failNext({plural: 'pods'}, 500, 1_000_000);
		const result = await runBin(['--kubeconfig', kubeconfig, 'instance/mysql-instance', '--once', '-o', 'json', '--request-timeout', '2s'], {timeoutMs: 60_000});
		expect(result.code, result.stderr).toBe(1);
		const step = initStep(JSON.parse(result.stdout) as JsonDocument);
		expect(step?.state).toBe('failed');
		expect(step?.watchNote).toBe('pods and logs not all read within 2s (--request-timeout): drawn without them');
	});
});
