import {describe, expect, it} from 'vitest';
import type {KanisterWaitFacts, KudoWaitFacts, PlanNode, PlanObject} from '../../source/model/plan-tree.js';
import {deletedVerdict, waitVerdict, type WaitVerdict} from '../../source/model/wait-rules.js';
import {kudoCleanupFinalizer} from '../../source/model/deletion.js';

/*
 * The wait rule as a table over the facts the adapters hand it (test/model/wait-rules.test.ts goes through the
 * adapters from fixtures): each row pins one condition, so removing or weakening it changes an answer a user
 * sees — the exit code, or whether the wait goes on.
 */

const second = 1000;
const now = Date.parse('2026-01-01T00:10:00Z');
const ago = (ms: number): string => new Date(now - ms).toISOString();
const options = {now, deferGraceMs: 30 * second, staleMs: 60 * second};

function kudo(facts: Partial<KudoWaitFacts>, over: Partial<PlanObject> = {}): PlanObject {
	return {
		kind: 'Instance', namespace: 'ns', name: 'i', outcome: 'running', summary: 'deploy in progress', state: 'running', status: 'IN_PROGRESS', tree: [],
		updatedAt: ago(second),
		...over,
		wait: {kind: 'Instance', scheduledPlan: '', scheduledUid: '', planUids: {deploy: 'u1'}, activePlan: 'deploy', activeStatus: 'IN_PROGRESS', queued: false, ...facts},
	};
}

function kanister(facts: Partial<KanisterWaitFacts>, over: Partial<PlanObject> = {}): PlanObject {
	return {
		kind: 'ActionSet', namespace: 'ns', name: 'as', outcome: 'running', summary: 'backup running phase dump', state: 'running', status: 'running', tree: [],
		...over,
		wait: {kind: 'ActionSet', state: 'running', deferPending: false, deferRunning: false, runningPhase: '', lastProgressAt: ago(second), ...facts},
	};
}

const wait = (waitingFor: string): WaitVerdict => ({done: false, waitingFor});
const stale = (waitingFor: string): WaitVerdict => ({done: false, waitingFor, stale: true});
const done = (exitCode: 0 | 1, summary: string): WaitVerdict => ({done: true, exitCode, summary});

