/**
 * Waiting for every object of a namespace: a verdict that is done for good is kept for its object (wait-decision.ts
 * objectVerdicts), so an event looks at what changed and what still runs. Counted: the rules asked (waitVerdict).
 * Checked against the same decision made from nothing (no memory of settled verdicts): always the same.
 */
import {beforeEach, describe, expect, it, vi} from 'vitest';
import type {KanisterWaitFacts, PlanObject} from '../../source/model/plan-tree.js';
import {decideWait, emptyWaitMemory, type WaitDecision, type WaitMemory, type WaitRules, type WaitSnapshot} from '../../source/state/wait-decision.js';
import type {WaitView} from '../../source/state/wait-session.js';

const asked = vi.hoisted(() => ({count: 0}));
vi.mock('../../source/model/wait-rules.js', async importOriginal => {
	const {countingCalls} = await import('../helpers/count-calls.js');
	return countingCalls(await importOriginal<typeof import('../../source/model/wait-rules.js')>(), 'waitVerdict', asked);
});

const second = 1000;
const minute = 60 * second;
const startedAt = Date.parse('2026-01-01T00:00:00Z');
const rules: WaitRules = {targets: [], graceMs: 0, deferGraceMs: 30 * second, staleMs: 60 * minute};
const waiting: WaitView = {phase: 'waiting', startedAt, deadlineAt: startedAt + 10 * minute, extendMs: 5 * minute, extendedMs: 0};
const synced = (objects: PlanObject[]): WaitSnapshot => ({objects, connection: {status: 'live'}, synced: true});

function actionSet(name: string, facts: Partial<KanisterWaitFacts>, summary: string): PlanObject {
	return {
		kind: 'ActionSet', namespace: 'ns', name, outcome: 'running', summary, state: 'running', status: facts.state ?? 'running', tree: [],
		wait: {kind: 'ActionSet', state: 'running', deferPending: false, deferRunning: false, runningPhase: '', lastProgressAt: new Date(startedAt).toISOString(), ...facts},
	};
}

const finished = Array.from({length: 200}, (_, i) => actionSet(`done-${i}`, {state: 'complete'}, 'backup completed'));
const running = actionSet('run', {state: 'running'}, 'backup running');

/** The decision and the one made from the same baseline without the settled verdicts: they must agree. */
function decide(objects: PlanObject[], now: number, memory: WaitMemory): WaitDecision {
	const decision = decideWait(waiting, synced(objects), now, memory, rules);
	const {settled: _settled, ...fresh} = memory;
	const again = decideWait(waiting, synced(objects), now, fresh, rules);
	expect('view' in decision ? decision.view : decision.finish).toEqual('view' in again ? again.view : again.finish);
	return decision;
}

beforeEach(() => {
	asked.count = 0;
});

describe('waiting for every object: finished ones are not judged again', () => {
	it('an update to one of 201 objects asks the rules about it and the running one only', () => {
		const first = decideWait(waiting, synced([...finished, running]), startedAt, emptyWaitMemory, rules);
		expect(asked.count).toBe(201);
		asked.count = 0;
		const objects = [...finished, running];
		objects[7] = actionSet('done-7', {state: 'complete'}, 'backup completed again');
		const next = decideWait(waiting, synced(objects), startedAt + second, first.memory, rules);
		expect(asked.count).toBe(2);
		expect(next).toMatchObject({view: {waitingFor: 'ns/run: backup running'}});
		// The running one finishes: every object done, the wait ends with the same lines as judged from nothing.
		objects[200] = actionSet('run', {state: 'complete'}, 'backup completed');
		const end = decide(objects, startedAt + 2 * second, next.memory);
		expect(end).toMatchObject({finish: {exitCode: 0}});
		expect('finish' in end && end.finish.message.split('\n')).toHaveLength(201);
	});

	it('a failure still in its deferPhase grace is judged again on each call, and a clock that goes back forgets', () => {
		// Running when the wait began, then failed with its deferPhase pending: the grace counts from that sight.
		const before = decide([actionSet('f', {state: 'running'}, 'backup running'), running], startedAt, emptyWaitMemory);
		const failed = actionSet('f', {state: 'failed', deferPending: true, lastProgressAt: new Date(startedAt - 10 * minute).toISOString()}, 'backup failed');
		const objects = [failed, running];
		const first = decide(objects, startedAt + second, before.memory);
		expect(first).toMatchObject({view: {waitingFor: expect.stringContaining('giving the deferPhase 30s to start')}});
		asked.count = 0;
		const later = decide(objects, startedAt + 11 * second, first.memory);
		expect(later).toMatchObject({view: {waitingFor: expect.stringContaining('giving the deferPhase 20s to start')}});
		expect(asked.count).toBe(4);
		// The grace is over: the failure settles.
		const over = decide(objects, startedAt + 41 * second, later.memory);
		expect(over).toMatchObject({view: {waitingFor: 'ns/run: backup running'}});
		asked.count = 0;
		decideWait(waiting, synced(objects), startedAt + 42 * second, over.memory, rules);
		expect(asked.count).toBe(1);
		// A replay seeks back into the grace: judged again, as from nothing.
		asked.count = 0;
		const back = decide(objects, startedAt + 21 * second, over.memory);
		expect(back).toMatchObject({view: {waitingFor: expect.stringContaining('giving the deferPhase 10s to start')}});
		expect(asked.count).toBe(4);
	});
});
