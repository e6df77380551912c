/**
 * Several contexts against the real kube-apiserver: two kubeconfig contexts on the one apiserver, each with its own
 * default namespace, a Kanister backup that completes in one and a restore that fails in the other. One `--wait`
 * over both: every object carries its context, the failure in one context decides the code (1); a context that is
 * down adds its own (4, worst wins); `--record` of the run replays to the same end.
 */
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs';
import {closedLoopbackPort} from './harness/ports.js';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {parseRecording} from '../../source/recording/recording.js';
import {cliFinal, hasControlSequence, killAllClis, runCli} from './harness/cli.js';
import {startCluster, type Cluster} from './harness/cluster.js';
import {record} from './harness/results.js';
import {playScenario} from './harness/scenario-player.js';
import {freshNamespace, scenarioNamed} from './harness/scenario-run.js';

let cluster: Cluster;
const dir = mkdtempSync(path.join(tmpdir(), 'planwatch-e2e-ctx-'));
const east = freshNamespace('ctx-east');
const west = freshNamespace('ctx-west');

/** One kubeconfig: `east` and `west` on the apiserver (admin), each with its namespace; `gone` on a closed port. */
function kubeconfig(gonePort: number): string {
	const file = path.join(dir, 'contexts.kubeconfig');
	writeFileSync(file, JSON.stringify({
		apiVersion: 'v1',
		kind: 'Config',
		clusters: [
			{name: 'e2e', cluster: {server: cluster.server, 'certificate-authority': cluster.caFile}},
			{name: 'gone', cluster: {server: `https://127.0.0.1:${gonePort}`, 'certificate-authority': cluster.caFile}},
		],
		users: [{name: 'admin', user: {token: cluster.adminToken}}],
		contexts: [
			{name: 'east', context: {cluster: 'e2e', user: 'admin', namespace: east}},
			{name: 'west', context: {cluster: 'e2e', user: 'admin', namespace: west}},
			{name: 'gone', context: {cluster: 'gone', user: 'admin', namespace: east}},
		],
		'current-context': 'east',
	}), {mode: 0o600});
	return file;
}

beforeAll(async () => {
	cluster = await startCluster();
	await Promise.all([
		playScenario(scenarioNamed('mysql-backup'), {kubeconfig: cluster.adminKubeconfig, namespace: east, speed: 20}),
		playScenario(scenarioNamed('postgres-restore-failed'), {kubeconfig: cluster.adminKubeconfig, namespace: west, speed: 20}),
	]);
});

afterAll(async () => {
	killAllClis();
	await cluster?.stop();
});

describe('several contexts on a real apiserver', () => {
	it('--wait over two contexts: each object with its context, the restore failure decides (1); recorded and replayed to the same end', async () => {
		const file = path.join(dir, 'contexts.ndjson');
		const config = kubeconfig(await closedLoopbackPort());
		const live = await runCli(['--kubeconfig', config, '--context', 'east', '--context', 'west', '--wait', '--timeout', '1m', '-o', 'json', '--record', file], {timeoutMs: 90_000});
		expect(live.code, live.describe).toBe(1);
		const final = cliFinal(live.stdout);
		const contexts = new Set(final.objects.map(o => o.context));
		expect([...contexts].sort()).toEqual(['east', 'west']);
		expect(final.objects.filter(o => o.context === 'east').every(o => o.namespace === east)).toBe(true);
		expect(final.objects.filter(o => o.context === 'west').every(o => o.namespace === west)).toBe(true);
		expect(final.objects.some(o => o.context === 'west' && o.outcome === 'failed')).toBe(true);
		expect(final.objects.filter(o => o.context === 'east').every(o => o.outcome === 'succeeded')).toBe(true);

		const text = readFileSync(file, 'utf8');
		expect(hasControlSequence(text)).toBe(false);
		const recording = parseRecording(text, file);
		expect(recording.entries.some(e => e.event.type !== 'end' && e.event.context === 'west')).toBe(true);
		const replayed = await runCli(['replay', file, '--wait', '--timeout', '1m', '--speed', '20', '-o', 'json'], {timeoutMs: 60_000});
		expect(replayed.code, replayed.describe).toBe(1);
		expect(cliFinal(replayed.stdout).objects).toEqual(final.objects);
		record({scenarios: 2, objectsCompared: final.objects.length, mismatches: 0, note: `two contexts on one apiserver: exit ${String(live.code)}, replayed the same`});
	});

	it('a third context that is down: the picture of the others, and exit 4 (worst wins) naming it', async () => {
		const config = kubeconfig(await closedLoopbackPort());
		const run = await runCli(['--kubeconfig', config, '--all-contexts', '--once', '-o', 'plain'], {timeoutMs: 90_000});
		expect(run.code, run.describe).toBe(4);
		expect(run.stdout).toMatch(new RegExp(`^ActionSet east:${east}/`, 'm'));
		expect(run.stdout).toMatch(new RegExp(`^ActionSet west:${west}/`, 'm'));
		expect(run.stderr).toMatch(/^planwatch: context gone: cannot reach the cluster at 127\.0\.0\.1:\d+/);
	});
});
