/**
 * Big inputs read with `-f`: peak RSS and wall time for 10 000 Instances from a 15 MB file in plain, json and the
 * TUI (in a pseudo-terminal, until the list is on screen), and idle CPU of a 100 000-step plan's tree, expanded and
 * collapsed. The peak is the kernel's (getrusage maxRSS), written by the CLI's own process at exit through a
 * preloaded module, so a short run is measured to its end.
 */
import {spawn} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import {cpuWindow} from './proc-stats.js';
import {startPty} from './pty-client.js';
import type {WatchSetup} from './watch-run.js';

/** `shape`: multi-document YAML, or one JSON `kind: List` as `kubectl get -o json` writes (read item by item). */
export type FileMemoryFigures = {readonly output: 'plain' | 'json' | 'tui'; readonly objects: number; readonly peakMiB: number; readonly seconds: number; readonly shape?: 'yaml' | 'json-list'};
export type BigPlanFigures = {readonly steps: number; readonly expanded: boolean; readonly cpu: number; readonly keyMs: number};

/** A module the CLI preloads (`--import`): at exit it writes the process's peak RSS (KiB) to a file. */
function peakHook(directory: string): {flag: string; read(): number} {
	const out = path.join(directory, `peak-${process.pid}-${Math.random().toString(36).slice(2)}.txt`);
	const hook = path.join(directory, 'peak-hook.mjs');
	writeFileSync(hook, `import {writeFileSync} from 'node:fs';\nprocess.on('exit', () => { writeFileSync(${JSON.stringify(out)}, String(process.resourceUsage().maxRSS)); });\n`);
	return {
		flag: `--import=${hook}`,
		read() {
			const kib = Number(readFileSync(out, 'utf8'));
			rmSync(out, {force: true});
			return kib / 1024;
		},
	};
}

export async function fileMemoryRun(
	setup: WatchSetup,
	files: readonly string[],
	objects: number,
	output: FileMemoryFigures['output'],
	visible: string,
	shape: FileMemoryFigures['shape'] = 'yaml',
): Promise<FileMemoryFigures> {
	const directory = mkdtempSync(path.join(os.tmpdir(), 'planwatch-bench-peak-'));
	const peak = peakHook(directory);
	const args = [...setup.nodeFlags, peak.flag, setup.cli, ...files.flatMap(f => ['-f', f])];
	const t0 = performance.now();
	try {
		if (output === 'tui') {
			const client = startPty(process.execPath, args, {cols: setup.cols, rows: setup.rows, env: setup.env, cwd: setup.cwd});
			try {
				await client.waitFor(() => client.lines().some(l => l.includes(visible)), visible, 120_000);
			} finally {
				await client.stop();
			}
		} else {
			const child = spawn(process.execPath, [...args, '-o', output], {cwd: setup.cwd, env: setup.env, stdio: ['ignore', 'pipe', 'inherit']});
			child.stdout.resume();
			await new Promise(resolve => {
				child.on('close', resolve);
			});
		}

		const seconds = (performance.now() - t0) / 1000;
		return {output, objects, peakMiB: peak.read(), seconds, shape};
	} finally {
		rmSync(directory, {recursive: true, force: true});
	}
}

/**
 * The tree of one Instance with a huge plan, expanded (`x`) or as it opens (collapsed down to the running step's
 * phase), idle for `durationMs` with its timers ticking; then the time from a key (`j`) to the moved cursor.
 */
export async function bigPlanRun(setup: WatchSetup, file: string, steps: number, expanded: boolean, settleMs: number, durationMs: number): Promise<BigPlanFigures> {
	const client = startPty(process.execPath, [...setup.nodeFlags, setup.cli, '-f', file], {cols: setup.cols, rows: setup.rows, env: setup.env, cwd: setup.cwd});
	try {
		await client.waitFor(() => client.lines().some(l => l.includes('IN_PROGRESS')), 'the tree', 120_000);
		if (expanded) {
			client.write('x');
			// Expanded: nearly every step is a row, most of them hidden above and below the window.
			const hidden = () => client.lines().reduce((sum, l) => sum + Number(/[↑↓] \+?(\d+) more/.exec(l)?.[1] ?? 0), 0);
			await client.waitFor(() => hidden() > 0.9 * steps, 'the expanded tree', 120_000);
		}

		await sleep(settleMs);
		const cpu = cpuWindow(client.pid);
		await sleep(durationMs);
		const used = cpu();
		const selected = () => client.lines().find(l => l.startsWith('›')) ?? '';
		const before = selected();
		const sent = performance.now();
		client.write('j');
		const shown = await client.waitFor(() => selected() !== before, 'the cursor to move', 30_000);
		return {steps, expanded, cpu: used.share, keyMs: shown - sent};
	} finally {
		await client.stop();
	}
}
