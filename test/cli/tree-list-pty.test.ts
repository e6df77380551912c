/**
 * The list as a tree through the built bin in a pseudo-terminal: the demo's first screen shows a plan tree (not
 * only a table), and a long list of running objects never draws taller than the terminal.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest';
import {killAllPtys, startPtyCli} from '../e2e/harness/pty.js';
import {fixturesDir} from '../helpers/fixtures.js';
import {buildBin} from '../helpers/run-bin.js';

beforeAll(buildBin);
afterEach(killAllPtys);

// No ETA history from the machine's own runs: the screen is the same everywhere.
const state = fs.mkdtempSync(path.join(os.tmpdir(), 'planwatch-tree-list-'));
afterAll(() => {
	fs.rmSync(state, {recursive: true, force: true});
});
const env = {XDG_STATE_HOME: state};

const spinner = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;

describe('npm run demo', () => {
	it('the first screen with an object shows its plan tree down to the steps; then the running step spins', async () => {
		const tui = startPtyCli(['demo', '--no-history'], {cols: 110, rows: 30, env});
		let first = '';
		await tui.waitForScreen(text => {
			first = text;
			// A whole frame: Ink ends each one with the end of a synchronized update.
			return text.includes('mysql-instance') && tui.raw().endsWith('\u001B[?2026l');
		}, 'the first object');
		const lines = first.split('\n');
		const object = lines.findIndex(line => /^› ▾ Instance +default +mysql-instance /.test(line));
		expect(object, first).toBeGreaterThan(0);
		// Its active plan, the phase and the three steps, indented under the object's row.
		expect(lines.slice(object + 1).join('\n'), first).toMatch(/^ {4}▾ . deploy +serial[^]*^ {6}▾ . deploy +serial[^]*^ {10}. deploy [^]*^ {10}. init [^]*^ {10}. cleanup /m);
		await tui.waitForScreen(text => new RegExp(`^ {10}● deploy +IN_PROGRESS +${spinner.source} \\d:\\d\\d`, 'm').test(text), 'the deploy step running, with its spinner by the timer');
		expect(tui.maxScrolled()).toBe(0);
		tui.kill();
	});
});

describe('a tall list', () => {
	it('never draws more lines than the terminal has, and keeps the selected row on screen, whatever is expanded', async () => {
		// 30 copies of an Instance whose deploy runs (7 rows of tree each), in a 16-row terminal.
		const one = fs.readFileSync(`${fixturesDir}kudo/instance-mysql-deploy-in-progress.yaml`, 'utf8');
		const many = Array.from({length: 30}, (_, i) => one
			.replace('  name: mysql-instance', `  name: mysql-${String(i).padStart(2, '0')}`)
			.replace(/uid: 5f0c[\w-]+/, `uid: 5f0c${i}`)).join('\n---\n');
		const file = path.join(state, 'many.yaml');
		fs.writeFileSync(file, many);
		const rows = 16;
		const tui = startPtyCli(['-f', file, '-f', `${fixturesDir}kudo/operatorversion-mysql.yaml`, '--no-history'], {cols: 120, rows, env});
		const lines = (text: string) => text.split('\n');
		const selected = (text: string) => lines(text).find(line => line.startsWith('›')) ?? '';
		const objectRows = (text: string) => lines(text).filter(line => /^[› ] [▾▸ ] Instance /.test(line));
		// The whole first frame (it may reach the terminal in several writes).
		await tui.waitForScreen(text => selected(text).includes('mysql-00') && text.includes('↓ +') && lines(text).some(line => line.startsWith('↑↓ move')), 'the list');
		// The first object's tree fits and opens; the next objects stay closed (theirs would not fit as well).
		expect(objectRows(tui.text())[0]).toMatch(/^› ▾ Instance +default +mysql-00 /);
		expect(objectRows(tui.text())[1]).toMatch(/^ {2}▸ Instance +default +mysql-01 /);
		expect(tui.text()).toMatch(/^ {10}. init +IN_PROGRESS/m);

		const steps: Array<[string, (text: string) => boolean, string]> = [
			['G', text => /^› ▸ Instance +default +mysql-29 /.test(selected(text)), 'the cursor on the last object'],
			['l', text => /^› ▾ Instance +default +mysql-29 /.test(selected(text)), 'the last object expanded'],
			// Its three plans open down to their steps: 14 rows below the screen.
			['x', text => /^› ▾ Instance +default +mysql-29 /.test(selected(text)) && text.includes('↓ +14 more'), 'all of it expanded'],
			['G', text => /^› {9}─ cleanup +NEVER_RUN/.test(selected(text)), 'the cursor on its last tree row'],
			['h', text => /^› {5}▾ ─ restore +serial/.test(selected(text)), 'the cursor on its phase'],
			['g', text => /^› ▾ Instance +default +mysql-00 /.test(selected(text)), 'back at the top'],
		];
		for (const [keys, condition, what] of steps) {
			tui.press(keys);

			await tui.waitForScreen(condition, `${what} after ${keys}`);
			const text = tui.text();
			// A frame uses at most rows - 1 lines: the last one stays empty.
			expect(lines(text).at(-1), tui.describe()).toBe('');
			expect(lines(text)[0], tui.describe()).toMatch(/^planwatch · /);
		}

		// Nothing ever scrolled into the terminal's scrollback: every frame fit.
		expect(tui.maxScrolled()).toBe(0);
		tui.press('q');
		expect((await tui.waitForExit(10_000)).exitCode).toBe(0);
	});
});
