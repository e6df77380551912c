import {describe, expect, it} from 'vitest';
import type {KanisterWaitFacts, KudoWaitFacts, PlanObject} from '../../source/model/plan-tree.js';
import {objectKey} from '../../source/model/plan-tree.js';
import {decideTargets, decideWait, emptyWaitMemory, selectTargets, type WaitDecision, type WaitMemory, type WaitRules, type WaitSnapshot} from '../../source/state/wait-decision.js';
import type {WaitView} from '../../source/state/wait-session.js';
import type {ContextState} from '../../source/state/store.js';

/*
 * decideWait rule by rule, on small hand-made objects (test/state/wait-decision.test.ts walks the common paths):
 * the deadline and the grace prompt, the contexts that gave up or never listed, which line is shown, and the
 * deferPhase grace that counts from the first sight of a failure.
 */

const second = 1000;
const minute = 60 * second;
const startedAt = Date.parse('2026-01-01T00:00:00Z');
const rules: WaitRules = {targets: [], graceMs: 0, deferGraceMs: 30 * second, staleMs: 60 * minute};
const waiting: WaitView = {phase: 'waiting', startedAt, deadlineAt: startedAt + minute, extendMs: 5 * minute, extendedMs: 0};
const live = {status: 'live'} as const;

function instance(name: string, activeStatus: string, summary: string, extra: Partial<PlanObject> = {}, facts: Partial<KudoWaitFacts> = {}): PlanObject {
	return {
		kind: 'Instance', namespace: 'ns', name, outcome: 'running', summary, state: 'running', status: activeStatus, tree: [], updatedAt: new Date(startedAt).toISOString(),
		...extra,
		wait: {kind: 'Instance', scheduledPlan: '', scheduledUid: '', planUids: {deploy: 'u1'}, activePlan: 'deploy', activeStatus, queued: false, ...facts},
	};
}

function actionSet(name: string, facts: Partial<KanisterWaitFacts>, summary: string): PlanObject {
	return {
		kind: 'ActionSet', namespace: 'ns', name, outcome: 'running', summary, state: 'running', status: facts.state ?? 'running', tree: [],
		// Progress long ago: the wait rule's own grace (from the last progress) is over; only the decision's holds.
		wait: {kind: 'ActionSet', state: 'running', deferPending: false, deferRunning: false, runningPhase: '', lastProgressAt: new Date(startedAt - 10 * minute).toISOString(), ...facts},
	};
}

const running = instance('i', 'IN_PROGRESS', 'deploy in progress');
const completed = instance('i', 'COMPLETE', 'deploy completed');
const otherCompleted = instance('j', 'COMPLETE', 'deploy completed');
const otherFailed = instance('j', 'FATAL_ERROR', 'deploy failed');
const inContext = (o: PlanObject, context: string): PlanObject => ({...o, context});
const synced = (objects: PlanObject[], extra: Partial<WaitSnapshot> = {}): WaitSnapshot => ({objects, connection: live, synced: true, ...extra});
const context = (name: string, extra: Partial<ContextState> = {}): ContextState => ({name, connection: live, synced: true, ...extra});
const forbidden = {message: 'forbidden', exitCode: 4} as const;

type Want = {finish: {exitCode: number; message: string}} | {view: Partial<WaitView>} | 'same';
type Row = {view?: WaitView; snapshot: WaitSnapshot; now?: number; memory?: WaitMemory; rules?: Partial<WaitRules>; want: Want};

function check(row: Row): WaitDecision {
	const view = row.view ?? waiting;
	const decision = decideWait(view, row.snapshot, row.now ?? startedAt, row.memory ?? emptyWaitMemory, {...rules, ...row.rules});
	if (row.want === 'same') {
		// The very object: the controller redraws only when the view changes.
		expect('view' in decision && decision.view).toBe(view);
	} else if ('finish' in row.want) {
		expect(decision).toEqual({finish: row.want.finish, memory: expect.anything()});
	} else {
		expect(decision).toHaveProperty('view');
		expect('view' in decision && decision.view).toEqual({...view, ...row.want.view});
	}

	return decision;
}

