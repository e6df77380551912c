/** Each scenario ends the way its name says, checked on the raw fields a controller would have written. */
import {describe, expect, it} from 'vitest';
import {findScenario} from '../../source/scenarios/catalog.js';
import type {KubeObject} from '../../source/core/kube-object.js';
import {at, play, type Played} from './play.js';

function played(name: string): Played {
	const s = findScenario(name);
	if (!s) {
		throw new Error(`no scenario ${name}`);
	}

	return play(s);
}

/** Every observed state of one object, in order. */
function history(p: Played, kind: string, name: string): KubeObject[] {
	return p.changes.filter(c => c.object.kind === kind && c.object.metadata?.name === name).map(c => c.object);
}

function reasons(p: Played, kind: string, name: string): string[] {
	return p.eventsFor(kind, name).map(e => String(e['reason']));
}

const planOf = (o: KubeObject | undefined, plan: string) => at(o, 'status', 'planStatus', plan);
const stepStatuses = (o: KubeObject | undefined, plan: string) =>
	(planOf(o, plan)?.phases ?? []).flatMap((ph: any) => ph.steps.map((s: any) => `${ph.name as string}.${s.name as string}=${s.status as string}`));

const action = (o: KubeObject | undefined) => at(o, 'status', 'actions', 0);
const phaseStates = (o: KubeObject | undefined) => (action(o)?.phases ?? []).map((ph: any) => `${ph.name as string}=${ph.state as string}`);

