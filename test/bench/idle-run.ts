/**
 * One object, watched in its tree (`planwatch actionset/NAME`), nothing changing: what the 1 Hz clock costs
 * (CPU, bytes written to the terminal per second).
 */
import {setTimeout as sleep} from 'node:timers/promises';
import {cpuWindow, memoryMiB} from './proc-stats.js';
import {startPty} from './pty-client.js';
import {namespace, probeName} from './workload.js';
import type {WatchSetup} from './watch-run.js';

export type IdleFigures = {readonly cpu: number; readonly bytesPerSecond: number; readonly rssMiB: number};

export async function idleRun(setup: WatchSetup, settleMs: number, durationMs: number): Promise<IdleFigures> {
	const name = probeName(0);
	const client = startPty(
		process.execPath,
		[...setup.nodeFlags, setup.cli, `actionset/${name}`, '--kubeconfig', setup.kubeconfig, '-n', namespace],
		{cols: setup.cols, rows: setup.rows, env: setup.env, cwd: setup.cwd},
	);
	try {
		await client.waitFor(() => client.lines().some(l => l.includes('dumpToObjectStore')), `the tree of ${name}`, 30_000);
		await sleep(settleMs);
		const bytes0 = client.bytes();
		const cpu = cpuWindow(client.pid);
		await sleep(durationMs);
		const used = cpu();
		return {cpu: used.share, bytesPerSecond: (client.bytes() - bytes0) / used.seconds, rssMiB: memoryMiB(client.pid).rss};
	} finally {
		await client.stop();
	}
}