describe('decideWait: before the first list and at the deadline', () => {
	it.each<[string, Row]>([
		['a finished wait stays as it is', {view: {...waiting, phase: 'done'}, snapshot: synced([completed]), want: 'same'}],
		[
			'a fatal error ends a wait before the first list',
			{snapshot: {objects: [], connection: {status: 'connecting'}, synced: false, fatal: forbidden}, want: {finish: {exitCode: 4, message: 'forbidden'}}},
		],
		[
			'not listed yet: what the source is still trying',
			{snapshot: {objects: [], connection: {status: 'static', label: 'f.yaml'}, synced: false}, want: {view: {waitingFor: 'still reading f.yaml'}}},
		],
		[
			'not listed yet, the line unchanged: the very same view',
			{view: {...waiting, waitingFor: 'still connecting to the cluster'}, snapshot: {objects: [], connection: {status: 'connecting'}, synced: false}, want: 'same'},
		],
		[
			'not listed yet, just before the deadline: still waiting',
			{snapshot: {objects: [], connection: {status: 'connecting'}, synced: false}, now: startedAt + minute - 1, want: {view: {waitingFor: 'still connecting to the cluster'}}},
		],
		[
			'not listed yet and no deadline: waits however long',
			{
				view: {...waiting, deadlineAt: undefined},
				snapshot: {objects: [], connection: {status: 'connecting'}, synced: false},
				now: startedAt + 600 * minute,
				want: {view: {waitingFor: 'still connecting to the cluster'}},
			},
		],
		[
			'not listed yet at the deadline, a grace period: the prompt',
			{
				snapshot: {objects: [], connection: {status: 'connecting'}, synced: false},
				now: startedAt + minute,
				rules: {graceMs: 5 * second},
				want: {view: {phase: 'grace', graceEndsAt: startedAt + minute + 5 * second, waitingFor: 'still connecting to the cluster'}},
			},
		],
		[
			'not listed yet, past an extended deadline: timed out after the whole wait',
			{
				view: {...waiting, deadlineAt: startedAt + 90 * second},
				snapshot: {objects: [], connection: {status: 'reconnecting', attempt: 3, lastError: 'EOF'}, synced: false},
				now: startedAt + 90 * second,
				want: {finish: {exitCode: 3, message: 'timed out after 1m30s: still connecting — EOF (attempt 3)'}},
			},
		],
		[
			'in the grace prompt, before it ends: the prompt, its line updated',
			{
				view: {...waiting, phase: 'grace', graceEndsAt: startedAt + 2 * minute, waitingFor: 'old'},
				snapshot: synced([running]),
				now: startedAt + minute,
				rules: {targets: [objectKey(running)], graceMs: minute},
				want: {view: {waitingFor: 'deploy in progress'}},
			},
		],
		[
			'in the grace prompt without an end time: the prompt',
			{view: {...waiting, phase: 'grace', waitingFor: 'deploy in progress'}, snapshot: synced([running]), now: startedAt + 10 * minute, rules: {targets: [objectKey(running)]}, want: 'same'},
		],
		[
			'in the grace prompt, at its end: timed out',
			{
				view: {...waiting, phase: 'grace', graceEndsAt: startedAt + 2 * minute},
				snapshot: synced([running]),
				now: startedAt + 2 * minute,
				rules: {targets: [objectKey(running)], graceMs: minute},
				want: {finish: {exitCode: 3, message: 'timed out after 1m\ninstance ns/i: deploy in progress'}},
			},
		],
		[
			'the deadline with the connection lost: timed out, saying so',
			{
				snapshot: synced([running], {connection: {status: 'reconnecting', attempt: 2, lastError: 'boom'}}),
				now: startedAt + minute,
				rules: {targets: [objectKey(running)]},
				want: {finish: {exitCode: 3, message: 'timed out after 1m: the connection was lost — boom (reconnecting, attempt 2)\ninstance ns/i: deploy in progress'}},
			},
		],
		[
			'the deadline with two objects: one line each',
			{
				snapshot: synced([running, instance('j', 'IN_PROGRESS', 'deploy pending')]),
				now: startedAt + minute,
				want: {finish: {exitCode: 3, message: 'timed out after 1m\ninstance ns/i: deploy in progress\ninstance ns/j: deploy pending'}},
			},
		],
		[
			'running without an update for longer than staleMs: the line says so',
			{
				snapshot: synced([{...running, updatedAt: new Date(startedAt - 2 * minute).toISOString()}]),
				rules: {targets: [objectKey(running)], staleMs: minute},
				want: {view: {waitingFor: 'deploy in progress (no update for 2m)'}},
			},
		],
		[
			'--plan NAME is passed to the rule: a plan the Instance lacks is 1',
			{
				snapshot: synced([{...completed, tree: [{id: 'deploy', kind: 'plan', name: 'deploy', status: 'COMPLETE', state: 'succeeded', children: []}]}]),
				rules: {targets: [objectKey(completed)], plan: 'backup'},
				want: {finish: {exitCode: 1, message: 'no plan backup in this Instance (its plans: deploy)'}},
			},
		],
		[
			'the deadline with nothing there: timed out, no object lines',
			{snapshot: synced([]), now: startedAt + minute, rules: {targets: ['Instance/ns/gone']}, want: {finish: {exitCode: 3, message: 'timed out after 1m'}}},
		],
		[
			'the deadline moved on while in the prompt: waiting again, the prompt\'s end cleared',
			{
				view: {...waiting, phase: 'grace', graceEndsAt: startedAt + 2 * minute, deadlineAt: startedAt + 6 * minute, waitingFor: 'deploy in progress'},
				snapshot: synced([running]),
				now: startedAt + minute,
				rules: {targets: [objectKey(running)]},
				want: {view: {phase: 'waiting', graceEndsAt: undefined}},
			},
		],
	])('%s', (_, row) => {
		check(row);
	});
});