describe('waitVerdict: KUDO', () => {
	// The picture when the wait began: nothing scheduled, the last run of deploy (uid u1) complete.
	const idleAtStart = kudo({activeStatus: 'COMPLETE'});
	// backup scheduled (uid u2) but not picked up yet: its planStatus still has the previous run's uid u0.
	const queuedAtStart = kudo({scheduledPlan: 'backup', scheduledUid: 'u2', planUids: {backup: 'u0'}, activePlan: 'backup', activeStatus: 'COMPLETE', queued: true});

	it.each<[string, PlanObject, PlanObject | undefined, WaitVerdict]>([
		[
			'scheduled and not picked up: wait for the controller, whatever the last run says',
			kudo({scheduledPlan: 'backup', activePlan: 'backup', activeStatus: 'COMPLETE', queued: true}),
			undefined,
			wait('waiting for the controller to start backup'),
		],
		[
			'scheduled after the wait began (idle at the start): the previous COMPLETE is not this run',
			kudo({scheduledPlan: 'backup', scheduledUid: 'u2', planUids: {backup: 'u0'}, activePlan: 'backup', activeStatus: 'COMPLETE', queued: true}),
			idleAtStart,
			wait('waiting for the controller to start backup'),
		],
		[
			'scheduled after the wait began, the previous run FATAL_ERROR: not this run either',
			kudo({scheduledPlan: 'backup', activePlan: 'backup', activeStatus: 'FATAL_ERROR', queued: true}),
			idleAtStart,
			wait('waiting for the controller to start backup'),
		],
		[
			'queued at the start, spec cleared, the uid unchanged: still the previous run',
			kudo({planUids: {backup: 'u0'}, activePlan: 'backup', activeStatus: 'COMPLETE'}, {summary: 'backup completed'}),
			queuedAtStart,
			wait('waiting for the controller to start backup'),
		],
		[
			'queued at the start, the uid changed: this run completed',
			kudo({planUids: {backup: 'u2'}, activePlan: 'backup', activeStatus: 'COMPLETE'}, {summary: 'backup completed'}),
			queuedAtStart,
			done(0, 'backup completed'),
		],
		[
			'queued at the start, the uid changed: this run failed',
			kudo({planUids: {backup: 'u2'}, activePlan: 'backup', activeStatus: 'FATAL_ERROR'}, {summary: 'backup failed'}),
			queuedAtStart,
			done(1, 'backup failed'),
		],
		[
			'a baseline that was not queued holds nothing back',
			kudo({planUids: {backup: 'u0'}, activePlan: 'backup', activeStatus: 'COMPLETE'}, {summary: 'backup completed'}),
			kudo({planUids: {backup: 'u0'}, scheduledPlan: 'backup', queued: false}),
			done(0, 'backup completed'),
		],
		['a baseline of another kind holds nothing back', kudo({activeStatus: 'COMPLETE'}, {summary: 'deploy completed'}), kanister({}), done(0, 'deploy completed')],
		['no plan at all: done, 0', kudo({activePlan: undefined, activeStatus: undefined}), undefined, done(0, 'no plan has run')],
		['COMPLETE: 0 with the summary', kudo({activeStatus: 'COMPLETE'}, {summary: 'deploy completed'}), undefined, done(0, 'deploy completed')],
		['FATAL_ERROR: 1 at once', kudo({activeStatus: 'FATAL_ERROR'}, {summary: 'deploy failed in phase p'}), undefined, done(1, 'deploy failed in phase p')],
		[
			'FATAL_ERROR while something else is scheduled: still 1',
			kudo({activeStatus: 'FATAL_ERROR', scheduledPlan: 'deploy', scheduledUid: 'u1'}, {summary: 'deploy failed'}),
			undefined,
			done(1, 'deploy failed'),
		],
		['PENDING: wait', kudo({activeStatus: 'PENDING'}, {summary: 'deploy pending (0/3 steps)'}), undefined, wait('deploy pending (0/3 steps)')],
		['IN_PROGRESS: wait', kudo({activeStatus: 'IN_PROGRESS'}), undefined, wait('deploy in progress')],
		['ERROR is retried: wait', kudo({activeStatus: 'ERROR'}, {summary: 'deploy retrying'}), undefined, wait('deploy retrying')],
		['running with no update for longer than staleMs: stale', kudo({}, {updatedAt: ago(61 * second)}), undefined, stale('deploy in progress (no update for 1m1s)')],
		['running with no update for exactly staleMs: not yet stale', kudo({}, {updatedAt: ago(60 * second)}), undefined, wait('deploy in progress')],
		['running, never updated: not stale', kudo({}, {updatedAt: undefined}), undefined, wait('deploy in progress')],
		[
			'NEVER_RUN, taken by the controller, nothing run yet: wait',
			kudo({scheduledPlan: 'deploy', scheduledUid: 'u1', activeStatus: 'NEVER_RUN'}, {summary: 'deploy scheduled, waiting to start'}),
			undefined,
			wait('deploy scheduled, waiting to start'),
		],
		['a word KUDO does not have while a plan is scheduled: wait', kudo({scheduledPlan: 'deploy', scheduledUid: 'u1', activeStatus: 'SUSPENDED'}), undefined, wait('deploy in progress')],
		['NEVER_RUN with nothing scheduled: done, 0 (nothing ran, nothing will)', kudo({activeStatus: 'NEVER_RUN'}), undefined, done(0, 'no plan has run')],
		['no status word with nothing scheduled: done, 0', kudo({activeStatus: undefined}), undefined, done(0, 'no plan has run')],
		[
			'a word KUDO does not have, nothing scheduled: 1 (waiting will not make it COMPLETE)',
			kudo({activeStatus: 'SUSPENDED'}, {summary: 'deploy has unknown status SUSPENDED'}),
			undefined,
			done(1, 'deploy has unknown status SUSPENDED'),
		],
	])('%s', (_, object, baseline, want) => {
		expect(waitVerdict(object, baseline, options)).toEqual(want);
	});

	it('staleMs 0 turns the stale flag off', () => {
		expect(waitVerdict(kudo({}, {updatedAt: ago(3600 * second)}), undefined, {...options, staleMs: 0})).toEqual(wait('deploy in progress'));
	});
});

