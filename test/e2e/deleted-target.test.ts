/**
 * A target deleted while `--wait` waits for it, on a real kube-apiserver: the DELETED watch event ends the wait at
 * once (not at --timeout) with the last state seen and a line saying it was deleted. An ActionSet cancelled by
 * deleting it mid-run exits 1; a KUDO Instance whose cleanup plan runs under the `kudo.dev.instance.cleanup`
 * finalizer exits 0 once the finalizer goes and the object with it (the manager removes it only after cleanup is
 * COMPLETE; the final status write then fails on the gone object, so no COMPLETE is ever seen).
 */
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {killAllClis, startCli} from './harness/cli.js';
import {startCluster, type Cluster} from './harness/cluster.js';
import {record} from './harness/results.js';
import {freshNamespace} from './harness/scenario-run.js';

let cluster: Cluster;

beforeAll(async () => {
	cluster = await startCluster();
});

afterAll(async () => {
	killAllClis();
	await cluster?.stop();
});

async function kubectl(args: string[], input?: string): Promise<void> {
	const result = await cluster.kubectl(args, input === undefined ? {} : {input});
	expect(result.code, `kubectl ${args.join(' ')}: ${result.stderr}`).toBe(0);
}

async function namespace(prefix: string): Promise<string> {
	const ns = freshNamespace(prefix);
	await kubectl(['create', 'namespace', ns]);
	return ns;
}

describe.concurrent('a target deleted while waited for', () => {
	it('an ActionSet deleted while running: exit 1 at once, saying it was deleted before it finished', async () => {
		const ns = await namespace('deleted-as');
		const object = {kind: 'statefulset', name: 'db', namespace: ns};
		await kubectl(['create', '-f', '-'], JSON.stringify({
			apiVersion: 'cr.kanister.io/v1alpha1',
			kind: 'ActionSet',
			metadata: {name: 'backup', namespace: ns},
			spec: {actions: [{name: 'backup', blueprint: 'bp', object}]},
			status: {state: 'running', actions: [{name: 'backup', blueprint: 'bp', object, phases: [{name: 'dump', state: 'running'}]}], progress: {runningPhase: 'dump'}},
		}));
		const cli = startCli(['actionset/backup', '--kubeconfig', cluster.adminKubeconfig, '-n', ns, '--wait', '--timeout', '5m', '-o', 'plain']);
		await cli.waitForStdout(out => out.includes('dump'), 'the first picture');
		const deletedAt = Date.now();
		await kubectl(['delete', '-n', ns, 'actionsets.cr.kanister.io', 'backup', '--wait=false']);
		const exit = await cli.waitForExit(30_000);
		expect(exit.code, cli.describe()).toBe(1);
		expect(cli.stdout() + cli.stderr()).toContain('deleted before it finished');
		expect(cli.stdout()).toMatch(/DELETED/);
		// At once: well before the 5 minute timeout (no wall-clock budget: only that it did not wait for it).
		expect(cli.exitedAt()! - deletedAt).toBeLessThan(60_000);
		record({scenarios: 1, note: 'ActionSet deleted while waited for → exit 1 at once'});
	});

	it('a KUDO Instance going after its cleanup plan (finalizer removed): exit 0, saying so', async () => {
		const ns = await namespace('deleted-inst');
		await kubectl(['create', '-f', '-'], JSON.stringify({
			apiVersion: 'kudo.dev/v1beta1',
			kind: 'Instance',
			metadata: {name: 'op', namespace: ns, finalizers: ['kudo.dev.instance.cleanup']},
			spec: {operatorVersion: {name: 'op-0.1.0'}},
		}));
		const status = (plan: string, s: string, at: string) => ({
			name: plan,
			status: s,
			lastUpdatedTimestamp: at,
			uid: `${plan}-uid`,
			phases: [{name: plan, status: s, steps: [{name: plan, status: s}]}],
		});
		const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
		await kubectl([
			'patch',
			'-n',
			ns,
			'instances.kudo.dev',
			'op',
			'--subresource=status',
			'--type=merge',
			'-p',
			JSON.stringify({status: {planStatus: {deploy: status('deploy', 'COMPLETE', now)}}}),
		]);
		const cli = startCli(['instance/op', '--kubeconfig', cluster.adminKubeconfig, '-n', ns, '--wait', '--timeout', '5m', '-o', 'plain']);
		// The deletion starts; the manager would schedule cleanup and run it (its stand-in: these writes).
		await kubectl(['delete', '-n', ns, 'instances.kudo.dev', 'op', '--wait=false']);
		await kubectl(['patch', '-n', ns, 'instances.kudo.dev', 'op', '--type=merge', '-p', JSON.stringify({spec: {planExecution: {planName: 'cleanup', uid: 'cleanup-uid', status: 'IN_PROGRESS'}}})]);
		await kubectl([
			'patch',
			'-n',
			ns,
			'instances.kudo.dev',
			'op',
			'--subresource=status',
			'--type=merge',
			'-p',
			JSON.stringify({status: {planStatus: {cleanup: status('cleanup', 'IN_PROGRESS', now)}}}),
		]);
		await cli.waitForStdout(out => out.includes('cleanup'), 'the cleanup plan running');
		expect(cli.exit(), cli.describe()).toBeUndefined();
		await kubectl(['patch', '-n', ns, 'instances.kudo.dev', 'op', '--type=json', '-p', '[{"op":"remove","path":"/metadata/finalizers"}]']);
		const exit = await cli.waitForExit(30_000);
		expect(exit.code, cli.describe()).toBe(0);
		expect(cli.stdout() + cli.stderr()).toContain('deleted after its cleanup plan finished');
		record({scenarios: 1, note: 'KUDO Instance released after cleanup → exit 0'});
	});
});
