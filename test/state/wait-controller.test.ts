import {describe, expect, it} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {Store} from '../../source/state/store.js';
import {createWaitController} from '../../source/state/wait-controller.js';
import {loadFixture, loadFixtureObject} from '../helpers/fixtures.js';

const minute = 60_000;

async function flush(): Promise<void> {
	await new Promise(resolve => {
		setImmediate(resolve);
	});
}

function setup(objects: KubeObject[], options: {timeoutMs?: number; graceMs?: number; targets?: string[]; wait?: boolean; quitCountsFailures?: boolean} = {}) {
	const clock = new FakeClock();
	const store = new Store(clock);
	for (const o of objects) {
		const resource = o.kind === 'Instance' || o.kind === 'OperatorVersion' || o.kind === 'ActionSet' || o.kind === 'Blueprint' ? o.kind : 'Event';
		store.apply({type: 'upsert', resource, object: o});
	}

	store.apply({type: 'synced'});
	const wait = createWaitController({
		store,
		clock,
		wait: options.wait ?? true,
		targets: options.targets ?? [],
		timeoutMs: options.timeoutMs,
		extendMs: 5 * minute,
		graceMs: options.graceMs ?? 0,
		...(options.quitCountsFailures === undefined ? {} : {quitCountsFailures: options.quitCountsFailures}),
	});
	return {clock, store, wait};
}

function withStatus(instance: KubeObject, status: unknown): KubeObject {
	return {...instance, metadata: {...instance.metadata, resourceVersion: String(Math.random())}, status};
}

