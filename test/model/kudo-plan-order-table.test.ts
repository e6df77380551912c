import {describe, expect, test} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import {
	kudoEventsOf, lastRun, nextRunMemory, plannedStart, readKudoEvents, startedWhileWatched, watchedRunStart, type KudoRunMemory, type RunPlan,
} from '../../source/model/kudo-plan-order.js';
import type {PlanEvent} from '../../source/model/plan-tree.js';
import {kudoRecorded} from '../helpers/kudo-recorded.js';

/*
 * Table tests of model/kudo-plan-order.ts, one rule a row. The inputs are the real KUDO v0.19.0 manager's writes
 * (test/fixtures/kudo-recorded/: its Events and Instance statuses) and what kudobuilder/kudo v0.19.0 says it writes:
 * pkg/controller/instance/instance_controller.go records Normal `PlanStarted` "Execution of plan <p> started" and
 * `PlanFinished` "Execution of plan <p> finished with status <S>" on the Instance; the recorder re-counts a repeated
 * event in place (a newer resourceVersion); `lastUpdatedTimestamp` has one-second resolution;
 * pkg/apis/kudo/v1beta1/instance_types.go: IsRunning = PENDING, IN_PROGRESS, ERROR.
 */

const instance = {namespace: 'kudo-ns', name: 'app', uid: 'inst-1', createdAt: '2026-12-01T21:01:27Z'};

function ev(over: Partial<PlanEvent> & {reason: string; message: string}): PlanEvent {
	return {
		uid: `e-${over.revision ?? over.time ?? over.message}`,
		namespace: 'kudo-ns',
		involvedKind: 'Instance',
		involvedName: 'app',
		involvedUid: 'inst-1',
		type: 'Normal',
		count: 1,
		time: '2026-12-01T21:01:28Z',
		...over,
	};
}

const started = (plan: string, over: Partial<PlanEvent> = {}): PlanEvent => ev({reason: 'PlanStarted', message: `Execution of plan ${plan} started`, ...over});
const finished = (plan: string, status: string, over: Partial<PlanEvent> = {}): PlanEvent =>
	ev({reason: 'PlanFinished', message: `Execution of plan ${plan} finished with status ${status}`, ...over});

describe('readKudoEvents: which Events are about this Instance', () => {
	const cases: Array<[string, PlanEvent, boolean]> = [
		['the Instance itself', started('deploy'), true],
		['another kind of the same name (the OperatorVersion)', started('deploy', {involvedKind: 'OperatorVersion'}), false],
		['another Instance in the namespace', started('deploy', {involvedName: 'other'}), false],
		['the same name in another namespace', started('deploy', {namespace: 'elsewhere'}), false],
		['no namespace on the Event (a cluster-scoped recorder)', started('deploy', {namespace: ''}), true],
		['an earlier Instance of the same name (another uid)', started('deploy', {involvedUid: 'old-uid'}), false],
		['an Event that names no uid', started('deploy', {involvedUid: undefined}), true],
		['written before the Instance was created', started('deploy', {time: '2026-12-01T21:01:26Z'}), false],
		['written in the second the Instance was created', started('deploy', {time: '2026-12-01T21:01:27Z'}), true],
		['without a time', started('deploy', {time: undefined}), true],
	];
	test.each(cases)('%s: read %s', (_, e, read) => {
		expect(readKudoEvents([e], instance).started.has('deploy')).toBe(read);
	});

	// The same rows through the raw Instance: kudoEventsOf reads its namespace, name, uid and creation time.
	const raw: KubeObject = {
		apiVersion: 'kudo.dev/v1beta1',
		kind: 'Instance',
		metadata: {namespace: instance.namespace, name: instance.name, uid: instance.uid, creationTimestamp: instance.createdAt},
	};
	test.each(cases)('kudoEventsOf, %s: read %s', (_, e, read) => {
		expect(kudoEventsOf(raw, [e]).started.has('deploy')).toBe(read);
	});

	test('an Instance without uid or creation time reads Events of any uid and time', () => {
		const facts = readKudoEvents([started('deploy', {involvedUid: 'old-uid', time: '2020-01-01T00:00:00Z'})], {namespace: 'kudo-ns', name: 'app'});
		expect([...facts.started.keys()]).toEqual(['deploy']);
	});
});

