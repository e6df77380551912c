/**
 * Faults while planwatch watches a plan run on a real kube-apiserver. Each ends with planwatch's final picture
 * equal to what the server holds (field by field, events included) and the right exit code:
 * - kube-apiserver killed (SIGKILL) and restarted mid-watch: the TUI header says reconnecting, then live;
 * - a watch resumed from a compacted resourceVersion (etcd compaction + apiserver restart → 410 → relist);
 * - a 10 s outage while the server keeps changing (a proxy refuses every connection);
 * - a watch stream cut in the middle of an event line (the proxy forwards half the line, then closes).
 * The proxy (harness/proxy.ts) terminates TLS with the apiserver's own certificate and logs what it forwarded,
 * so each test also proves the fault really happened (a 410 was answered, a line was cut).
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest';
import type {JsonObject} from '../../source/render/json.js';
import {cliFinal, killAllClis, startCli, type CliProcess} from './harness/cli.js';
import {startCluster, type Cluster} from './harness/cluster.js';
import {startProxy, type ApiProxy} from './harness/proxy.js';
import {killAllPtys, startPtyCli, type PtyCli} from './harness/pty.js';
import {record} from './harness/results.js';
import {freshNamespace, lastStatusIndex, launchIndex, playWatched, scenarioNamed, statusIndexes} from './harness/scenario-run.js';
import {compareWithServer, readServer} from './harness/server-picture.js';

let cluster: Cluster;
const proxies: ApiProxy[] = [];

beforeAll(async () => {
	cluster = await startCluster();
});

afterEach(async () => {
	killAllClis();
	killAllPtys();
	for (const proxy of proxies.splice(0)) {
		await proxy.close();
	}
});

afterAll(async () => {
	await cluster?.stop();
});

async function proxy(name: string): Promise<ApiProxy> {
	const p = await startProxy(cluster, name);
	proxies.push(p);
	return p;
}

/** Compare a json CLI's final picture with the server; record the tally; fail on any difference. */
async function expectEqualToServer(json: CliProcess, namespace: string, fault: string): Promise<JsonObject[]> {
	const final = cliFinal(json.stdout());
	const comparison = compareWithServer(final.objects, await readServer(cluster, namespace), namespace, {allowLateEvents: true});
	record({scenarios: 1, faults: comparison.mismatches.length === 0 ? 1 : 0, objectsCompared: comparison.compared, mismatches: comparison.mismatches.length, note: `fault: ${fault}`});
	expect(comparison.mismatches, json.describe()).toEqual([]);
	expect(comparison.compared).toBe(1);
	return final.objects;
}

/** What the TUI shows at the end: every plan with its final status (finished plans are folded), then the summary. */
function expectTreeOnScreen(tui: PtyCli, object: JsonObject): void {
	const screen = tui.screen();
	let at = 0;
	for (const node of object.tree) {
		const row = screen.findIndex((line, i) => i >= at && line.includes(` ${node.name} `) && line.includes(node.status));
		expect(row, `"${node.name} ${node.status}" on the screen after row ${at}\n${tui.describe()}`).toBeGreaterThanOrEqual(at);
		at = row + 1;
	}

	expect(screen.some(line => line.endsWith(object.summary) || line.includes(`${object.summary} (exit code`)), `the summary "${object.summary}"\n${tui.describe()}`).toBe(true);
}

/** Wait until the CLI has tried (and failed) to reconnect through a refusing proxy `times` times. */
async function refusedAttempts(via: ApiProxy, times: number, timeoutMs = 30_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (via.refused() < times) {
		if (Date.now() > deadline) {
			throw new Error(`the CLI did not try to reconnect ${times} times within ${timeoutMs} ms (tried ${via.refused()})`);
		}

		await sleep(50);
	}
}

function kubeApiserverPid(): number {
	return Number(readFileSync(path.join(cluster.dir, 'kube-apiserver.pid'), 'utf8').trim());
}

