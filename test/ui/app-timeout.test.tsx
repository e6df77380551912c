import {afterEach, describe, expect, test} from 'vitest';
import {objectKey} from '../../source/model/plan-tree.js';
import {renderApp} from '../helpers/render-app.js';
import {FakeWait} from '../helpers/fake-wait.js';
import {cleanupUi} from '../helpers/ui.js';
import {mysqlDeploy, snapshotOf, t0} from '../helpers/ui-objects.js';

afterEach(cleanupUi);

const mysql = mysqlDeploy();
const targets = [objectKey(mysql)];

describe('timeout', () => {
	test('the header counts down to the deadline and says what + adds', async () => {
		const wait = new FakeWait({phase: 'waiting', startedAt: t0 - 252_000, deadlineAt: t0 + 348_000});
		const app = renderApp({snapshot: snapshotOf({objects: [mysql]}), targets, wait});
		let frame = await app.waitForFrame(f => f.includes('timeout'));
		expect(frame.split('\n')[0]).toMatch(/elapsed 4:12 · timeout 5:48 \(\+5m\)$/);
		expect(frame.split('\n').at(-1)).toContain('+ extend');
		app.clock.advance(2000);
		frame = await app.waitForFrame(f => f.includes('timeout 5:46'), {what: 'countdown after 2s'});
		expect(frame).toContain('elapsed 4:14');
		wait.set({deadlineAt: t0 + 648_000, extendedMs: 300_000});
		await app.waitForFrame(f => f.includes('timeout 10:46 (+5m, extended 5m)'), {what: 'extended deadline'});
	});

	test('grace: the banner asks, + extends, - retracts, and the exit countdown runs', async () => {
		const wait = new FakeWait({phase: 'grace', startedAt: t0 - 600_000, deadlineAt: t0, graceEndsAt: t0 + 10_000});
		const app = renderApp({snapshot: snapshotOf({objects: [mysql]}), targets, wait});
		const frame = await app.waitForFrame(f => f.includes('Timeout reached'));
		const banner = frame.split('\n').at(-2);
		expect(banner).toBe('⏰ Timeout reached after 10m — press + to wait 5m more, q to quit (exiting with code 3 in 10s)');
		expect(frame.split('\n')[0]).toMatch(/elapsed 10:00 · timeout reached$/);
		app.clock.advance(3000);
		await app.waitForFrame(f => f.includes('exiting with code 3 in 7s'), {what: 'grace countdown'});
		await app.press('+');
		expect(wait.calls).toEqual(['extend']);
		await app.press('-');
		expect(wait.calls).toEqual(['extend', 'retract']);
		// Back to waiting once the session says so.
		wait.set({phase: 'waiting', deadlineAt: t0 + 300_000, extendedMs: 300_000, graceEndsAt: undefined});
		await app.waitForFrame(f => !f.includes('Timeout reached') && f.includes('timeout 4:57'), {what: 'waiting again'});
	});

	test('+ and - work while waiting, in the list and in help too', async () => {
		const wait = new FakeWait({phase: 'waiting', startedAt: t0, deadlineAt: t0 + 60_000});
		const app = renderApp({snapshot: snapshotOf({objects: [mysql]}), wait});
		await app.waitForFrame(f => f.includes('KIND'));
		await app.press('+', '?', '-', '+');
		expect(wait.calls).toEqual(['extend', 'retract', 'extend']);
	});

	test('what we wait for, then the result line when done', async () => {
		const wait = new FakeWait({phase: 'waiting', startedAt: t0, waitingFor: 'waiting for the controller to start restore'});
		const app = renderApp({snapshot: snapshotOf({objects: [mysql]}), targets, wait});
		await app.waitForFrame(f => f.split('\n').at(-2) === '◌ waiting for the controller to start restore');
		wait.set({phase: 'done', result: {exitCode: 1, message: 'restore failed at step restore'}});
		await app.waitForFrame(f => f.split('\n').at(-2) === '✖ restore failed at step restore (exit code 1)', {what: 'failure result'});
		wait.set({phase: 'done', result: {exitCode: 0, message: 'deploy complete in 4m31s'}});
		await app.waitForFrame(f => f.split('\n').at(-2) === '✔ deploy complete in 4m31s (exit code 0)', {what: 'success result'});
		// The user quit: no result line to add.
		wait.set({phase: 'done', result: {exitCode: 130, message: ''}});
		await app.waitForFrame(f => !f.includes('exit code'), {what: 'no result line'});
	});

	test('a fatal source error is shown in the banner line', async () => {
		const app = renderApp({snapshot: snapshotOf({objects: [], fatal: {message: 'instances.kudo.dev is forbidden', exitCode: 4}}), targets});
		await app.waitForFrame(f => f.includes('✖ instances.kudo.dev is forbidden'));
	});
});

describe('connection in the header', () => {
	test('a narrow terminal cuts the header line instead of wrapping it', async () => {
		const connection = {status: 'reconnecting', attempt: 3, lastError: 'connect ECONNREFUSED 127.0.0.1:6443 '.repeat(5)} as const;
		const app = renderApp({snapshot: snapshotOf({objects: [mysql], connection}), targets, columns: 70});
		const frame = await app.waitForFrame(f => f.includes('reconnecting'));
		expect(frame.split('\n')[0]).toMatch(/^planwatch · kind-prod · default · UTC · ↻ reconnecting.*… +elapsed 0:00$/);
		expect(frame.split('\n')[0]!.length).toBeLessThanOrEqual(70);
		expect(frame.split('\n')[1]).toMatch(/^Instance /);
	});

	test.each([
		[{status: 'reconnecting', attempt: 3, lastError: 'connect ECONNREFUSED 127.0.0.1:6443'} as const, '↻ reconnecting (attempt 3: connect ECONNREFUSED 127.0.0.1:6443)'],
		[{status: 'waiting-credentials', plugin: 'kubelogin'} as const, '◌ waiting for credentials (kubelogin)'],
		[{status: 'connecting'} as const, '◌ connecting…'],
		[{status: 'static', label: 'from files'} as const, 'planwatch · kind-prod · default · UTC · from files'],
		[{status: 'static', label: 'kind-prod'} as const, 'planwatch · kind-prod · default · UTC  '],
	])('%o', async (connection, text) => {
		// `connecting…` is what the header says before the first list (once listed it says `listed`).
		const app = renderApp({snapshot: snapshotOf({objects: [mysql], connection, synced: connection.status !== 'connecting'}), targets, columns: 140});
		await app.waitForFrame(f => f.split('\n')[0]!.includes(text));
	});
});