describe('waitVerdict: Kanister', () => {
	it.each<[string, PlanObject, WaitVerdict]>([
		['no status yet: wait', kanister({state: ''}, {summary: 'waiting for the controller to start it'}), wait('waiting for the controller to start it')],
		['pending: wait', kanister({state: 'pending'}, {summary: 'backup pending'}), wait('backup pending')],
		['running: wait', kanister({}), wait('backup running phase dump')],
		['running, no progress for longer than staleMs: stale', kanister({lastProgressAt: ago(61 * second)}), stale('backup running phase dump (no update for 1m1s)')],
		[
			'pending, no progress for longer than staleMs: stale',
			kanister({state: 'pending', lastProgressAt: ago(120 * second)}, {summary: 'backup pending'}),
			stale('backup pending (no update for 2m)'),
		],
		['running, no progress time at all: not stale', kanister({lastProgressAt: undefined}), wait('backup running phase dump')],

		['complete: 0', kanister({state: 'complete'}, {summary: 'backup completed'}), done(0, 'backup completed')],
		['complete but inconsistent: 1', kanister({state: 'complete', inconsistent: 'phase dump of action backup is running'}, {summary: 'inconsistent status'}), done(1, 'inconsistent status')],
		[
			'complete while another action\'s deferPhase runs: wait',
			kanister({state: 'complete', deferRunning: true, deferPending: true}, {summary: 'restore: all phases complete; deferPhase cleanup running'}),
			wait('restore: all phases complete; deferPhase cleanup running'),
		],
		[
			'complete, a deferPhase running with no progress for long: stale',
			kanister({state: 'complete', deferRunning: true, lastProgressAt: ago(90 * second)}, {summary: 's'}),
			stale('s (no update for 1m30s)'),
		],
		[
			'complete, a deferPhase pending, 10 s since the last progress: its grace period',
			kanister({state: 'complete', deferPending: true, lastProgressAt: ago(10 * second)}, {summary: 's'}),
			wait('s; giving the deferPhase 20s to start'),
		],
		[
			'complete, a deferPhase pending, the grace period over: 1, it never started',
			kanister({state: 'complete', deferPending: true, lastProgressAt: ago(30 * second)}, {summary: 's'}),
			done(1, 's; the deferPhase never started'),
		],
		[
			'complete, a deferPhase pending, no progress time: 1 at once',
			kanister({state: 'complete', deferPending: true, lastProgressAt: undefined}, {summary: 's'}),
			done(1, 's; the deferPhase never started'),
		],

		['failed: 1', kanister({state: 'failed'}, {summary: 'backup failed in phase dump'}), done(1, 'backup failed in phase dump')],
		[
			'failed, its deferPhase running: wait',
			kanister({state: 'failed', deferRunning: true, deferPending: true}, {summary: 'cleanup running after failure'}),
			wait('cleanup running after failure'),
		],
		[
			'failed, its deferPhase running with no progress for long: stale',
			kanister({state: 'failed', deferRunning: true, lastProgressAt: ago(61 * second)}, {summary: 'f'}),
			stale('f (no update for 1m1s)'),
		],
		[
			'failed, its deferPhase pending, 5 s since the last progress: its grace period',
			kanister({state: 'failed', deferPending: true, lastProgressAt: ago(5 * second)}, {summary: 'f'}),
			wait('f; giving the deferPhase 25s to start'),
		],
		['failed, its deferPhase pending, the grace period over: 1', kanister({state: 'failed', deferPending: true, lastProgressAt: ago(31 * second)}, {summary: 'f'}), done(1, 'f')],
		['failed, its deferPhase pending, no progress time: 1 at once', kanister({state: 'failed', deferPending: true, lastProgressAt: undefined}, {summary: 'f'}), done(1, 'f')],

		[
			'rejected by Kanister\'s validation, even while it says running: 1 at once',
			kanister({rejected: 'Action has unknown state \'x\''}, {summary: 'rejected by Kanister\'s validation'}),
			done(1, 'rejected by Kanister\'s validation'),
		],
		['a state Kanister does not have: 1', kanister({state: 'attemptfailed'}, {summary: 'ActionSet has unknown state attemptfailed'}), done(1, 'ActionSet has unknown state attemptfailed')],
		[
			'a state Kanister does not have, even with a deferPhase running: 1',
			kanister({state: 'Complete', deferRunning: true}, {summary: 'ActionSet has unknown state Complete'}),
			done(1, 'ActionSet has unknown state Complete'),
		],
	])('%s', (_, object, want) => {
		expect(waitVerdict(object, undefined, options)).toEqual(want);
	});
});