describe('faults while watching', () => {
	it('kube-apiserver killed and restarted mid-watch: reconnecting, then live, nothing lost', async () => {
		const scenario = scenarioNamed('zookeeper-deploy');
		const namespace = freshNamespace('fault-restart');
		const statuses = statusIndexes(scenario, 'zookeeper-instance');
		let tui: PtyCli | undefined;
		let json: CliProcess | undefined;
		let liveAgain: Promise<void> | undefined;
		const args = ['instance/zookeeper-instance', '--kubeconfig', cluster.adminKubeconfig, '-n', namespace, '--wait', '--timeout', '3m'];
		await playWatched(scenario, {
			kubeconfig: cluster.adminKubeconfig,
			namespace,
			speed: 5,
			launchAfter: launchIndex(scenario, 'zookeeper-instance'),
			launch: async () => {
				tui = startPtyCli(args, {cols: 140, rows: 40});
				json = startCli([...args, '-o', 'json']);
				await tui.waitForText(/live/);
				await json.waitForStdout(out => out.includes('\n'), 'the opening NDJSON snapshot');
			},
			at: {
				[statuses[Math.floor(statuses.length / 3)]!]: async () => {
					process.kill(kubeApiserverPid(), 'SIGKILL');
					await cluster.stopApiserver();
					await tui!.waitForText(/reconnecting/, 30_000);
					expect(tui!.exit(), 'the TUI keeps running while the server is gone').toBeUndefined();
					expect(json!.exit(), 'the json run keeps running while the server is gone').toBeUndefined();
					await cluster.startApiserver();
					// The player goes on writing at once; planwatch catches up whenever its backoff lets it.
					liveAgain = tui!.waitForScreen(text => /live/.test(text) && !/reconnecting/.test(text), 'the header to show live again', 60_000);
				},
				// Every watch is back before the plan ends (with --wait the TUI exits at the end, header and all).
				[statuses.at(-2)!]: async () => {
					await liveAgain;
				},
			},
		});
		const [tuiExit, jsonExit] = await Promise.all([tui!.waitForExit(90_000), json!.waitForExit(90_000)]);
		expect(jsonExit.code, json!.describe()).toBe(0);
		expect(tuiExit.exitCode, tui!.describe()).toBe(0);
		const [object] = await expectEqualToServer(json!, namespace, 'kube-apiserver SIGKILL + restart (TUI + json)');
		expectTreeOnScreen(tui!, object!);
	});

	it('a watch resumed from a compacted resourceVersion gets 410 and relists: nothing stale, nothing lost', async () => {
		const scenario = scenarioNamed('mysql-deploy');
		const namespace = freshNamespace('fault-410');
		const statuses = statusIndexes(scenario, 'mysql-instance');
		const via = await proxy('compaction');
		let json: CliProcess | undefined;
		let plain: CliProcess | undefined;
		let acceptedAt = 0;
		const args = ['instance/mysql-instance', '--kubeconfig', via.kubeconfig, '-n', namespace, '--wait', '--timeout', '3m'];
		await playWatched(scenario, {
			kubeconfig: cluster.adminKubeconfig,
			namespace,
			speed: 10,
			launchAfter: launchIndex(scenario, 'mysql-instance'),
			launch: async () => {
				json = startCli([...args, '-o', 'json']);
				plain = startCli([...args, '-o', 'plain']);
				await json.waitForStdout(out => out.includes('\n'), 'the opening NDJSON snapshot');
				await plain.waitForStdout(out => out.includes('\n'), 'the opening plain line');
			},
			at: {
				// Cut planwatch off; the plan goes on (the player writes straight to the apiserver).
				[statuses[1]!]: async () => {
					via.refuse();
					// planwatch noticed and is trying again.
					await refusedAttempts(via, 1);
				},
				// History planwatch has not seen is compacted away; a restarted apiserver cannot serve it from its cache.
				[statuses.at(-3)!]: async () => {
					await cluster.compactEtcd();
					await cluster.restartApiserver();
					acceptedAt = Date.now();
					via.accept();
				},
			},
		});
		const [jsonExit, plainExit] = await Promise.all([json!.waitForExit(90_000), plain!.waitForExit(90_000)]);
		expect(jsonExit.code, json!.describe()).toBe(0);
		expect(plainExit.code, plain!.describe()).toBe(0);

		// The fault happened: a resumed watch was answered 410 Expired, and a list followed it.
		const after = via.requests.filter(r => r.at >= acceptedAt);
		const expired = after.findIndex(r => r.expired);
		expect(expired, JSON.stringify(after, undefined, 1)).toBeGreaterThanOrEqual(0);
		expect(after.slice(expired + 1).some(r => r.method === 'GET' && !r.watch), JSON.stringify(after, undefined, 1)).toBe(true);
		await expectEqualToServer(json!, namespace, 'compacted resourceVersion → 410 → relist');
	});

	it('a 10 s outage while the plan moves on: planwatch waits it out and catches up', async () => {
		const scenario = scenarioNamed('zookeeper-deploy');
		const namespace = freshNamespace('fault-outage');
		const statuses = statusIndexes(scenario, 'zookeeper-instance');
		const via = await proxy('outage');
		let json: CliProcess | undefined;
		let plain: CliProcess | undefined;
		let outageStart = 0;
		let outageEnd = 0;
		const args = ['instance/zookeeper-instance', '--kubeconfig', via.kubeconfig, '-n', namespace, '--wait', '--timeout', '3m'];
		await playWatched(scenario, {
			kubeconfig: cluster.adminKubeconfig,
			namespace,
			speed: 4,
			launchAfter: launchIndex(scenario, 'zookeeper-instance'),
			launch: async () => {
				json = startCli([...args, '-o', 'json']);
				plain = startCli([...args, '-o', 'plain']);
				await json.waitForStdout(out => out.includes('\n'), 'the opening NDJSON snapshot');
				await plain.waitForStdout(out => out.includes('\n'), 'the opening plain line');
			},
			at: {
				[statuses[1]!]: async () => {
					outageStart = Date.now();
					via.refuse();
				},
				[statuses.at(-2)!]: async () => {
					// The outage itself is the fault under test: it lasts 10 s, whatever planwatch does meanwhile.
					// A timer may fire a millisecond before Date.now() says it is due: sleep until it is.
					while (Date.now() < outageStart + 10_000) {
						await sleep(outageStart + 10_000 - Date.now());
					}
					expect(json!.exit(), 'planwatch never exits because a watch closed').toBeUndefined();
					expect(plain!.exit(), 'planwatch never exits because a watch closed').toBeUndefined();
					outageEnd = Date.now();
					expect(via.refused(), 'planwatch kept trying during the outage').toBeGreaterThanOrEqual(2);
					via.accept();
				},
			},
		});
		expect(outageEnd - outageStart).toBeGreaterThanOrEqual(10_000);
		const [jsonExit, plainExit] = await Promise.all([json!.waitForExit(90_000), plain!.waitForExit(90_000)]);
		expect(jsonExit.code, json!.describe()).toBe(0);
		expect(plainExit.code, plain!.describe()).toBe(0);
		// Caught up after the outage: the changes made during it are in the log, stamped after it.
		expect(plain!.stdout()).toMatch(/validation › cleanup {2}\S+ → COMPLETE/);
		await expectEqualToServer(json!, namespace, '10 s outage');
	});

	it('a watch stream cut in the middle of an event line: the event is not lost', async () => {
		const scenario = scenarioNamed('zookeeper-deploy');
		const namespace = freshNamespace('fault-cut');
		const last = lastStatusIndex(scenario, 'zookeeper-instance');
		const via = await proxy('cut');
		let json: CliProcess | undefined;
		let cut: ReturnType<ApiProxy['cutWatchEvent']> | undefined;
		const args = ['instance/zookeeper-instance', '--kubeconfig', via.kubeconfig, '-n', namespace, '--wait', '--timeout', '2m', '-o', 'json'];
		await playWatched(scenario, {
			kubeconfig: cluster.adminKubeconfig,
			namespace,
			speed: 10,
			launchAfter: launchIndex(scenario, 'zookeeper-instance'),
			launch: async () => {
				json = startCli(args);
				await json.waitForStdout(out => out.includes('\n'), 'the opening NDJSON snapshot');
			},
			at: {
				// The plan's final status write is the one cut: lose it and planwatch would wait until the timeout.
				[last - 1]: async () => {
					cut = via.cutWatchEvent(/\/instances\?/, '{"type":"MODIFIED"', '"reason":"ResourcesReady"');
				},
			},
		});
		const done = await Promise.race([cut!, sleep(30_000).then(() => undefined)]);
		expect(done, 'the proxy cut a watch event').toBeDefined();
		// Mid-line: part of the event went through, its end (and the newline) did not.
		expect(done!.sent).toContain('{"type":"MODIFIED"');
		expect(done!.sent.slice(done!.sent.lastIndexOf('{"type":"MODIFIED"'))).not.toContain('\n');
		expect(done!.withheld.length).toBeGreaterThan(0);
		const exit = await json!.waitForExit(90_000);
		expect(exit.code, json!.describe()).toBe(0);
		expect(via.requests.some(r => r.watch && /\/instances\?/.test(r.path) && r.at > done!.at), 'watched again after the cut').toBe(true);
		await expectEqualToServer(json!, namespace, 'watch stream cut mid-line');
	});
});
