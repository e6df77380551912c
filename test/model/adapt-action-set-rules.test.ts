import {describe, expect, it} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import {adaptActionSet} from '../../source/model/adapt-kanister-action-set.js';
import type {PlanEvent, PlanNode, PlanObject} from '../../source/model/plan-tree.js';

/*
 * The ActionSet adapter's rules on small hand-made ActionSets (test/model/adapt-kanister-action-set.test.ts goes
 * through recorded fixtures): which deferPhase runs, which node owns status.error, what a `complete` ActionSet with
 * a phase still pending is, phases named from the Blueprint, times from the Events, which action is current.
 */

const t = (s: number): string => `2025-01-01T00:00:${String(s).padStart(2, '0')}Z`;
let n = 0;
const event = (time: string, reason: string, message: string): PlanEvent => ({
	uid: `e${n++}`,
	namespace: 'ns',
	involvedKind: 'ActionSet',
	involvedName: 'as',
	type: 'Normal',
	reason,
	message,
	time,
	count: 1,
});
const deferStarted = (s: number, name = 'cleanup') => event(t(s), 'Started deferPhase', `Executing deferPhase ${name}`);
const deferEnded = (s: number, name = 'cleanup') => event(t(s), 'Ended deferPhase', `Completed deferPhase ${name}`);

type Phase = {name?: string; state: string; progress?: Record<string, unknown>};
const statusAction = (name: string, phases: Phase[], defer?: {name?: string; state: string}): Record<string, unknown> => ({
	name, blueprint: 'bp', object: {kind: 'statefulset', namespace: 'db', name: 'pg'}, phases, ...(defer ? {deferPhase: defer} : {}),
});
const specAction = (name: string) => ({name, blueprint: 'bp', object: {kind: 'statefulset', namespace: 'db', name: 'pg'}});
const blueprint: KubeObject = {
	apiVersion: 'cr.kanister.io/v1alpha1', kind: 'Blueprint', metadata: {name: 'bp', namespace: 'ns'},
	actions: {backup: {phases: [{name: 'dump'}, {name: 'upload'}], deferPhase: {name: 'cleanup'}}, plain: {phases: [{name: 'one'}]}, nulldefer: {phases: [{name: 'one'}], deferPhase: null}},
} as KubeObject;

function adapt(status: Record<string, unknown> | undefined, options: {spec?: Array<Record<string, unknown>>; events?: PlanEvent[]} = {}): PlanObject {
	const specActions = options.spec ?? (Array.isArray(status?.['actions']) ? (status['actions'] as Array<{name: string}>).map(a => specAction(a.name)) : [specAction('backup')]);
	const raw = {
		apiVersion: 'cr.kanister.io/v1alpha1',
		kind: 'ActionSet',
		metadata: {name: 'as', namespace: 'ns', creationTimestamp: t(0)},
		spec: {actions: specActions},
		...(status ? {status} : {}),
	} as KubeObject;
	return adaptActionSet(raw, name => (name === 'bp' ? blueprint : undefined), options.events ?? []);
}

const defer = (o: PlanObject, action = 0): PlanNode => o.tree[action]!.children.find(c => c.kind === 'deferPhase')!;
const phases = (o: PlanObject, action = 0): PlanNode[] => o.tree[action]!.children.filter(c => c.kind === 'phase');

