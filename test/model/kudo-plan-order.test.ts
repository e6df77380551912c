import {describe, expect, test} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import {adaptEvent} from '../../source/model/adapt-event.js';
import {adaptInstance} from '../../source/model/adapt-kudo-instance.js';
import {lastRun, nextRunMemory, readKudoEvents} from '../../source/model/kudo-plan-order.js';
import type {PlanEvent} from '../../source/model/plan-tree.js';
import {waitVerdict} from '../../source/model/wait-rules.js';
import {Store} from '../../source/state/store.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {kudoInstance} from '../helpers/kudo-instance.js';

/*
 * The same-second case the real KUDO v0.19.0 manager produces: `kubectl kudo install` then `plan trigger --name
 * fails` 0.3 s later; deploy COMPLETE and fails FATAL_ERROR carry the same lastUpdatedTimestamp, and the webhook
 * has cleared spec.planExecution.
 */
const uid = 'inst-uid-1';

const sameSecond = (): KubeObject => kudoInstance({deploy: {status: 'COMPLETE', at: '2026-01-01T10:00:01Z'}, fails: {status: 'FATAL_ERROR', at: '2026-01-01T10:00:01Z'}});

/** A core/v1 Event the manager's recorder writes (reason, message per instance_controller.go v0.19.0). */
function event(reason: string, message: string, resourceVersion: string | undefined, at: string, about = uid): PlanEvent {
	const e = adaptEvent({
		apiVersion: 'v1',
		kind: 'Event',
		metadata: {name: `op.${reason}.${resourceVersion ?? at}`, namespace: 'default', uid: `e-${resourceVersion ?? at}-${message}`, ...(resourceVersion ? {resourceVersion} : {})},
		involvedObject: {kind: 'Instance', namespace: 'default', name: 'op', uid: about},
		reason,
		message,
		type: 'Normal',
		firstTimestamp: at,
		lastTimestamp: at,
		count: 1,
	});
	return e!;
}

const options = {now: Date.parse('2026-01-01T10:00:05Z'), deferGraceMs: 30_000, staleMs: 600_000};

