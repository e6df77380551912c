import {describe, expect, test} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import {adaptEvent} from '../../source/model/adapt-event.js';
import {adaptInstance, derivePlanStatus} from '../../source/model/adapt-kudo-instance.js';
import {nextRunMemory} from '../../source/model/kudo-plan-order.js';
import type {PlanEvent, PlanNode, PlanObject} from '../../source/model/plan-tree.js';
import {kudoRecorded} from '../helpers/kudo-recorded.js';

/*
 * Table tests of model/adapt-kudo-instance.ts, one rule a row. Inputs in the shape the real KUDO v0.19.0 manager
 * writes (test/fixtures/kudo-recorded/) and by its rules: pkg/apis/kudo/v1beta1/instance_types.go (statuses,
 * IsTerminal = COMPLETE|FATAL_ERROR), pkg/engine/workflow/engine.go (a fatal step makes its phase and plan
 * FATAL_ERROR and stops; a transient error leaves the step ERROR and retries), instance_controller.go (PlanStarted
 * Events; a new spec.planExecution.uid is a run not yet picked up), pkg/apis/kudo/v1alpha1/instance_types.go (the
 * old shapes).
 */

type Step = {readonly name: string; readonly status: string; readonly message?: string};
type Phase = {readonly name: string; readonly status: string; readonly message?: string; readonly steps?: readonly Step[]};
type Plan = {readonly status?: string; readonly message?: string; readonly at?: string; readonly uid?: string; readonly phases?: readonly Phase[]};

const at = (s: number): string => `2026-12-01T21:01:${String(s).padStart(2, '0')}Z`;

function instance(plans: Record<string, Plan>, planExecution: Record<string, string> = {}, metadata: Record<string, unknown> = {}): KubeObject {
	const planStatus: Record<string, unknown> = {};
	for (const [name, p] of Object.entries(plans)) {
		planStatus[name] = {
			name,
			...(p.status === undefined ? {} : {status: p.status}),
			...(p.message ? {message: p.message} : {}),
			...(p.at ? {lastUpdatedTimestamp: p.at} : {}),
			...(p.uid === undefined ? {} : {uid: p.uid}),
			phases: (p.phases ?? []).map(ph => ({name: ph.name, status: ph.status, ...(ph.message ? {message: ph.message} : {}), steps: ph.steps ?? []})),
		};
	}

	return {
		apiVersion: 'kudo.dev/v1beta1',
		kind: 'Instance',
		metadata: {name: 'app', namespace: 'kudo-ns', uid: 'inst-1', resourceVersion: '251', creationTimestamp: at(0), ...metadata},
		spec: {operatorVersion: {name: 'planwatch-e2e-1.0.0-0.1.0'}, planExecution},
		status: {planStatus},
	};
}

/** One phase of one step, all with the plan's status. */
const simple = (status: string, extra: Partial<Plan> = {}): Plan => ({status, phases: [{name: 'main', status, steps: [{name: 'work', status}]}], uid: `u-${status}`, ...extra});

function operatorVersion(plans: Record<string, {strategy?: string; phases: Array<{name: string; strategy?: string; steps: string[]}>}>, name = 'planwatch-e2e-1.0.0-0.1.0'): KubeObject {
	return {
		apiVersion: 'kudo.dev/v1beta1',
		kind: 'OperatorVersion',
		metadata: {...(name ? {name} : {}), namespace: 'kudo-ns'},
		spec: {plans: Object.fromEntries(Object.entries(plans).map(([p, v]) =>
			[
				p,
				{...(v.strategy ? {strategy: v.strategy} : {}), phases: v.phases.map(ph => ({name: ph.name, ...(ph.strategy ? {strategy: ph.strategy} : {}), steps: ph.steps.map(s => ({name: s}))}))},
			]))},
	};
}

function started(plan: string, time: string, over: Record<string, unknown> = {}): PlanEvent {
	return adaptEvent({
		apiVersion: 'v1',
		kind: 'Event',
		metadata: {name: `app.${plan}.${time}`, namespace: 'kudo-ns', uid: `e-${plan}-${time}`, resourceVersion: String(Date.parse(time) / 1000 - 1_764_600_000)},
		involvedObject: {kind: 'Instance', namespace: 'kudo-ns', name: 'app', uid: 'inst-1'},
		reason: 'PlanStarted',
		message: `Execution of plan ${plan} started`,
		type: 'Normal',
		lastTimestamp: time,
		...over,
	})!;
}

const planNode = (o: PlanObject, name: string): PlanNode => {
	const n = o.tree.find(p => p.name === name);
	if (!n) {
		throw new Error(`no plan ${name}`);
	}

	return n;
};