describe('readKudoEvents: what the messages say', () => {
	const cases: Array<[string, PlanEvent, string[], string[]]> = [
		['PlanStarted', started('deploy'), ['deploy'], []],
		['PlanFinished', finished('deploy', 'COMPLETE'), [], ['deploy COMPLETE']],
		['combined by the EventAggregator', ev({reason: 'PlanStarted', message: '(combined from similar events): Execution of plan backup started'}), ['backup'], []],
		['a plan name with spaces', started('my plan'), ['my plan'], []],
		['PlanStarted with another message', ev({reason: 'PlanStarted', message: 'plan deploy began'}), [], []],
		['PlanStarted with text before the message', ev({reason: 'PlanStarted', message: 'xExecution of plan deploy started'}), [], []],
		['PlanStarted with text after the message', ev({reason: 'PlanStarted', message: 'Execution of plan deploy started again'}), [], []],
		['PlanFinished with another message', ev({reason: 'PlanFinished', message: 'plan deploy ended'}), [], []],
		['PlanFinished with text before the message', ev({reason: 'PlanFinished', message: 'xExecution of plan deploy finished with status COMPLETE'}), [], []],
		['PlanFinished with text after the status', ev({reason: 'PlanFinished', message: 'Execution of plan deploy finished with status COMPLETE now'}), [], []],
		['another reason with a finished message', ev({reason: 'DummyTaskError', message: 'Execution of plan deploy finished with status FATAL_ERROR'}), [], []],
		['another reason with a started message', ev({reason: 'Other', message: 'Execution of plan deploy started'}), [], []],
	];
	test.each(cases)('%s', (_, e, starts, ends) => {
		const facts = readKudoEvents([e], instance);
		expect([...facts.started.keys()]).toEqual(starts);
		expect([...facts.finished].map(([p, f]) => `${p} ${f.status}`)).toEqual(ends);
	});

	test('an entry keeps the time and revision it has, and no other key', () => {
		const facts = readKudoEvents([started('a', {revision: '7'}), started('b', {time: undefined}), finished('c', 'COMPLETE', {revision: '9', time: undefined})], instance);
		expect(facts.started.get('a')).toEqual({time: '2026-12-01T21:01:28Z', revision: '7'});
		expect(facts.started.get('b')).toEqual({});
		expect(facts.finished.get('c')).toEqual({status: 'COMPLETE', revision: '9'});
	});
});

describe('readKudoEvents: of several Events of one plan, the latest is kept', () => {
	// [first in the list, second in the list, the one kept]
	const cases: Array<[string, Partial<PlanEvent>, Partial<PlanEvent>, 'first' | 'second']> = [
		['greater revision second', {revision: '10', time: '2026-12-01T21:01:29Z'}, {revision: '20', time: '2026-12-01T21:01:28Z'}, 'second'],
		['greater revision first', {revision: '20', time: '2026-12-01T21:01:28Z'}, {revision: '10', time: '2026-12-01T21:01:29Z'}, 'first'],
		['revision 100 after 99 (by length, not text)', {revision: '99', time: '2026-12-01T21:01:29Z'}, {revision: '100', time: '2026-12-01T21:01:28Z'}, 'second'],
		['no revisions, later time second', {time: '2026-12-01T21:01:28Z'}, {time: '2026-12-01T21:01:29Z'}, 'second'],
		['no revisions, later time first', {time: '2026-12-01T21:01:29Z'}, {time: '2026-12-01T21:01:28Z'}, 'first'],
		['only the first has a revision: by time', {revision: '50', time: '2026-12-01T21:01:28Z'}, {revision: undefined, time: '2026-12-01T21:01:29Z'}, 'second'],
		['only the second has a revision: by time', {revision: undefined, time: '2026-12-01T21:01:29Z'}, {revision: '50', time: '2026-12-01T21:01:28Z'}, 'first'],
		['only the first has a revision, the same second: a tie keeps the first', {revision: '50', time: '2026-12-01T21:01:28Z'}, {revision: undefined, time: '2026-12-01T21:01:28Z'}, 'first'],
	];
	test.each(cases)('PlanStarted, %s', (_, a, b, kept) => {
		const facts = readKudoEvents([started('deploy', {uid: 'a', ...a}), started('deploy', {uid: 'b', ...b})], instance);
		const want = kept === 'first' ? a : b;
		expect(facts.started.get('deploy')).toEqual({...(want.time === undefined ? {} : {time: want.time}), ...(want.revision === undefined ? {} : {revision: want.revision})});
	});
	test.each(cases)('PlanFinished, %s', (_, a, b, kept) => {
		const facts = readKudoEvents([finished('deploy', 'FATAL_ERROR', {uid: 'a', ...a}), finished('deploy', 'COMPLETE', {uid: 'b', ...b})], instance);
		expect(facts.finished.get('deploy')?.status).toBe(kept === 'first' ? 'FATAL_ERROR' : 'COMPLETE');
	});
});