describe('which deferPhase runs (the controller never writes running into deferPhase.state)', () => {
	it('a deferPhase of that name started once and finished once elsewhere: this one has not started', () => {
		const o = adapt(
			{
				state: 'running',
				actions: [
					statusAction('a', [{name: 'p', state: 'complete'}], {name: 'cleanup', state: 'complete'}),
					statusAction('b', [{name: 'p', state: 'complete'}], {name: 'cleanup', state: 'pending'}),
				],
			},
			{events: [deferStarted(1)]},
		);
		expect([defer(o, 0).state, defer(o, 1).state, defer(o, 1).statusReason]).toEqual(['succeeded', 'pending', undefined]);
		expect(o.wait).toMatchObject({deferRunning: false, deferPending: true});
	});

	it('... a failed one counts as finished as well', () => {
		const o = adapt(
			{
				state: 'failed',
				actions: [
					statusAction('a', [{name: 'p', state: 'complete'}], {name: 'cleanup', state: 'failed'}),
					statusAction('b', [{name: 'p', state: 'complete'}], {name: 'cleanup', state: 'pending'}),
				],
			},
			{events: [deferStarted(1)]},
		);
		expect(defer(o, 1).state).toBe('pending');
	});

	it('started twice, finished once: the other one runs, per events; its start shown, the other\'s end not', () => {
		const o = adapt(
			{
				state: 'running',
				actions: [
					statusAction('a', [{name: 'p', state: 'complete'}], {name: 'cleanup', state: 'complete'}),
					statusAction('b', [{name: 'p', state: 'complete'}], {name: 'cleanup', state: 'pending'}),
				],
			},
			{events: [deferStarted(1), deferStarted(2), deferEnded(3)]},
		);
		expect(defer(o, 1)).toMatchObject({state: 'running', statusReason: 'running per events', startedAt: t(2)});
		expect(defer(o, 1).endedAt).toBeUndefined();
		expect(defer(o, 0)).toMatchObject({startedAt: t(2), endedAt: t(3)});
		expect(o.wait).toMatchObject({deferRunning: true});
		expect(o.active).toBe('b');
	});

	it('not while a core phase of its action is still pending, whatever the events say', () => {
		const o = adapt(
			{state: 'running', actions: [statusAction('backup', [{name: 'dump', state: 'complete'}, {name: 'upload', state: 'pending'}], {name: 'cleanup', state: 'pending'})]},
			{events: [deferStarted(1)]},
		);
		expect(defer(o).state).toBe('pending');
		expect(defer(o).startedAt).toBeUndefined();
	});

	it('after a failed core phase, per events', () => {
		const o = adapt(
			{state: 'failed', actions: [statusAction('backup', [{name: 'dump', state: 'failed'}, {name: 'upload', state: 'pending'}], {name: 'cleanup', state: 'pending'})]},
			{events: [deferStarted(4)]},
		);
		expect(defer(o)).toMatchObject({state: 'running', startedAt: t(4)});
		expect(phases(o).map(p => p.note)).toEqual([undefined, 'skipped after failure']);
		expect(o.outcome).toBe('running');
	});

	it('not when its phases are only named from the Blueprint (the status listed none)', () => {
		const o = adapt({state: 'running', actions: [statusAction('backup', [], {name: 'cleanup', state: 'pending'})]}, {events: [deferStarted(1)]});
		expect(phases(o).map(p => `${p.name} ${p.status}`)).toEqual(['dump pending', 'upload pending']);
		expect(defer(o).state).toBe('pending');
	});

	it('an unnamed deferPhase is not running because progress names no phase', () => {
		const o = adapt({state: 'running', progress: {runningPhase: ''}, actions: [statusAction('backup', [{name: 'dump', state: 'complete'}], {name: '', state: 'pending'})]});
		expect(defer(o)).toMatchObject({name: 'deferPhase', state: 'pending'});
	});

	it('a named one is, when progress names it', () => {
		const o = adapt({state: 'complete', progress: {runningPhase: 'cleanup'}, actions: [statusAction('backup', [{name: 'dump', state: 'complete'}], {name: 'cleanup', state: 'pending'})]});
		expect(defer(o)).toMatchObject({state: 'running', statusReason: 'running per progress'});
	});

	it('never, after a launch failure or a legacy phase failure: it says so, and nothing is pending', () => {
		for (const message of ['Failed to launch Action as: no blueprint', 'Failed to run phase 0 of action backup: boom']) {
			const o = adapt(
				{state: 'failed', error: {message: 'x'}, actions: [statusAction('backup', [{name: 'dump', state: 'pending'}], {name: 'cleanup', state: 'pending'})]},
				{events: [event(t(1), 'ActionSetFailed Action: backup', message)]},
			);
			expect(defer(o).note, message).toBe('never runs: the action failed to launch');
			expect(o.wait, message).toMatchObject({deferPending: false});
		}
	});

	it('a finished deferPhase keeps its own note after a launch failure', () => {
		const o = adapt(
			{state: 'failed', actions: [statusAction('backup', [{name: 'dump', state: 'failed'}], {name: 'cleanup', state: 'complete'})]},
			{events: [event(t(1), 'ActionSetFailed Action: backup', 'Failed to launch Action as: x')]},
		);
		expect(defer(o).note).toBe('always runs');
	});

	it('a launch failure with no deferPhase: the summary does not speak of one', () => {
		const o = adapt(
			{state: 'failed', error: {message: 'launch broke'}, actions: [statusAction('backup', [{name: 'dump', state: 'failed'}])]},
			{events: [event(t(1), 'ActionSetFailed Action: backup', 'Failed to launch Action as: launch broke')]},
		);
		expect(o.summary).toBe('backup failed in phase dump: launch broke');
	});

	it('a deferPhase failure ends at its failure event when no end event came', () => {
		const o = adapt(
			{state: 'failed', error: {message: 'gone'}, actions: [statusAction('backup', [{name: 'dump', state: 'complete'}], {name: 'cleanup', state: 'failed'})]},
			{events: [deferStarted(2), event(t(5), 'ActionSetFailed Action: backup', 'Failed to execute defer phase: gone')]},
		);
		expect(defer(o)).toMatchObject({startedAt: t(2), endedAt: t(5), message: 'gone'});
	});
});