const kudoWait = (o: PlanObject) => (o.wait.kind === 'Instance' ? o.wait : undefined);

describe('derivePlanStatus: the plan status the engine would have written, from its phases and steps', () => {
	const rows: Array<[string[], string]> = [
		[[], ''],
		[['', ''], ''],
		[['PENDING'], 'PENDING'],
		[['IN_PROGRESS'], 'IN_PROGRESS'],
		[['ERROR'], 'IN_PROGRESS'],
		[['COMPLETE'], 'COMPLETE'],
		[['NEVER_RUN'], 'NEVER_RUN'],
		[['FATAL_ERROR'], 'FATAL_ERROR'],
		[['COMPLETE', '', 'COMPLETE'], 'COMPLETE'],
		[['NEVER_RUN', 'NEVER_RUN'], 'NEVER_RUN'],
		[['PENDING', 'NEVER_RUN'], 'PENDING'],
		[['NEVER_RUN', 'PENDING'], 'PENDING'],
		[['PENDING', 'COMPLETE'], 'IN_PROGRESS'],
		[['COMPLETE', 'PENDING'], 'IN_PROGRESS'],
		[['COMPLETE', 'NEVER_RUN'], 'IN_PROGRESS'],
		[['NEVER_RUN', 'COMPLETE'], 'IN_PROGRESS'],
		[['ERROR', 'COMPLETE'], 'IN_PROGRESS'],
		[['COMPLETE', 'FATAL_ERROR', 'PENDING'], 'FATAL_ERROR'],
		[['WEIRD', 'FATAL_ERROR'], 'FATAL_ERROR'],
		[['WEIRD'], ''],
		[['COMPLETE', 'WEIRD'], ''],
		[['PENDING', 'WEIRD'], ''],
	];
	test.each(rows)('%j → %j', (statuses, want) => {
		expect(derivePlanStatus(statuses)).toBe(want);
	});
});

