#!/usr/bin/env node
/**
 * What string-width costs for a terminal line with a few non-ASCII glyphs (a list row: cursor, fold mark, status
 * icon among ~150 ASCII columns): the installed (patched) module against string-width 8.3.0 as published (the patch
 * taken back, as test/packaging/string-width-emoji.test.ts does), alternating. CPU µs and KiB allocated per call.
 * Run: `npm exec -- node test/bench/string-width-cost.mjs`.
 */
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import v8 from 'node:v8';
import {applyHunks, patchFiles} from '../../scripts/patch-deps.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const file = patchFiles().find(p => p.pkg === 'string-width').files.find(f => f.path === 'node_modules/string-width/index.js');
const installed = path.join(root, file.path);
const originalPath = path.join(root, '.cache/bench/string-width-original.mjs');
mkdirSync(path.dirname(originalPath), {recursive: true});
writeFileSync(originalPath, applyHunks(readFileSync(installed, 'utf8'), file.hunks, {reverse: true}).text);
const {default: published} = await import(pathToFileURL(originalPath).href);
const {default: patched} = await import(pathToFileURL(installed).href);

const rows = Array.from({length: 1000}, (_, i) => `› ▸ default  ActionSet  bench  a-probe-${i}  ✔ Complete  ${'x'.repeat(90)} ${i}%`);
const rounds = 20;
const figures = {published: [], patched: []};
for (let run = 0; run < 3; run++) {
	for (const [name, width] of [['published', published], ['patched', patched]]) {
		rows.forEach(row => width(row));
		const heap0 = v8.getHeapStatistics().total_allocated_bytes;
		const cpu0 = process.cpuUsage();
		for (let round = 0; round < rounds; round++) {
			rows.forEach(row => width(row));
		}

		const cpu = process.cpuUsage(cpu0);
		const calls = rounds * rows.length;
		figures[name].push({us: (cpu.user + cpu.system) / calls, kib: (v8.getHeapStatistics().total_allocated_bytes - heap0) / 1024 / calls});
	}
}

const range = (values, digits) => `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;
process.stdout.write(`string-width of a ${rows[0].length}-column row with three non-ASCII glyphs, per call (3 alternating runs of ${rounds * rows.length} calls):\n`);
process.stdout.write('| string-width | CPU µs | KiB allocated |\n|---|---:|---:|\n');
for (const [name, values] of Object.entries(figures)) {
	process.stdout.write(`| ${name === 'published' ? '8.3.0 as published' : 'as patched'} | ${range(values.map(v => v.us), 1)} | ${range(values.map(v => v.kib), 1)} |\n`);
}
