/**
 * One run of one client (planwatch in a pty, or `kubectl get -w`) over one workload: start it, wait until it
 * shows every probe, measure an idle window, then each update rate in turn (latency of every update, CPU,
 * bytes written), then its memory; stop it.
 */
import {mkdtempSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import {startKubectlWatch} from './kubectl-client.js';
import {LatencyTracker} from './latency.js';
import {cpuWindow, memoryMiB} from './proc-stats.js';
import {startPty} from './pty-client.js';
import {percentile} from './stats.js';
import {namespace, type Workload} from './workload.js';

/** `planwatch --record`: the same run, recording to a new file (what --record costs). */
export type ClientName = 'planwatch' | 'planwatch --record' | 'kubectl';

/** What a client needs to be measured the same way. */
type Client = {
	readonly pid: number;
	bytes(): number;
	/** Resolves with the arrival time of the output that first shows every probe. */
	readonly ready: Promise<number>;
	/** Feed (probe, value, arrival time) sightings to the tracker until the returned function is called. */
	track(tracker: LatencyTracker): () => void;
	stop(): Promise<void>;
};

export type WatchSetup = {
	readonly kubeconfig: string;
	readonly env: Record<string, string>;
	readonly cwd: string;
	/** The planwatch entry (a .js file Node runs). */
	readonly cli: string;
	/** Node flags for planwatch (profiling: `--cpu-prof --cpu-prof-dir=DIR`). */
	readonly nodeFlags: readonly string[];
	readonly kubectl: string;
	readonly cols: number;
	readonly rows: number;
};

const probeRow = /\b(a-probe-\d\d)\b.*?\s(\d{1,3})%/;
const probeLine = /^(a-probe-\d\d)\s+(\d+)\s*$/;

function startPlanwatch(setup: WatchSetup, workload: Workload, extraArgs: readonly string[] = []): Client {
	const client = startPty(
		process.execPath,
		[...setup.nodeFlags, setup.cli, '--kubeconfig', setup.kubeconfig, '-n', namespace, ...extraArgs],
		{cols: setup.cols, rows: setup.rows, env: setup.env, cwd: setup.cwd},
	);
	const shown = () => {
		const seen = new Set<string>();
		for (const line of client.lines()) {
			const m = probeRow.exec(line);
			if (m) {
				seen.add(m[1]!);
			}
		}

		return workload.probes.every(p => seen.has(p));
	};

	const anyShown = () => client.lines().some(line => probeRow.test(line));
	/** The cursor's row (index on screen) and whether it is an expanded object. */
	const cursor = () => {
		const lines = client.lines();
		const row = lines.findIndex(line => line.startsWith('›'));
		return {row, expanded: lines[row]?.includes('▾') ?? false};
	};

	// Running objects start expanded while their trees fit on the first screen, which leaves no room for every
	// probe: once the list shows, fold each probe's row as a user would (h collapses, j moves to the next row). One
	// key at a time, each once the screen shows the last: keys that arrive together reach the app as one input.
	const ready = (async () => {
		const listedAt = await client.waitFor(anyShown, `planwatch to list the probes of ${workload.objects} objects`, 120_000);
		for (let step = 0; step < 4 * workload.probes.length && !shown(); step++) {
			const before = cursor();
			client.write(before.expanded ? 'h' : 'j');
			const moved = () => {
				const now = cursor();
				return before.expanded ? !now.expanded : now.row !== before.row;
			};

			await client.waitFor(moved, 'the cursor to fold or move', 10_000).catch(() => undefined);
		}

		if (!shown()) {
			await client.waitFor(shown, `planwatch to show ${workload.probes.length} folded probes`, 10_000);
		}

		return listedAt;
	})();
	return {
		pid: client.pid,
		bytes: client.bytes,
		ready,
		track(tracker) {
			return client.onScreen(arrivedAt => {
				for (const line of client.lines()) {
					const m = probeRow.exec(line);
					if (m) {
						tracker.seen(m[1]!, Number(m[2]), arrivedAt);
					}
				}
			});
		},
		stop: client.stop,
	};
}

function startKubectl(setup: WatchSetup, workload: Workload): Client {
	const client = startKubectlWatch(setup.kubectl, setup.kubeconfig, namespace, setup.env);
	// Header line + one line per ActionSet (the Instances are another resource).
	const probes = new Set<string>();
	const off = client.onLine(line => {
		const m = probeLine.exec(line);
		if (m) {
			probes.add(m[1]!);
		}
	});
	const ready = client.waitFor(() => probes.size === workload.probes.length, `kubectl to list ${workload.probes.length} probes`, 120_000);
	void ready.finally(off).catch(() => undefined);
	return {
		pid: client.pid,
		bytes: client.bytes,
		ready,
		track(tracker) {
			return client.onLine((line, arrivedAt) => {
				const m = probeLine.exec(line);
				if (m) {
					tracker.seen(m[1]!, Number(m[2]), arrivedAt);
				}
			});
		},
		stop: client.stop,
	};
}

export type RateFigures = {
	readonly rate: number;
	readonly updates: number;
	readonly p50?: number;
	readonly p99?: number;
	/** Updates never seen on screen by the end of the drain. */
	readonly missed: number;
	/** CPU share of one core over the update window. */
	readonly cpu: number;
	readonly bytesPerUpdate: number;
};

export type WatchFigures = {
	readonly client: ClientName;
	readonly objects: number;
	/** From spawn to the output showing the list (its first probe). */
	readonly readyMs: number;
	readonly idleCpu: number;
	readonly idleBytesPerSecond: number;
	readonly rates: readonly RateFigures[];
	/** The highest rate again, every update to an object far below the window (nothing on screen changes). */
	readonly offScreen?: {readonly rate: number; readonly cpu: number; readonly bytesPerUpdate: number};
	readonly rssMiB: number;
	readonly peakMiB: number;
};

/** Send `rate` updates per second for `durationMs`, spaced evenly from the start. */
export async function drive(rate: number, durationMs: number, update: () => void): Promise<number> {
	const total = Math.round((rate * durationMs) / 1000);
	const started = performance.now();
	let sent = 0;
	while (sent < total) {
		const due = Math.min(total, Math.floor(((performance.now() - started) * rate) / 1000) + 1);
		while (sent < due) {
			update();
			sent++;
		}

		const nextAt = started + (sent * 1000) / rate;
		await sleep(Math.max(0, nextAt - performance.now()));
	}

	return sent;
}

export type WatchPlan = {
	readonly settleMs: number;
	readonly idleMs: number;
	readonly rates: readonly number[];
	readonly rateMs: number;
	/** Longest wait for the last updates to show. */
	readonly drainMs: number;
};

export async function watchRun(name: ClientName, setup: WatchSetup, workload: Workload, plan: WatchPlan): Promise<WatchFigures> {
	const spawnedAt = performance.now();
	const client =
		name === 'kubectl'
			? startKubectl(setup, workload)
			: startPlanwatch(setup, workload, name === 'planwatch --record' ? ['--record', path.join(mkdtempSync(path.join(tmpdir(), 'planwatch-bench-rec-')), 'run.ndjson')] : []);
	try {
		const readyAt = await client.ready;
		await sleep(plan.settleMs);

		const idleBytes = client.bytes();
		const idleCpu = cpuWindow(client.pid);
		await sleep(plan.idleMs);
		const idle = idleCpu();
		const idleBytesPerSecond = (client.bytes() - idleBytes) / idle.seconds;

		const rates: RateFigures[] = [];
		for (const rate of plan.rates) {
			const tracker = new LatencyTracker();
			const untrack = client.track(tracker);
			const bytes0 = client.bytes();
			const cpu = cpuWindow(client.pid);
			const updates = await drive(rate, plan.rateMs, () => {
				const sentAt = performance.now();
				const {probe, value} = workload.update();
				tracker.sent(probe, value, sentAt);
			});
			const used = cpu();
			const drainUntil = performance.now() + plan.drainMs;
			while (tracker.pending > 0 && performance.now() < drainUntil) {
				await sleep(20);
			}

			const bytes = client.bytes() - bytes0;
			untrack();
			rates.push({
				rate,
				updates,
				p50: percentile(tracker.samples, 50),
				p99: percentile(tracker.samples, 99),
				missed: tracker.pending,
				cpu: used.share,
				bytesPerUpdate: bytes / updates,
			});
			// Let the last frames settle before the next rate starts.
			await sleep(plan.settleMs);
		}

		const offRate = Math.max(...plan.rates);
		const offBytes0 = client.bytes();
		const offCpu = cpuWindow(client.pid);
		const offUpdates = await drive(offRate, plan.rateMs, () => {
			workload.updateOffScreen();
		});
		const offUsed = offCpu();
		const offScreen = {rate: offRate, cpu: offUsed.share, bytesPerUpdate: (client.bytes() - offBytes0) / Math.max(1, offUpdates)};
		const memory = memoryMiB(client.pid);
		return {
			client: name,
			objects: workload.objects,
			readyMs: readyAt - spawnedAt,
			idleCpu: idle.share,
			idleBytesPerSecond,
			rates,
			offScreen,
			rssMiB: memory.rss,
			peakMiB: memory.peak,
		};
	} finally {
		await client.stop();
	}
}