describe('readKudoEvents on what the real manager recorded', () => {
	test('delete-while-running: deploy, stuck, cleanup started; deploy and cleanup finished COMPLETE', () => {
		const {events, instanceMeta} = kudoRecorded('delete-while-running');
		const facts = readKudoEvents(events, instanceMeta);
		expect(Object.fromEntries(facts.started)).toEqual({
			deploy: {time: '2026-12-01T21:01:27Z', revision: '228'},
			stuck: {time: '2026-12-01T21:01:28Z', revision: '235'},
			cleanup: {time: '2026-12-01T21:01:33Z', revision: '247'},
		});
		expect(Object.fromEntries([...facts.finished].map(([p, f]) => [p, f.status]))).toEqual({deploy: 'COMPLETE', cleanup: 'COMPLETE'});
		expect(plannedStart(facts, 'stuck')).toBe('2026-12-01T21:01:28Z');
		expect(plannedStart(facts, 'fails')).toBeUndefined();
		expect(plannedStart(undefined, 'stuck')).toBeUndefined();
	});

	test('same-second-trigger: the DummyTaskError Event is no plan run; fails started after deploy by revision', () => {
		const {events, instanceMeta} = kudoRecorded('same-second-trigger');
		const facts = readKudoEvents(events, instanceMeta);
		expect([...facts.started.keys()].sort()).toEqual(['deploy', 'fails']);
		expect(facts.started.get('deploy')?.time).toBe(facts.started.get('fails')?.time);
		expect(lastRun(
			[{name: 'deploy', status: 'COMPLETE', updatedAt: '2026-12-01T21:07:03Z'}, {name: 'fails', status: 'FATAL_ERROR', updatedAt: '2026-12-01T21:07:03Z'}],
			undefined,
			facts,
		)).toEqual({
			plan: 'fails',
			by: 'events',
		});
	});
});

function raw(plans: Record<string, string>, planExecution: Record<string, string> = {}): KubeObject {
	const planStatus: Record<string, unknown> = {};
	for (const [p, uid] of Object.entries(plans)) {
		planStatus[p] = {name: p, status: uid ? 'COMPLETE' : 'NEVER_RUN', uid};
	}

	return {apiVersion: 'kudo.dev/v1beta1', kind: 'Instance', metadata: {name: 'app', namespace: 'kudo-ns'}, spec: {planExecution}, status: {planStatus}};
}