describe('which node status.error.message belongs to', () => {
	it('one failed phase: the status error is its message', () => {
		const o = adapt({state: 'failed', error: {message: 'null: disk full'}, actions: [statusAction('backup', [{name: 'dump', state: 'failed'}])]});
		expect(phases(o)[0]!.message).toBe('disk full');
	});

	it('two failed phases: neither owns it; each has its own failure event, or nothing', () => {
		const o = adapt(
			{state: 'failed', error: {message: 'status error'}, actions: [statusAction('a', [{name: 'p', state: 'failed'}]), statusAction('b', [{name: 'q', state: 'failed'}])]},
			{events: [event(t(1), 'ActionSetFailed Action: b', 'Failed to execute phase: v1alpha1.Phase{Name:"q", Progress:v1alpha1.PhaseProgress{}}: q broke')]},
		);
		expect([phases(o, 0)[0]!.message, phases(o, 1)[0]!.message]).toEqual([undefined, 'q broke']);
	});

	it('a failed deferPhase owns it (written last), the failed phase keeps its event\'s error', () => {
		const o = adapt(
			{state: 'failed', error: {message: 'defer error'}, actions: [statusAction('backup', [{name: 'dump', state: 'failed'}], {name: 'cleanup', state: 'failed'})]},
			{events: [event(t(1), 'ActionSetFailed Action: backup', 'Failed to execute phase: v1alpha1.Phase{Name:"dump", Progress:v1alpha1.PhaseProgress{}}: dump broke')]},
		);
		expect([phases(o)[0]!.message, defer(o).message]).toEqual(['dump broke', 'defer error']);
	});

	it('two failed deferPhases: neither owns it, nor does the one failed phase', () => {
		const o = adapt({
			state: 'failed', error: {message: 'status error'},
			actions: [statusAction('a', [{name: 'p', state: 'failed'}], {name: 'c1', state: 'failed'}), statusAction('b', [{name: 'q', state: 'complete'}], {name: 'c2', state: 'failed'})],
		}, {events: [event(t(2), 'ActionSetFailed Action: b', 'Failed to execute defer phase: c2 broke')]});
		expect([phases(o, 0)[0]!.message, defer(o, 0).message, defer(o, 1).message]).toEqual([undefined, undefined, 'c2 broke']);
	});

	it('a launch failure is the first phase\'s, a legacy failure the phase at its index', () => {
		const launched = adapt(
			{state: 'failed', actions: [statusAction('backup', [{name: 'dump', state: 'failed'}, {name: 'upload', state: 'failed'}])]},
			{events: [event(t(1), 'ActionSetFailed Action: backup', 'Failed to launch Action as: no pods')]},
		);
		expect(phases(launched).map(p => p.message)).toEqual(['no pods', undefined]);
		const legacy = adapt(
			{state: 'failed', actions: [statusAction('backup', [{name: 'dump', state: 'failed'}, {name: 'upload', state: 'failed'}])]},
			{events: [event(t(3), 'ActionSetFailed Action: backup', 'Failed to run phase 1 of action backup: old broke')]},
		);
		expect(phases(legacy).map(p => [p.message, p.endedAt])).toEqual([[undefined, undefined], ['old broke', t(3)]]);
	});
});