describe('which KUDO plan ran last', () => {
	test('same second, nothing else to go by: says it cannot tell, and the wait does not succeed', () => {
		const o = adaptInstance(sameSecond());
		expect(o.active).toBe('fails');
		expect(o.wait).toMatchObject({undecided: {candidates: ['deploy', 'fails']}});
		expect(o.summary).toMatch(
			// eslint-disable-next-line @stylistic/max-len -- the expected message, as one regular expression
			/^cannot tell which plan ran last \(deploy COMPLETE, fails FATAL_ERROR\): all were last updated in the same second \(2026-01-01T10:00:01Z\) and no PlanStarted Events order them; fails failed/,
		);
		expect(waitVerdict(o, o, options)).toMatchObject({done: true, exitCode: 1});
		// No run is called the previous one when the order is unknown.
		expect(o.tree.find(n => n.name === 'deploy')?.note).toBe('last run');
	});

	test('the PlanStarted Events order same-second plans by their resourceVersion', () => {
		const events = [
			event('PlanStarted', 'Execution of plan deploy started', '100', '2026-01-01T10:00:01Z'),
			event('PlanStarted', 'Execution of plan fails started', '120', '2026-01-01T10:00:01Z'),
		];
		const o = adaptInstance(sameSecond(), undefined, {events});
		expect(o.active).toBe('fails');
		expect(o.wait).not.toHaveProperty('undecided');
		expect(o.summary).toMatch(/^fails failed/);
		expect(waitVerdict(o, o, options)).toMatchObject({done: true, exitCode: 1});

		// deploy re-run after fails (the recorder re-counts its event in place: a newer resourceVersion).
		const rerun = [event('PlanStarted', 'Execution of plan fails started', '120', '2026-01-01T10:00:01Z'), event('PlanStarted', 'Execution of plan deploy started', '130', '2026-01-01T10:00:01Z')];
		const again = adaptInstance(sameSecond(), undefined, {events: rerun});
		expect(again.active).toBe('deploy');
		expect(waitVerdict(again, again, options)).toEqual({done: true, exitCode: 0, summary: 'deploy completed'});
	});

	test('Events of an earlier Instance of the same name, or without an order, decide nothing', () => {
		const stale = [
			event('PlanStarted', 'Execution of plan deploy started', '100', '2026-01-01T10:00:01Z', 'old-uid'),
			event('PlanStarted', 'Execution of plan fails started', '90', '2026-01-01T10:00:01Z'),
		];
		expect(adaptInstance(sameSecond(), undefined, {events: stale}).wait).toMatchObject({undecided: {candidates: ['deploy', 'fails']}});
		const unordered = [
			event('PlanStarted', 'Execution of plan deploy started', undefined, '2026-01-01T10:00:01Z'),
			event('PlanStarted', 'Execution of plan fails started', undefined, '2026-01-01T10:00:01Z'),
		];
		expect(adaptInstance(sameSecond(), undefined, {events: unordered}).wait).toMatchObject({undecided: {candidates: ['deploy', 'fails']}});
		// Without resourceVersions, event times still order them when they differ.
		const timed = [
			event('PlanStarted', 'Execution of plan fails started', undefined, '2026-01-01T10:00:00Z'),
			event('PlanStarted', 'Execution of plan deploy started', undefined, '2026-01-01T10:00:01Z'),
		];
		expect(adaptInstance(sameSecond(), undefined, {events: timed}).active).toBe('deploy');
	});

	test('Events that cannot be read are named as the reason', () => {
		const o = adaptInstance(sameSecond(), undefined, {eventsReadable: false});
		expect(o.summary).toContain('and Events cannot be read to order them');
		expect(waitVerdict(o, o, options)).toMatchObject({done: true, exitCode: 1});
	});

	test('same second and the same outcome: nothing to be unsure of', () => {
		const o = adaptInstance(kudoInstance({deploy: {status: 'COMPLETE', at: '2026-01-01T10:00:01Z'}, update: {status: 'COMPLETE', at: '2026-01-01T10:00:01Z'}}));
		expect(o.wait).not.toHaveProperty('undecided');
		expect(waitVerdict(o, o, options)).toMatchObject({done: true, exitCode: 0});
	});

	test('a strictly later timestamp decides, whatever the Events say', () => {
		const o = adaptInstance(kudoInstance({deploy: {status: 'COMPLETE', at: '2026-01-01T10:00:02Z'}, fails: {status: 'FATAL_ERROR', at: '2026-01-01T10:00:01Z'}}));
		expect(o.active).toBe('deploy');
		expect(lastRun([{name: 'a', status: 'COMPLETE', updatedAt: '2026-01-01T10:00:02Z'}, {name: 'b', status: 'FATAL_ERROR', updatedAt: '2026-01-01T10:00:01Z'}], undefined, undefined)).toEqual({
			plan: 'a',
			by: 'time',
		});
	});

	test('two plans without timestamps: no `previous run` label, and no success claimed', () => {
		const o = adaptInstance(kudoInstance({deploy: {status: 'COMPLETE'}, fails: {status: 'FATAL_ERROR'}}));
		expect(o.summary).toMatch(/none has a lastUpdatedTimestamp/);
		expect(o.tree.map(n => n.note)).toEqual([undefined, undefined]);
		expect(waitVerdict(o, o, options)).toMatchObject({done: true, exitCode: 1});
	});

	test('starts seen while watching order the plans (planExecution while it was set, new status uids)', () => {
		const first = nextRunMemory(undefined, kudoInstance({deploy: {status: 'IN_PROGRESS', at: '2026-01-01T10:00:00Z'}}, {planName: 'deploy', uid: 'deploy-run'}));
		expect(first.order).toEqual({deploy: 0});
		const done = nextRunMemory(first, kudoInstance({deploy: {status: 'COMPLETE', at: '2026-01-01T10:00:01Z'}}));
		const scheduled = nextRunMemory(done, kudoInstance({deploy: {status: 'COMPLETE', at: '2026-01-01T10:00:01Z'}, fails: {status: 'NEVER_RUN', uid: ''}}, {planName: 'fails', uid: 'f1'}));
		expect(scheduled.order['fails']).toBeGreaterThan(0);
		const ended = nextRunMemory(scheduled, sameSecond());
		const o = adaptInstance(sameSecond(), undefined, {memory: ended});
		expect(o.active).toBe('fails');
		expect(o.wait).not.toHaveProperty('undecided');
		// Nothing changed: the same memory object (the store keeps it).
		expect(nextRunMemory(ended, sameSecond())).toBe(ended);
	});

	test('the store feeds the Instance its Events and what it saw: a wait begun after both plans still fails', () => {
		const store = new Store(new FakeClock());
		store.apply({type: 'upsert', resource: 'Instance', object: sameSecond()});
		expect(store.getSnapshot().objects[0]?.wait).toMatchObject({undecided: {}});
		for (const [rv, plan] of [['100', 'deploy'], ['120', 'fails']] as const) {
			store.apply({
				type: 'upsert',
				resource: 'Event',
				object: {
					apiVersion: 'v1',
					kind: 'Event',
					metadata: {name: `op.${rv}`, namespace: 'default', uid: `e${rv}`, resourceVersion: rv},
					involvedObject: {kind: 'Instance', namespace: 'default', name: 'op', uid},
					reason: 'PlanStarted',
					message: `Execution of plan ${plan} started`,
					type: 'Normal',
					lastTimestamp: '2026-01-01T10:00:01Z',
				},
			});
		}

		const o = store.getSnapshot().objects[0]!;
		expect(o.active).toBe('fails');
		expect(o.wait).not.toHaveProperty('undecided');
		expect(waitVerdict(o, o, options)).toMatchObject({done: true, exitCode: 1});
	});

	test('PlanFinished and combined messages are read; other reasons are not', () => {
		const facts = readKudoEvents(
			[
				event('PlanFinished', 'Execution of plan deploy finished with status COMPLETE', '5', '2026-01-01T10:00:01Z'),
				event('PlanStarted', '(combined from similar events): Execution of plan backup started', '6', '2026-01-01T10:00:02Z'),
				event('Other', 'Execution of plan x started', '7', '2026-01-01T10:00:03Z'),
			],
			{namespace: 'default', name: 'op', uid},
		);
		expect(facts.finished.get('deploy')).toMatchObject({status: 'COMPLETE', revision: '5'});
		expect([...facts.started.keys()]).toEqual(['backup']);
	});
});

