#!/usr/bin/env node
/**
 * What the Ink patch buys, measured: the frame bench (`--quick --only frames`) run against Ink as patched, Ink
 * with the whole patch taken back, and Ink with only build/line-update.js and build/log-update.js taken back (the
 * hunks that write a frame's changed cells, apart from the caches), alternating, `--runs N` rounds (2). Each variant gets its own node_modules in a
 * temporary directory: a copy of Ink, every other package linked to this checkout's node_modules (which is never
 * written). Prints each figure per variant as the runs' minimum–maximum. Run: `npm exec -- node test/bench/patch-ab.mjs`.
 */
import {execFileSync} from 'node:child_process';
import {cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {applyHunks, patchFiles} from '../../scripts/patch-deps.mjs';
import {bundle} from './bundle.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const modules = path.join(root, 'node_modules');
const runsFlag = process.argv.indexOf('--runs');
const runs = runsFlag === -1 ? 2 : Number(process.argv[runsFlag + 1]);
const ink = patchFiles().find(patch => patch.pkg === 'ink');
const variants = [
	{name: 'patched', takeBack: () => false},
	{name: 'unpatched', takeBack: () => true},
	{name: 'without line-update.js and log-update.js hunks', takeBack: file => file.endsWith('/line-update.js') || file.endsWith('/log-update.js')},
];

const work = mkdtempSync(path.join(os.tmpdir(), 'planwatch-patch-ab-'));
try {
	for (const variant of variants) {
		const dir = path.join(work, variant.name.replaceAll(/\W+/g, '-'));
		mkdirSync(path.join(dir, 'node_modules'), {recursive: true});
		for (const name of readdirSync(modules)) {
			if (name !== 'ink') {
				symlinkSync(path.join(modules, name), path.join(dir, 'node_modules', name));
			}
		}

		cpSync(path.join(modules, 'ink'), path.join(dir, 'node_modules', 'ink'), {recursive: true});
		for (const file of ink.files.filter(f => variant.takeBack(f.path))) {
			const full = path.join(dir, file.path);
			writeFileSync(full, applyHunks(readFileSync(full, 'utf8'), file.hunks, {reverse: true}).text);
		}

		// The bench bundled next to that node_modules, so its bare imports (ink, react) resolve there.
		variant.main = path.join(dir, 'bench', 'main.mjs');
		await bundle('test/bench/main.ts', variant.main);
		variant.figures = new Map();
	}

	for (let run = 0; run < runs; run++) {
		for (const variant of variants) {
			console.error(`patch-ab: ${variant.name}, run ${run + 1} of ${runs}`);
			const output = execFileSync(process.execPath, [variant.main, '--quick', '--only', 'frames', '--no-kubectl'], {
				encoding: 'utf8',
				env: {...process.env, PLANWATCH_BENCH_ROOT: root, NODE_ENV: 'production', FORCE_COLOR: '1'},
				stdio: ['ignore', 'pipe', 'ignore'],
			});
			for (const [, figure, value] of output.matchAll(/^\| ((?:CPU ms per frame|bytes per frame)[^|]*)\| ([\d.]+) \|/gm)) {
				const values = variant.figures.get(figure.trim()) ?? [];
				values.push(Number(value));
				variant.figures.set(figure.trim(), values);
			}
		}
	}

	const range = values => (values ? `${Math.min(...values)}–${Math.max(...values)}` : '—');
	console.log(`| figure (${runs} alternating runs, min–max) | ${variants.map(v => v.name).join(' | ')} |`);
	console.log(`|---|${variants.map(() => '---:').join('|')}|`);
	for (const figure of variants[0].figures.keys()) {
		console.log(`| ${figure} | ${variants.map(v => range(v.figures.get(figure))).join(' | ')} |`);
	}
} finally {
	rmSync(work, {recursive: true, force: true});
}
