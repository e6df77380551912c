import {describe, expect, test} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import {adaptActionSet} from '../../source/model/adapt-kanister-action-set.js';
import {adaptInstance} from '../../source/model/adapt-kudo-instance.js';
import type {PlanObject} from '../../source/model/plan-tree.js';
import {waitVerdict} from '../../source/model/wait-rules.js';
import {loadFixtureObject} from '../helpers/fixtures.js';

const second = 1000;
const options = (now: string | number) => ({now: typeof now === 'number' ? now : Date.parse(now), deferGraceMs: 30 * second, staleMs: 10 * 60 * second});

function instance(file: string): PlanObject {
	return adaptInstance(loadFixtureObject(`kudo/${file}`));
}

function actionSet(file: string): PlanObject {
	return adaptActionSet(loadFixtureObject(`kanister/${file}`), () => undefined, []);
}

/** The fixture with its raw object changed by `edit` (a deep copy, the fixture stays as it is). */
function edited(kind: 'kudo' | 'kanister', file: string, edit: (o: any) => void): KubeObject {
	const o = structuredClone(loadFixtureObject(`${kind}/${file}`));
	edit(o);
	return o;
}

describe('KUDO', () => {
	test('a running plan: keep waiting, saying where it is', () => {
		const o = instance('instance-mysql-deploy-in-progress.yaml');
		expect(waitVerdict(o, o, options('2021-06-10T09:14:46Z'))).toEqual({done: false, waitingFor: 'deploy in progress: phase deploy, step init (1/3 steps)'});
	});

	test('a running plan whose status has not been refreshed for longer than staleMs is stale', () => {
		const o = instance('instance-mysql-deploy-in-progress.yaml');
		expect(waitVerdict(o, o, options('2021-06-10T09:24:42Z'))).toEqual({
			done: false,
			waitingFor: 'deploy in progress: phase deploy, step init (1/3 steps) (no update for 10m1s)',
			stale: true,
		});
	});

	test('ERROR is retried: keep waiting', () => {
		const o = instance('instance-kafka-deploy-transient-error.yaml');
		const v = waitVerdict(o, o, options('2021-06-10T12:31:10Z'));
		expect(v.done).toBe(false);
		expect(v.done ? '' : v.waitingFor).toMatch(/^deploy: step service retrying/);
	});

	test('COMPLETE → 0, FATAL_ERROR → 1 at once', () => {
		const ok = instance('instance-mysql-backup-complete.yaml');
		expect(waitVerdict(ok, ok, options(0))).toEqual({done: true, exitCode: 0, summary: 'backup completed'});
		const failed = instance('instance-mysql-restore-fatal-error.yaml');
		const v = waitVerdict(failed, failed, options(0));
		expect(v).toMatchObject({done: true, exitCode: 1});
		expect(v.done && v.summary).toMatch(/^restore failed in phase restore, step restore: Error during execution/);
	});

	test('queued: waiting for the controller, whatever the previous run says', () => {
		const o = instance('instance-mysql-backup-scheduled-not-picked-up.yaml');
		expect(waitVerdict(o, o, options(0))).toEqual({done: false, waitingFor: 'waiting for the controller to start backup'});
		const brandNew = instance('instance-new-queued.yaml');
		expect(waitVerdict(brandNew, brandNew, options(0))).toEqual({done: false, waitingFor: 'waiting for the controller to start deploy'});
	});

	test('uid snapshot: a plan scheduled at the start is done only once its uid changed', () => {
		const baseline = instance('instance-mysql-backup-scheduled-not-picked-up.yaml');
		// planExecution cleared but backup still carries the previous run's uid: that COMPLETE is not this run's.
		const oldRun = instance('instance-mysql-backup-complete.yaml');
		expect(oldRun.wait.kind === 'Instance' && oldRun.wait.queued).toBe(false);
		expect(waitVerdict(oldRun, baseline, options(0))).toEqual({done: false, waitingFor: 'waiting for the controller to start backup'});
		const newRun = adaptInstance(
			edited('kudo', 'instance-mysql-backup-complete.yaml', o => {
				o.status.planStatus.backup.uid = 'c3f2b7de-58a1-4a53-9a3e-0e5d6b7f8a91';
			}),
		);
		expect(waitVerdict(newRun, baseline, options(0))).toEqual({done: true, exitCode: 0, summary: 'backup completed'});
		// Without a baseline (or with an idle one) the same object is simply done.
		expect(waitVerdict(oldRun, undefined, options(0))).toMatchObject({done: true, exitCode: 0});
		expect(waitVerdict(oldRun, oldRun, options(0))).toMatchObject({done: true, exitCode: 0});
	});

	test('a plan that was already running at the start is not held back by the snapshot rule', () => {
		const baseline = instance('instance-mysql-deploy-in-progress.yaml');
		const finished = adaptInstance(
			edited('kudo', 'instance-mysql-deploy-in-progress.yaml', o => {
				o.spec.planExecution = {};
				o.status.planStatus.deploy.status = 'COMPLETE';
			}),
		);
		expect(waitVerdict(finished, baseline, options(0))).toEqual({done: true, exitCode: 0, summary: 'deploy completed'});
	});

	test('nothing ever ran: done, 0', () => {
		const o = instance('instance-missing-status.yaml');
		expect(waitVerdict(o, o, options(0))).toEqual({done: true, exitCode: 0, summary: 'no plan has run'});
	});

	test('scheduled and taken, not started yet: keep waiting', () => {
		const o = adaptInstance({kind: 'Instance', metadata: {name: 'i'}, spec: {planExecution: {planName: 'deploy', uid: 'u'}}, status: {planStatus: {deploy: {status: 'NEVER_RUN', uid: 'u'}}}});
		expect(waitVerdict(o, o, options(0))).toEqual({done: false, waitingFor: 'deploy scheduled, waiting to start'});
	});

	test('an unknown status with nothing scheduled: done, 1', () => {
		const o = instance('instance-unknown-status.yaml');
		expect(waitVerdict(o, o, options(0))).toEqual({done: true, exitCode: 1, summary: 'deploy has unknown status SUSPENDED'});
	});
});