describe('KUDO scenarios', () => {
	it('mysql-deploy: init goes ERROR with the transient message, is retried, the plan completes', () => {
		const p = played('mysql-deploy');
		const instance = p.get('Instance', 'mysql-instance');
		expect(planOf(instance, 'deploy').status).toBe('COMPLETE');
		expect(stepStatuses(instance, 'deploy')).toEqual(['deploy.deploy=COMPLETE', 'deploy.init=COMPLETE', 'deploy.cleanup=COMPLETE']);
		expect(planOf(instance, 'backup').status).toBe('NEVER_RUN');
		expect(at(instance, 'spec', 'planExecution')).toEqual({});
		expect(at(instance, 'status', 'conditions', 0)).toMatchObject({type: 'Ready', status: 'True', reason: 'ResourcesReady'});
		const seen = history(p, 'Instance', 'mysql-instance').map(o => stepStatuses(o, 'deploy').join(' '));
		const error = seen.findIndex(s => s.includes('deploy.init=ERROR'));
		expect(error).toBeGreaterThan(0);
		expect(seen.slice(error).some(s => s.includes('deploy.init=IN_PROGRESS'))).toBe(true);
		const errored = history(p, 'Instance', 'mysql-instance').find(o => stepStatuses(o, 'deploy').includes('deploy.init=ERROR'));
		expect(planOf(errored, 'deploy').status).toBe('IN_PROGRESS');
		expect(planOf(errored, 'deploy').phases[0].steps[1].message).toMatch(/^A transient error when executing task deploy\.deploy\.init\.init\. Will retry\. jobs\.batch "deploy-job" is forbidden/);
		expect(reasons(p, 'Instance', 'mysql-instance')).toEqual(['PlanStarted']);
	});

	it('mysql-deploy: lastUpdatedTimestamp moves about once a second while the plan runs', () => {
		const p = played('mysql-deploy');
		const stamps = new Set(history(p, 'Instance', 'mysql-instance').map(o => planOf(o, 'deploy')?.lastUpdatedTimestamp).filter(Boolean));
		expect(stamps.size).toBeGreaterThanOrEqual(25);
	});

	it('zookeeper-deploy: the parallel phase runs its three steps at once, then validation runs serially', () => {
		const p = played('zookeeper-deploy');
		const seen = history(p, 'Instance', 'zookeeper-instance').map(o => stepStatuses(o, 'deploy').join(' '));
		expect(seen).toContain('zookeeper.config=IN_PROGRESS zookeeper.services=IN_PROGRESS zookeeper.app=IN_PROGRESS validation.validation=PENDING validation.cleanup=PENDING');
		expect(seen).toContain('zookeeper.config=COMPLETE zookeeper.services=IN_PROGRESS zookeeper.app=IN_PROGRESS validation.validation=PENDING validation.cleanup=PENDING');
		expect(seen).toContain('zookeeper.config=COMPLETE zookeeper.services=COMPLETE zookeeper.app=COMPLETE validation.validation=IN_PROGRESS validation.cleanup=PENDING');
		const instance = p.get('Instance', 'zookeeper-instance');
		expect(planOf(instance, 'deploy').status).toBe('COMPLETE');
		expect(Object.keys(at(instance, 'status', 'planStatus')).sort()).toEqual(['deploy', 'not-allowed', 'validation']);
		expect(at(p.get('OperatorVersion', 'zookeeper-3.6.2-0.3.3'), 'spec', 'plans', 'deploy', 'phases', 0, 'strategy')).toBe('parallel');
	});

	it('kudo-fatal: restore ends FATAL_ERROR with the message on the step only, planExecution cleared', () => {
		const p = played('kudo-fatal');
		const instance = p.get('Instance', 'mysql-orders');
		const restore = planOf(instance, 'restore');
		expect(restore.status).toBe('FATAL_ERROR');
		expect(restore.message).toBeUndefined();
		expect(restore.phases[0].status).toBe('FATAL_ERROR');
		expect(restore.phases[0].message).toBeUndefined();
		expect(restore.phases[0].steps[0]).toMatchObject({name: 'restore', status: 'FATAL_ERROR'});
		expect(restore.phases[0].steps[0].message).toBe(`Error during execution: fatal error: ${p.namespace}/mysql-orders failed in restore.restore.restore.restore: object ${p.namespace}` +
			'/restore-job is NOT healthy: fatal error: HealthUtil: job "restore-job" has failed terminally: Job has reached the specified backoff limit');
		expect(restore.phases[0].steps[1]).toEqual({name: 'cleanup', status: 'PENDING'});
		expect(planOf(instance, 'backup').status).toBe('COMPLETE');
		expect(at(instance, 'spec', 'planExecution')).toEqual({});
		expect(at(instance, 'spec', 'parameters', 'RESTORE_FILE')).toBe('backup-orders-previous.sql');
		expect(at(instance, 'status', 'conditions', 0)).toMatchObject({status: 'Unknown', reason: 'PlanInFatalError'});
		const events = p.eventsFor('Instance', 'mysql-orders');
		expect(events.map(e => [e['type'], e['reason']])).toEqual([['Normal', 'PlanStarted'], ['Warning', 'FailedTerminalStateError']]);
		expect(events[1]!['message']).toBe(restore.phases[0].steps[0].message);
		expect(at(events[1], 'involvedObject', 'uid')).toBe(instance?.metadata?.uid);
	});

	it('kudo-uid-race: for seconds the status shows the previous COMPLETE run under a new planExecution uid', () => {
		const p = played('kudo-uid-race');
		const states = history(p, 'Instance', 'mysql-billing');
		const raced = p.batches.filter(b => {
			const o = b.objects.get('Instance/mysql-billing');
			return at(o, 'spec', 'planExecution', 'planName') === 'backup'
				&& at(o, 'spec', 'planExecution', 'uid') !== planOf(o, 'backup').uid
				&& planOf(o, 'backup').status === 'COMPLETE';
		});
		expect(raced.length).toBeGreaterThan(0);
		const raceMs = p.batches.find(b => b.at > raced.at(-1)!.at)!.at - raced[0]!.at;
		expect(raceMs).toBeGreaterThanOrEqual(4000);
		const newUid = at(raced[0]!.objects.get('Instance/mysql-billing'), 'spec', 'planExecution', 'uid') as string;
		const oldUid = planOf(p.batches[0]!.objects.get('Instance/mysql-billing'), 'backup').uid as string;
		expect(oldUid).toBeTruthy();
		expect(newUid).not.toBe(oldUid);
		const final = p.get('Instance', 'mysql-billing');
		expect(planOf(final, 'backup')).toMatchObject({status: 'COMPLETE', uid: newUid});
		expect(at(final, 'spec', 'planExecution')).toEqual({});
		// Picked up: the same uid, running, before the end.
		expect(states.some(o => planOf(o, 'backup')?.uid === newUid && planOf(o, 'backup')?.status === 'IN_PROGRESS')).toBe(true);
		expect(reasons(p, 'Instance', 'mysql-billing')).toEqual(['PlanStarted']);
	});
});

