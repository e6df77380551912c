/**
 * Time from spawning planwatch to its first frame, and to the first frame that shows the watched object's tree,
 * for one object on the watch server. Variants: the bundle as shipped (dist/planwatch.js, Node's compile cache
 * on, warm from earlier runs), the bundle with the compile cache off, and the source unbundled: every file of
 * source/ transformed by esbuild on its own (bundle: false) into .cache/bench/unbundled/source/, so Node loads it
 * and every dependency file by file from node_modules, as a `tsc` build would; and the standalone executable
 * (scripts/release.mjs for this machine's platform, no archive), which carries its own Node and a V8 code cache.
 * Besides a cluster's object, the first frames of `demo` and of `-f FILE` (one ActionSet: its tree), which need no
 * cluster and load no client-node.
 */
import {copyFileSync, readdirSync} from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import {cpuSeconds} from './proc-stats.js';
import {startPty} from './pty-client.js';
import {namespace, probeName} from './workload.js';
import type {WatchSetup} from './watch-run.js';

export type FirstFrame = {
	readonly firstOutputMs: number;
	/** CPU time the process had used when its first output arrived. */
	readonly firstCpuMs: number;
	readonly objectMs: number;
	/** CPU time the process had used when the object's frame arrived: what other load on the machine cannot inflate. */
	readonly objectCpuMs: number;
};

function sourceFiles(dir: string): string[] {
	return readdirSync(dir, {withFileTypes: true}).flatMap(entry => {
		const full = path.join(dir, entry.name);
		return entry.isDirectory() ? sourceFiles(full) : /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
	});
}

/** Transform source/ file by file into `dir`/source; returns the path of the CLI entry there. */
export async function buildUnbundled(root: string, dir: string): Promise<string> {
	const outdir = path.join(dir, 'source');
	// source/cli/version.ts reads ../../package.json.
	copyFileSync(path.join(root, 'package.json'), path.join(dir, 'package.json'));
	await esbuild.build({
		absWorkingDir: root,
		entryPoints: sourceFiles(path.join(root, 'source')),
		outbase: path.join(root, 'source'),
		outdir,
		bundle: false,
		platform: 'node',
		target: 'node22',
		format: 'esm',
		jsx: 'automatic',
		logLevel: 'error',
	});
	return path.join(outdir, 'cli.js');
}

/** What planwatch is started with, and the text on screen that says its object's tree is drawn. */
export type FirstFrameRun = {readonly args: readonly string[]; readonly shows: string};

/** The bench's object on the watch server (a running ActionSet: its tree opens with the phase in it). */
export function clusterRun(setup: WatchSetup): FirstFrameRun {
	return {args: [`actionset/${probeName(0)}`, '--kubeconfig', setup.kubeconfig, '-n', namespace], shows: 'dumpToObjectStore'};
}

export async function firstFrame(setup: WatchSetup, entry: string, env: Record<string, string>, run: FirstFrameRun = clusterRun(setup)): Promise<FirstFrame> {
	const spawnedAt = performance.now();
	// A .js entry runs under this Node; anything else is the standalone executable, run as it is.
	const [command, ...prefix] = entry.endsWith('.js') ? [process.execPath, ...setup.nodeFlags, entry] : [entry];
	const client = startPty(command!, [...prefix, ...run.args], {cols: setup.cols, rows: setup.rows, env: {...setup.env, ...env}, cwd: setup.cwd});
	try {
		let firstCpuMs = Number.NaN;
		const first = client.waitFor(
			() => {
				const shown = client.lines().some(l => l.trim() !== '');
				if (shown && Number.isNaN(firstCpuMs)) {
					firstCpuMs = cpuSeconds(client.pid) * 1000;
				}

				return shown;
			},
			'any output',
			30_000,
		);
		let objectCpuMs = Number.NaN;
		const object = client.waitFor(
			() => {
				const shown = client.lines().some(l => l.includes(run.shows));
				if (shown) {
					objectCpuMs = cpuSeconds(client.pid) * 1000;
				}

				return shown;
			},
			`the tree (${run.shows})`,
			30_000,
		);
		return {firstOutputMs: (await first) - spawnedAt, firstCpuMs, objectMs: (await object) - spawnedAt, objectCpuMs};
	} finally {
		await client.stop();
	}
}