describe('Kanister', () => {
	test('no status yet, pending, running: keep waiting', () => {
		for (const file of ['actionset-mysql-backup-created.yaml', 'actionset-mysql-backup-pending.yaml', 'actionset-mysql-backup-running.yaml']) {
			const o = actionSet(file);
			expect(waitVerdict(o, o, options('2025-06-02T09:57:00Z')), file).toEqual({done: false, waitingFor: o.summary});
		}
	});

	test('running without progress for longer than staleMs is stale (a controller restart leaves it running forever)', () => {
		const o = actionSet('actionset-mysql-backup-running.yaml');
		expect(waitVerdict(o, o, options('2025-06-02T10:10:00Z'))).toEqual({
			done: false,
			waitingFor: 'backup running phase dumpToObjectStore (0%) (no update for 13m22s)',
			stale: true,
		});
	});

	test('complete → 0', () => {
		const o = actionSet('actionset-mysql-backup-complete.yaml');
		expect(waitVerdict(o, o, options(0))).toEqual({done: true, exitCode: 0, summary: 'backup completed; deferPhase recordBackupCompletion completed'});
	});

	test('failed with the deferPhase finished → 1; with the deferPhase running → keep waiting', () => {
		const cleanupRan = actionSet('actionset-postgres-restore-failed-defer-complete.yaml');
		expect(waitVerdict(cleanupRan, cleanupRan, options('2025-06-02T10:20:20Z'))).toMatchObject({done: true, exitCode: 1});
		const deferFailed = actionSet('actionset-postgres-backup-defer-failed.yaml');
		expect(waitVerdict(deferFailed, deferFailed, options('2025-06-02T10:06:48Z'))).toMatchObject({done: true, exitCode: 1});
		const bothFailed = actionSet('actionset-postgres-backup-failed-defer-failed.yaml');
		expect(waitVerdict(bothFailed, bothFailed, options(0))).toMatchObject({done: true, exitCode: 1});
		const cleanupRunning = actionSet('actionset-postgres-restore-failed-defer-running.yaml');
		expect(waitVerdict(cleanupRunning, cleanupRunning, options('2025-06-02T10:20:20Z'))).toEqual({
			done: false,
			waitingFor: 'restore: deferPhase StartupApplication running after failure in phase RestoreFromObjectStore',
		});
	});

	test('failed with a pending deferPhase that shows no sign of starting: grace period, then 1', () => {
		const o = actionSet('actionset-mysql-backup-launch-failed.yaml');
		const created = Date.parse('2025-06-02T11:10:00Z');
		const early = waitVerdict(o, o, options(created + 5 * second));
		expect(early.done).toBe(false);
		expect(early.done ? '' : early.waitingFor).toMatch(/; deferPhase recordBackupCompletion has not started; giving the deferPhase 25s to start$/);
		expect(waitVerdict(o, o, options(created + 31 * second))).toMatchObject({done: true, exitCode: 1, summary: o.summary});
	});

	test('failed to start, or an unknown state: 1', () => {
		const init = actionSet('actionset-init-failed-blueprint-missing.yaml');
		expect(waitVerdict(init, init, options(0))).toMatchObject({done: true, exitCode: 1, summary: init.summary});
		const odd = actionSet('actionset-unknown-state.yaml');
		expect(waitVerdict(odd, odd, options(0))).toEqual({
			done: true,
			exitCode: 1,
			summary: "rejected by Kanister's validation (pkg/validate): Number of actions in status actions and spec must match; the controller will not run it",
		});
	});
});