describe('deletedVerdict: a target deleted while waited for', () => {
	const held = {deletion: {since: ago(second), finalizers: ['other', kudoCleanupFinalizer]}};
	const cleanup = (activeStatus: string): Partial<KudoWaitFacts> => ({activePlan: 'cleanup', activeStatus, planUids: {cleanup: 'c1'}});
	it.each<[string, PlanObject, WaitVerdict]>([
		[
			'an Instance released by KUDO\'s cleanup finalizer while cleanup ran: its cleanup succeeded, 0',
			kudo(cleanup('IN_PROGRESS'), {summary: 'cleanup in progress', ...held}),
			done(0, 'deleted after its cleanup plan finished (KUDO lets it go only then); last seen: cleanup in progress'),
		],
		[
			'... and when cleanup was last seen COMPLETE: 0 the same way',
			kudo(cleanup('COMPLETE'), {summary: 'cleanup completed', ...held}),
			done(0, 'deleted after its cleanup plan finished (KUDO lets it go only then); last seen: cleanup completed'),
		],
		['... but not when cleanup had failed: 1', kudo(cleanup('FATAL_ERROR'), {summary: 'cleanup failed', ...held}), done(1, 'deleted after it had finished: cleanup failed')],
		[
			'held by the finalizer while another plan ran: deleted before it finished, 1',
			kudo({}, {summary: 'deploy in progress', ...held}),
			done(1, 'deleted before it finished; last seen: deploy in progress'),
		],
		[
			'cleanup running without the finalizer: deleted before it finished, 1',
			kudo(cleanup('IN_PROGRESS'), {summary: 'cleanup in progress', deletion: {finalizers: ['other']}}),
			done(1, 'deleted before it finished; last seen: cleanup in progress'),
		],
		[
			'cleanup running, no deletion recorded: deleted before it finished, 1',
			kudo(cleanup('IN_PROGRESS'), {summary: 'cleanup in progress'}),
			done(1, 'deleted before it finished; last seen: cleanup in progress'),
		],
		['an Instance that had completed: its verdict, 0', kudo({activeStatus: 'COMPLETE'}, {summary: 'deploy completed'}), done(0, 'deleted after it had finished: deploy completed')],
		['an Instance that had failed: its verdict, 1', kudo({activeStatus: 'FATAL_ERROR'}, {summary: 'deploy failed'}), done(1, 'deleted after it had finished: deploy failed')],
		['an ActionSet cancelled by deleting it while it ran: 1', kanister({}, {...held}), done(1, 'deleted before it finished; last seen: backup running phase dump')],
		['an ActionSet that had completed: 0', kanister({state: 'complete'}, {summary: 'backup completed'}), done(0, 'deleted after it had finished: backup completed')],
	])('%s', (_, object, want) => {
		expect(deletedVerdict(object, undefined, options)).toEqual(want);
	});

	// `--plan P`: P is what was waited for. The recording delete-while-running (test/fixtures/kudo-recorded/): the
	// manager replaced the running `stuck` by `cleanup`, which left `stuck` IN_PROGRESS, and let the Instance go.
	const plans = (stuck: string, cleanupStatus: string): PlanNode[] => ['cleanup', 'deploy', 'stuck'].map(n => ({
		id: n, kind: 'plan', name: n, status: n === 'stuck' ? stuck : n === 'cleanup' ? cleanupStatus : 'COMPLETE', state: 'unknown', children: [],
	}));
	const replaced = (stuck: string, cleanupStatus = 'IN_PROGRESS'): PlanObject => kudo(
		{...cleanup(cleanupStatus), planStatuses: {cleanup: cleanupStatus, deploy: 'COMPLETE', stuck}},
		{summary: `cleanup ${cleanupStatus === 'COMPLETE' ? 'completed' : 'in progress'}`, tree: plans(stuck, cleanupStatus), ...held},
	);
	it.each<[string, PlanObject, string | undefined, WaitVerdict]>([
		['no --plan: the cleanup\'s success, 0', replaced('IN_PROGRESS'), undefined, done(0, 'deleted after its cleanup plan finished (KUDO lets it go only then); last seen: cleanup in progress')],
		['--plan stuck, replaced by cleanup before it finished: 1, the plan named', replaced('IN_PROGRESS'), 'stuck', done(1, 'deleted before plan stuck finished; last seen: stuck in progress')],
		['--plan stuck, cleanup last seen COMPLETE: still 1', replaced('IN_PROGRESS', 'COMPLETE'), 'stuck', done(1, 'deleted before plan stuck finished; last seen: stuck in progress')],
		['--plan stuck, which had completed before the deletion: 0', replaced('COMPLETE'), 'stuck', done(0, 'deleted after it had finished: stuck completed')],
		['--plan stuck, which had failed before the deletion: 1', replaced('FATAL_ERROR'), 'stuck', done(1, 'deleted after it had finished: stuck failed')],
		['--plan deploy, which had completed: 0', replaced('IN_PROGRESS'), 'deploy', done(0, 'deleted after it had finished: deploy completed')],
		[
			'--plan cleanup: the cleanup\'s success, 0',
			replaced('IN_PROGRESS'),
			'cleanup',
			done(0, 'deleted after its cleanup plan finished (KUDO lets it go only then); last seen: cleanup in progress'),
		],
		['--plan with an ActionSet: the plan is no concern, its last state decides', kanister({}, {...held}), 'stuck', done(1, 'deleted before it finished; last seen: backup running phase dump')],
	])('%s', (_, object, plan, want) => {
		expect(deletedVerdict(object, undefined, {...options, ...(plan === undefined ? {} : {plan})})).toEqual(want);
	});

	it('--plan names a plan that never ran: deleted before it finished, 1', () => {
		const object = replaced('NEVER_RUN');
		expect(deletedVerdict(object, undefined, {...options, plan: 'stuck'})).toEqual(done(
			1,
			'deleted before plan stuck finished; last seen: waiting for plan stuck to be triggered (it has not run yet)',
		));
	});

	it('judges the last state against the baseline: a plan queued at the start that never ran was not finished', () => {
		const queuedAtStart = kudo({scheduledPlan: 'backup', scheduledUid: 'u2', planUids: {backup: 'u0'}, activePlan: 'backup', activeStatus: 'COMPLETE', queued: true});
		const oldRun = kudo({planUids: {backup: 'u0'}, activePlan: 'backup', activeStatus: 'COMPLETE'}, {summary: 'backup completed'});
		expect(deletedVerdict(oldRun, queuedAtStart, options)).toEqual(done(1, 'deleted before it finished; last seen: backup completed'));
	});
});