describe('plan nodes', () => {
	test('sorted by name, the active one marked; keys that read empty or twice are not read twice', () => {
		const o = adaptInstance(instance({
			stuck: simple('IN_PROGRESS', {at: at(32)}),
			deploy: simple('COMPLETE', {at: at(27)}),
			cleanup: simple('NEVER_RUN'),
			'': simple('FATAL_ERROR'),
			'deploy\u0007': simple('FATAL_ERROR'),
		}));
		expect(o.tree.map(n => [n.name, n.status, n.active])).toEqual([
			['cleanup', 'NEVER_RUN', false],
			['deploy', 'COMPLETE', false],
			['stuck', 'IN_PROGRESS', true],
		]);
	});

	test('a terminal plan stops the engine: what it left unfinished is stopped, with the reason', () => {
		const plan: Plan = {
			status: 'FATAL_ERROR',
			at: at(30),
			phases: [
				{
					name: 'a',
					status: 'FATAL_ERROR',
					message: 'phase broke',
					steps: [{name: 'boom', status: 'FATAL_ERROR'}, {name: 'left', status: 'PENDING'}, {name: 'going', status: 'IN_PROGRESS'}, {name: 'again', status: 'ERROR'}],
				},
				{name: 'b', status: 'IN_PROGRESS'},
				{name: 'c', status: 'ERROR'},
				{name: 'd', status: 'PENDING'},
			],
		};
		const o = adaptInstance(instance({fails: plan}), operatorVersion({fails: {phases: [{name: 'a', strategy: 'serial', steps: ['boom']}, {name: 'b', strategy: 'parallel', steps: []}]}}));
		const [a, b, c, d] = planNode(o, 'fails').children;
		expect(a).toMatchObject({state: 'failed', strategy: 'serial', message: 'phase broke'});
		expect(a).not.toHaveProperty('statusReason');
		expect(a!.children.map(s => [s.name, s.state, s.statusReason])).toEqual([
			['boom', 'failed', undefined],
			['left', 'stopped', 'stopped'],
			['going', 'stopped', 'stopped'],
			['again', 'stopped', 'stopped'],
		]);
		for (const phase of [b, c, d]) {
			expect(phase).toMatchObject({state: 'stopped', statusReason: 'stopped'});
		}

		expect(b).toMatchObject({strategy: 'parallel'});
		expect(c).not.toHaveProperty('strategy');
		expect(c).not.toHaveProperty('message');
		expect(o.summary).toBe('fails failed in phase a, step boom: phase broke');
		// A step left ERROR by a failed plan is not retried: the Instance failed, it is not retrying.
		expect(o).toMatchObject({state: 'failed', outcome: 'failed'});
	});

	test('COMPLETE stops the engine too; a running plan leaves its steps as they are', () => {
		const done = adaptInstance(instance({deploy: {status: 'COMPLETE', at: at(3), phases: [{name: 'p', status: 'COMPLETE', steps: [{name: 's', status: 'PENDING'}]}]}}));
		expect(planNode(done, 'deploy').children[0]!.children[0]).toMatchObject({state: 'stopped', statusReason: 'stopped'});
		const running = adaptInstance(instance({deploy: {status: 'IN_PROGRESS', at: at(3), phases: [{name: 'p', status: 'IN_PROGRESS', steps: [{name: 's', status: 'PENDING'}]}]}}));
		expect(planNode(running, 'deploy').children[0]!.children[0]).toMatchObject({state: 'pending'});
	});

	test('phases and steps only the OperatorVersion knows are NEVER_RUN, without messages; strategies from the same plan', () => {
		const ov = operatorVersion({
			deploy: {strategy: 'serial', phases: [{name: 'config', strategy: 'parallel', steps: ['settings', 'marker', 'extra']}, {name: 'later', steps: ['x']}]},
			backup: {phases: [{name: 'config', strategy: 'serial', steps: ['dump']}]},
		});
		const o = adaptInstance(
			instance({deploy: {
				status: 'IN_PROGRESS',
				at: at(3),
				uid: 'd1',
				phases: [{name: 'config', status: 'IN_PROGRESS', steps: [{name: 'settings', status: 'COMPLETE'}, {name: 'marker', status: 'IN_PROGRESS'}]}],
			}}),
			ov,
		);
		const deploy = planNode(o, 'deploy');
		expect(deploy).toMatchObject({strategy: 'serial'});
		expect(deploy.children.map(p => [p.name, p.status, p.strategy, p.children.map(s => `${s.name} ${s.status}`)])).toEqual([
			['config', 'IN_PROGRESS', 'parallel', ['settings COMPLETE', 'marker IN_PROGRESS', 'extra NEVER_RUN']],
			['later', 'NEVER_RUN', undefined, ['x NEVER_RUN']],
		]);
		for (const node of [deploy.children[1]!, deploy.children[0]!.children[2]!]) {
			expect(node).not.toHaveProperty('message');
		}

		expect(planNode(o, 'backup')).toMatchObject({status: 'NEVER_RUN', state: 'inactive', active: false});
		expect(planNode(o, 'backup')).not.toHaveProperty('strategy');
		expect(o).toMatchObject({steps: {done: 1, total: 4}, percent: 25});
	});

	test('an OperatorVersion of another name is not read; one without a name is', () => {
		const ov = (name: string) => operatorVersion({backup: {phases: [{name: 'dump', steps: ['s']}]}}, name);
		expect(adaptInstance(instance({deploy: simple('COMPLETE', {at: at(3)})}), ov('other-0.1.0')).tree.map(n => n.name)).toEqual(['deploy']);
		expect(adaptInstance(instance({deploy: simple('COMPLETE', {at: at(3)})}), ov('')).tree.map(n => n.name)).toEqual(['backup', 'deploy']);
	});
});

describe('a plan whose own status is missing (trimmed objects) takes it from its phases and steps', () => {
	const rows: Array<[string, Plan, string, string]> = [
		['phases COMPLETE', {phases: [{name: 'p', status: 'COMPLETE', steps: [{name: 's', status: 'COMPLETE'}]}], at: at(3)}, 'COMPLETE', 'deploy completed (plan status missing)'],
		[
			'a step FATAL_ERROR under a phase without status',
			{phases: [{name: 'p', status: '', steps: [{name: 's', status: 'FATAL_ERROR', message: 'boom'}]}], at: at(3)},
			'FATAL_ERROR',
			'deploy failed in phase p, step s: boom (plan status missing)',
		],
	];
	test.each(rows)('%s', (_, plan, derived, summary) => {
		const o = adaptInstance(instance({deploy: plan}));
		expect(o).toMatchObject({status: derived, summary});
		expect(planNode(o, 'deploy')).toMatchObject({status: '', statusReason: 'missing', note: `plan status missing: ${derived} per its phases`});
	});

	test('nothing to derive it from: no status, no note', () => {
		const o = adaptInstance(instance({deploy: {phases: [], at: at(3)}}));
		expect(planNode(o, 'deploy')).not.toHaveProperty('note');
		expect(planNode(o, 'deploy')).not.toHaveProperty('statusReason');
		expect(o).toMatchObject({summary: 'no plan has run yet', status: 'NEVER_RUN', state: 'inactive', outcome: 'unknown', updatedAt: at(3)});
	});

	test('an inactive plan with a derived status keeps both notes', () => {
		const o = adaptInstance(instance({deploy: {phases: [{name: 'p', status: 'COMPLETE'}], at: at(3)}, stuck: simple('IN_PROGRESS', {at: at(9)})}));
		expect(planNode(o, 'deploy').note).toBe('plan status missing: COMPLETE per its phases; last run');
	});
});