describe('wait controller', () => {
	it('finishes at once with exit 1 on a KUDO FATAL_ERROR (fail fast)', async () => {
		const {wait} = setup([...loadFixture('kudo/operatorversion-mysql.yaml'), loadFixtureObject('kudo/instance-mysql-restore-fatal-error.yaml')]);
		const result = await wait.done;
		expect(result.exitCode).toBe(1);
		expect(result.message).toMatch(/restore/);
	});

	it('exits 0 when the ActionSet completed with its deferPhase', async () => {
		const {wait} = setup([loadFixtureObject('kanister/actionset-mysql-backup-complete.yaml')]);
		expect((await wait.done).exitCode).toBe(0);
	});

	it('keeps waiting while a plan runs, then times out with 3 and the state at that moment when there is no TTY', async () => {
		const {wait, clock} = setup([...loadFixture('kudo/operatorversion-mysql.yaml'), loadFixtureObject('kudo/instance-mysql-deploy-in-progress.yaml')], {timeoutMs: minute});
		await flush();
		expect(wait.getSnapshot().phase).toBe('waiting');
		clock.advance(minute);
		const result = await wait.done;
		expect(result.exitCode).toBe(3);
		expect(result.message).toMatch(/^timed out after 1m/);
		expect(result.message).toMatch(/mysql-instance/);
	});

	it('offers a grace period in the TUI; + extends from now and the plan can still finish with 0', async () => {
		const deploy = loadFixtureObject('kudo/instance-mysql-deploy-in-progress.yaml');
		const {wait, clock, store} = setup([...loadFixture('kudo/operatorversion-mysql.yaml'), deploy], {timeoutMs: minute, graceMs: 10_000});
		await flush();
		clock.advance(minute);
		expect(wait.getSnapshot().phase).toBe('grace');
		expect(wait.getSnapshot().graceEndsAt).toBe(clock.now() + 10_000);
		clock.advance(3000);
		wait.extend();
		expect(wait.getSnapshot().phase).toBe('waiting');
		expect(wait.getSnapshot().deadlineAt).toBe(clock.now() + 5 * minute);
		// The controller finishes the plan: COMPLETE everywhere, planExecution cleared.
		const status = structuredClone(deploy['status']) as {planStatus: Record<string, {status: string; phases: Array<{status: string; steps: Array<{status: string}>}>}>};
		const plan = status.planStatus['deploy']!;
		plan.status = 'COMPLETE';
		for (const phase of plan.phases) {
			phase.status = 'COMPLETE';
			for (const step of phase.steps) {
				step.status = 'COMPLETE';
			}
		}

		store.apply({type: 'upsert', resource: 'Instance', object: {...withStatus(deploy, status), spec: {...(deploy['spec'] as object), planExecution: {}}}});
		expect((await wait.done).exitCode).toBe(0);
	});

	it('- takes back an extension, never below the original deadline', async () => {
		const {wait} = setup([...loadFixture('kudo/operatorversion-mysql.yaml'), loadFixtureObject('kudo/instance-mysql-deploy-in-progress.yaml')], {timeoutMs: minute});
		await flush();
		const original = wait.getSnapshot().deadlineAt!;
		wait.retract();
		expect(wait.getSnapshot().deadlineAt).toBe(original);
		wait.extend();
		wait.extend();
		expect(wait.getSnapshot().deadlineAt).toBe(original + 10 * minute);
		wait.retract();
		expect(wait.getSnapshot().deadlineAt).toBe(original + 5 * minute);
		expect(wait.getSnapshot().extendedMs).toBe(5 * minute);
	});

	it('the grace period runs out: exit 3', async () => {
		const {wait, clock} = setup([...loadFixture('kudo/operatorversion-mysql.yaml'), loadFixtureObject('kudo/instance-mysql-deploy-in-progress.yaml')], {timeoutMs: minute, graceMs: 10_000});
		await flush();
		clock.advance(minute + 10_000);
		expect((await wait.done).exitCode).toBe(3);
	});

	it('quitting while waiting exits 130', async () => {
		const {wait} = setup([...loadFixture('kudo/operatorversion-mysql.yaml'), loadFixtureObject('kudo/instance-mysql-deploy-in-progress.yaml')]);
		await flush();
		wait.quit();
		expect(await wait.done).toEqual({exitCode: 130, message: 'interrupted while waiting'});
	});

	it('quitting a watch (no --wait) exits 0, even when a watched object failed (the demo\'s tour fails a restore)', async () => {
		const {wait} = setup([...loadFixture('kudo/operatorversion-mysql.yaml'), loadFixtureObject('kudo/instance-mysql-restore-fatal-error.yaml')], {wait: false});
		await flush();
		expect(wait.getSnapshot().phase).toBe('watching');
		wait.quit();
		expect(await wait.done).toEqual({exitCode: 0, message: ''});
	});

	it('quitting the TUI over files still exits 1 for a failed object, as -f -o plain does', async () => {
		const {wait} = setup([...loadFixture('kudo/operatorversion-mysql.yaml'), loadFixtureObject('kudo/instance-mysql-restore-fatal-error.yaml')], {wait: false, quitCountsFailures: true});
		await flush();
		wait.quit();
		expect(await wait.done).toEqual({exitCode: 1, message: ''});
	});

	it('does not report the previous run while the controller has not picked up a triggered plan', async () => {
		const {wait} = setup([...loadFixture('kudo/operatorversion-mysql.yaml'), loadFixtureObject('kudo/instance-mysql-backup-scheduled-not-picked-up.yaml')]);
		await flush();
		expect(wait.getSnapshot().phase).toBe('waiting');
		expect(wait.getSnapshot().waitingFor).toMatch(/controller/);
		wait.dispose();
	});

	it('a fatal source error ends the wait with its exit code', async () => {
		const {wait, store} = setup([...loadFixture('kudo/operatorversion-mysql.yaml'), loadFixtureObject('kudo/instance-mysql-deploy-in-progress.yaml')]);
		store.apply({type: 'fatal', message: 'forbidden: user viewer cannot list actionsets', exitCode: 4});
		expect(await wait.done).toEqual({exitCode: 4, message: 'forbidden: user viewer cannot list actionsets'});
	});

	it('waits for a named target to appear', async () => {
		const {wait} = setup([], {targets: ['Instance/default/mysql-instance']});
		await flush();
		expect(wait.getSnapshot().waitingFor).toBe('waiting for Instance/default/mysql-instance to appear');
		wait.dispose();
	});

	it('gives a pending deferPhase a grace period from the failure planwatch saw, even when the object timestamps are old', async () => {
		const running = loadFixtureObject('kanister/actionset-mysql-backup-running.yaml');
		const {wait, clock, store} = setup([running]);
		await flush();
		const failed = structuredClone(running) as KubeObject & {status: {state: string; error: {message: string}; progress: {runningPhase: string}; actions: Array<{phases: Array<{state: string}>}>}};
		failed.status.state = 'failed';
		failed.status.error = {message: 'boom'};
		failed.status.progress.runningPhase = '';
		failed.status.actions[0]!.phases[0]!.state = 'failed';
		store.apply({type: 'upsert', resource: 'ActionSet', object: failed});
		await flush();
		expect(wait.getSnapshot().phase).toBe('waiting');
		expect(wait.getSnapshot().waitingFor).toMatch(/giving the deferPhase/);
		clock.advance(31_000);
		expect((await wait.done).exitCode).toBe(1);
	});

	it('does not apply the deferPhase grace twice when the object itself says it just failed', async () => {
		const running = loadFixtureObject('kanister/actionset-mysql-backup-running.yaml');
		const {wait, clock, store} = setup([running]);
		await flush();
		const failed = structuredClone(running) as KubeObject
			& {status: {state: string; error: {message: string}; progress: {runningPhase: string; lastTransitionTime: string}; actions: Array<{phases: Array<{state: string}>}>}};
		failed.status.state = 'failed';
		failed.status.error = {message: 'boom'};
		failed.status.progress.runningPhase = '';
		failed.status.progress.lastTransitionTime = new Date(clock.now()).toISOString();
		failed.status.actions[0]!.phases[0]!.state = 'failed';
		store.apply({type: 'upsert', resource: 'ActionSet', object: failed});
		await flush();
		expect(wait.getSnapshot().phase).toBe('waiting');
		clock.advance(31_000);
		expect((await wait.done).exitCode).toBe(1);
	});
});