describe('nextRunMemory: the order of starts seen while watching', () => {
	test('first sight: the uids as they are, the scheduled plan at rank 0, nothing seen starting', () => {
		const m = nextRunMemory(undefined, raw({deploy: 'd1', fails: ''}, {planName: 'fails', uid: 'f1'}));
		expect(m).toEqual({order: {fails: 0}, rank: 0, uids: {deploy: 'd1'}, scheduled: 'fails f1', updated: {}});
		expect(startedWhileWatched(m, 'fails')).toBe(false);
		expect(startedWhileWatched(m, 'deploy')).toBe(false);
		expect(startedWhileWatched(undefined, 'deploy')).toBe(false);
		expect(nextRunMemory(undefined, raw({deploy: 'd1'}))).toEqual({order: {}, rank: 0, uids: {deploy: 'd1'}, scheduled: '', updated: {}});
	});

	test('keys and uids: an empty key or uid is no run; of two keys that read the same, the first', () => {
		const r: KubeObject = {
			kind: 'Instance',
			metadata: {},
			spec: {planExecution: {planName: 'deploy'}},
			status: {planStatus: {'': {uid: 'x'}, deploy: {uid: 'd1'}, 'deploy\u0007': {uid: 'd2'}, never: {uid: ''}}},
		};
		expect(nextRunMemory(undefined, r)).toEqual({order: {deploy: 0}, rank: 0, uids: {deploy: 'd1'}, scheduled: 'deploy ', updated: {}});
	});

	const start = (): KudoRunMemory => nextRunMemory(undefined, raw({deploy: 'd1'}));
	const cases: Array<[string, KubeObject, Partial<KudoRunMemory>]> = [
		['a new uid: a run the controller started', raw({deploy: 'd1', stuck: 's1'}), {order: {stuck: 1}, rank: 1}],
		['a changed uid: a re-run', raw({deploy: 'd2'}), {order: {deploy: 1}, rank: 1}],
		['a new planExecution: a run the webhook scheduled', raw({deploy: 'd1'}, {planName: 'stuck', uid: 's1'}), {order: {stuck: 1}, rank: 1, scheduled: 'stuck s1'}],
		['a new planExecution and the uid it makes', raw({deploy: 'd1', stuck: 's1'}, {planName: 'stuck', uid: 's1'}), {order: {stuck: 2}, rank: 2}],
		['two new uids', raw({deploy: 'd2', stuck: 's1'}), {order: {deploy: 1, stuck: 2}, rank: 2}],
	];
	test.each(cases)('%s', (_, next, want) => {
		const m = nextRunMemory(start(), next);
		expect(m).toMatchObject(want);
		expect(Object.keys(m.order).length).toBe(Object.keys(want.order ?? {}).length);
	});

	test('what was seen stays: earlier starts keep their rank when another starts', () => {
		const a = nextRunMemory(start(), raw({deploy: 'd1', stuck: 's1'}));
		const b = nextRunMemory(a, raw({deploy: 'd1', stuck: 's1', cleanup: 'c1'}));
		expect(b.order).toEqual({stuck: 1, cleanup: 2});
		expect(startedWhileWatched(b, 'stuck')).toBe(true);
	});

	test('nothing new: the same object; a cleared planExecution or a plan gone: a new one, no rank taken', () => {
		const scheduled = nextRunMemory(start(), raw({deploy: 'd1'}, {planName: 'stuck', uid: 's1'}));
		expect(nextRunMemory(scheduled, raw({deploy: 'd1'}, {planName: 'stuck', uid: 's1'}))).toBe(scheduled);
		const cleared = nextRunMemory(scheduled, raw({deploy: 'd1'}));
		expect(cleared).not.toBe(scheduled);
		// Seen starting while scheduled (no resourceVersion or update time known for it then).
		expect(cleared).toEqual({order: {stuck: 1}, rank: 1, uids: {deploy: 'd1'}, scheduled: '', since: {stuck: {}}, updated: {}});

		const two = nextRunMemory(start(), raw({deploy: 'd1', stuck: 's1'}));
		const gone = nextRunMemory(two, raw({deploy: 'd1'}));
		expect(gone).not.toBe(two);
		expect(gone).toEqual({order: {stuck: 1}, rank: 1, uids: {deploy: 'd1'}, scheduled: '', since: {stuck: {}}, updated: {}});
	});
});

const at = (s: number): string => `2026-12-01T21:01:${String(s).padStart(2, '0')}Z`;
const plan = (name: string, status: string, second?: number): RunPlan => ({name, status, ...(second === undefined ? {} : {updatedAt: at(second)})});
const memory = (order: Record<string, number>): KudoRunMemory => ({order, rank: Math.max(0, ...Object.values(order)), uids: {}, scheduled: ''});
const startsAt = (entries: Record<string, {time?: string; revision?: string}>): ReturnType<typeof readKudoEvents> => ({started: new Map(Object.entries(entries)), finished: new Map()});