describe('decideWait: several contexts', () => {
	const a = inContext(completed, 'a');
	const b = inContext(otherCompleted, 'b');
	it.each<[string, Row]>([
		[
			'every target in a context that gave up: its code and reason',
			{snapshot: synced([], {contexts: [context('a', {fatal: forbidden})]}), rules: {targets: [objectKey(a)]}, want: {finish: {exitCode: 4, message: 'context a: forbidden'}}},
		],
		[
			'one target in a context that gave up, the other done: the worst code, the reason first',
			{
				snapshot: synced([b], {contexts: [context('a', {fatal: forbidden}), context('b')]}),
				rules: {targets: [objectKey(a), objectKey(b)]},
				want: {finish: {exitCode: 4, message: 'context a: forbidden\ndeploy completed'}},
			},
		],
		[
			'one target in a context that gave up, the other still running: waiting for it',
			{
				snapshot: synced([inContext(running, 'b')], {contexts: [context('a', {fatal: forbidden}), context('b')]}),
				rules: {targets: [objectKey(a), objectKey(inContext(running, 'b'))]},
				want: {view: {waitingFor: 'deploy in progress'}},
			},
		],
		[
			'nothing named, a context not listed yet: waiting for it',
			{
				snapshot: synced([a], {contexts: [context('a'), context('b', {synced: false, connection: {status: 'connecting'}})]}),
				want: {view: {waitingFor: 'context b: still connecting to the cluster'}},
			},
		],
		[
			'nothing named, two contexts not listed yet: both',
			{
				snapshot: synced([], {contexts: [context('a', {synced: false, connection: {status: 'connecting'}}), context('b', {synced: false, connection: {status: 'static', label: 'x'}})]}),
				want: {view: {waitingFor: 'context a: still connecting to the cluster; context b: still reading x'}},
			},
		],
		[
			'nothing named, a context not listed, the line unchanged: the very same view',
			{
				view: {...waiting, waitingFor: 'context b: still connecting to the cluster'},
				snapshot: synced([a], {contexts: [context('a'), context('b', {synced: false, connection: {status: 'connecting'}})]}),
				want: 'same',
			},
		],
		[
			'nothing named, a context not listed, back from the prompt: waiting',
			{
				view: {...waiting, phase: 'grace', graceEndsAt: startedAt + 2 * minute, deadlineAt: startedAt + 6 * minute, waitingFor: 'context b: still connecting to the cluster'},
				snapshot: synced([a], {contexts: [context('a'), context('b', {synced: false, connection: {status: 'connecting'}})]}),
				want: {view: {phase: 'waiting', graceEndsAt: undefined}},
			},
		],
		[
			'nothing named, a context not listed at the deadline: timed out with what is there',
			{
				snapshot: synced([a], {contexts: [context('a'), context('b', {synced: false, connection: {status: 'connecting'}})]}),
				now: startedAt + minute,
				want: {finish: {exitCode: 3, message: 'timed out after 1m: context b: still connecting to the cluster\ninstance a:ns/i: deploy completed'}},
			},
		],
		[
			'nothing named, a context not listed at the deadline, another gave up: the worst code',
			{
				snapshot: synced([], {contexts: [context('a', {fatal: forbidden}), context('b', {synced: false, connection: {status: 'connecting'}})]}),
				now: startedAt + minute,
				want: {finish: {exitCode: 4, message: 'context a: forbidden; timed out after 1m: context b: still connecting to the cluster'}},
			},
		],
		[
			'nothing named, a context that gave up is not waited for',
			{
				snapshot: synced([a], {contexts: [context('a'), context('b', {synced: false, connection: {status: 'connecting'}, fatal: forbidden})]}),
				want: {finish: {exitCode: 4, message: 'context b: forbidden\na:ns/i: deploy completed'}},
			},
		],
		[
			'named targets, a context not listed yet: only the targets are waited for',
			{
				snapshot: synced([a], {contexts: [context('a'), context('b', {synced: false, connection: {status: 'connecting'}})]}),
				rules: {targets: [objectKey(a)]},
				want: {finish: {exitCode: 0, message: 'deploy completed'}},
			},
		],
		[
			'nothing named, nothing anywhere, a context gave up: its code, then nothing to wait for',
			{
				snapshot: synced([], {contexts: [context('a', {fatal: forbidden})]}),
				want: {finish: {exitCode: 4, message: 'context a: forbidden\nnothing to wait for: no Instance or ActionSet in scope'}},
			},
		],
	])('%s', (_, row) => {
		check(row);
	});
});

