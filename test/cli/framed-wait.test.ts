/**
 * The TUI's wait is decided on its frames (run-tui.tsx framedWait): updates within one 33 ms frame cost one decision
 * and at most one change of the wait's line, not one per event; the wait still ends on the state that ended it.
 */
import {describe, expect, it} from 'vitest';
import {framedWait} from '../../source/cli/run-tui.js';
import type {KubeObject} from '../../source/core/kube-object.js';
import {Store} from '../../source/state/store.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {loadFixtureObject} from '../helpers/fixtures.js';

const settle = async () => {
	await Promise.resolve();
	await Promise.resolve();
};

/** The running mysql backup named `name` at `percent`; complete when `percent` is undefined. */
function actionSet(name: string, percent?: number): KubeObject {
	const file = percent === undefined ? 'kanister/actionset-mysql-backup-complete.yaml' : 'kanister/actionset-mysql-backup-running.yaml';
	const o = structuredClone(loadFixtureObject(file)) as KubeObject & {status: {progress?: Record<string, unknown>}};
	o.metadata = {...o.metadata, name, namespace: 'kanister', uid: `uid-${name}`};
	if (percent !== undefined && o.status.progress) {
		o.status.progress['percentCompleted'] = String(percent);
	}

	return o;
}

describe('framedWait', () => {
	it('three updates in one frame change the wait\'s line once, at the frame; the end comes with its frame', async () => {
		const clock = new FakeClock(Date.parse('2021-06-10T09:15:00Z'));
		const store = new Store(clock);
		store.apply({type: 'connection', state: {status: 'live'}});
		store.apply({type: 'replace', resource: 'ActionSet', objects: [actionSet('a', 10), actionSet('b', 10)]});
		store.apply({type: 'synced'});
		const {snapshots, wait} = framedWait({
			store,
			clock,
			options: {wait: true, timeoutMs: 0, extendMs: 300_000, ascii: false, color: false, once: false, notify: 'never'},
			targets: [],
		});
		const lines: string[] = [];
		wait.subscribe(() => {
			lines.push(wait.getSnapshot().waitingFor ?? '');
		});
		await settle();
		expect(lines).toEqual([expect.stringContaining('(10%)')]);
		// A quiet frame.
		clock.advance(100);
		lines.length = 0;
		for (const percent of [20, 30, 40]) {
			clock.advance(5);
			store.apply({type: 'upsert', resource: 'ActionSet', object: actionSet('a', percent)});
			await settle();
		}

		// The first update after a quiet frame is drawn at once; the two after it wait for the frame's end.
		expect(lines).toHaveLength(1);
		expect(lines[0]).toContain('20%');
		clock.advance(33);
		expect(lines).toHaveLength(2);
		expect(lines[1]).toContain('40%');
		clock.advance(100);
		store.apply({type: 'upsert', resource: 'ActionSet', object: actionSet('a')});
		store.apply({type: 'upsert', resource: 'ActionSet', object: actionSet('b')});
		await settle();
		await expect(wait.done).resolves.toMatchObject({exitCode: 0});
		expect(snapshots.getSnapshot()).toBe(store.getSnapshot());
		snapshots.dispose();
		wait.dispose();
	});
});