describe('notes on plans that are not the active one', () => {
	test('`last run` with an updatedAt, `previous run` without one only when the order is known, none for NEVER_RUN', () => {
		const o = adaptInstance(instance({a: simple('COMPLETE', {at: at(3)}), b: simple('COMPLETE'), c: simple('NEVER_RUN'), stuck: simple('IN_PROGRESS', {at: at(9)})}));
		expect(o.tree.map(n => [n.name, n.note])).toEqual([
			['a', 'last run'],
			['b', 'previous run'],
			['c', undefined],
			['stuck', undefined],
		]);
	});

	test('no `previous run` when the order of runs cannot be told', () => {
		const o = adaptInstance(instance({deploy: simple('COMPLETE'), fails: simple('FATAL_ERROR')}));
		expect(o.tree.map(n => n.note)).toEqual([undefined, undefined]);
		expect(kudoWait(o)?.undecided?.candidates).toEqual(['deploy', 'fails']);
	});
});

describe('the summary of the active plan', () => {
	const rows: Array<[string, Plan, string, string, string]> = [
		['PENDING', {status: 'PENDING', at: at(3), phases: [{name: 'p', status: 'PENDING', steps: [{name: 's', status: 'PENDING'}]}]}, 'running', 'pending', 'deploy pending (0/1 steps)'],
		[
			'a step retrying',
			{status: 'IN_PROGRESS', at: at(3), phases: [{name: 'p', status: 'IN_PROGRESS', steps: [{name: 'ok', status: 'COMPLETE'}, {name: 's', status: 'ERROR', message: 'A transient error'}]}]},
			'running',
			'retrying',
			'deploy: step s retrying (1/2 steps): A transient error',
		],
		[
			'a phase retrying, no step',
			{status: 'IN_PROGRESS', at: at(3), phases: [{name: 'ok', status: 'COMPLETE'}, {name: 'p', status: 'ERROR', message: 'phase trouble', steps: [{name: 's', status: 'IN_PROGRESS'}]}]},
			'running',
			'retrying',
			'deploy: phase p retrying (0/1 steps): phase trouble',
		],
		[
			'the plan ERROR',
			{status: 'ERROR', message: 'plan trouble', at: at(3), phases: [{name: 'p', status: 'IN_PROGRESS', steps: [{name: 's', status: 'IN_PROGRESS'}]}]},
			'running',
			'retrying',
			'deploy retrying (0/1 steps): plan trouble',
		],
		[
			'two steps in progress',
			{status: 'IN_PROGRESS', at: at(3), phases: [{name: 'p', status: 'IN_PROGRESS', steps: [{name: 'a', status: 'IN_PROGRESS'}, {name: 'b', status: 'IN_PROGRESS'}]}]},
			'running',
			'running',
			'deploy in progress: phase p, step a (+1 more) (0/2 steps)',
		],
		[
			'no step in progress: the first phase not complete',
			{
				status: 'IN_PROGRESS',
				at: at(3),
				phases: [{name: 'p', status: 'COMPLETE', steps: [{name: 'a', status: 'COMPLETE'}]}, {name: 'q', status: 'PENDING', steps: [{name: 'b', status: 'PENDING'}]}],
			},
			'running',
			'running',
			'deploy in progress: phase q (1/2 steps)',
		],
		[
			'no step in progress, every phase complete',
			{status: 'IN_PROGRESS', at: at(3), phases: [{name: 'p', status: 'COMPLETE', steps: [{name: 'a', status: 'COMPLETE'}]}]},
			'running',
			'running',
			'deploy in progress (1/1 steps)',
		],
		[
			'FATAL_ERROR in a step without a message: the phase\'s',
			{status: 'FATAL_ERROR', message: 'plan msg', at: at(3), phases: [{name: 'p', status: 'FATAL_ERROR', message: 'phase msg', steps: [{name: 's', status: 'FATAL_ERROR'}]}]},
			'failed',
			'failed',
			'deploy failed in phase p, step s: phase msg',
		],
		[
			'FATAL_ERROR in a step, no other message: the plan\'s',
			{status: 'FATAL_ERROR', message: 'plan msg', at: at(3), phases: [{name: 'p', status: 'FATAL_ERROR', steps: [{name: 's', status: 'FATAL_ERROR'}]}]},
			'failed',
			'failed',
			'deploy failed in phase p, step s: plan msg',
		],
		[
			'FATAL_ERROR in a phase only',
			{
				status: 'FATAL_ERROR',
				message: 'plan msg',
				at: at(3),
				phases: [{name: 'ok', status: 'COMPLETE'}, {name: 'p', status: 'FATAL_ERROR', message: 'phase msg', steps: [{name: 's', status: 'COMPLETE'}]}],
			},
			'failed',
			'failed',
			'deploy failed in phase p: phase msg',
		],
		[
			'FATAL_ERROR in a phase without a message',
			{status: 'FATAL_ERROR', message: 'plan msg', at: at(3), phases: [{name: 'p', status: 'FATAL_ERROR'}]},
			'failed',
			'failed',
			'deploy failed in phase p: plan msg',
		],
		['FATAL_ERROR, nowhere in particular', {status: 'FATAL_ERROR', message: 'plan msg', at: at(3), phases: [{name: 'p', status: 'COMPLETE'}]}, 'failed', 'failed', 'deploy failed: plan msg'],
		['FATAL_ERROR without any message', {status: 'FATAL_ERROR', at: at(3), phases: []}, 'failed', 'failed', 'deploy failed'],
		['a status KUDO does not have', {status: 'SUSPENDED', at: at(3), phases: []}, 'unknown', 'unknown', 'deploy has unknown status SUSPENDED'],
	];
	test.each(rows)('%s', (_, plan, outcome, state, summary) => {
		const o = adaptInstance(instance({deploy: plan}));
		expect({outcome: o.outcome, state: o.state, summary: o.summary}).toEqual({outcome, state, summary});
	});

	test('an active plan with an empty status and nothing to derive it from has no status', () => {
		const o = adaptInstance(instance({deploy: {status: '', phases: []}}, {planName: 'deploy', uid: ''}));
		expect(o.summary).toBe('deploy has no status');
	});

	test('scheduled, its run taken (same uid) but nothing written yet: pending, waiting to start', () => {
		const o = adaptInstance(instance({deploy: {status: 'NEVER_RUN', uid: 'u1', phases: []}}, {planName: 'deploy', uid: 'u1'}));
		expect(o).toMatchObject({state: 'pending', outcome: 'running', status: 'NEVER_RUN', summary: 'deploy scheduled, waiting to start'});
	});

	test('scheduled and not taken (another uid): queued, QUEUED, its steps not counted as done', () => {
		const o = adaptInstance(instance({backup: simple('COMPLETE', {at: at(3), uid: 'old'})}, {planName: 'backup', uid: 'new'}));
		expect(o).toMatchObject({status: 'QUEUED', state: 'pending', steps: {done: 0, total: 1}, summary: 'backup triggered, waiting for the controller to start it'});
		expect(kudoWait(o)).toMatchObject({queued: true, activeStatus: 'COMPLETE', scheduledPlan: 'backup', scheduledUid: 'new'});
	});

	test('scheduled with no status entry yet: the spec\'s status word', () => {
		const o = adaptInstance(instance({}, {planName: 'deploy', uid: 'u1', status: 'PENDING'}));
		expect(kudoWait(o)).toMatchObject({activePlan: 'deploy', activeStatus: 'PENDING', queued: true});
		const none = adaptInstance(instance({}, {planName: 'deploy', uid: 'u1'}));
		expect(kudoWait(none)).not.toHaveProperty('activeStatus');
	});
});

