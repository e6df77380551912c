/**
 * Side by side on a real kube-apiserver (the e2e harness: etcd + kube-apiserver on loopback): planwatch's list,
 * `kubectl get -w` and k9s's ActionSets view, each on its own over the same 1000 ActionSets, as a user would run
 * them in a 160×40 terminal (kubectl on a pipe). Per client: an idle window, then status updates at each rate
 * (JSON merge patches of probe ActionSets, the watch workload's updates): CPU share of a core, bytes written to
 * the terminal, and memory at the end. Also per rate: event → screen latency for the probes on screen (from just
 * before the bench sends the PATCH to the output after which the client shows the new value: the apiserver's own
 * path is in it, and kubectl's figure shows how much), and for the clients in a pty what changed on their screen
 * (cells, and the bytes a plain writer needs: PtyClient.changes) against the bytes they wrote.
 */
import {spawnSync} from 'node:child_process';
import {existsSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import type {KubeObject} from '../../source/core/kube-object.js';
import {startCluster, type Cluster} from '../e2e/harness/cluster.js';
import type {ResourceDef} from '../helpers/watch-server.js';
import {startKubectlWatch} from './kubectl-client.js';
import {LatencyTracker} from './latency.js';
import {cpuWindow, memoryMiB} from './proc-stats.js';
import {startPty} from './pty-client.js';
import {percentile} from './stats.js';
import {drive} from './watch-run.js';
import {loadWorkload, namespace, type Workload} from './workload.js';

export type SideClient = 'planwatch' | 'kubectl' | 'k9s';

export type SideFigures = {
	readonly client: SideClient;
	readonly objects: number;
	readonly readyMs: number;
	readonly idleCpu: number;
	readonly idleBytesPerSecond: number;
	/** What changed on the idle screen per second, as a plain writer's bytes (pty clients). */
	readonly idleChangedBytesPerSecond?: number;
	readonly rates: ReadonlyArray<{
		readonly rate: number;
		readonly cpu: number;
		readonly bytesPerSecond: number;
		readonly failed: number;
		/** Event → screen of the updates to probes the client showed (ms); undefined: none seen. */
		readonly p50?: number;
		readonly p99?: number;
		/** Updates whose new value the client showed. */
		readonly seen: number;
		/** What changed on the screen per second (pty clients): cells, and a plain writer's bytes. */
		readonly changedCellsPerSecond?: number;
		readonly changedBytesPerSecond?: number;
	}>;
	/**
	 * The highest rate again, nine updates in ten to a finished ActionSet in the second half of the list (far below
	 * any window; for kubectl a line like any other), one in ten to a probe: what watching costs when little on
	 * screen changes, and how fast a change on screen shows among the others.
	 */
	readonly offScreen?: {
		readonly rate: number;
		readonly cpu: number;
		readonly bytesPerSecond: number;
		readonly changedBytesPerSecond?: number;
		readonly p50?: number;
		readonly p99?: number;
		readonly seen: number;
	};
	readonly rssMiB: number;
	readonly peakMiB: number;
	/** RSS at the end in anonymous memory (heap, malloc) and in pages of files (the executable's code). */
	readonly anonMiB?: number;
	readonly fileMiB?: number;
};

export type SideSetup = {
	readonly cli: string;
	/** planwatch as this executable (the standalone one) instead of Node running `cli`; nodeFlags go to NODE_OPTIONS. */
	readonly executable?: string;
	readonly nodeFlags: readonly string[];
	/** Variables added to planwatch's environment (e.g. glibc's MALLOC_ARENA_MAX), not to the others'. */
	readonly planwatchEnv?: Readonly<Record<string, string>>;
	/** The clients to measure (default planwatch, kubectl and k9s where given). */
	readonly clients?: readonly SideClient[];
	readonly kubectl: string;
	readonly k9s?: string;
	readonly env: Record<string, string>;
	readonly cwd: string;
	readonly objects: number;
	readonly rates: readonly number[];
	readonly settleMs: number;
	readonly idleMs: number;
	readonly rateMs: number;
};

/** k9s from the cache, built on first use (test/bench/build-k9s.sh); undefined with the reason when there is none. */
/**
 * The harness finds its scripts next to its own file, which the bench's bundle moves: hand it the
 * kube-apiserver (built or cached by test/e2e/build-kube-apiserver.sh) and the CRDs from the repo.
 */
function apiserverBinary(root: string): string {
	if (process.env['PLANWATCH_KUBE_APISERVER']) {
		return process.env['PLANWATCH_KUBE_APISERVER'];
	}

	const built = spawnSync('bash', [path.join(root, 'test', 'e2e', 'build-kube-apiserver.sh')], {encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit']});
	const binary = built.stdout.trim().split('\n').at(-1) ?? '';
	if (built.status !== 0 || !existsSync(binary)) {
		throw new Error(`test/e2e/build-kube-apiserver.sh failed (exit ${built.status})`);
	}

	return binary;
}

export function k9sBinary(root: string): {path?: string; note?: string} {
	const built = spawnSync('bash', [path.join(root, 'test', 'bench', 'build-k9s.sh')], {encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit']});
	const binary = built.stdout.trim().split('\n').at(-1) ?? '';
	if (built.status === 0 && existsSync(binary)) {
		return {path: binary};
	}

	return {note: built.status === 2 ? 'k9s left out: no Go toolchain to build it' : `k9s left out: test/bench/build-k9s.sh failed (exit ${built.status})`};
}

type Running = {
	readonly pid: number;
	bytes(): number;
	/** What changed on screen so far (pty clients only). */
	changes?(): {readonly cells: number; readonly bytes: number};
	/** Feed (probe, value, arrival time) sightings to the tracker until the returned function is called. */
	track(tracker: LatencyTracker): () => void;
	readonly ready: Promise<number>;
	stop(): Promise<void>;
};

/** A probe's row and the PROGRESS value it shows: planwatch's `42%`, kubectl's and k9s's bare column. */
const probeRows: Record<SideClient, RegExp> = {
	planwatch: /\b(a-probe-\d\d)\b.*?\s(\d{1,3})%/,
	kubectl: /^(a-probe-\d\d)\s+(\d+)\s*$/,
	k9s: /\b(a-probe-\d\d)\b\s+(\d{1,3})\b/,
};

function start(client: SideClient, setup: SideSetup, cluster: Cluster, workload: Workload): Running {
	const probe = workload.probes[0]!;
	if (client === 'kubectl') {
		const watch = startKubectlWatch(setup.kubectl, cluster.adminKubeconfig, namespace, setup.env);
		const ready = watch.waitFor(() => watch.lineCount() > setup.objects, `kubectl to list ${setup.objects} ActionSets`, 120_000);
		const track = (tracker: LatencyTracker) => watch.onLine((line, arrivedAt) => {
			const m = probeRows.kubectl.exec(line);
			if (m) {
				tracker.seen(m[1]!, Number(m[2]), arrivedAt);
			}
		});
		return {pid: watch.pid, bytes: watch.bytes, track, ready, stop: watch.stop};
	}

	// k9s opens the ActionSets as a user does: its contexts view, Enter on the context (whose namespace is the
	// bench's, from a copy of the kubeconfig), then `:actionsets`. k9s 0.50 does not know CRD commands at start
	// (`-c actionsets` falls back with "command not found") nor takes commands before a context is chosen.
	const kubeconfig = client === 'k9s' ? `${cluster.adminKubeconfig}.${namespace}` : cluster.adminKubeconfig;
	if (client === 'k9s') {
		writeFileSync(kubeconfig, readFileSync(cluster.adminKubeconfig, 'utf8').replace('namespace: default', `namespace: ${namespace}`));
	}

	const planwatchArgs = ['--kubeconfig', kubeconfig, '-n', namespace];
	const [command, args] =
		client === 'planwatch'
			? (setup.executable ? [setup.executable, planwatchArgs] : [process.execPath, [...setup.nodeFlags, setup.cli, ...planwatchArgs]])
			: [setup.k9s!, ['--kubeconfig', kubeconfig, '-c', 'contexts', '--readonly']];
	const env = client === 'planwatch'
		? {...setup.env, ...setup.planwatchEnv, ...(setup.executable && setup.nodeFlags.length > 0 ? {NODE_OPTIONS: setup.nodeFlags.join(' ')} : {})}
		: setup.env;
	const pty = startPty(command, args, {cols: 160, rows: 40, env, cwd: setup.cwd, countChanges: true});
	const shown = async () => pty.waitFor(() => pty.lines().some(line => line.includes(probe)), `${client} to show ${probe}`, 120_000);
	const track = (tracker: LatencyTracker) => pty.onScreen(arrivedAt => {
		for (const line of pty.lines()) {
			const m = probeRows[client].exec(line);
			if (m) {
				tracker.seen(m[1]!, Number(m[2]), arrivedAt);
			}
		}
	});
	const common = {pid: pty.pid, bytes: pty.bytes, changes: pty.changes, track, stop: pty.stop};
	if (client === 'planwatch') {
		return {...common, ready: shown()};
	}

	const ready = (async () => {
		await pty.waitFor(() => pty.lines().some(line => line.includes('contexts(')), 'k9s to show its contexts', 60_000);
		await sleep(1000);
		pty.write('\r');
		await sleep(2000);
		// Until k9s has discovered the CRDs the command is "not found": type it again until the list shows.
		const until = performance.now() + 90_000;
		while (!pty.lines().some(line => line.includes(probe)) && performance.now() < until) {
			pty.write(':actionsets\r');
			await sleep(3000);
		}

		return shown();
	})();
	return {...common, ready};
}

async function measure(client: SideClient, setup: SideSetup, cluster: Cluster, workload: Workload, patch: () => number): Promise<SideFigures> {
	const spawnedAt = performance.now();
	const running = start(client, setup, cluster, workload);
	try {
		const readyAt = await running.ready;
		await sleep(setup.settleMs);
		const idleBytes = running.bytes();
		const idleChanges = running.changes?.();
		const idleCpu = cpuWindow(running.pid);
		await sleep(setup.idleMs);
		const idle = idleCpu();
		const idleBytesPerSecond = (running.bytes() - idleBytes) / idle.seconds;
		const idleChangedBytesPerSecond = idleChanges ? (running.changes!().bytes - idleChanges.bytes) / idle.seconds : undefined;
		const rates = [];
		for (const rate of setup.rates) {
			const failedBefore = patch();
			const bytes0 = running.bytes();
			const changes0 = running.changes?.();
			const tracker = new LatencyTracker();
			const untrack = running.track(tracker);
			const cpu = cpuWindow(running.pid);
			await drive(rate, setup.rateMs, () => {
				const sentAt = performance.now();
				const {probe, value} = workload.update();
				tracker.sent(probe, value, sentAt);
			});
			const used = cpu();
			const changes1 = running.changes?.();
			const bytesPerSecond = (running.bytes() - bytes0) / used.seconds;
			// The last updates' frames may still be on their way: they count for latency, not for CPU or bytes.
			await sleep(setup.settleMs);
			untrack();
			const p50 = percentile(tracker.samples, 50);
			const p99 = percentile(tracker.samples, 99);
			rates.push({
				rate,
				cpu: used.share,
				bytesPerSecond,
				failed: patch() - failedBefore,
				...(p50 === undefined ? {} : {p50}),
				...(p99 === undefined ? {} : {p99}),
				seen: tracker.samples.length,
				...(changes0 && changes1
					? {changedCellsPerSecond: (changes1.cells - changes0.cells) / used.seconds, changedBytesPerSecond: (changes1.bytes - changes0.bytes) / used.seconds}
					: {}),
			});
		}

		const offRate = Math.max(...setup.rates);
		const offBytes0 = running.bytes();
		const offChanges0 = running.changes?.();
		const offTracker = new LatencyTracker();
		const offUntrack = running.track(offTracker);
		const offCpu = cpuWindow(running.pid);
		let sent = 0;
		await drive(offRate, setup.rateMs, () => {
			if (sent++ % 10 === 9) {
				const sentAt = performance.now();
				const {probe, value} = workload.update();
				offTracker.sent(probe, value, sentAt);
			} else {
				workload.updateOffScreen();
			}
		});
		const offUsed = offCpu();
		const offChanges1 = running.changes?.();
		const offBytesPerSecond = (running.bytes() - offBytes0) / offUsed.seconds;
		await sleep(setup.settleMs);
		offUntrack();
		const offP50 = percentile(offTracker.samples, 50);
		const offP99 = percentile(offTracker.samples, 99);
		const offScreen = {
			rate: offRate,
			cpu: offUsed.share,
			bytesPerSecond: offBytesPerSecond,
			...(offChanges0 && offChanges1 ? {changedBytesPerSecond: (offChanges1.bytes - offChanges0.bytes) / offUsed.seconds} : {}),
			...(offP50 === undefined ? {} : {p50: offP50}),
			...(offP99 === undefined ? {} : {p99: offP99}),
			seen: offTracker.samples.length,
		};
		const memory = memoryMiB(running.pid);
		return {
			client,
			objects: setup.objects,
			readyMs: readyAt - spawnedAt,
			idleCpu: idle.share,
			idleBytesPerSecond,
			...(idleChangedBytesPerSecond === undefined ? {} : {idleChangedBytesPerSecond}),
			rates,
			offScreen,
			rssMiB: memory.rss,
			peakMiB: memory.peak,
			anonMiB: memory.anon,
			fileMiB: memory.file,
		};
	} finally {
		await running.stop();
	}
}

/** A real kube-apiserver holding `objects` ActionSets of the workload in the bench's namespace. */
export type SideCluster = {
	readonly cluster: Cluster;
	readonly workload: Workload;
	/** PATCHes that failed so far. */
	failed(): number;
};

/** Start etcd and kube-apiserver (test/e2e/harness) and create `objects` ActionSets; stop with `cluster.stop()`. */
export async function startSideCluster(cwd: string, objects: number, log: (message: string) => void): Promise<SideCluster> {
	log('side by side: starting etcd and kube-apiserver');
	process.env['PLANWATCH_KUBE_APISERVER'] = apiserverBinary(cwd);
	const cluster = await startCluster({buildOutput: false, crdDir: path.join(cwd, 'test', 'e2e', 'crds')});
	try {
		const created = await cluster.request('POST', '/api/v1/namespaces', {body: {apiVersion: 'v1', kind: 'Namespace', metadata: {name: namespace}}});
		if (created.status >= 300) {
			throw new Error(`creating namespace ${namespace}: ${created.status} ${created.body.slice(0, 200)}`);
		}

		let loading = true;
		let failed = 0;
		const creates: Array<{collection: string; body: unknown}> = [];
		const workload = loadWorkload(
			{
				put(def: ResourceDef, object: KubeObject) {
					const collection = `/apis/${def.group}/${def.version}/namespaces/${namespace}/${def.plural}`;
					if (loading) {
						creates.push({collection, body: {...object, apiVersion: `${def.group}/${def.version}`, kind: def.kind}});
					} else {
						// An update: fire and forget at the driven rate; failures are counted and reported.
						cluster.request('PATCH', `${collection}/${object.metadata!.name!}`, {body: {status: object['status']}, contentType: 'application/merge-patch+json'}).then(
							response => {
								if (response.status >= 300) {
									failed++;
								}
							},
							() => {
								failed++;
							},
						);
					}

					return object as never;
				},
			},
			objects,
			{onlyActionSets: true},
		);
		loading = false;
		log(`side by side: creating ${creates.length} objects`);
		const workers = Array.from({length: 8}, async () => {
			for (let next = creates.shift(); next; next = creates.shift()) {
				const response = await cluster.request('POST', next.collection, {body: next.body});
				if (response.status >= 300) {
					throw new Error(`creating an object: ${response.status} ${response.body.slice(0, 200)}`);
				}
			}
		});
		await Promise.all(workers);
		return {cluster, workload, failed: () => failed};
	} catch (error) {
		await cluster.stop();
		throw error;
	}
}

/** Start a cluster, create the objects, measure each client in turn. */
export async function sideBySide(setup: SideSetup, log: (message: string) => void): Promise<SideFigures[]> {
	const {cluster, workload, failed} = await startSideCluster(setup.cwd, setup.objects, log);
	try {
		const clients = (setup.clients ?? ['planwatch', 'kubectl', 'k9s']).filter(client => client !== 'k9s' || setup.k9s !== undefined);
		const figures: SideFigures[] = [];
		for (const client of clients) {
			log(`side by side: ${client}, ${setup.objects} ActionSets`);
			const f = await measure(client, setup, cluster, workload, failed);
			const latency = (r: SideFigures['rates'][number]) => r.p99 === undefined ? '' : ` p99 ${r.p99.toFixed(1)} ms (${r.seen} seen)`;
			const offP99 = f.offScreen?.p99 === undefined ? '' : ` p99 ${f.offScreen.p99.toFixed(1)} ms`;
			const off = f.offScreen ? `, 9 in 10 off screen ${f.offScreen.rate}/s ${(f.offScreen.cpu * 100).toFixed(1)} %${offP99}` : '';
			const rss = `rss ${f.rssMiB.toFixed(0)} MiB (anon ${f.anonMiB?.toFixed(0) ?? '?'}, file ${f.fileMiB?.toFixed(0) ?? '?'})`;
			log(`  idle ${(f.idleCpu * 100).toFixed(2)} %, ${f.rates.map(r => `${r.rate}/s ${(r.cpu * 100).toFixed(1)} %${latency(r)}`).join(', ')}${off}, ${rss}`);
			figures.push(f);
		}

		return figures;
	} finally {
		await cluster.stop();
	}
}