describe('lastRun: which plan ran last, and on what evidence', () => {
	type Row = [string, RunPlan[], KudoRunMemory | undefined, ReturnType<typeof readKudoEvents> | undefined, ReturnType<typeof lastRun>];
	const rows: Row[] = [
		['no plan has run', [], undefined, undefined, undefined],
		['one plan', [plan('deploy', 'COMPLETE', 1)], undefined, undefined, {plan: 'deploy', by: 'only'}],
		['one running plan is still the only one', [plan('deploy', 'IN_PROGRESS', 1)], memory({deploy: 3}), undefined, {plan: 'deploy', by: 'only'}],
		['a running plan beats a later finished one (IN_PROGRESS)', [plan('deploy', 'COMPLETE', 9), plan('stuck', 'IN_PROGRESS', 1)], undefined, undefined, {plan: 'stuck', by: 'running'}],
		['PENDING is running', [plan('deploy', 'COMPLETE', 9), plan('stuck', 'PENDING', 1)], undefined, undefined, {plan: 'stuck', by: 'running'}],
		['ERROR (retrying) is running', [plan('deploy', 'COMPLETE', 9), plan('stuck', 'ERROR', 1)], undefined, undefined, {plan: 'stuck', by: 'running'}],
		// The recording delete-while-running: stuck left IN_PROGRESS when the manager replaced it by cleanup.
		['two running: the later updated (cleanup after stuck)', [plan('cleanup', 'IN_PROGRESS', 33), plan('stuck', 'IN_PROGRESS', 32)], undefined, undefined, {plan: 'cleanup', by: 'running'}],
		['two running, the later first by name', [plan('a', 'IN_PROGRESS', 33), plan('b', 'IN_PROGRESS', 32)], undefined, undefined, {plan: 'a', by: 'running'}],
		['two running, the later second by name', [plan('a', 'IN_PROGRESS', 32), plan('b', 'ERROR', 33)], undefined, undefined, {plan: 'b', by: 'running'}],
		['two running in the same second: the first by name', [plan('b', 'IN_PROGRESS', 33), plan('a', 'PENDING', 33)], undefined, undefined, {plan: 'a', by: 'running'}],
		['a strictly later timestamp', [plan('deploy', 'COMPLETE', 2), plan('fails', 'FATAL_ERROR', 1)], undefined, undefined, {plan: 'deploy', by: 'time'}],
		['a strictly later timestamp, second by name', [plan('a', 'COMPLETE', 1), plan('b', 'FATAL_ERROR', 2)], undefined, undefined, {plan: 'b', by: 'time'}],
		[
			'a later timestamp wins over the watch and the Events',
			[plan('a', 'COMPLETE', 2), plan('b', 'FATAL_ERROR', 1)],
			memory({b: 5}),
			startsAt({a: {revision: '1'}, b: {revision: '9'}}),
			{plan: 'a', by: 'time'},
		],
		['a plan without a timestamp never wins over one with it', [plan('a', 'FATAL_ERROR'), plan('b', 'COMPLETE', 1)], undefined, undefined, {plan: 'b', by: 'time'}],
		['same second, seen starting later while watching', [plan('deploy', 'COMPLETE', 3), plan('fails', 'FATAL_ERROR', 3)], memory({deploy: 1, fails: 2}), undefined, {plan: 'fails', by: 'watch'}],
		[
			'same second, seen starting earlier while watching',
			[plan('deploy', 'COMPLETE', 3), plan('fails', 'FATAL_ERROR', 3)],
			memory({deploy: 2, fails: 1}),
			undefined,
			{plan: 'deploy', by: 'watch'},
		],
		[
			'same second, only one seen (the scheduled one at first sight)',
			[plan('deploy', 'COMPLETE', 3), plan('fails', 'FATAL_ERROR', 3)],
			memory({fails: 0}),
			undefined,
			{plan: 'fails', by: 'watch'},
		],
		[
			'same second, the watch outranks the Events',
			[plan('deploy', 'COMPLETE', 3), plan('fails', 'FATAL_ERROR', 3)],
			memory({deploy: 1}),
			startsAt({deploy: {revision: '1'}, fails: {revision: '9'}}),
			{plan: 'deploy', by: 'watch'},
		],
		[
			'same second, the Events by revision',
			[plan('deploy', 'COMPLETE', 3), plan('fails', 'FATAL_ERROR', 3)],
			undefined,
			startsAt({deploy: {revision: '305'}, fails: {revision: '298'}}),
			{plan: 'deploy', by: 'events'},
		],
		[
			'same second, the Events by revision, by length',
			[plan('deploy', 'COMPLETE', 3), plan('fails', 'FATAL_ERROR', 3)],
			undefined,
			startsAt({deploy: {revision: '99'}, fails: {revision: '100'}}),
			{plan: 'fails', by: 'events'},
		],
		[
			'same second, the Events by time',
			[plan('deploy', 'COMPLETE', 3), plan('fails', 'FATAL_ERROR', 3)],
			undefined,
			startsAt({deploy: {time: at(2)}, fails: {time: at(1)}}),
			{plan: 'deploy', by: 'events'},
		],
		[
			'same second, the Events by time, second by name',
			[plan('deploy', 'COMPLETE', 3), plan('fails', 'FATAL_ERROR', 3)],
			undefined,
			startsAt({deploy: {time: at(1)}, fails: {time: at(2)}}),
			{plan: 'fails', by: 'events'},
		],
		[
			'same second, one Event with a revision only: by time, which it lacks',
			[plan('deploy', 'COMPLETE', 3), plan('fails', 'FATAL_ERROR', 3)],
			undefined,
			startsAt({deploy: {revision: '5', time: at(1)}, fails: {time: at(2)}}),
			{plan: 'fails', by: 'events'},
		],
		[
			'same second, Events in the same second without revisions',
			[plan('deploy', 'COMPLETE', 3), plan('fails', 'COMPLETE', 3)],
			undefined,
			startsAt({deploy: {time: at(2)}, fails: {time: at(2)}}),
			{plan: 'deploy', by: 'time'},
		],
		['same second, one plan has no Event', [plan('deploy', 'COMPLETE', 3), plan('fails', 'COMPLETE', 3)], undefined, startsAt({fails: {revision: '9'}}), {plan: 'deploy', by: 'time'}],
		['same second, Events without times or revisions', [plan('deploy', 'COMPLETE', 3), plan('fails', 'COMPLETE', 3)], undefined, startsAt({deploy: {}, fails: {}}), {plan: 'deploy', by: 'time'}],
		['same second, same outcome: nothing to be unsure of', [plan('b', 'COMPLETE', 3), plan('a', 'COMPLETE', 3)], undefined, undefined, {plan: 'a', by: 'time'}],
		['same second, only the tied are compared', [plan('a', 'COMPLETE', 1), plan('b', 'FATAL_ERROR', 3), plan('c', 'FATAL_ERROR', 3)], undefined, undefined, {plan: 'b', by: 'time'}],
	];
	test.each(rows)('%s', (_, plans, m, events, want) => {
		expect(lastRun(plans, m, events)).toEqual(want);
	});

	test('the order of the plans given does not matter', () => {
		const forward = [plan('a', 'COMPLETE', 3), plan('b', 'WEIRD', 3), plan('c', 'COMPLETE', 3)];
		const a = lastRun(forward, undefined, undefined);
		expect(lastRun([...forward].reverse(), undefined, undefined)).toEqual(a);
		expect(lastRun([forward[1]!, forward[2]!, forward[0]!], undefined, undefined)).toEqual(a);
		expect(a).toMatchObject({plan: 'b', by: 'unknown', candidates: ['a', 'b', 'c']});
	});
});