describe('which plan is active, and the object\'s time', () => {
	test('the running one, and the object\'s time is its own, not the later finished plan\'s', () => {
		const o = adaptInstance(instance({deploy: simple('COMPLETE', {at: at(40)}), stuck: simple('IN_PROGRESS', {at: at(32)})}));
		expect(o).toMatchObject({active: 'stuck', updatedAt: at(32)});
	});

	test('a plan with an empty status has not run: it never wins by its time', () => {
		const o = adaptInstance(instance({deploy: simple('COMPLETE', {at: at(3)}), broken: {status: '', at: at(9), phases: []}}));
		expect(o.active).toBe('deploy');
	});

	test('no plan has run: no active plan; the object\'s time is its plans\' latest', () => {
		const o = adaptInstance(instance({a: {status: 'NEVER_RUN', phases: [], at: at(5)}, b: {status: 'NEVER_RUN', phases: [], at: at(7)}}));
		expect(o).toMatchObject({summary: 'no plan has run yet', updatedAt: at(7)});
		expect(o).not.toHaveProperty('active');
		expect(o).not.toHaveProperty('percent');
	});

	test('undecided: the worst of the tied plans, the reason first, no success; unreadable Events named', () => {
		const o = adaptInstance(instance({deploy: simple('COMPLETE', {at: at(3)}), fails: simple('FATAL_ERROR', {at: at(3)})}));
		expect(o.active).toBe('fails');
		expect(o.summary).toBe(`cannot tell which plan ran last (deploy COMPLETE, fails FATAL_ERROR): all were last updated in the same second (${at(3)}) and no PlanStarted Events order them; ` +
			'fails failed in phase main, step work');
		expect(kudoWait(o)?.undecided).toEqual({candidates: ['deploy', 'fails'], reason: expect.stringMatching(/^cannot tell which plan ran last/) as unknown});
		const unreadable = adaptInstance(instance({deploy: simple('COMPLETE', {at: at(3)}), fails: simple('FATAL_ERROR', {at: at(3)})}), undefined, {eventsReadable: false});
		expect(unreadable.summary).toContain('and Events cannot be read to order them;');
	});

	test('the Events decide the tie, when they are this Instance\'s', () => {
		const tie = instance({deploy: simple('COMPLETE', {at: at(3)}), fails: simple('FATAL_ERROR', {at: at(3)})});
		expect(adaptInstance(tie, undefined, {events: [started('fails', at(2)), started('deploy', at(3))]}).active).toBe('deploy');
		expect(kudoWait(adaptInstance(tie, undefined, {events: [started('fails', at(2)), started('deploy', at(3))]}))).not.toHaveProperty('undecided');
		const another = (over: Record<string, unknown>) => [started('fails', at(2)), started('deploy', at(3), over)];
		for (const over of [
			{involvedObject: {kind: 'Instance', namespace: 'kudo-ns', name: 'app', uid: 'old-uid'}},
			{involvedObject: {kind: 'Instance', namespace: 'other-ns', name: 'app', uid: 'inst-1'}, metadata: {name: 'x', namespace: 'other-ns', uid: 'x'}},
			{involvedObject: {kind: 'Instance', namespace: 'kudo-ns', name: 'other', uid: 'inst-1'}},
		]) {
			expect(kudoWait(adaptInstance(tie, undefined, {events: another(over)}))?.undecided?.candidates).toEqual(['deploy', 'fails']);
		}

		const early = instance({deploy: simple('COMPLETE', {at: at(3)}), fails: simple('FATAL_ERROR', {at: at(3)})}, {}, {creationTimestamp: at(3)});
		expect(kudoWait(adaptInstance(early, undefined, {events: [started('fails', at(3)), started('deploy', at(2))]}))?.undecided).toBeDefined();
	});

	test('the wait facts: every plan\'s uid and status, the active one and its status', () => {
		const o = adaptInstance(instance(
			{deploy: simple('COMPLETE', {at: at(3), uid: 'd1'}), stuck: simple('IN_PROGRESS', {at: at(9), uid: 's1'}), never: {status: 'NEVER_RUN', phases: []}},
			{planName: 'stuck', uid: 's1'},
		));
		expect(o.wait).toEqual({
			kind: 'Instance',
			scheduledPlan: 'stuck',
			scheduledUid: 's1',
			planUids: {deploy: 'd1', never: '', stuck: 's1'},
			planStatuses: {deploy: 'COMPLETE', never: 'NEVER_RUN', stuck: 'IN_PROGRESS'},
			activePlan: 'stuck',
			activeStatus: 'IN_PROGRESS',
			queued: false,
		});
	});
});