describe('a complete ActionSet with a phase not complete (pkg/validate rejects it)', () => {
	it.each<[string, Phase[], string]>([
		['a phase running', [{name: 'dump', state: 'complete'}, {name: 'upload', state: 'running'}], 'phase upload of action backup is running'],
		['a phase pending', [{name: 'dump', state: 'pending'}], 'phase dump of action backup is pending'],
		['an unnamed phase', [{state: 'running'}], 'phase (unnamed phase) of action backup is running'],
	])('%s', (_, list, what) => {
		const o = adapt({state: 'complete', actions: [statusAction('backup', list)]});
		expect(o).toMatchObject({outcome: 'unknown', state: 'unknown', summary: `inconsistent status: ActionSet complete but ${what}`, wait: {inconsistent: what}});
	});

	it('of an unnamed action', () => {
		const o = adapt({state: 'complete', actions: [statusAction('', [{name: 'p', state: 'running'}])]}, {spec: [specAction('')]});
		expect(o.wait).toMatchObject({inconsistent: 'phase p of action action is running'});
		expect(o.tree[0]!.name).toBe('action');
	});

	it('the first such phase of the first such action', () => {
		const o = adapt({state: 'complete', actions: [statusAction('a', [{name: 'p', state: 'complete'}]), statusAction('b', [{name: 'q', state: 'pending'}, {name: 'r', state: 'running'}])]});
		expect(o.wait).toMatchObject({inconsistent: 'phase q of action b is pending'});
	});

	it('not with phases only named from the Blueprint (Kanister rejects that status), nothing deferred waited for', () => {
		const o = adapt({state: 'complete'});
		expect(o.wait).not.toHaveProperty('inconsistent');
		expect(o).toMatchObject({outcome: 'unknown', wait: {deferPending: false, rejected: 'Number of actions in status actions and spec must match'}});
		expect(o.tree[0]).toMatchObject({status: 'pending', state: 'pending'});
		expect(phases(o).map(p => p.name)).toEqual(['dump', 'upload']);
	});
});

describe('phases named from the Blueprint', () => {
	it('a status action without phases takes them from its spec action\'s Blueprint', () => {
		const o = adapt({state: 'running', actions: [statusAction('backup', [], {name: 'cleanup', state: 'pending'})]});
		expect(phases(o).map(p => `${p.name} ${p.status}`)).toEqual(['dump pending', 'upload pending']);
		expect(o.wait).toMatchObject({deferPending: true});
	});

	it('a status action without phases and without a spec action stays without', () => {
		const o = adapt({state: 'running', actions: [statusAction('backup', [])]}, {spec: []});
		expect(phases(o)).toEqual([]);
		expect(o.tree[0]!.percent).toBeUndefined();
	});

	it('a status that never initialised shows the requested actions without phases', () => {
		const o = adapt({state: 'failed', error: {message: 'blueprint bp not found'}});
		expect(o.tree.map(a => [a.name, a.children.length])).toEqual([['backup', 0]]);
		expect(o.summary).toBe('failed to start: blueprint bp not found');
	});

	it('no status yet: the Blueprint\'s phases and deferPhase, all pending; none when the Blueprint has no deferPhase, or null', () => {
		expect(adapt(undefined).tree[0]!.children.map(c => `${c.kind} ${c.name}`)).toEqual(['phase dump', 'phase upload', 'deferPhase cleanup']);
		expect(adapt(undefined, {spec: [specAction('plain')]}).tree[0]!.children.map(c => c.kind)).toEqual(['phase']);
		expect(adapt(undefined, {spec: [specAction('nulldefer')]}).tree[0]!.children.map(c => c.kind)).toEqual(['phase']);
	});
});

