import {describe, expect, it} from 'vitest';
import type {PlanObject} from '../../source/model/plan-tree.js';
import {objectKey} from '../../source/model/plan-tree.js';
import {decideWait, emptyWaitMemory, type WaitMemory, type WaitRules, type WaitSnapshot} from '../../source/state/wait-decision.js';
import type {WaitView} from '../../source/state/wait-session.js';
import {mysqlDeploying} from '../helpers/plan-objects.js';

const minute = 60_000;
const startedAt = Date.parse('2026-11-30T11:03:00Z');
const rules: WaitRules = {targets: [], graceMs: 0, deferGraceMs: 30_000, staleMs: 10 * minute};
const waiting: WaitView = {phase: 'waiting', startedAt, deadlineAt: startedAt + minute, extendMs: 5 * minute, extendedMs: 0};
const live = {status: 'live'} as const;
const synced = (...objects: PlanObject[]): WaitSnapshot => ({objects, connection: live, synced: true});

const mysqlDone: PlanObject = {...mysqlDeploying, outcome: 'succeeded', summary: 'deploy completed', wait: {...mysqlDeploying.wait, activeStatus: 'COMPLETE'} as PlanObject['wait']};
const backupRunning: PlanObject = {
	kind: 'ActionSet', namespace: 'kanister', name: 'backup', createdAt: '2026-11-30T11:00:00Z', outcome: 'running', summary: 'backup running',
	version: 'bp', state: 'running', status: 'running', tree: [],
	wait: {kind: 'ActionSet', state: 'running', deferPending: true, deferRunning: false, runningPhase: 'copy', lastProgressAt: '2026-11-30T11:00:00Z'},
};
const backupFailed: PlanObject = {
	...backupRunning,
	outcome: 'failed',
	summary: 'backup failed in phase copy',
	state: 'failed',
	status: 'failed',
	wait: {...backupRunning.wait, state: 'failed'} as PlanObject['wait'],
};
const seenRunning: WaitMemory = {baseline: new Map([[objectKey(backupRunning), backupRunning]]), failedSeenAt: new Map()};
const seenFailedAt = (at: number): WaitMemory => ({...seenRunning, failedSeenAt: new Map([[objectKey(backupFailed), at]])});

type Row = {
	readonly view?: WaitView;
	readonly snapshot: WaitSnapshot;
	readonly now?: number;
	readonly memory?: WaitMemory;
	readonly rules?: Partial<WaitRules>;
	/** The result it finishes with, or what the view becomes (`same` = the very object passed in). */
	readonly want: {finish: {exitCode: number; message: string | RegExp}} | {view: Partial<WaitView>} | 'same';
};