describe('decideWait: the objects\' verdicts', () => {
	it.each<[string, Row]>([
		[
			'one named target done: its summary alone',
			{snapshot: synced([completed, otherFailed]), rules: {targets: [objectKey(completed)]}, want: {finish: {exitCode: 0, message: 'deploy completed'}}},
		],
		[
			'two named targets: each line names its object, any failure is 1',
			{
				snapshot: synced([completed, otherFailed]),
				rules: {targets: [objectKey(completed), objectKey(otherFailed)]},
				want: {finish: {exitCode: 1, message: 'ns/j: deploy failed\nns/i: deploy completed'}},
			},
		],
		['nothing named, one object: named all the same', {snapshot: synced([completed]), want: {finish: {exitCode: 0, message: 'ns/i: deploy completed'}}}],
		['nothing named, all done: 0', {snapshot: synced([completed, otherCompleted]), want: {finish: {exitCode: 0, message: 'ns/i: deploy completed\nns/j: deploy completed'}}}],
		[
			'one named target running, another object failed: only the target counts',
			{snapshot: synced([running, otherFailed]), rules: {targets: [objectKey(running)]}, want: {view: {waitingFor: 'deploy in progress'}}},
		],
		[
			'a named target missing, the other done: waiting for it to appear',
			{snapshot: synced([completed]), rules: {targets: [objectKey(completed), 'ActionSet/ns/as']}, want: {view: {waitingFor: 'waiting for ActionSet/ns/as to appear'}}},
		],
		['running, the same line: the very same view', {view: {...waiting, waitingFor: 'ns/i: deploy in progress'}, snapshot: synced([running]), want: 'same'}],
		[
			'running, the same line but not in the waiting phase: waiting',
			{
				view: {...waiting, phase: 'grace', waitingFor: 'ns/i: deploy in progress', deadlineAt: startedAt + 2 * minute},
				snapshot: synced([running]),
				want: {view: {phase: 'waiting', graceEndsAt: undefined}},
			},
		],
	])('%s', (_, row) => {
		check(row);
	});
});