describe('the action node', () => {
	it('names an unnamed phase and an unnamed action', () => {
		const o = adapt({state: 'running', actions: [statusAction('', [{state: 'running'}])]}, {spec: [specAction('')]});
		expect([o.tree[0]!.name, phases(o)[0]!.name, o.summary]).toEqual(['action', '(unnamed phase)', 'action running phase (unnamed phase) (0%)']);
		expect(phases(o)[0]!.id).toMatch(/phase/);
	});

	it('its detail: kind (or resource) and namespace/name', () => {
		const detail = (object: Record<string, unknown>) => adapt({state: 'running', actions: [{name: 'backup', phases: [{name: 'p', state: 'running'}], object}]}).tree[0]!.detail;
		expect(detail({kind: 'deployment', namespace: 'db', name: 'pg'})).toBe('deployment db/pg');
		expect(detail({resource: 'pvc', name: 'data'})).toBe('pvc data');
		expect(detail({name: 'data'})).toBe('data');
	});

	it('its percent: the mean of its phases\', numbers or numeric strings; the object\'s own when it is the only action', () => {
		const two = adapt({
			state: 'running',
			actions: [
				statusAction('a', [{name: 'p', state: 'complete', progress: {progressPercent: 100}}, {name: 'q', state: 'running', progress: {progressPercent: '50'}}]),
				statusAction('b', [{name: 'r', state: 'pending', progress: {progressPercent: 'soon'}}]),
			],
		});
		expect([two.tree[0]!.percent, two.tree[1]!.percent, phases(two, 1)[0]!.percent]).toEqual([75, 0, undefined]);
		expect(two.summary).toBe('a running phase q (75%) | b starting');
		const single = adapt({state: 'running', actions: [statusAction('a', [{name: 'q', state: 'running', progress: {progressPercent: 40}}])]});
		expect(single.summary).toBe('a running phase q (40%)');
		const own = adapt({state: 'running', progress: {percentCompleted: '12'}, actions: [statusAction('a', [{name: 'q', state: 'running', progress: {progressPercent: 40}}])]});
		expect(own.summary).toBe('a running phase q (12%)');
	});

	it('its start and end from the Events, the end only once it has finished and its start is known', () => {
		const events = [event(t(1), 'Started Action', 'Executing action backup'), event(t(2), 'Started Phase', 'Executing phase dump'), event(t(6), 'Ended Phase', 'Completed phase dump')];
		const done = adapt({state: 'complete', actions: [statusAction('backup', [{name: 'dump', state: 'complete'}])]}, {events});
		expect(done.tree[0]).toMatchObject({startedAt: t(1), endedAt: t(6)});
		const failed = adapt(
			{state: 'failed', actions: [statusAction('backup', [{name: 'dump', state: 'failed'}])]},
			{events: [...events.slice(0, 2), event(t(7), 'ActionSetFailed Action: backup', 'Failed to execute phase: v1alpha1.Phase{Name:"dump", Progress:v1alpha1.PhaseProgress{}}: x')]},
		);
		expect(failed.tree[0]).toMatchObject({startedAt: t(1), endedAt: t(7)});
		const running = adapt({state: 'running', actions: [statusAction('backup', [{name: 'dump', state: 'complete'}, {name: 'upload', state: 'running'}])]}, {events});
		expect(running.tree[0]!.startedAt).toBe(t(1));
		expect(running.tree[0]!.endedAt).toBeUndefined();
		const unknownStart = adapt({state: 'complete', actions: [statusAction('backup', [{name: 'dump', state: 'complete'}])]}, {events: events.slice(1)});
		expect(unknownStart.tree[0]!.endedAt).toBeUndefined();
	});

	it('the current action is the running one, else the first', () => {
		expect(adapt({state: 'running', actions: [statusAction('a', [{name: 'p', state: 'complete'}]), statusAction('b', [{name: 'q', state: 'running'}])]}).active).toBe('b');
		expect(adapt({state: 'failed', actions: [statusAction('a', [{name: 'p', state: 'failed'}]), statusAction('b', [{name: 'q', state: 'complete'}])]}).active).toBe('a');
	});
});
