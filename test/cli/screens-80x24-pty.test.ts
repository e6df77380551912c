/**
 * Every screen at 80×24 (the default of many terminals, ssh sessions and tmux splits), through the built bin in a
 * pseudo-terminal rendered by @xterm/headless: what gives way on a short line is names and messages (cut with a
 * marker), never a state word, a timer or a key. Issue #20 found `fail…` in the object title, `q …` in the
 * footer, a cut ETA column, the --wait summary twice, and in --ascii a timer gone and a message cut unmarked.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterAll, afterEach, describe, expect, it} from 'vitest';
import {killAllPtys, startPtyCli, type PtyCli} from '../e2e/harness/pty.js';
import {fixturesDir} from '../helpers/fixtures.js';
import {binAgainstFakeServers} from '../helpers/fake-servers.js';
import {writeKubeconfig} from '../helpers/watch-server.js';

// Builds the bin once for the file. Deadlines here only bound a hang: a loaded machine is slow.
const startServer = binAgainstFakeServers();
afterEach(killAllPtys);

const state = fs.mkdtempSync(path.join(os.tmpdir(), 'planwatch-screens-'));
afterAll(() => {
	fs.rmSync(state, {recursive: true, force: true});
});
// No ETA history from the machine's own runs: the screen is the same everywhere.
const env = {XDG_STATE_HOME: state};
const cols = 80;
const rows = 24;
const spinner = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;
const kanister = `${fixturesDir}kanister/`;
const failedBackup = [
	'-f',
	`${kanister}actionset-postgres-backup-failed-defer-failed.yaml`,
	'-f',
	`${kanister}blueprint-postgres-start-stop-defer.yaml`,
	'-f',
	`${kanister}events-postgres-backup-failed-defer-failed.yaml`,
];

const lines = (tui: PtyCli) => tui.screen();
const nonBlank = (tui: PtyCli) => lines(tui).filter(line => line.trim() !== '');
/** A whole frame: Ink ends each one with the end of a synchronized update. */
const framed = (tui: PtyCli) => tui.raw().endsWith('\u001B[?2026l');

/** What holds on every screen: one frame that fits (no line wrapped, nothing scrolled), the keys whole. */
function expectFits(tui: PtyCli, footer: RegExp = /q quit$/): void {
	const screen = lines(tui);
	expect(tui.logicalLines(), tui.describe()).toHaveLength(rows);
	expect(tui.maxScrolled(), tui.describe()).toBe(0);
	expect(screen.at(-1), tui.describe()).toBe('');
	expect(screen[0], tui.describe()).toMatch(/^planwatch /);
	const last = nonBlank(tui).at(-1) ?? '';
	expect(last, tui.describe()).toMatch(footer);
	expect(last, tui.describe()).not.toMatch(/…|\.\.\./);
}