describe('decideWait: the wait decision from the view, the store and now', () => {
	it.each<[string, Row]>([
		[
			'a fatal source error finishes with its code, even when only watching',
			{view: {...waiting, phase: 'watching'}, snapshot: {...synced(), fatal: {message: 'forbidden', exitCode: 4}}, want: {finish: {exitCode: 4, message: 'forbidden'}}},
		],
		['watching without --wait: nothing to decide', {view: {...waiting, phase: 'watching'}, snapshot: synced(mysqlDone), want: 'same'}],
		[
			'before the first list: what the source is still trying',
			{snapshot: {objects: [], connection: {status: 'connecting'}, synced: false}, want: {view: {phase: 'waiting', waitingFor: 'still connecting to the cluster'}}},
		],
		[
			'before the first list, past the deadline: timed out with why',
			{
				snapshot: {objects: [], connection: {status: 'connecting'}, synced: false},
				now: startedAt + minute,
				want: {finish: {exitCode: 3, message: 'timed out after 1m: still connecting to the cluster'}},
			},
		],
		['nothing named and nothing in scope: done with 0', {snapshot: synced(), want: {finish: {exitCode: 0, message: 'nothing to wait for: no Instance or ActionSet in scope'}}}],
		[
			'a named target not there yet: wait for it to appear',
			{snapshot: synced(), rules: {targets: ['Instance/default/mysql']}, want: {view: {phase: 'waiting', waitingFor: 'waiting for Instance/default/mysql to appear'}}},
		],
		['a plan running: wait, the line names the object', {snapshot: synced(mysqlDeploying), want: {view: {phase: 'waiting', waitingFor: `default/mysql-instance: ${mysqlDeploying.summary}`}}}],
		[
			'the named target running: the line without its name',
			{snapshot: synced(mysqlDeploying), rules: {targets: [objectKey(mysqlDeploying)]}, want: {view: {phase: 'waiting', waitingFor: mysqlDeploying.summary}}},
		],
		[
			'the same line again: the very same view',
			{view: {...waiting, waitingFor: mysqlDeploying.summary}, snapshot: synced(mysqlDeploying), rules: {targets: [objectKey(mysqlDeploying)]}, want: 'same'},
		],
		['the plan completed: 0 with its summary', {snapshot: synced(mysqlDone), rules: {targets: [objectKey(mysqlDone)]}, want: {finish: {exitCode: 0, message: 'deploy completed'}}}],
		[
			'the deadline without a grace period: 3 with each object',
			{snapshot: synced(mysqlDeploying), now: startedAt + minute, want: {finish: {exitCode: 3, message: `timed out after 1m\ninstance default/mysql-instance: ${mysqlDeploying.summary}`}}},
		],
		[
			'the deadline with a grace period: the prompt until now + grace',
			{snapshot: synced(mysqlDeploying), now: startedAt + minute, rules: {graceMs: 10_000}, want: {view: {phase: 'grace', graceEndsAt: startedAt + minute + 10_000}}},
		],
		[
			'within the grace period: still the prompt',
			{
				view: {...waiting, phase: 'grace', graceEndsAt: startedAt + 2 * minute, waitingFor: `default/mysql-instance: ${mysqlDeploying.summary}`},
				snapshot: synced(mysqlDeploying),
				now: startedAt + minute + 1,
				rules: {graceMs: 10_000},
				want: 'same',
			},
		],
		[
			'the grace period over: timed out',
			{
				view: {...waiting, phase: 'grace', graceEndsAt: startedAt + 2 * minute},
				snapshot: synced(mysqlDeploying),
				now: startedAt + 2 * minute,
				rules: {graceMs: 10_000},
				want: {finish: {exitCode: 3, message: /^timed out after 1m\n/}},
			},
		],
		[
			'the deadline moved on (extended from the prompt): back to waiting',
			{
				view: {...waiting, phase: 'grace', graceEndsAt: startedAt + 2 * minute, deadlineAt: startedAt + 6 * minute},
				snapshot: synced(mysqlDeploying),
				now: startedAt + minute,
				want: {view: {phase: 'waiting', graceEndsAt: undefined}},
			},
		],
		[
			'an ActionSet seen failing with its deferPhase pending: the deferPhase gets its grace from that sight',
			{snapshot: synced(backupFailed), memory: seenRunning, now: startedAt, want: {view: {waitingFor: 'kanister/backup: backup failed in phase copy; giving the deferPhase 30s to start'}}},
		],
		[
			'... and once that grace is over: failed',
			{snapshot: synced(backupFailed), memory: seenFailedAt(startedAt - 30_000), now: startedAt, want: {finish: {exitCode: 1, message: 'kanister/backup: backup failed in phase copy'}}},
		],
		[
			'an ActionSet already failed when the wait began: failed at once',
			{snapshot: synced(backupFailed), now: startedAt, want: {finish: {exitCode: 1, message: 'kanister/backup: backup failed in phase copy'}}},
		],
	])('%s', (_, row) => {
		const view = row.view ?? waiting;
		const decision = decideWait(view, row.snapshot, row.now ?? startedAt, row.memory ?? emptyWaitMemory, {...rules, ...row.rules});
		if (row.want === 'same') {
			expect(decision).toHaveProperty('view', view);
		} else if ('finish' in row.want) {
			expect(decision).toMatchObject({finish: row.want.finish});
		} else {
			expect('view' in decision && decision.view).toMatchObject(row.want.view);
		}
	});

	it('remembers the picture at the first sync and the first sight of a failure, and keeps the memory object when nothing is new', () => {
		const first = decideWait(waiting, synced(backupRunning), startedAt, emptyWaitMemory, rules);
		expect(first.memory.baseline?.get(objectKey(backupRunning))).toBe(backupRunning);
		const failed = decideWait(waiting, synced(backupFailed), startedAt + 1000, first.memory, rules);
		expect(failed.memory.failedSeenAt.get(objectKey(backupFailed))).toBe(startedAt + 1000);
		const later = decideWait(waiting, synced(backupFailed), startedAt + 2000, failed.memory, rules);
		expect(later.memory).toBe(failed.memory);
	});
});

