/**
 * Keys that arrive in one read (key repeat, SSH, a busy event loop) through a real pseudo-terminal: each key
 * counts, in order.
 */
import {afterEach, beforeAll, describe, expect, it} from 'vitest';
import {killAllPtys, startPtyCli} from '../e2e/harness/pty.js';
import {fixturesDir} from '../helpers/fixtures.js';
import {buildBin} from '../helpers/run-bin.js';

beforeAll(buildBin);
afterEach(killAllPtys);

const files = ['instance-kafka-deploy-transient-error.yaml', 'instance-mysql-deploy-in-progress.yaml', 'instance-zookeeper-deploy-complete.yaml'].flatMap(f => ['-f', `${fixturesDir}kudo/${f}`]);
const selected = (text: string) => text.split('\n').find(line => line.startsWith('›')) ?? '';
const cursorLine = (text: string) => text.split('\n').findIndex(line => line.startsWith('›'));

/**
 * The list is drawn and the terminal is in raw mode: before that, the line discipline would echo a write and
 * hold it back until a newline. One key, seen to act, proves it.
 */
async function started(): Promise<ReturnType<typeof startPtyCli>> {
	const tui = startPtyCli(files, {cols: 120, rows: 20});
	await tui.waitForScreen(text => selected(text).includes('kafka'), 'the list');
	tui.press('j');
	await tui.waitForScreen(text => selected(text).includes('mysql-instance'), 'the first key to act');
	tui.press('k');
	await tui.waitForScreen(text => selected(text).includes('kafka'), 'the cursor back at the top');
	return tui;
}

describe('several keys in one write', () => {
	it('jj moves twice', async () => {
		const tui = await started();
		// Rows, not objects: the running mysql-instance's tree is open under its row.
		const top = cursorLine(tui.text());
		tui.press('jj');
		await tui.waitForScreen(text => cursorLine(text) === top + 2, 'the cursor two rows down');
		tui.press('k');
		await tui.waitForScreen(text => cursorLine(text) === top + 1 && selected(text).includes('mysql-instance'), 'the cursor one row up');
		tui.kill();
	});

	it('500 j in one write reach the bottom; jq moves and quits', async () => {
		const tui = await started();
		tui.press('j'.repeat(500));
		await tui.waitForScreen(text => selected(text).includes('zookeeper-instance'), 'the cursor at the bottom');
		tui.press('kkjq');
		const exit = await tui.waitForExit(10_000);
		expect(exit.exitCode).toBe(0);
	});

	it('an arrow key and letters in one write', async () => {
		const tui = await started();
		tui.press('\u001B[Bj\u001B[A');
		await tui.waitForScreen(text => selected(text).includes('mysql-instance'), 'down, down, up');
		tui.kill();
	});
});