describe('at 80×24', () => {
	it('the list: the footer ends in `q quit`, every running object keeps its timer, the header its state', async () => {
		const tui = startPtyCli(['demo', '--no-history'], {cols, rows, env});
		await tui.waitForScreen(text => text.includes('mysql-instance') && text.includes('backup-') && framed(tui), 'the demo list');
		expectFits(tui);
		expect(lines(tui)[0]).toMatch(/● live/);
		expect(lines(tui)[1]).toMatch(/^ {4}KIND +NAMESPACE +NAME .*STATE .*ELAPSED$/);
		const running = lines(tui).filter(line => /^[› ] [▾▸ ] (Instance|ActionSet) /.test(line) && line.includes('running'));
		expect(running.length, tui.describe()).toBeGreaterThan(0);
		for (const row of running) {
			expect(row, tui.describe()).toMatch(/ \d+:\d\d$/);
		}

		tui.kill();
	});

	it('the list with an ETA column: the ETA is whole, the names gave way', async () => {
		// One past deploy of 10 minutes: the running deploy gets `~10m left` (history.ndjson, version 1).
		const home = fs.mkdtempSync(path.join(state, 'eta-'));
		fs.mkdirSync(path.join(home, 'planwatch'));
		const durations = [[], ['deploy'], ['deploy', 'deploy'], ['deploy', 'init'], ['deploy', 'cleanup']].map(p => ({path: p, ms: 600_000}));
		const run = {v: 1, kind: 'Instance', group: 'demo/mysql-5.7-0.3.0', top: 'deploy', run: 'past-run-1', at: '2026-01-01T00:00:00.000Z', outcome: 'succeeded', durations};
		fs.writeFileSync(path.join(home, 'planwatch', 'history.ndjson'), `${JSON.stringify(run)}\n`);
		const tui = startPtyCli(['demo', '--scenario', 'mysql-deploy'], {cols, rows, env: {XDG_STATE_HOME: home}});
		await tui.waitForScreen(text => /mysql-instance .* ~\d+m left$/m.test(text) && framed(tui), 'the ETA in the list');
		expectFits(tui);
		expect(lines(tui)[1]).toMatch(/ELAPSED +ETA\s*$/);
		expect(lines(tui).find(line => line.includes('mysql-instance'))).toMatch(/running .* \d+:\d\d {2}~10m left$/);
		tui.kill();
	});

	it('the tree, its detail pane and the --wait summary: the state word whole, the summary said once', async () => {
		// The demo's restore has a long name (restore-backup-glptq-6jzt4): the title used to end in `fail…`.
		const tui = startPtyCli(['demo', '--scenario', 'postgres-restore-failed', '--wait', '--speed', '10', '--no-history'], {cols, rows, env});
		const exit = await tui.waitForExit();
		expect(exit.exitCode, tui.describe()).toBe(1);
		expectFits(tui);
		const screen = lines(tui);
		expect(screen[1], tui.describe()).toMatch(/^ActionSet default\/restore-.* failed {1,2}· {1,2}\d+%$/);
		// The summary line under the title, then the banner saying only how the wait ended: one ✖ summary.
		expect(screen[2], tui.describe()).toMatch(/^✖ restore failed in phase RestoreFromObjectStore/);
		expect(screen.filter(line => line.includes('restore failed in phase')), tui.describe()).toHaveLength(1);
		expect(screen, tui.describe()).toContain('✖ wait over: failed (exit code 1)');
		// The selected failed step: its row keeps status and timer, its message is cut marked, the detail pane has it all.
		const selected = screen.find(line => line.startsWith('›')) ?? '';
		expect(selected, tui.describe()).toMatch(/^› +✖ RestoreFromObjectStore +failed +\d+:\d\d {2}Failed to .*…$/);
		// Wrapped by words over two lines, in full.
		expect(screen.join(' '), tui.describe()).toContain('RestoreFromObjectStore: Failed to restore backup: command terminated with exit code 1');
	});

	it('the help overlay: its own footer, no key cut', async () => {
		const tui = startPtyCli(['demo', '--no-history'], {cols, rows, env});
		await tui.waitForScreen(text => text.includes('mysql-instance') && framed(tui), 'the demo list');
		tui.press('?');
		await tui.waitForScreen(text => text.includes('KEYS') && text.includes('more') && framed(tui), 'the help overlay');
		expectFits(tui, /^\? esc close {2}q quit$/);
		for (const line of lines(tui).slice(1, -2)) {
			expect(line, tui.describe()).not.toMatch(/…$/);
		}

		tui.kill();
	});

	it('an empty cluster, a filter that matches nothing and an object not there say so in full', async () => {
		// A cluster (an API double on 127.0.0.1) with nothing in it.
		const server = await startServer();
		const kubeconfig = await writeKubeconfig({server: server.url});
		const empty = startPtyCli(['--kubeconfig', kubeconfig, '-n', 'default'], {cols, rows, env});
		await empty.waitForScreen(text => text.includes('no KUDO Instances or Kanister ActionSets here') && framed(empty), 'the empty list');
		expectFits(empty);
		empty.kill();

		// A named target that is not there: exit 4, its last frame says so whole, then one line on stderr.
		const missing = startPtyCli(['actionset/nope', '--kubeconfig', kubeconfig, '-n', 'default'], {cols, rows, env});
		expect((await missing.waitForExit()).exitCode, missing.describe()).toBe(4);
		expect(missing.logicalLines(), missing.describe()).toHaveLength(rows);
		expect(lines(missing)[1], missing.describe()).toBe('ActionSet default/nope');
		expect(lines(missing), missing.describe()).toContain('✖ actionset default/nope not found');
		expect(nonBlank(missing).slice(-2), missing.describe()).toEqual(['↑↓ move  ←→ fold  x all  e events  ? help  q quit', 'planwatch: actionset default/nope not found']);

		const filtered = startPtyCli(['demo', '--no-history'], {cols, rows, env});
		await filtered.waitForScreen(text => text.includes('mysql-instance') && framed(filtered), 'the demo list');
		filtered.press('/');
		filtered.press('nothing-is-called-this\r');
		await filtered.waitForScreen(text => text.includes('nothing matches the filter') && framed(filtered), 'the filtered list');
		expectFits(filtered);
		expect(lines(filtered)[1], filtered.describe()).toMatch(/^filter "nothing-is-called-this" · 0 of \d+$/);
		filtered.kill();
	});

	for (const width of [80, 100]) {
		it(`NO_COLOR at ${width} columns: no colour, and every running row keeps its spinner and its timer`, async () => {
			const tui = startPtyCli(['demo', '--no-history'], {cols: width, rows, env: {...env, NO_COLOR: '1'}});
			await tui.waitForScreen(text => new RegExp(`IN_PROGRESS +${spinner.source} \\d+:\\d\\d`).test(text) && framed(tui), 'a running step');
			expect(tui.logicalLines()).toHaveLength(rows);
			expect(tui.raw()).not.toMatch(/\u001B\[(3\d|9\d);?[\dm]/);
			const runningRows = lines(tui).filter(line => / (running|IN_PROGRESS) /.test(line) && spinner.test(line));
			expect(runningRows.length, tui.describe()).toBeGreaterThan(0);
			for (const row of runningRows) {
				expect(row, tui.describe()).toMatch(/ \d+:\d\d( |$)/);
				expect(row, tui.describe()).not.toMatch(new RegExp(`${spinner.source}…`));
			}

			tui.kill();
		});
	}

	it('--ascii: only ASCII, timers whole, a cut message marked with `...`', async () => {
		const tui = startPtyCli([...failedBackup, '-o', 'tui', '--ascii'], {cols, rows, env});
		await tui.waitForScreen(text => text.includes('copyFiles') && framed(tui), 'the failed backup tree');
		expectFits(tui);
		expect(tui.text()).toMatch(/^[\u0020-\u007E\n]*$/);
		const copyFiles = lines(tui).find(line => /^> +\[XX\] copyFiles /.test(line)) ?? '';
		expect(copyFiles, tui.describe()).toMatch(/failed +0:38 {2}\{"pod":.*\.\.\.$/);
		expect(copyFiles.length).toBeLessThanOrEqual(cols);
		// The title keeps its state word and percentage.
		expect(lines(tui)[1], tui.describe()).toMatch(/ failed {1,2}\| {1,2}60%$/);
		tui.kill();

		const list = startPtyCli(['demo', '--no-history', '--ascii'], {cols, rows, env});
		await list.waitForScreen(text => text.includes('mysql-instance') && /\[\.\.\] deploy +IN_PROGRESS +\d+:\d\d/.test(text) && framed(list), 'the ASCII list');
		expectFits(list);
		for (const row of lines(list).filter(line => / (running|IN_PROGRESS) /.test(line))) {
			expect(row, list.describe()).toMatch(/(running|IN_PROGRESS) +(\d+\/\d+ \S+ +)?\d+:\d\d( |$)/);
		}

		list.kill();
	});
});

describe('at 200×60', () => {
	it('the list uses the width: full names and a MESSAGE column', async () => {
		const tui = startPtyCli(['demo', '--no-history'], {cols: 200, rows: 60, env});
		await tui.waitForScreen(text => /mysql-instance .* \d+:\d\d {2}deploy in progress/.test(text) && framed(tui), 'the wide list');
		expect(lines(tui)[1]).toMatch(/ELAPSED {2}MESSAGE$/);
		expect(lines(tui).find(line => line.includes('mysql-instance'))).toMatch(
			/^› ▾ Instance +default +mysql-instance +deploy +. running +0\/3 steps +\d+:\d\d {2}deploy in progress: phase deploy, step deploy \(0\/3 steps\)$/,
		);
		tui.kill();
	});
});
