/**
 * --record against the real kube-apiserver, then planwatch replay of that file: the replay reaches the same final
 * JSON (every object, node, status, summary), the same transitions at the same recorded times, and the same exit
 * code as the live wait did.
 */
import {mkdtempSync, readFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {parseRecording} from '../../source/recording/recording.js';
import {cliFinal, hasControlSequence, killAllClis, runCli, startCli, type CliProcess} from './harness/cli.js';
import {startCluster, type Cluster} from './harness/cluster.js';
import {record} from './harness/results.js';
import {freshNamespace, launchIndex, playWatched, scenarioNamed} from './harness/scenario-run.js';

let cluster: Cluster;
const dir = mkdtempSync(path.join(tmpdir(), 'planwatch-e2e-rec-'));

beforeAll(async () => {
	cluster = await startCluster();
});

afterAll(async () => {
	killAllClis();
	await cluster?.stop();
});

const cases = [
	{scenario: 'kudo-fatal', target: 'instance/mysql-orders', exitCode: 1},
	{scenario: 'postgres-restore-failed', target: undefined, exitCode: 1},
	{scenario: 'mysql-deploy', target: 'instance/mysql-instance', exitCode: 0},
] as const;

describe.concurrent('record on a real apiserver, replay to the same end', () => {
	it.each(cases)('$scenario → exit $exitCode, live and replayed', async c => {
		const scenario = scenarioNamed(c.scenario);
		const namespace = freshNamespace(`rec-${c.scenario}`);
		const file = path.join(dir, `${c.scenario}.ndjson`);
		const args = [...(c.target ? [c.target] : []), '--kubeconfig', cluster.adminKubeconfig, '-n', namespace, '--wait', '--timeout', '2m', '-o', 'json', '--record', file];
		let live: CliProcess | undefined;
		await playWatched(scenario, {
			kubeconfig: cluster.adminKubeconfig,
			namespace,
			speed: 10,
			launchAfter: launchIndex(scenario, c.target?.split('/')[1]),
			launch: async () => {
				live = startCli(args);
				await live.waitForStdout(out => out.includes('\n'), 'the opening NDJSON snapshot');
			},
		});
		const exit = await live!.waitForExit(90_000);
		expect(exit.code, live!.describe()).toBe(c.exitCode);

		const text = readFileSync(file, 'utf8');
		expect(hasControlSequence(text)).toBe(false);
		const recording = parseRecording(text, file);
		expect(recording.header).toMatchObject({source: 'cluster', namespace, targets: c.target ? [c.target] : []});
		expect(recording.entries.at(-1)?.event.type).toBe('end');

		const replayed = await runCli(['replay', file, '--wait', '--timeout', '2m', '--speed', '20', '-o', 'json'], {timeoutMs: 60_000});
		expect(replayed.code, replayed.describe).toBe(c.exitCode);
		const [a, b] = [cliFinal(live!.stdout()), cliFinal(replayed.stdout)];
		expect(b.result?.['exitCode']).toBe(c.exitCode);
		expect(b.objects).toEqual(a.objects);
		expect(b.transitions).toEqual(a.transitions);
		expect(b.objects.length).toBeGreaterThan(0);
		record({scenarios: 1, objectsCompared: b.objects.length, mismatches: 0, note: `record/replay ${c.scenario}: exit ${String(replayed.code)}, ${recording.entries.length} entries`});
	});
});