describe('plan timers from the manager\'s PlanStarted Events', () => {
	type Row = [string, Plan, PlanEvent[], {startedAt?: string; endedAt?: string}];
	const rows: Row[] = [
		['running: from its Event', simple('IN_PROGRESS', {at: at(9)}), [started('deploy', at(1))], {startedAt: at(1)}],
		['ERROR is running too', simple('ERROR', {at: at(9)}), [started('deploy', at(1))], {startedAt: at(1)}],
		['PENDING is running too', simple('PENDING', {at: at(9)}), [started('deploy', at(1))], {startedAt: at(1)}],
		['COMPLETE: from its Event to its last update', simple('COMPLETE', {at: at(9)}), [started('deploy', at(1))], {startedAt: at(1), endedAt: at(9)}],
		['FATAL_ERROR: the same', simple('FATAL_ERROR', {at: at(9)}), [started('deploy', at(1))], {startedAt: at(1), endedAt: at(9)}],
		['started and updated in the same second', simple('COMPLETE', {at: at(9)}), [started('deploy', at(9))], {startedAt: at(9), endedAt: at(9)}],
		['an Event after the last update belongs to a run the status does not show yet', simple('COMPLETE', {at: at(9)}), [started('deploy', at(10))], {}],
		['finished but never updated: no end, so no start either', simple('COMPLETE'), [started('deploy', at(1))], {}],
		['running, never updated: from its Event', simple('IN_PROGRESS'), [started('deploy', at(1))], {startedAt: at(1)}],
		['a status KUDO does not have: no timer', simple('SUSPENDED', {at: at(9)}), [started('deploy', at(1))], {}],
		['no Event of this plan', simple('COMPLETE', {at: at(9)}), [started('other', at(1))], {}],
		['no Events at all', simple('COMPLETE', {at: at(9)}), [], {}],
	];
	test.each(rows)('%s', (_, plan, events, want) => {
		const node = planNode(adaptInstance(instance({deploy: plan}), undefined, {events}), 'deploy');
		expect({startedAt: node.startedAt, endedAt: node.endedAt}).toEqual({startedAt: want.startedAt, endedAt: want.endedAt});
		// Absent, not undefined: the json keys and the store's timers read their presence.
		expect(['startedAt' in node, 'endedAt' in node]).toEqual([want.startedAt !== undefined, want.endedAt !== undefined]);
	});

	test('a queued plan is not timed by its previous run\'s Event; the other plans are', () => {
		const raw = instance({backup: simple('COMPLETE', {at: at(5), uid: 'old'}), deploy: simple('COMPLETE', {at: at(3)})}, {planName: 'backup', uid: 'new'});
		const o = adaptInstance(raw, undefined, {events: [started('backup', at(4)), started('deploy', at(1))]});
		expect(planNode(o, 'backup')).not.toHaveProperty('startedAt');
		expect(planNode(o, 'deploy')).toMatchObject({startedAt: at(1), endedAt: at(3)});
	});

	test('a run planwatch saw start takes its PlanStarted Event of a later second than the previous run\'s last update', () => {
		const before = nextRunMemory(undefined, instance({deploy: simple('COMPLETE', {at: at(1), uid: 'a'})}));
		const raw = instance({deploy: simple('IN_PROGRESS', {at: at(9), uid: 'b'})}, {planName: 'deploy', uid: 'b'});
		const memory = nextRunMemory(before, raw);
		// A later second than the previous run's last update: this run's start.
		const o = adaptInstance(raw, undefined, {events: [started('deploy', at(8))], memory});
		expect(planNode(o, 'deploy')).toMatchObject({startedAt: at(8)});
		expect(planNode(adaptInstance(raw, undefined, {events: [started('deploy', at(8))], memory: nextRunMemory(undefined, raw)}), 'deploy')).toMatchObject({startedAt: at(8)});
	});
});