describe('decideWait: a target deleted while waited for', () => {
	const gone = (object: PlanObject, at = startedAt + 1000): WaitSnapshot['deleted'] => new Map([[objectKey(object), {object, at}]]);
	const decide = (snapshot: WaitSnapshot, targets: string[]) => decideWait(waiting, snapshot, startedAt + 2000, emptyWaitMemory, {...rules, targets});

	it('deleted before it finished: the wait ends at once with 1 and the last state seen', () => {
		expect(decide(
			{...synced(), deleted: gone(backupRunning)},
			[objectKey(backupRunning)],
		)).toMatchObject({finish: {exitCode: 1, message: 'deleted before it finished; last seen: backup running'}});
	});

	it('deleted after it had finished: its own verdict', () => {
		expect(decide({...synced(), deleted: gone(mysqlDone)}, [objectKey(mysqlDone)])).toMatchObject({finish: {exitCode: 0, message: 'deleted after it had finished: deploy completed'}});
		expect(decide({...synced(), deleted: gone(backupFailed)}, [objectKey(backupFailed)])).toMatchObject({finish: {
			exitCode: 1,
			message: 'deleted after it had finished: backup failed in phase copy',
		}});
	});

	it('a KUDO Instance held by its cleanup finalizer while cleanup ran: KUDO let it go only after cleanup completed', () => {
		const cleaning: PlanObject = {
			...mysqlDeploying,
			summary: 'cleanup in progress (0/1 steps)',
			deletion: {since: '2026-11-30T11:03:01Z', finalizers: ['kudo.dev.instance.cleanup']},
			wait: {...mysqlDeploying.wait, activePlan: 'cleanup', activeStatus: 'IN_PROGRESS'} as PlanObject['wait'],
		};
		expect(decide({...synced(), deleted: gone(cleaning)}, [objectKey(cleaning)])).toMatchObject({finish: {exitCode: 0, message: /^deleted after its cleanup plan finished/}});
		const failedCleanup = {...cleaning, wait: {...cleaning.wait, activeStatus: 'FATAL_ERROR'} as PlanObject['wait']};
		expect(decide({...synced(), deleted: gone(failedCleanup)}, [objectKey(failedCleanup)])).toMatchObject({finish: {exitCode: 1}});
		// Without the finalizer (no cleanup plan), a running plan was cut short.
		const noFinalizer = {...cleaning, deletion: {finalizers: []}};
		expect(decide({...synced(), deleted: gone(noFinalizer)}, [objectKey(noFinalizer)])).toMatchObject({finish: {exitCode: 1, message: /^deleted before it finished/}});
	});

	it('waiting for everything: an object deleted after the wait began counts, one deleted before does not', () => {
		expect(decide({...synced(mysqlDone), deleted: gone(backupRunning)}, [])).toMatchObject({finish: {
			exitCode: 1,
			message: 'kanister/backup: deleted before it finished; last seen: backup running\ndefault/mysql-instance: deploy completed',
		}});
		expect(decide({...synced(mysqlDone), deleted: gone(backupRunning, startedAt - 1)}, [])).toMatchObject({finish: {exitCode: 0}});
		expect(decide({...synced(), deleted: gone(backupRunning)}, [])).toMatchObject({finish: {exitCode: 1}});
	});

	it('the same key listed again: waited for as any object', () => {
		expect(decide({...synced(backupRunning), deleted: gone(backupRunning)}, [objectKey(backupRunning)])).toMatchObject({view: {waitingFor: 'backup running'}});
	});
});
