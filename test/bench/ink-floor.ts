/**
 * `npm exec -- node test/bench/ink-floor.mjs [--rates 0,10,100] [--seconds N] [--runs N]`: what the least Ink +
 * React app costs to show each change on a screen of rows (ink-floor-app.tsx: 40 rows, updates published once per
 * 33 ms frame, no network, JSON or store), in a 160×40 pseudo-terminal, with React's production build; once with
 * Node's defaults and once with the Node flags planwatch's npm bin runs with (source/cli/semi-space-exec.ts). CPU
 * ms a second per update rate, to read planwatch's side-by-side figures against: the part of them no change of
 * planwatch's own can take away while it draws with Ink.
 */
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {binFlags} from '../../source/cli/semi-space-exec.js';
import {startPty} from './pty-client.js';
import {repoRoot as root} from './repo-root.js';

function option(name: string): string | undefined {
	const i = process.argv.indexOf(name);
	return i === -1 ? undefined : process.argv[i + 1];
}

const rates = option('--rates') ?? '0,10,100';
const seconds = Number(option('--seconds') ?? 10);
const runs = Number(option('--runs') ?? 2);
// Bundled by the launcher, ink-floor.mjs.
const app = path.join(root, '.cache', 'bench', 'ink-floor-app.mjs');

const variants = [
	{name: 'Node defaults', flags: [] as readonly string[]},
	{name: `planwatch's bin flags (${binFlags.join(' ')})`, flags: binFlags},
];
const home = mkdtempSync(path.join(os.tmpdir(), 'ink-floor-'));
const results = new Map<string, Map<number, number[]>>();
try {
	for (let run = 0; run < runs; run++) {
		for (const variant of variants) {
			const out = path.join(home, 'figures.json');
			rmSync(out, {force: true});
			process.stderr.write(`ink-floor: ${variant.name}, run ${run + 1}/${runs}\n`);
			const pty = startPty(process.execPath, [...variant.flags, app, out, rates, String(seconds)], {
				cols: 160,
				rows: 40,
				cwd: root,
				env: {PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, TERM: 'xterm-256color', LANG: 'C.UTF-8', NODE_ENV: 'production'},
			});
			await pty.exited;
			const figures = JSON.parse(readFileSync(out, 'utf8')) as Array<{rate: number; cpuMsPerSecond: number}>;
			const byRate = results.get(variant.name) ?? new Map<number, number[]>();
			for (const f of figures) {
				byRate.set(f.rate, [...(byRate.get(f.rate) ?? []), f.cpuMsPerSecond]);
			}

			results.set(variant.name, byRate);
		}
	}
} finally {
	rmSync(home, {recursive: true, force: true});
}

process.stdout.write(`Ink + React floor: 40 rows at 160×40, one row changed per update, frames of 33 ms; CPU % of a core, ${runs} runs of ${seconds} s\n`);
process.stdout.write('| Node flags | ' + rates.split(',').map(r => (r === '0' ? 'idle' : `${r} updates/s`)).join(' | ') + ' |\n');
process.stdout.write('|---|' + rates.split(',').map(() => '---:').join('|') + '|\n');
for (const [name, byRate] of results) {
	process.stdout.write(`| ${name} | ${[...byRate.values()].map(list => list.map(ms => (ms / 10).toFixed(2)).join(', ')).join(' | ')} |\n`);
}