describe('what the real manager wrote (test/fixtures/kudo-recorded/delete-while-running)', () => {
	const recorded = kudoRecorded('delete-while-running');
	test('its cleanup running while the Instance goes: cleanup active, stuck left IN_PROGRESS, timed from the Events', () => {
		const raw = recorded.instances.at(-2)!.object;
		const o = adaptInstance(raw, undefined, {events: recorded.events});
		expect(o).toMatchObject({
			kind: 'Instance',
			namespace: 'kudo-delete-4266b0',
			name: 'app',
			uid: '8e5b3475-4284-4de5-b0b4-950abfb0f56d',
			resourceVersion: '251',
			createdAt: '2026-12-01T21:01:27Z',
			version: 'planwatch-e2e-1.0.0-0.1.0',
			active: 'cleanup',
			status: 'IN_PROGRESS',
			summary: 'cleanup in progress: phase teardown, step remove-settings (0/1 steps)',
			deletion: {since: '2026-12-01T21:01:33Z', finalizers: ['kudo.dev.instance.cleanup']},
		});
		expect(planNode(o, 'cleanup')).toMatchObject({startedAt: '2026-12-01T21:01:33Z'});
		expect(planNode(o, 'deploy')).toMatchObject({startedAt: '2026-12-01T21:01:27Z', endedAt: '2026-12-01T21:01:27Z', note: 'last run'});
		expect(planNode(o, 'stuck')).toMatchObject({status: 'IN_PROGRESS', state: 'running', startedAt: '2026-12-01T21:01:28Z', active: false});
	});
});

