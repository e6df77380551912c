import {afterEach, describe, expect, test} from 'vitest';
import {objectKey} from '../../source/model/plan-tree.js';
import {renderApp} from '../helpers/render-app.js';
import {FakeWait} from '../helpers/fake-wait.js';
import {CTRL_C, ESC, cleanupUi} from '../helpers/ui.js';
import {mysqlDeploy, snapshotOf, t0} from '../helpers/ui-objects.js';

afterEach(cleanupUi);

const mysql = mysqlDeploy();

function waitFor(condition: () => boolean, what: string): Promise<void> {
	const deadline = Date.now() + 3000;
	return new Promise((resolve, reject) => {
		const check = () => {
			if (condition()) {
				resolve();
			} else if (Date.now() > deadline) {
				reject(new Error(`Timed out waiting for ${what}`));
			} else {
				setImmediate(check);
			}
		};

		check();
	});
}

describe('quit', () => {
	test.each([
		['q', 'q'],
		['ctrl+c', CTRL_C],
	])('%s tells the wait session, then the owner, once', async (_name, key) => {
		const wait = new FakeWait({phase: 'waiting', startedAt: t0});
		const app = renderApp({snapshot: snapshotOf({objects: [mysql]}), targets: [objectKey(mysql)], wait});
		await app.waitForFrame(f => f.includes('cleanup'));
		await app.press(key, key, 'q');
		await waitFor(() => app.quits() > 0, 'onQuit');
		expect(wait.calls).toEqual(['quit']);
		expect(app.quits()).toBe(1);
	});

	test('esc quits a single tree (nothing to go back to)', async () => {
		const wait = new FakeWait();
		const app = renderApp({snapshot: snapshotOf({objects: [mysql]}), targets: [objectKey(mysql)], wait});
		await app.waitForFrame(f => f.includes('cleanup'));
		await app.press(ESC);
		await waitFor(() => app.quits() === 1, 'onQuit');
		expect(wait.calls).toEqual(['quit']);
	});

	test('esc in the list with nothing open quits', async () => {
		const app = renderApp({snapshot: snapshotOf({objects: [mysql]})});
		await app.waitForFrame(f => f.includes('KIND'));
		await app.press(ESC);
		await waitFor(() => app.quits() === 1, 'onQuit');
	});

	test('without a raw-mode stdin no keys are read (and nothing throws)', async () => {
		const wait = new FakeWait();
		const app = renderApp({snapshot: snapshotOf({objects: [mysql]}), targets: [objectKey(mysql)], wait, stdinIsTTY: false});
		await app.waitForFrame(f => f.includes('cleanup'));
		await app.press('x', 'q', ESC);
		await app.waitForFrame(f => f.includes('cleanup'));
		expect(app.quits()).toBe(0);
		expect(wait.calls).toEqual([]);
	});
});