describe('KUDO plan timers on the controller clock', () => {
	test('a plan already running when planwatch starts counts from its PlanStarted Event', () => {
		const raw = kudoInstance({deploy: {status: 'IN_PROGRESS', at: '2026-01-01T10:06:30Z'}}, {planName: 'deploy', uid: 'deploy-run'});
		const o = adaptInstance(raw, undefined, {events: [event('PlanStarted', 'Execution of plan deploy started', '10', '2026-01-01T10:00:00Z')]});
		expect(o.tree[0]).toMatchObject({startedAt: '2026-01-01T10:00:00Z'});
		expect(o.tree[0]).not.toHaveProperty('endedAt');
	});

	test('a finished plan: from its PlanStarted Event to its last update; an Event newer than the status is another run', () => {
		const done = adaptInstance(
			kudoInstance({deploy: {status: 'COMPLETE', at: '2026-01-01T10:00:19Z'}}),
			undefined,
			{events: [event('PlanStarted', 'Execution of plan deploy started', '10', '2026-01-01T10:00:00Z')]},
		);
		expect(done.tree[0]).toMatchObject({startedAt: '2026-01-01T10:00:00Z', endedAt: '2026-01-01T10:00:19Z'});
		const newer = adaptInstance(
			kudoInstance({deploy: {status: 'COMPLETE', at: '2026-01-01T10:00:19Z'}}),
			undefined,
			{events: [event('PlanStarted', 'Execution of plan deploy started', '10', '2026-01-01T10:00:30Z')]},
		);
		expect(newer.tree[0]).not.toHaveProperty('startedAt');
	});

	describe('a run planwatch saw start: its PlanStarted Event only when it is surely this run\'s', () => {
		const started = (rv: string, at: string): PlanEvent => event('PlanStarted', 'Execution of plan deploy started', rv, at);
		const previousRun = kudoInstance({deploy: {status: 'COMPLETE', at: '2026-01-01T10:00:00Z', uid: 'a'}});
		const newRun = kudoInstance({deploy: {status: 'IN_PROGRESS', at: '2026-01-01T10:01:00Z', uid: 'b'}}, {planName: 'deploy', uid: 'b'});
		/** The memory after seeing the previous run, then the new one with `known` Events already in. */
		const startsOf = (known: PlanEvent[]) => readKudoEvents(known, {namespace: 'default', name: 'op', uid}).started;
		const watched = (known: PlanEvent[]) => nextRunMemory(nextRunMemory(undefined, previousRun), newRun, known.length > 0 ? startsOf(known) : undefined);
		const startOf = (known: PlanEvent[], now: PlanEvent[]) => adaptInstance(newRun, undefined, {memory: watched(known), events: now}).tree[0]!.startedAt;

		test('an Event of a later second than the previous run\'s last update: this run\'s start (as a fresh read says)', () => {
			expect(startOf([], [started('10', '2026-01-01T10:00:59Z')])).toBe('2026-01-01T10:00:59Z');
			// What a store reading the final state afresh (no memory) says: the same.
			expect(adaptInstance(newRun, undefined, {events: [started('10', '2026-01-01T10:00:59Z')]}).tree[0]!.startedAt).toBe('2026-01-01T10:00:59Z');
		});

		test('the same second as the previous run\'s last update, and no newer write than when the run was seen starting: not told, none', () => {
			const old = started('10', '2026-01-01T10:00:00Z');
			expect(startOf([old], [old])).toBeUndefined();
		});

		test('re-counted after the run was seen starting (a greater resourceVersion), even in the same second: this run\'s', () => {
			expect(startOf([started('10', '2026-01-01T10:00:00Z')], [started('12', '2026-01-01T10:00:00Z')])).toBe('2026-01-01T10:00:00Z');
		});

		test('an Event older than the previous run\'s last update is the previous run\'s: none', () => {
			expect(startOf([started('9', '2026-01-01T09:59:58Z')], [started('9', '2026-01-01T09:59:58Z')])).toBeUndefined();
		});

		test('scheduled, then picked up: what was known when it was scheduled decides, not what came in between', () => {
			const scheduled = kudoInstance({deploy: {status: 'COMPLETE', at: '2026-01-01T10:00:00Z', uid: 'a'}}, {planName: 'deploy', uid: 'b'});
			const ownEvent = started('12', '2026-01-01T10:00:00Z');
			const atSchedule = nextRunMemory(nextRunMemory(undefined, previousRun), scheduled, startsOf([started('10', '2026-01-01T10:00:00Z')]));
			const pickedUp = nextRunMemory(atSchedule, newRun, startsOf([ownEvent]));
			expect(pickedUp.since?.['deploy']).toEqual({updatedAt: '2026-01-01T10:00:00Z', revision: '10'});
			expect(adaptInstance(newRun, undefined, {memory: pickedUp, events: [ownEvent]}).tree[0]!.startedAt).toBe('2026-01-01T10:00:00Z');
		});
	});
});
