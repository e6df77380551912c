import {afterEach, describe, expect, test} from 'vitest';
import {objectKey} from '../../source/model/plan-tree.js';
import {renderApp} from '../helpers/render-app.js';
import {FakeWait} from '../helpers/fake-wait.js';
import {cleanupUi} from '../helpers/ui.js';
import {backupEvents, backupFailed, bigPlan, kafkaRetrying, mysqlDeploy, snapshotOf, t0} from '../helpers/ui-objects.js';

afterEach(cleanupUi);

/** Terminal cells of a line: code points, with the one wide glyph we draw (⏰) counted twice. */
const cells = (line: string) => [...line].length + (line.includes('⏰') ? 1 : 0);

const sizes = [
	[20, 3],
	[30, 5],
	[40, 8],
	[60, 12],
	[80, 15],
	[100, 24],
	[160, 40],
] as const;

function expectFits(frame: string, columns: number, rows: number, where: string): void {
	const lines = frame.split('\n');
	expect(lines.length, `${where}: ${lines.length} lines in ${columns}x${rows}\n${frame}`).toBeLessThanOrEqual(rows - 1);
	for (const line of lines) {
		expect(cells(line), `${where}: line wider than ${columns}: ${line}`).toBeLessThanOrEqual(columns);
	}
}

describe('every frame fits the terminal: at most rows - 1 lines, no line wider than the screen', () => {
	test('a big tree with events, detail and the timeout banner', async () => {
		const big = bigPlan(120, 60);
		const objects = [big, backupFailed(), mysqlDeploy(), kafkaRetrying()];
		const wait = new FakeWait({phase: 'grace', startedAt: t0 - 600_000, deadlineAt: t0, graceEndsAt: t0 + 10_000});
		const app = renderApp({snapshot: snapshotOf({objects, events: new Map([[objectKey(big), backupEvents()]])}), wait, columns: 100, rows: 24});
		await app.waitForFrame(f => f.includes('KIND'));
		for (const [columns, rows] of sizes) {
			await app.resize(columns, rows);
			expectFits(await app.waitForFrame(() => true), columns, rows, 'list');
		}

		await app.resize(100, 24);
		// Filtered to the big plan (kept with enter), opened with enter.
		await app.press('/', 'm', 'a', 'n', 'y', '\r', '\r', 'e');
		await app.waitForFrame(f => f.includes('EVENTS') && f.includes('step-060'), {what: 'big tree with events'});
		for (const [columns, rows] of sizes) {
			await app.resize(columns, rows);
			expectFits(await app.waitForFrame(() => true), columns, rows, 'tree');
		}

		await app.press('?');
		for (const [columns, rows] of sizes) {
			await app.resize(columns, rows);
			expectFits(await app.waitForFrame(() => true), columns, rows, 'help');
		}
	});

	test('the cursor row stays visible while moving through 300 steps in 20 rows', async () => {
		const big = bigPlan(300, 0);
		const app = renderApp({snapshot: snapshotOf({objects: [big]}), targets: [objectKey(big)], columns: 80, rows: 20});
		await app.waitForFrame(f => f.includes('step-000'));
		for (const key of ['G', '\u001B[5~', '\u001B[5~', 'k', 'g', '\u001B[6~', 'j', 'j']) {
			await app.press(key);
			const frame = app.lastFrame();
			expectFits(frame, 80, 20, `after ${JSON.stringify(key)}`);
			expect(frame.split('\n').some(line => line.startsWith('›')), `cursor visible after ${JSON.stringify(key)}\n${frame}`).toBe(true);
		}
	});
});