describe('kudo.dev/v1alpha1', () => {
	const v1alpha1 = (status: Record<string, unknown>): KubeObject => ({
		apiVersion: 'kudo.dev/v1alpha1',
		kind: 'Instance',
		metadata: {name: 'zk', namespace: 'default', uid: 'z1', resourceVersion: '7', creationTimestamp: '2019-08-01T09:00:00Z'},
		spec: {},
		status,
	});
	const plan = (status: string, extra: Record<string, unknown> = {}) => ({name: 'x', status, phases: [], ...extra});

	test('before KUDO 0.6: refused with the status it had, or without one; the refused object is whole', () => {
		const refused = adaptInstance(v1alpha1({status: 'COMPLETE'}));
		expect(refused).toEqual({
			kind: 'Instance',
			namespace: 'default',
			name: 'zk',
			uid: 'z1',
			resourceVersion: '7',
			createdAt: '2019-08-01T09:00:00Z',
			outcome: 'unknown',
			summary: 'kudo.dev/v1alpha1 Instance from KUDO before 0.6 (status COMPLETE): its plans are in PlanExecution objects, which planwatch does not read',
			state: 'unknown',
			status: '',
			wait: {kind: 'Instance', scheduledPlan: '', scheduledUid: '', planUids: {}, queued: false, unreadable: refused.summary},
			tree: [],
		});
		expect(adaptInstance(v1alpha1({activePlan: {name: 'zk-deploy-1'}})).summary).toBe('kudo.dev/v1alpha1 Instance from KUDO before 0.6: its plans are in PlanExecution objects, which ' +
			'planwatch does not read');
		const bare = adaptInstance({apiVersion: 'kudo.dev/v1alpha1', kind: 'Instance', metadata: {deletionTimestamp: '2019-08-01T10:00:00Z'}, status: {status: 'IN_PROGRESS'}});
		expect(bare).toMatchObject({namespace: '', name: '', deletion: {finalizers: []}});
		expect(bare).not.toHaveProperty('uid');
		expect(bare).not.toHaveProperty('createdAt');
	});

	test('nothing at all: no plan has run yet, not refused', () => {
		expect(adaptInstance(v1alpha1({})).summary).toBe('no plan has run yet');
	});

	test('0.6–0.9: lastFinishedRun is the time (lastUpdatedTimestamp first when both), aggregatedStatus names the active plan', () => {
		const o = adaptInstance(v1alpha1({
			// backup's time (09:30) is earlier than deploy's (10:00): only the controller's own record makes it active.
			aggregatedStatus: {activePlanName: 'backup', status: 'COMPLETE'},
			status: 'COMPLETE',
			planStatus: {
				deploy: plan('COMPLETE', {lastFinishedRun: '2019-08-01T10:00:00Z'}),
				backup: plan('COMPLETE', {lastFinishedRun: '2019-08-01T11:00:00Z', lastUpdatedTimestamp: '2019-08-01T09:30:00Z'}),
			},
		}));
		expect(o.active).toBe('backup');
		expect(o.summary).toBe('backup completed');
		expect(planNode(o, 'backup').updatedAt).toBe('2019-08-01T09:30:00Z');
		expect(planNode(o, 'deploy').updatedAt).toBe('2019-08-01T10:00:00Z');
	});

	test('an activePlanName that names no plan, or none: the order of runs decides', () => {
		const planStatus = {deploy: plan('COMPLETE', {lastFinishedRun: '2019-08-01T10:00:00Z'}), backup: plan('COMPLETE', {lastFinishedRun: '2019-08-01T11:00:00Z'})};
		expect(adaptInstance(v1alpha1({aggregatedStatus: {activePlanName: 'gone'}, planStatus})).active).toBe('backup');
		expect(adaptInstance(v1alpha1({aggregatedStatus: {}, planStatus})).active).toBe('backup');
	});

	test('a v1beta1 Instance is never read as v1alpha1, whatever its status holds', () => {
		const o = adaptInstance({...instance({deploy: simple('COMPLETE', {at: at(3)})}), status: {status: 'COMPLETE', planStatus: {deploy: simple('COMPLETE')}}});
		expect(o.summary).not.toMatch(/v1alpha1/);
		const beta = adaptInstance({apiVersion: 'kudo.dev/v1beta1', kind: 'Instance', metadata: {name: 'i'}, status: {status: 'COMPLETE', aggregatedStatus: {activePlanName: 'deploy'}}});
		expect(beta.summary).toBe('no plan has run yet');
	});
});
