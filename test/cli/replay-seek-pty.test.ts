/**
 * A replay's `[` and `]` through the built bin in a real pseudo-terminal: the CLI's own wiring (the session, the
 * store, the replay clock), not a test-built store. `[` must rewind the picture, not only the clock.
 */
import {mkdtempSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, beforeAll, expect, it} from 'vitest';
import {killAllPtys, startPtyCli} from '../e2e/harness/pty.js';
import {buildBin, runBin} from '../helpers/run-bin.js';

beforeAll(buildBin);
afterEach(killAllPtys);

const failedStep = '✖ RestoreFromObjectStore';

it('replay (paused): ] steps forward to the failure, [ steps back to before it, ] forward again', async () => {
	const file = path.join(mkdtempSync(path.join(tmpdir(), 'planwatch-seek-')), 'restore.ndjson');
	const live = await runBin(['demo', '--scenario', 'postgres-restore-failed', '--wait', '--speed', '20', '-o', 'plain', '--record', file]);
	expect(live.code).toBe(1);

	// Slowed down (it was recorded at 20 times): the step before the failure stays on screen for seconds.
	const tui = startPtyCli(['replay', file, '--speed', '0.05'], {cols: 120, rows: 30});
	await tui.waitForScreen(text => text.includes('REPLAY'), 'the replay header');

	/**
	 * Press `key` until `done(screen)` holds. Keys written before the TUI reads the terminal arrive late or not at
	 * all, so it presses again after a while rather than counting on each press; presses arrive in order.
	 */
	const pressUntil = async (key: string, done: (text: string) => boolean, what: string): Promise<void> => {
		for (let presses = 0; !done(tui.text()); presses++) {
			expect(presses, `${what}\n${tui.text()}`).toBeLessThan(30);
			tui.press(key);
			await tui.waitForScreen(done, what, 1000).catch(() => undefined);
		}
	};

	await pressUntil(']', text => text.includes(failedStep), 'forward to the failure');
	// Paused: while it plays, `[` goes back to the start of the transition being shown, which is as far as it gets
	// when time has moved on from it.
	tui.press(' ');
	await tui.waitForScreen(text => text.split('\n')[0]?.includes('paused') === true, 'paused');
	await pressUntil('[', text => !text.includes(failedStep) && text.includes('RestoreFromObjectStore'), 'back to before the failure');
	await pressUntil(']', text => text.includes(failedStep), 'forward to the failure again');
	tui.kill();
});