describe('waitVerdict: KUDO, an Instance it cannot read', () => {
	it('is 1 with the reason, whatever else it says', () => {
		expect(waitVerdict(kudo({unreadable: 'kudo.dev/v1alpha1 Instance of KUDO before 0.6: not supported', activeStatus: 'COMPLETE'}), undefined, options)).toEqual(done(
			1,
			'kudo.dev/v1alpha1 Instance of KUDO before 0.6: not supported',
		));
		expect(waitVerdict(kudo({unreadable: 'unreadable'}), undefined, {...options, plan: 'deploy'})).toEqual(done(1, 'unreadable'));
	});
});

describe('waitVerdict: KUDO with --plan NAME', () => {
	const step = (name: string, status: string, message?: string): PlanNode => ({id: name, kind: 'step', name, status, state: 'unknown', ...(message ? {message} : {}), children: []});
	const phase = (name: string, steps: PlanNode[], status = 'IN_PROGRESS'): PlanNode => ({id: name, kind: 'phase', name, status, state: 'unknown', children: steps});
	const plan = (name: string, status: string, children: PlanNode[] = [], extra: Partial<PlanNode> = {}): PlanNode => ({id: name, kind: 'plan', name, status, state: 'unknown', children, ...extra});
	const withPlans = (tree: PlanNode[], facts: Partial<KudoWaitFacts> = {}, over: Partial<PlanObject> = {}): PlanObject =>
		kudo({activePlan: 'deploy', activeStatus: 'COMPLETE', ...facts}, {summary: 'deploy completed', tree, ...over});
	const both = (backup: string, extra: Partial<PlanNode> = {}, backupChildren: PlanNode[] = []): PlanNode[] => [plan('backup', backup, backupChildren, extra), plan('deploy', 'COMPLETE')];
	const byPlan = (plan: string) => ({...options, plan});
	it.each<[string, PlanObject, PlanObject | undefined, WaitVerdict]>([
		['no plan known yet: wait for it to run', withPlans([]), undefined, wait('waiting for plan backup to run (no plan of this Instance is known yet)')],
		[
			'a plan the Instance does not have: 1, its plans named',
			withPlans([plan('deploy', 'COMPLETE'), {...plan('x', 'COMPLETE'), kind: 'phase'}, plan('cleanup', 'NEVER_RUN')]),
			undefined,
			done(1, 'no plan backup in this Instance (its plans: deploy, cleanup)'),
		],
		['a phase of that name is no plan', withPlans([plan('deploy', 'COMPLETE', [phase('backup', [])])]), undefined, done(1, 'no plan backup in this Instance (its plans: deploy)')],
		['scheduled and not taken: wait for the controller', withPlans(both('COMPLETE'), {scheduledPlan: 'backup', queued: true}), undefined, wait('waiting for the controller to start backup')],
		[
			'another plan scheduled and not taken: the named plan\'s own run decides',
			withPlans(both('COMPLETE'), {scheduledPlan: 'deploy', queued: true, planStatuses: {backup: 'COMPLETE'}}),
			undefined,
			done(0, 'backup completed'),
		],
		[
			'scheduled at the start, not yet taken (same uid): the status shown is the previous run\'s',
			withPlans(both('COMPLETE'), {planUids: {backup: 'u0'}}),
			withPlans(both('COMPLETE'), {scheduledPlan: 'backup', queued: true, planUids: {backup: 'u0'}}),
			wait('waiting for the controller to start backup'),
		],
		[
			'scheduled at the start, taken since (new uid): its status decides',
			withPlans(both('COMPLETE'), {planUids: {backup: 'u2'}}),
			withPlans(both('COMPLETE'), {scheduledPlan: 'backup', queued: true, planUids: {backup: 'u0'}}),
			done(0, 'backup completed'),
		],
		[
			'another plan was scheduled at the start: no hold',
			withPlans(both('COMPLETE'), {planUids: {deploy: 'u0'}}),
			withPlans(both('COMPLETE'), {scheduledPlan: 'deploy', queued: true, planUids: {deploy: 'u0'}}),
			done(0, 'backup completed'),
		],
		[
			'not queued at the start: no hold',
			withPlans(both('COMPLETE'), {planUids: {backup: 'u0'}}),
			withPlans(both('COMPLETE'), {scheduledPlan: 'backup', queued: false, planUids: {backup: 'u0'}}),
			done(0, 'backup completed'),
		],
		[
			'the active plan, decided: the Instance\'s own summary',
			withPlans(both('COMPLETE'), {activePlan: 'backup', planStatuses: {backup: 'COMPLETE'}}, {summary: 'backup completed (from the object)'}),
			undefined,
			done(0, 'backup completed (from the object)'),
		],
		[
			'the active plan, but which ran last is undecided: the plan\'s own line',
			withPlans(both('COMPLETE'), {activePlan: 'backup', undecided: {candidates: ['backup', 'deploy'], reason: 'order unknown'}}, {summary: 'order unknown; backup completed'}),
			undefined,
			done(0, 'backup completed'),
		],
		['the status from planStatuses before the node\'s', withPlans(both('IN_PROGRESS'), {planStatuses: {backup: 'FATAL_ERROR'}}), undefined, done(1, 'backup failed')],
		[
			'FATAL_ERROR: 1, where and why',
			withPlans(both('FATAL_ERROR', {message: 'plan message'}, [phase('p1', [step('ok', 'COMPLETE'), step('s1', 'FATAL_ERROR', 'disk full')])])),
			undefined,
			done(1, 'backup failed in phase p1, step s1: disk full'),
		],
		[
			'FATAL_ERROR with no failed step: the plan\'s message',
			withPlans(both('FATAL_ERROR', {message: 'plan message'}, [phase('p1', [step('s1', 'COMPLETE')])])),
			undefined,
			done(1, 'backup failed: plan message'),
		],
		[
			'FATAL_ERROR, a failed step without a message: the step, the plan\'s message',
			withPlans(both('FATAL_ERROR', {message: 'plan message'}, [phase('p1', [step('s1', 'FATAL_ERROR')])])),
			undefined,
			done(1, 'backup failed in phase p1, step s1: plan message'),
		],
		['FATAL_ERROR, nothing more known', withPlans(both('FATAL_ERROR')), undefined, done(1, 'backup failed')],
		['IN_PROGRESS: wait', withPlans(both('IN_PROGRESS')), undefined, wait('backup in progress')],
		['PENDING: wait', withPlans(both('PENDING')), undefined, wait('backup pending')],
		['ERROR is retried: wait', withPlans(both('ERROR')), undefined, wait('backup retrying')],
		['running with no update for longer than staleMs: stale', withPlans(both('IN_PROGRESS', {updatedAt: ago(61 * second)})), undefined, stale('backup in progress (no update for 1m1s)')],
		['running, updated a moment ago: not stale', withPlans(both('IN_PROGRESS', {updatedAt: ago(second)})), undefined, wait('backup in progress')],
		['never run: wait for it to be triggered', withPlans(both('NEVER_RUN')), undefined, wait('waiting for plan backup to be triggered (it has not run yet)')],
		['no status: wait for it to be triggered', withPlans(both('')), undefined, wait('waiting for plan backup to be triggered (it has not run yet)')],
		['queued in the tree (taken, nothing written yet): wait', withPlans(both('QUEUED')), undefined, wait('waiting for plan backup to be triggered (it has not run yet)')],
		['never run but scheduled and taken: waiting to start', withPlans(both('NEVER_RUN'), {scheduledPlan: 'backup', queued: false}), undefined, wait('backup scheduled, waiting to start')],
		['a word KUDO does not have: 1', withPlans(both('SUSPENDED')), undefined, done(1, 'backup in progress')],
	])('%s', (_, object, baseline, want) => {
		expect(waitVerdict(object, baseline, byPlan('backup'))).toEqual(want);
	});

	it('leaves ActionSets alone', () => {
		expect(waitVerdict(kanister({state: 'complete'}, {summary: 'backup completed'}), undefined, byPlan('backup'))).toEqual(done(0, 'backup completed'));
	});
});