describe('Kanister scenarios', () => {
	it('mysql-backup: phase, then the deferPhase (still pending while it runs), then complete', () => {
		const p = played('mysql-backup');
		const states = history(p, 'ActionSet', 'backup-rslmb');
		expect(at(states[0], 'status')).toBeUndefined();
		expect(at(states[1], 'status', 'state')).toBe('pending');
		const deferRunning = states.find(o => at(o, 'status', 'progress', 'runningPhase') === 'recordBackupCompletion');
		expect(at(deferRunning, 'status', 'state')).toBe('running');
		expect(action(deferRunning).deferPhase.state).toBe('pending');
		expect(at(deferRunning, 'status', 'progress', 'percentCompleted')).toBe('100');
		const final = p.get('ActionSet', 'backup-rslmb');
		expect(at(final, 'status', 'state')).toBe('complete');
		expect(phaseStates(final)).toEqual(['dumpToObjectStore=complete']);
		expect(action(final).deferPhase).toMatchObject({name: 'recordBackupCompletion', state: 'complete'});
		expect(at(final, 'status', 'progress', 'runningPhase')).toBeUndefined();
		expect(at(final, 'status', 'error', 'message')).toBe('');
		expect(JSON.stringify(action(final).artifacts)).not.toContain('{{');
		expect(action(final).artifacts.mysqlCloudDump.keyValue.completedAt).toBe(action(final).deferPhase.output.completedAt);
		expect(reasons(p, 'ActionSet', 'backup-rslmb')).toEqual(['Started Action', 'Started Phase', 'Ended Phase', 'Started deferPhase', 'Ended deferPhase', 'Update Complete']);
		// No status subresource: every status write is a generation.
		expect(Number(final?.metadata?.['generation'])).toBe(states.length);
	});

	it('backup-defer-failed: five phases complete, the nameless deferPhase fails', () => {
		const p = played('backup-defer-failed');
		const final = p.get('ActionSet', 'backup-glptq');
		expect(at(final, 'status', 'state')).toBe('failed');
		expect(phaseStates(final)).toEqual(['createBackupPod=complete', 'waitForPodReady=complete', 'startBackup=complete', 'copyFiles=complete', 'stopBackup=complete']);
		expect(action(final).deferPhase).toMatchObject({name: '', state: 'failed'});
		expect(at(final, 'status', 'error', 'message')).toBe('pods "postgres-backup-sessionq7w4k" not found');
		expect(at(final, 'status', 'progress', 'percentCompleted')).toBe('100');
		expect(at(final, 'status', 'progress', 'runningPhase')).toBeUndefined();
		expect(JSON.stringify(action(final).artifacts)).toContain('{{ .Phases.copyFiles.Output.backupID }}');
		const percents = [...new Set(history(p, 'ActionSet', 'backup-glptq').map(o => at(o, 'status', 'progress', 'percentCompleted')).filter(Boolean))];
		// createBackupPod ends before the first 5 s progress poll, so the first percent written is 20.
		expect(percents).toEqual(['20', '40', '60', '80', '100']);
		const r = reasons(p, 'ActionSet', 'backup-glptq');
		expect(r.at(-2)).toBe('Started deferPhase');
		expect(r.at(-1)).toBe('ActionSetFailed Action: backup');
		expect(p.eventsFor('ActionSet', 'backup-glptq').at(-2)!['message']).toBe('Executing deferPhase ');
		expect(reasons(p, 'Blueprint', 'postgres-bp')).toEqual(['ActionSetFailed Action: backup']);
	});

	it('postgres-restore-failed: failed at once, the deferPhase then completes and runningPhase stays set', () => {
		const p = played('postgres-restore-failed');
		const states = history(p, 'ActionSet', 'restore-backup-glptq-6jzt4');
		const failedAt = states.findIndex(o => at(o, 'status', 'state') === 'failed');
		expect(action(states[failedAt]).deferPhase.state).toBe('pending');
		const cleaning = states.slice(failedAt).find(o => at(o, 'status', 'progress', 'runningPhase') === 'StartupApplication');
		expect(at(cleaning, 'status', 'state')).toBe('failed');
		expect(action(cleaning).deferPhase.state).toBe('pending');
		const final = p.get('ActionSet', 'restore-backup-glptq-6jzt4');
		expect(at(final, 'status', 'state')).toBe('failed');
		expect(phaseStates(final)).toEqual(['ShutdownApplication=complete', 'RestoreFromObjectStore=failed']);
		expect(action(final).deferPhase).toMatchObject({name: 'StartupApplication', state: 'complete', output: {originalReplicaCount: 0}});
		expect(at(final, 'status', 'progress')).toMatchObject({runningPhase: 'StartupApplication', percentCompleted: '50'});
		expect(at(final, 'status', 'error', 'message')).toBe('null: Failed to restore backup: command terminated with exit code 1');
		expect(at(final, 'spec', 'actions', 0, 'artifacts', 'cloudObject', 'keyValue', 'backupTag')).toBe('t9xq2m7kpl');
		expect(reasons(p, 'ActionSet', 'restore-backup-glptq-6jzt4')).toEqual([
			'Started Action',
			'Started Phase',
			'Ended Phase',
			'Started Phase',
			'ActionSetFailed Action: restore',
			'Started deferPhase',
			'Ended deferPhase',
		]);
	});

	it('restore-defer-both-failed: the phase fails, the deferPhase fails too, runningPhase cleared', () => {
		const p = played('restore-defer-both-failed');
		const final = p.get('ActionSet', 'restore-backup-glptq-m4k8v');
		expect(at(final, 'status', 'state')).toBe('failed');
		expect(phaseStates(final)).toEqual(['ShutdownApplication=complete', 'RestoreFromObjectStore=failed']);
		expect(action(final).deferPhase).toMatchObject({name: 'StartupApplication', state: 'failed'});
		expect(at(final, 'status', 'progress', 'runningPhase')).toBeUndefined();
		expect(at(final, 'status', 'error', 'message')).toMatch(/^Failed while waiting for statefulset/);
		const failures = p.eventsFor('ActionSet', 'restore-backup-glptq-m4k8v').filter(e => e['type'] === 'Warning').map(e => String(e['message']));
		expect(failures).toHaveLength(2);
		expect(failures[0]).toMatch(/^Failed to execute phase: v1alpha1\.Phase\{Name:"RestoreFromObjectStore"/);
		expect(failures[1]).toMatch(/^Failed to execute defer phase: v1alpha1\.Phase\{Name:"StartupApplication"/);
	});

	it('actionset-start-failed: failed at launch, first phase failed, the deferPhase pending for good', () => {
		const p = played('actionset-start-failed');
		const final = p.get('ActionSet', 'backup-mx7pd');
		expect(at(final, 'status', 'state')).toBe('failed');
		expect(phaseStates(final)).toEqual(['dumpToObjectStore=failed']);
		expect(action(final).deferPhase).toMatchObject({name: 'recordBackupCompletion', state: 'pending'});
		expect(at(final, 'status', 'progress')).toEqual({});
		expect(at(final, 'status', 'error', 'message')).toBe('Failed to get StatefulSet: statefulsets.apps "mysql-relase" not found');
		expect(reasons(p, 'ActionSet', 'backup-mx7pd')).toEqual(['Started Action', 'ActionSetFailed Action: backup']);
		expect(p.eventsFor('ActionSet', 'backup-mx7pd')[1]!['message']).toBe('Failed to launch Action backup-mx7pd: Failed to get StatefulSet: statefulsets.apps "mysql-relase" not found');
	});
});

describe('combined scenarios', () => {
	it('many: thirty objects, mixed outcomes, all finished', () => {
		const p = played('many');
		const instances = p.cluster.list('Instance');
		const actionSets = p.cluster.list('ActionSet');
		expect(instances).toHaveLength(12);
		expect(actionSets).toHaveLength(18);
		const deploy = instances.map(o => planOf(o, 'deploy').status as string);
		expect(deploy.filter(s => s === 'FATAL_ERROR')).toHaveLength(1);
		expect(deploy.filter(s => s === 'COMPLETE')).toHaveLength(11);
		const sawError = p.changes.some(c => c.resource === 'Instance' && stepStatuses(c.object, 'deploy').some((s: string) => s.endsWith('=ERROR')));
		expect(sawError).toBe(true);
		const outcomes = actionSets.map(o => `${at(o, 'status', 'state') as string}/${action(o).deferPhase.state as string}`);
		expect(new Set(outcomes)).toEqual(new Set(['complete/complete', 'failed/failed', 'failed/complete']));
		// Everything overlaps: at some moment most objects are in flight.
		const busiest = Math.max(...p.batches.map(b =>
			[...b.objects.values()].filter(o => at(o, 'status', 'state') === 'running' || Object.values(at(o, 'status', 'planStatus') ?? {}).some((pl: any) => pl.status === 'IN_PROGRESS')).length));
		expect(busiest).toBeGreaterThanOrEqual(15);
	});

	it('tour: the four demo objects, staggered, ending as their own scenarios end', () => {
		const p = played('tour');
		const created = p.changes.filter(c =>
			c.type === 'upsert' && (c.resource === 'Instance' || c.resource === 'ActionSet') && c.object.metadata?.generation === 1 && c.object['status'] === undefined);
		expect(created.map(c => c.object.metadata?.name)).toEqual(['mysql-instance', 'backup-rslmb', 'zookeeper-instance', 'restore-backup-glptq-6jzt4']);
		const firstMinute = p.batches.filter(b => b.at < 60_000).length;
		expect(firstMinute).toBe(p.batches.length);
		// Something changes at least every two seconds until the end: it looks alive.
		for (let i = 1; i < p.batches.length; i++) {
			expect(p.batches[i]!.at - p.batches[i - 1]!.at).toBeLessThanOrEqual(2000);
		}

		expect(planOf(p.get('Instance', 'mysql-instance'), 'deploy').status).toBe('COMPLETE');
		expect(planOf(p.get('Instance', 'zookeeper-instance'), 'deploy').status).toBe('COMPLETE');
		expect(at(p.get('ActionSet', 'backup-rslmb'), 'status', 'state')).toBe('complete');
		expect(at(p.get('ActionSet', 'restore-backup-glptq-6jzt4'), 'status', 'state')).toBe('failed');
		expect(action(p.get('ActionSet', 'restore-backup-glptq-6jzt4')).deferPhase.state).toBe('complete');
		expect(p.cluster.list('OperatorVersion').map(o => o.metadata?.name).sort()).toEqual(['mysql-5.7-0.3.0', 'zookeeper-3.6.2-0.3.3']);
	});
});