describe('lastRun: an order it cannot tell', () => {
	// [plans tied in one second, the worst that stands for them]
	const worst: Array<[string[], string]> = [
		[['COMPLETE', 'FATAL_ERROR'], 'b'],
		[['FATAL_ERROR', 'COMPLETE'], 'a'],
		[['COMPLETE', 'WEIRD'], 'b'],
		[['WEIRD', 'COMPLETE'], 'a'],
		[['WEIRD', 'FATAL_ERROR'], 'b'],
		[['FATAL_ERROR', 'WEIRD'], 'a'],
		[['WEIRD', 'OTHER'], 'a'],
		[['FATAL_ERROR', 'COMPLETE', 'FATAL_ERROR'], 'a'],
	];
	test.each(worst)('statuses %j: the worst is %s', (statuses, want) => {
		const plans = statuses.map((s, i) => plan(String.fromCodePoint(97 + i), s, 3));
		const r = lastRun(plans, undefined, undefined);
		expect(r).toMatchObject({plan: want, by: 'unknown', candidates: plans.map(p => p.name)});
	});

	test('the reason names the tied plans, the second, and why the Events do not help', () => {
		const plans = [plan('fails', 'FATAL_ERROR', 3), plan('deploy', 'COMPLETE', 3), plan('old', 'COMPLETE', 1)];
		expect(lastRun(plans, undefined, undefined)).toEqual({
			plan: 'fails',
			by: 'unknown',
			candidates: ['deploy', 'fails'],
			reason: `cannot tell which plan ran last (deploy COMPLETE, fails FATAL_ERROR): all were last updated in the same second (${at(3)}) and no PlanStarted Events order them`,
		});
		expect(lastRun(plans, undefined, undefined, false)).toMatchObject({
			reason: `cannot tell which plan ran last (deploy COMPLETE, fails FATAL_ERROR): all were last updated in the same second (${at(3)}) and Events cannot be read to order them`,
		});
		expect(lastRun([plan('b', 'COMPLETE'), plan('a', 'FATAL_ERROR')], undefined, startsAt({a: {}}))).toEqual({
			plan: 'a',
			by: 'unknown',
			candidates: ['a', 'b'],
			reason: 'cannot tell which plan ran last (a FATAL_ERROR, b COMPLETE): none has a lastUpdatedTimestamp and no PlanStarted Events order them',
		});
	});
});