describe('decideWait: the deferPhase grace from the first sight of a failure', () => {
	const seenRunning = actionSet('as', {state: 'running', deferPending: true}, 'backup running');
	const failed = actionSet('as', {state: 'failed', deferPending: true}, 'backup failed in phase dump');
	const baseline: WaitMemory = {baseline: new Map([[objectKey(seenRunning), seenRunning]]), failedSeenAt: new Map()};
	const seenAt = (at: number): WaitMemory => ({...baseline, failedSeenAt: new Map([[objectKey(failed), at]])});
	const target = {targets: [objectKey(failed)]};
	it.each<[string, Row]>([
		[
			'first seen failed now: the whole grace period',
			{snapshot: synced([failed]), memory: baseline, rules: target, want: {view: {waitingFor: 'backup failed in phase dump; giving the deferPhase 30s to start'}}},
		],
		[
			'seen failed 10 s ago: what is left of it',
			{snapshot: synced([failed]), memory: seenAt(startedAt - 10 * second), rules: target, want: {view: {waitingFor: 'backup failed in phase dump; giving the deferPhase 20s to start'}}},
		],
		[
			'seen failed exactly the grace period ago: failed',
			{snapshot: synced([failed]), memory: seenAt(startedAt - 30 * second), rules: target, want: {finish: {exitCode: 1, message: 'backup failed in phase dump'}}},
		],
		[
			'failed with no deferPhase pending: failed at once',
			{snapshot: synced([actionSet('as', {state: 'failed'}, 'backup failed')]), memory: baseline, rules: target, want: {finish: {exitCode: 1, message: 'backup failed'}}},
		],
		[
			'failed while its deferPhase runs: the rule waits, not the grace',
			{
				snapshot: synced([actionSet('as', {state: 'failed', deferPending: true, deferRunning: true}, 'cleanup running')]),
				memory: baseline,
				rules: target,
				want: {view: {waitingFor: 'cleanup running'}},
			},
		],
		[
			'complete with a deferPhase pending: the rule decides (failed: it never started)',
			{
				snapshot: synced([actionSet('as', {state: 'complete', deferPending: true}, 'done')]),
				memory: baseline,
				rules: target,
				want: {finish: {exitCode: 1, message: 'done; the deferPhase never started'}},
			},
		],
		[
			'already failed when the wait began: failed at once',
			{
				snapshot: synced([failed]),
				memory: {baseline: new Map([[objectKey(failed), failed]]), failedSeenAt: new Map()},
				rules: target,
				want: {finish: {exitCode: 1, message: 'backup failed in phase dump'}},
			},
		],
		[
			'an ActionSet that appeared after the wait began (not in the baseline): the grace from its first sight',
			{
				snapshot: synced([failed]),
				memory: {baseline: new Map(), failedSeenAt: new Map()},
				rules: target,
				want: {view: {waitingFor: 'backup failed in phase dump; giving the deferPhase 30s to start'}},
			},
		],
		[
			'a baseline of another kind under the same key does not count as failed',
			{
				snapshot: synced([failed]),
				memory: {baseline: new Map([[objectKey(failed), {...completed, wait: {...completed.wait}}]]), failedSeenAt: new Map()},
				rules: target,
				want: {view: {waitingFor: 'backup failed in phase dump; giving the deferPhase 30s to start'}},
			},
		],
	])('%s', (_, row) => {
		check(row);
	});

	it('remembers the first sight of a failure, also while the wait rule itself still holds, and keeps it', () => {
		// Progress a moment ago: the rule gives its own grace period; the first sight is remembered all the same.
		const fresh = actionSet('as', {state: 'failed', deferPending: true, lastProgressAt: new Date(startedAt - second).toISOString()}, 'f');
		const first = decideWait(waiting, synced([fresh]), startedAt, baseline, {...rules, ...target});
		expect(first.memory.failedSeenAt.get(objectKey(fresh))).toBe(startedAt);
		const later = decideWait(waiting, synced([fresh]), startedAt + 5 * second, first.memory, {...rules, ...target});
		expect(later.memory.failedSeenAt.get(objectKey(fresh))).toBe(startedAt);
		expect(later.memory).toBe(first.memory);
	});

	it('remembers nothing for an object that is not failed with a deferPhase pending', () => {
		const decision = decideWait(waiting, synced([seenRunning, running]), startedAt, baseline, rules);
		expect(decision.memory).toBe(baseline);
		expect(decision.memory.failedSeenAt.size).toBe(0);
	});

	it('takes the picture at the first sync as the baseline, also when there is nothing to wait for', () => {
		const empty = decideWait(waiting, synced([]), startedAt, emptyWaitMemory, rules);
		expect(empty.memory.baseline?.size).toBe(0);
		const first = decideWait(waiting, synced([running]), startedAt, emptyWaitMemory, rules);
		expect([...(first.memory.baseline?.values() ?? [])]).toEqual([running]);
		// The baseline of the first sync stays: a later picture does not replace it.
		const later = decideWait(waiting, synced([completed]), startedAt + second, first.memory, rules);
		expect(later.memory.baseline).toBe(first.memory.baseline);
	});

	it('uses the baseline: a plan queued at the start and not yet taken is not done by its previous run', () => {
		const queued = instance('i', 'COMPLETE', 'backup completed', {}, {scheduledPlan: 'backup', scheduledUid: 'u2', planUids: {backup: 'u0'}, activePlan: 'backup', queued: true});
		const oldRun = instance('i', 'COMPLETE', 'backup completed', {}, {planUids: {backup: 'u0'}, activePlan: 'backup'});
		const memory: WaitMemory = {baseline: new Map([[objectKey(queued), queued]]), failedSeenAt: new Map()};
		expect(decideWait(waiting, synced([oldRun]), startedAt, memory, {...rules, targets: [objectKey(oldRun)]})).toMatchObject({view: {waitingFor: 'waiting for the controller to start backup'}});
	});
});

