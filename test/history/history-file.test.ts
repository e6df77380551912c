import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {HistoryRefused, historyPath, openHistoryFile} from '../../source/history/history-file.js';
import {parseRunRecord, type RunRecord} from '../../source/model/run-history.js';

let dir: string;
beforeEach(() => {
	dir = fs.mkdtempSync(path.join(os.tmpdir(), 'planwatch-history-'));
});
afterEach(() => {
	fs.rmSync(dir, {recursive: true, force: true});
});

function run(n: number, top = 'deploy'): RunRecord {
	return {v: 1, kind: 'Instance', group: 'op-1.0', top, run: `r${n}`, at: '2026-01-01T00:00:00.000Z', outcome: 'succeeded', durations: [{path: [], ms: n * 1000}]};
}

describe('history file', () => {
	it('lives under $XDG_STATE_HOME/planwatch, or ~/.local/state/planwatch when it is unset or relative', () => {
		expect(historyPath({XDG_STATE_HOME: '/x/state'}, '/home/u')).toBe('/x/state/planwatch/history.ndjson');
		expect(historyPath({}, '/home/u')).toBe('/home/u/.local/state/planwatch/history.ndjson');
		expect(historyPath({XDG_STATE_HOME: 'relative'}, '/home/u')).toBe('/home/u/.local/state/planwatch/history.ndjson');
	});

	it('a missing file reads as no history; appending creates it (private) and reads back', () => {
		const file = path.join(dir, 'planwatch', 'history.ndjson');
		const history = openHistoryFile(file);
		expect(history.load()).toEqual([]);
		history.append([run(1), run(2)]);
		expect(history.load()).toEqual([run(1), run(2)]);
		expect(fs.statSync(file).mode & 0o777).toBe(0o600);
	});

	it('skips lines it does not understand', () => {
		const file = path.join(dir, 'history.ndjson');
		fs.writeFileSync(file, `garbage\n${JSON.stringify(run(1))}\n{"v":9}\n`);
		expect(openHistoryFile(file).load()).toEqual([run(1)]);
	});

	it('compacts past the size limit to the last runs per key, keeping other keys', () => {
		const file = path.join(dir, 'history.ndjson');
		const history = openHistoryFile(file, undefined, 2000);
		history.append([run(1, 'backup')]);
		for (let i = 1; i <= 60; i++) {
			history.append([run(i)]);
		}

		const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
		expect(lines.every(l => parseRunRecord(l) !== undefined)).toBe(true);
		// 20 runs per key after the last compaction, plus what was appended since.
		expect(lines.length).toBeLessThanOrEqual(21 + 20);
		expect(lines.length).toBeLessThan(61);
		const kept = history.load();
		expect(kept.some(r => r.top === 'backup')).toBe(true);
		expect(kept.at(-1)).toEqual(run(60));
		expect(fs.readdirSync(dir)).toEqual(['history.ndjson']);
	});

	it('concurrent writers (appends from other processes) never leave a broken line', async () => {
		const file = path.join(dir, 'history.ndjson');
		const {fork} = await import('node:child_process');
		const script = path.join(dir, 'writer.mjs');
		// The children run the real module, bundled (plain node does not resolve the sources' .js imports).
		const {buildSync} = await import('esbuild');
		const bundle = path.join(dir, 'history-file.mjs');
		buildSync({entryPoints: [new URL('../../source/history/history-file.ts', import.meta.url).pathname], bundle: true, platform: 'node', format: 'esm', outfile: bundle, logLevel: 'silent'});
		const modulePath = new URL(`file://${bundle}`).href;
		fs.writeFileSync(
			script,
			`const {openHistoryFile} = await import(${JSON.stringify(modulePath)});
const h = openHistoryFile(process.argv[2], e => { console.error(e); process.exitCode = 1; }, 4000);
for (let i = 0; i < 200; i++) h.append([{v: 1, kind: 'Instance', group: 'g', top: 't' + process.argv[3], run: process.argv[3] + '-' + i, ` +
				`at: '2026-01-01T00:00:00.000Z', outcome: 'succeeded', durations: [{path: ['a'], ms: i}]}]);
`,
		);
		const codes = await Promise.all(
			['1', '2', '3'].map(
				async id =>
					new Promise<number | null>(resolve => {
						fork(script, [file, id]).on('exit', resolve);
					}),
			),
		);
		expect(codes).toEqual([0, 0, 0]);
		const lines = fs.readFileSync(file, 'utf8').split('\n').filter(l => l !== '');
		expect(lines.every(l => parseRunRecord(l) !== undefined)).toBe(true);
		expect(new Set(lines.map(l => parseRunRecord(l)!.top))).toEqual(new Set(['t1', 't2', 't3']));
		// 600 appends under one lock, each re-reading the file: seconds on a loaded machine.
	});

	it('does not follow a symbolic link: says so once and runs without history, the link\'s target untouched', () => {
		const target = path.join(dir, 'elsewhere.ndjson');
		fs.writeFileSync(target, `${JSON.stringify(run(1))}\n`);
		const file = path.join(dir, 'history.ndjson');
		fs.symlinkSync(target, file);
		const errors: unknown[] = [];
		const history = openHistoryFile(file, e => errors.push(e));
		expect(history.load()).toEqual([]);
		history.append([run(2)]);
		history.append([run(3)]);
		expect(fs.readFileSync(target, 'utf8')).toBe(`${JSON.stringify(run(1))}\n`);
		expect(fs.lstatSync(file).isSymbolicLink()).toBe(true);
		expect(errors).toHaveLength(1);
		expect(errors[0]).toBeInstanceOf(HistoryRefused);
		expect((errors[0] as Error).message).toBe(`history file ${file}: is a symbolic link, not followed: running without history`);
	});

	it('keeps the lines of a newer version (v: 2) when it rewrites the file', () => {
		const file = path.join(dir, 'history.ndjson');
		const newer = Array.from({length: 1000}, (_, i) => JSON.stringify({v: 2, id: i, whatever: ['x']}));
		fs.writeFileSync(file, `${newer.join('\n')}\n`);
		const history = openHistoryFile(file, undefined, fs.statSync(file).size + 3000);
		for (let i = 1; i <= 60; i++) {
			history.append([run(i)]);
		}

		const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
		// It was rewritten (60 runs of one key compact to 20)…
		expect(lines.filter(l => parseRunRecord(l) !== undefined).length).toBeLessThan(60);
		// …and every newer line is still there, in its order.
		expect(lines.filter(l => l.startsWith('{"v":2'))).toEqual(newer);
		expect(history.load().at(-1)).toEqual(run(60));
	});

	it('ignores implausible durations (1e30 ms)', () => {
		const line = JSON.stringify({...run(1), durations: [{path: [], ms: 1e30}]});
		expect(parseRunRecord(line)).toBeUndefined();
		expect(parseRunRecord(JSON.stringify(run(1)))).toEqual(run(1));
	});

	it('files a run that several processes saw end (the same run id) once', async () => {
		const file = path.join(dir, 'history.ndjson');
		const {fork} = await import('node:child_process');
		const {buildSync} = await import('esbuild');
		const bundle = path.join(dir, 'history-file.mjs');
		buildSync({entryPoints: [new URL('../../source/history/history-file.ts', import.meta.url).pathname], bundle: true, platform: 'node', format: 'esm', outfile: bundle, logLevel: 'silent'});
		const script = path.join(dir, 'same-run.mjs');
		// Each child loads the (empty) history, then all append the same runs at once, as planwatch processes
		// watching one demo run do when it ends.
		fs.writeFileSync(
			script,
			`const {openHistoryFile} = await import(${JSON.stringify(new URL(`file://${bundle}`).href)});
const h = openHistoryFile(process.argv[2], e => { console.error(e); process.exitCode = 1; });
h.load();
process.on('message', () => {
	for (let i = 0; i < 50; i++) h.append([{v: 1, kind: 'Instance', group: 'g', top: 't', run: 'same-' + i, at: '2026-01-01T00:00:00.000Z', outcome: 'succeeded', durations: [{path: [], ms: i}]}]);
	process.exit();
});
process.send('ready');
`,
		);
		const children = ['1', '2', '3', '4'].map(() => fork(script, [file]));
		await Promise.all(children.map(async c => new Promise(resolve => c.once('message', resolve))));
		const exits = children.map(async c => new Promise<number | null>(resolve => c.on('exit', resolve)));
		for (const c of children) {
			c.send('go');
		}

		expect(await Promise.all(exits)).toEqual([0, 0, 0, 0]);
		const runs = fs.readFileSync(file, 'utf8').trim().split('\n').map(l => parseRunRecord(l)!.run);
		expect(runs.length).toBe(50);
		expect(new Set(runs).size).toBe(50);
		expect(fs.readdirSync(dir).filter(f => f.endsWith('.lock'))).toEqual([]);
	});

	it('a failure to write is reported, never thrown', () => {
		const blocker = path.join(dir, 'file');
		fs.writeFileSync(blocker, '');
		const errors: unknown[] = [];
		const history = openHistoryFile(path.join(blocker, 'history.ndjson'), e => errors.push(e));
		expect(() => history.append([run(1)])).not.toThrow();
		expect(errors).toHaveLength(1);
	});
});