describe('watchedRunStart: a run planwatch saw start takes its PlanStarted Event only when it is surely this run\'s', () => {
	const t = (second: number): string => `2026-12-01T21:01:${String(second).padStart(2, '0')}Z`;
	const memory = (since: {revision?: string; updatedAt?: string} | undefined): KudoRunMemory => ({
		order: {}, rank: 0, uids: {}, scheduled: '', ...(since ? {since: {deploy: since}} : {}),
	});
	const facts = (event: {time?: string; revision?: string} | undefined) => ({started: new Map(event ? [['deploy', event]] : []), finished: new Map()});
	const cases: Array<[string, {time?: string; revision?: string} | undefined, {revision?: string; updatedAt?: string} | undefined, string | undefined]> = [
		['no PlanStarted Event', undefined, {revision: '10', updatedAt: t(5)}, undefined],
		['an Event without a time', {revision: '11'}, {revision: '10', updatedAt: t(5)}, undefined],
		['not seen starting: a fresh read times it from the Event elsewhere', {time: t(6), revision: '11'}, undefined, undefined],
		['written after the start was seen (a newer resourceVersion)', {time: t(5), revision: '11'}, {revision: '10', updatedAt: t(5)}, t(5)],
		['an older resourceVersion in the previous run\'s second: the previous run\'s', {time: t(5), revision: '9'}, {revision: '10', updatedAt: t(5)}, undefined],
		['the same resourceVersion: the previous run\'s', {time: t(5), revision: '10'}, {revision: '10', updatedAt: t(5)}, undefined],
		['an older resourceVersion but a later second than the previous run\'s last update', {time: t(6), revision: '9'}, {revision: '10', updatedAt: t(5)}, t(6)],
		['no PlanStarted known then, the Event in the previous run\'s second', {time: t(5)}, {updatedAt: t(5)}, t(5)],
		['no PlanStarted known then, the Event before the previous run\'s last update', {time: t(4)}, {updatedAt: t(5)}, undefined],
		['nothing known then: any Event', {time: t(1)}, {}, t(1)],
		['no previous update known, an older resourceVersion', {time: t(1), revision: '9'}, {revision: '10'}, t(1)],
	];
	test.each(cases)('%s', (_, event, since, want) => {
		expect(watchedRunStart(facts(event), memory(since), 'deploy')).toBe(want);
	});
});