describe('selectTargets and decideTargets', () => {
	it('selects the named targets present, in the store\'s order, or every object when none is named', () => {
		expect(selectTargets([completed, otherCompleted], [])).toEqual([completed, otherCompleted]);
		expect(selectTargets([completed, otherCompleted], [objectKey(otherCompleted), 'Instance/ns/none'])).toEqual([otherCompleted]);
	});

	it('names every missing target, as people read the key', () => {
		expect(decideTargets([objectKey(inContext(completed, 'dr')), 'ActionSet/ns/y'], [], [])).toEqual({done: false, waitingFor: 'waiting for dr:Instance/ns/i, ActionSet/ns/y to appear'});
	});

	it('is 0 only when no object failed', () => {
		expect(decideTargets([], ['a', 'b'], [{done: true, exitCode: 0, summary: 'a'}, {done: true, exitCode: 0, summary: 'b'}])).toEqual({done: true, result: {exitCode: 0, message: 'a\nb'}});
		expect(decideTargets([], ['a', 'b'], [{done: true, exitCode: 1, summary: 'a'}, {done: true, exitCode: 0, summary: 'b'}])).toEqual({done: true, result: {exitCode: 1, message: 'a\nb'}});
	});
});

describe('decideWait: targets deleted while waited for', () => {
	const gone = (o: PlanObject, at: number) => new Map([[objectKey(o), {object: o, at}]]);
	it.each<[string, Row]>([
		[
			'a named target deleted after it completed: its result, at once',
			{
				snapshot: synced([], {deleted: gone(completed, startedAt + second)}),
				rules: {targets: [objectKey(completed)]},
				want: {finish: {exitCode: 0, message: 'deleted after it had finished: deploy completed'}},
			},
		],
		[
			'a named target deleted while running: 1, at once',
			{
				snapshot: synced([], {deleted: gone(running, startedAt + second)}),
				rules: {targets: [objectKey(running)]},
				want: {finish: {exitCode: 1, message: 'deleted before it finished; last seen: deploy in progress'}},
			},
		],
		[
			'a named target deleted and there again: the one there counts',
			{snapshot: synced([running], {deleted: gone(completed, startedAt + second)}), rules: {targets: [objectKey(running)]}, want: {view: {waitingFor: 'deploy in progress'}}},
		],
		[
			'a named target deleted before the wait began counts as well (it is gone)',
			{
				snapshot: synced([], {deleted: gone(completed, startedAt - minute)}),
				rules: {targets: [objectKey(completed)]},
				want: {finish: {exitCode: 0, message: 'deleted after it had finished: deploy completed'}},
			},
		],
		[
			'two named targets, one deleted, one running: waiting for the one running, named',
			{
				snapshot: synced([instance('j', 'IN_PROGRESS', 'deploy in progress')], {deleted: gone(completed, startedAt + second)}),
				rules: {targets: [objectKey(completed), objectKey(otherCompleted)]},
				want: {view: {waitingFor: 'ns/j: deploy in progress'}},
			},
		],
		[
			'two named targets, one deleted, one done: both lines, each named',
			{
				snapshot: synced([otherCompleted], {deleted: gone(running, startedAt + second)}),
				rules: {targets: [objectKey(running), objectKey(otherCompleted)]},
				want: {finish: {exitCode: 1, message: 'ns/i: deleted before it finished; last seen: deploy in progress\nns/j: deploy completed'}},
			},
		],
		[
			'nothing named: an object deleted after the wait began is reported',
			{snapshot: synced([], {deleted: gone(running, startedAt)}), want: {finish: {exitCode: 1, message: 'ns/i: deleted before it finished; last seen: deploy in progress'}}},
		],
		[
			'nothing named: an object deleted before the wait began is not',
			{snapshot: synced([], {deleted: gone(running, startedAt - 1)}), want: {finish: {exitCode: 0, message: 'nothing to wait for: no Instance or ActionSet in scope'}}},
		],
		[
			'a deleted target under --plan NAME: judged by that plan',
			{
				snapshot: synced([], {deleted: gone({...completed, tree: [{id: 'deploy', kind: 'plan', name: 'deploy', status: 'COMPLETE', state: 'succeeded', children: []}]}, startedAt + second)}),
				rules: {targets: [objectKey(completed)], plan: 'backup'},
				want: {finish: {exitCode: 1, message: 'deleted after it had finished: no plan backup in this Instance (its plans: deploy)'}},
			},
		],
		[
			'nothing named: one object left running, another deleted: waiting',
			{
				snapshot: synced([otherCompleted, instance('k', 'IN_PROGRESS', 'deploy in progress')], {deleted: gone(completed, startedAt + second)}),
				want: {view: {waitingFor: 'ns/k: deploy in progress'}},
			},
		],
	])('%s', (_, row) => {
		check(row);
	});
});
