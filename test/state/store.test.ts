import {describe, expect, it} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {objectTimingId, Store} from '../../source/state/store.js';
import {loadFixture, loadFixtureObject} from '../helpers/fixtures.js';

function deployWith(step: 'IN_PROGRESS' | 'COMPLETE' | 'ERROR'): KubeObject {
	const o = structuredClone(loadFixtureObject('kudo/instance-mysql-deploy-in-progress.yaml'));
	const status = o['status'] as {planStatus: Record<string, {status: string; phases: Array<{status: string; steps: Array<{name: string; status: string}>}>}>};
	for (const s of status.planStatus['deploy']!.phases[0]!.steps) {
		if (s.name === 'init') {
			s.status = step;
		}
	}

	return o;
}

describe('store', () => {
	it('keeps one copy of the plan nodes that objects have in common', () => {
		const store = new Store(new FakeClock());
		const raw = loadFixtureObject('kanister/actionset-mysql-backup-complete.yaml');
		for (const name of ['one', 'two']) {
			store.apply({type: 'upsert', resource: 'ActionSet', object: {...structuredClone(raw), metadata: {...raw.metadata, name}}});
		}

		const [one, two] = store.getSnapshot().objects;
		expect(one!.name).toBe('one');
		expect(two!.tree[0]).toBe(one!.tree[0]);
	});

	it('an object that comes again with only a new resourceVersion (a relist, a write of what was there) is not adapted again', async () => {
		const clock = new FakeClock();
		const store = new Store(clock);
		const raw = loadFixtureObject('kanister/actionset-mysql-backup-running.yaml');
		const withVersion = (rv: string) => ({...structuredClone(raw), metadata: {...raw.metadata, name: 'one', resourceVersion: rv}});
		store.apply({type: 'upsert', resource: 'ActionSet', object: withVersion('1')});
		const first = store.getSnapshot();
		let notified = 0;
		store.subscribe(() => notified++);

		clock.advance(5000);
		store.apply({type: 'upsert', resource: 'ActionSet', object: withVersion('2')});
		store.apply({type: 'replace', resource: 'ActionSet', objects: [withVersion('3')]});
		const second = store.getSnapshot();
		// The same adapted object (adapting makes a new one), no change for a reader, no transition.
		expect(second.objects[0]).toBe(first.objects[0]);
		expect(second.changes?.between(first.version, second.version)).toEqual([]);
		expect(second.transitions).toBe(first.transitions);
		// Still an event: the header's age moves, and subscribers hear of it.
		expect(second.lastEventAt).toBe(clock.now());
		await Promise.resolve();
		expect(notified).toBe(1);

		// A change that shows is adapted as before.
		const changed = withVersion('4') as KubeObject & {status: {progress: {percentCompleted: string}}};
		changed.status.progress.percentCompleted = '77';
		store.apply({type: 'upsert', resource: 'ActionSet', object: changed});
		const third = store.getSnapshot();
		expect(third.objects[0]).not.toBe(first.objects[0]);
		expect(third.changes?.between(second.version, third.version)).toHaveLength(1);
	});

	it('adapts objects, sorts them and notifies once per batch', async () => {
		const clock = new FakeClock();
		const store = new Store(clock);
		let notified = 0;
		store.subscribe(() => notified++);
		for (const o of [
			...loadFixture('kanister/actionset-mysql-backup-complete.yaml'),
			...loadFixture('kudo/operatorversion-mysql.yaml'),
			loadFixtureObject('kudo/instance-mysql-deploy-in-progress.yaml'),
		]) {
			store.apply({type: 'upsert', resource: o.kind as 'Instance', object: o});
		}

		await Promise.resolve();
		expect(notified).toBe(1);
		const snap = store.getSnapshot();
		expect(snap.objects.map(o => o.kind)).toEqual(['ActionSet', 'Instance']);
		expect(store.getSnapshot()).toBe(snap);
	});

	it('an update never changes the objects of a snapshot already handed out, however many follow between snapshots', () => {
		const clock = new FakeClock();
		const store = new Store(clock);
		for (const o of loadFixture('kudo/operatorversion-mysql.yaml')) {
			store.apply({type: 'upsert', resource: 'OperatorVersion', object: o});
		}

		const names = ['a', 'b', 'c'];
		const named = (name: string, step: 'IN_PROGRESS' | 'COMPLETE' | 'ERROR') => {
			const o = deployWith(step);
			return {...o, metadata: {...o.metadata, name}};
		};

		for (const name of names) {
			store.apply({type: 'upsert', resource: 'Instance', object: named(name, 'IN_PROGRESS')});
		}

		const first = store.getSnapshot();
		const before = [...first.objects];
		store.apply({type: 'upsert', resource: 'Instance', object: named('b', 'COMPLETE')});
		store.apply({type: 'upsert', resource: 'Instance', object: named('c', 'COMPLETE')});
		const second = store.getSnapshot();
		store.apply({type: 'upsert', resource: 'Instance', object: named('a', 'ERROR')});
		const third = store.getSnapshot();
		// The same adapted objects, not just equal ones.
		expect(first.objects.every((o, i) => o === before[i])).toBe(true);
		expect(second.objects.map(o => o.name)).toEqual(names);
		expect([second.objects[0] === before[0], second.objects[1] === before[1], second.objects[2] === before[2]]).toEqual([true, false, false]);
		expect(second.objects[0]).toBe(before[0]);
		expect(third.objects[0]).not.toBe(before[0]);
		expect(third.objects.slice(1)).toEqual(second.objects.slice(1));
		expect(second.objects[0]).toBe(before[0]);
	});

	it('times a step from when it was seen running to when it was seen finished, and logs the transition', () => {
		const clock = new FakeClock();
		const store = new Store(clock);
		for (const o of loadFixture('kudo/operatorversion-mysql.yaml')) {
			store.apply({type: 'upsert', resource: 'OperatorVersion', object: o});
		}

		store.apply({type: 'upsert', resource: 'Instance', object: deployWith('IN_PROGRESS')});
		const start = clock.now();
		clock.advance(41_000);
		store.apply({type: 'upsert', resource: 'Instance', object: deployWith('COMPLETE')});
		const snap = store.getSnapshot();
		const key = 'Instance/default/mysql-instance';
		const timings = snap.timings.get(key)!;
		// First seen already running: its start is not known, so the 41 s are a lower bound.
		expect(timings.get('plan:deploy/phase:deploy/step:init')).toEqual({startedAt: start, endedAt: start + 41_000, atLeast: true});
		const t = snap.transitions.find(x => x.path.at(-1) === 'init');
		expect(t).toMatchObject({from: 'IN_PROGRESS', to: 'COMPLETE', durationMs: 41_000, atLeast: true, path: ['deploy', 'deploy', 'init']});
		expect(timings.get(objectTimingId)?.startedAt).toBeDefined();
	});

	it('a step left IN_PROGRESS when its plan turns FATAL_ERROR is stopped: its timer ends there', () => {
		const clock = new FakeClock();
		const store = new Store(clock);
		store.apply({type: 'upsert', resource: 'Instance', object: deployWith('IN_PROGRESS')});
		const start = clock.now();
		clock.advance(5000);
		const fatal = deployWith('IN_PROGRESS');
		const plan = (fatal['status'] as {planStatus: Record<string, {status: string; phases: Array<{status: string; steps: Array<{name: string; status: string}>}>}>}).planStatus['deploy']!;
		plan.status = 'FATAL_ERROR';
		plan.phases[0]!.status = 'FATAL_ERROR';
		plan.phases[0]!.steps[0]!.status = 'FATAL_ERROR';
		store.apply({type: 'upsert', resource: 'Instance', object: fatal});
		clock.advance(60_000);
		store.apply({type: 'upsert', resource: 'Instance', object: fatal});
		const timings = store.getSnapshot().timings.get('Instance/default/mysql-instance')!;
		expect(timings.get('plan:deploy/phase:deploy/step:init')).toEqual({startedAt: start, endedAt: start + 5000, atLeast: true});
	});

	it('a node seen starting has a true duration; one first seen running only a lower bound, lowered to its children\'s recorded start', () => {
		const clock = new FakeClock();
		const store = new Store(clock);
		const pending = deployWith('IN_PROGRESS');
		const steps = (o: KubeObject) => (o['status'] as {planStatus: Record<string, {phases: Array<{steps: Array<{name: string; status: string}>}>}>}).planStatus['deploy']!.phases[0]!.steps;
		steps(pending).find(s => s.name === 'init')!.status = 'PENDING';
		store.apply({type: 'upsert', resource: 'Instance', object: pending});
		const seen = clock.now();
		clock.advance(2000);
		store.apply({type: 'upsert', resource: 'Instance', object: deployWith('IN_PROGRESS')});
		clock.advance(3000);
		store.apply({type: 'upsert', resource: 'Instance', object: deployWith('COMPLETE')});
		const timings = store.getSnapshot().timings.get('Instance/default/mysql-instance')!;
		expect(timings.get('plan:deploy/phase:deploy/step:init')).toEqual({startedAt: seen + 2000, endedAt: seen + 5000});
		// The plan was running at first sight: a lower bound.
		expect(timings.get('plan:deploy')).toMatchObject({startedAt: seen, atLeast: true});

		// A Kanister action without its Started Action event, under a phase its Started Phase event timed.
		const as = structuredClone(loadFixtureObject('kanister/actionset-mysql-backup-complete.yaml'));
		const status = as['status'] as {state: string; actions: Array<{phases: Array<{state: string}>}>};
		status.state = 'running';
		status.actions[0]!.phases[0]!.state = 'running';
		const later = new Store(clock);
		later.apply({type: 'upsert', resource: 'ActionSet', object: as});
		const phaseStart = clock.now() - 9000;
		later.apply({type: 'upsert', resource: 'Event', object: {
			apiVersion: 'v1', kind: 'Event', metadata: {name: 'e1', namespace: as.metadata!.namespace, uid: 'e1'},
			involvedObject: {kind: 'ActionSet', name: as.metadata!.name, namespace: as.metadata!.namespace},
			reason: 'Started Phase', message: `Executing phase ${(as['status'] as {actions: Array<{phases: Array<{name: string}>}>}).actions[0]!.phases[0]!.name}`,
			type: 'Normal', lastTimestamp: new Date(phaseStart).toISOString(),
		}});
		const t = later.getSnapshot().timings.get(`ActionSet/${as.metadata!.namespace}/${as.metadata!.name}`)!;
		const action = later.getSnapshot().objects[0]!.tree[0]!;
		expect(t.get(action.id)).toMatchObject({startedAt: phaseStart, atLeast: true});
	});

	it('a relist drops objects that vanished (nothing stale stays)', () => {
		const store = new Store(new FakeClock());
		const a = loadFixtureObject('kanister/actionset-mysql-backup-complete.yaml');
		const b = loadFixtureObject('kanister/actionset-mysql-backup-running.yaml');
		const b2 = {...b, metadata: {...b.metadata, name: 'other'}};
		store.apply({type: 'replace', resource: 'ActionSet', objects: [a, b2]});
		expect(store.getSnapshot().objects).toHaveLength(2);
		store.apply({type: 'replace', resource: 'ActionSet', objects: [b2]});
		expect(store.getSnapshot().objects.map(o => o.name)).toEqual(['other']);
		store.apply({type: 'delete', resource: 'ActionSet', object: b2});
		expect(store.getSnapshot().objects).toHaveLength(0);
	});

	it('attaches events to their object, oldest first', () => {
		const store = new Store(new FakeClock());
		store.apply({type: 'upsert', resource: 'ActionSet', object: loadFixtureObject('kanister/actionset-postgres-restore-failed-defer-complete.yaml')});
		for (const e of loadFixture('kanister/events-postgres-restore-failed-defer.yaml')) {
			store.apply({type: 'upsert', resource: 'Event', object: e});
		}

		const snap = store.getSnapshot();
		const [key, events] = [...snap.events.entries()][0]!;
		expect(key).toMatch(/^ActionSet\//);
		expect(events.length).toBeGreaterThan(2);
		const times = events.map(e => Date.parse(e.time ?? ''));
		expect([...times].sort((x, y) => x - y)).toEqual(times);
	});

	it('an OperatorVersion arriving later re-adapts its Instance (NOT ACTIVE plans appear, strategies known)', () => {
		// A status that lists only the running plan: the other plans can come only from the OperatorVersion.
		const instance = structuredClone(loadFixtureObject('kudo/instance-mysql-deploy-in-progress.yaml'));
		const status = instance['status'] as {planStatus: Record<string, unknown>};
		status.planStatus = {deploy: status.planStatus['deploy']};
		const store = new Store(new FakeClock());
		store.apply({type: 'upsert', resource: 'Instance', object: instance});
		const before = store.getSnapshot().objects[0]!;
		expect(before.tree.map(n => n.name)).toEqual(['deploy']);
		expect(before.tree[0]!.strategy).toBeUndefined();
		for (const o of loadFixture('kudo/operatorversion-mysql.yaml')) {
			store.apply({type: 'upsert', resource: 'OperatorVersion', object: o});
		}

		const after = store.getSnapshot().objects[0]!;
		expect(after.tree.map(n => [n.name, n.state])).toEqual([
			['backup', 'inactive'],
			['deploy', 'running'],
			['restore', 'inactive'],
		]);
		expect(after.tree.find(n => n.name === 'deploy')?.strategy).toBe('serial');
	});

	it('counts how often a step went back to retrying (KUDO ERROR) in the current run', () => {
		const store = new Store(new FakeClock());
		const id = 'plan:deploy/phase:deploy/step:init';
		for (const step of ['IN_PROGRESS', 'ERROR', 'IN_PROGRESS', 'ERROR', 'ERROR', 'IN_PROGRESS', 'ERROR'] as const) {
			store.apply({type: 'upsert', resource: 'Instance', object: deployWith(step)});
		}

		expect(store.getSnapshot().timings.get('Instance/default/mysql-instance')!.get(id)?.retries).toBe(3);
		store.apply({type: 'upsert', resource: 'Instance', object: deployWith('COMPLETE')});
		store.apply({type: 'upsert', resource: 'Instance', object: deployWith('IN_PROGRESS')});
		store.apply({type: 'upsert', resource: 'Instance', object: deployWith('ERROR')});
		expect(store.getSnapshot().timings.get('Instance/default/mysql-instance')!.get(id)?.retries).toBe(1);
	});

	it('events that are deleted or relisted away leave their object; each event is adapted once', () => {
		const store = new Store(new FakeClock());
		store.apply({type: 'upsert', resource: 'ActionSet', object: loadFixtureObject('kanister/actionset-postgres-restore-failed-defer-complete.yaml')});
		const events = loadFixture('kanister/events-postgres-restore-failed-defer.yaml');
		store.apply({type: 'replace', resource: 'Event', objects: events});
		const key = [...store.getSnapshot().events.keys()][0]!;
		// One ActionSetFailed event is recorded on the Blueprint too: it is not about the ActionSet.
		const about = store.getSnapshot().events.get(key)!.length;
		expect(about).toBe(events.filter(e => (e['involvedObject'] as {kind: string}).kind === 'ActionSet').length);
		store.apply({type: 'delete', resource: 'Event', object: events[0]!});
		expect(store.getSnapshot().events.get(key)).toHaveLength(about - 1);
		store.apply({type: 'replace', resource: 'Event', objects: []});
		expect(store.getSnapshot().events.has(key)).toBe(false);
	});
});

describe('store: a deferPhase that starts while its state still says pending', () => {
	// kanisterio/kanister pkg/controller/controller.go never writes `running` into deferPhase.state: it sets
	// progress.runningPhase (updateActionSetRunningPhase), then the state goes straight to complete.
	const statusWith = (runningPhase: string, deferState: string): KubeObject => {
		const o = structuredClone(loadFixtureObject('kanister/actionset-mysql-backup-defer-running.yaml'));
		const status = o['status'] as {state: string; progress: {runningPhase?: string}; actions: Array<{deferPhase: {state: string}}>};
		status.progress.runningPhase = runningPhase;
		status.actions[0]!.deferPhase.state = deferState;
		status.state = deferState === 'complete' ? 'complete' : 'running';
		return o;
	};

	it('logs pending → running (in the words the views use) and then its end with how long it ran', () => {
		const clock = new FakeClock();
		const store = new Store(clock);
		store.apply({type: 'upsert', resource: 'ActionSet', object: statusWith('', 'pending')});
		expect(store.getSnapshot().objects[0]!.tree[0]!.children.at(-1)!.state).toBe('pending');
		clock.advance(2000);
		store.apply({type: 'upsert', resource: 'ActionSet', object: statusWith('recordBackupCompletion', 'pending')});
		const started = store.getSnapshot().transitions.filter(t => t.path.at(-1) === 'recordBackupCompletion');
		expect(started).toEqual([expect.objectContaining({from: 'pending', to: 'pending (running per progress)', state: 'running'})]);
		expect(started[0]!.durationMs).toBeUndefined();
		clock.advance(5000);
		store.apply({type: 'upsert', resource: 'ActionSet', object: statusWith('', 'complete')});
		const ended = store.getSnapshot().transitions.filter(t => t.path.at(-1) === 'recordBackupCompletion').at(-1);
		expect(ended).toMatchObject({from: 'pending', to: 'complete', durationMs: 5000});
		expect(ended).not.toHaveProperty('state');
	});

	it('the plain and json logs print it', async () => {
		const {formatTransition} = await import('../../source/render/plain.js');
		const {transitionLine} = await import('../../source/render/json.js');
		const clock = new FakeClock();
		const store = new Store(clock);
		store.apply({type: 'upsert', resource: 'ActionSet', object: statusWith('', 'pending')});
		store.apply({type: 'upsert', resource: 'ActionSet', object: statusWith('recordBackupCompletion', 'pending')});
		const t = store.getSnapshot().transitions.at(-1)!;
		expect(formatTransition(t, {ascii: false, color: false, timeZone: 'UTC'})).toMatch(/backup › recordBackupCompletion {2}pending → pending \(running per progress\)$/);
		// Coloured as running, not as the unknown word `pending (running per progress)` would be.
		expect(formatTransition(t, {ascii: false, color: true, timeZone: 'UTC'})).toContain('\u001B[36mpending (running per progress)');
		expect(JSON.parse(transitionLine(t))).toMatchObject({from: 'pending', to: 'pending (running per progress)', state: 'running'});
	});
});

describe('store: deleted objects', () => {
	it('keeps the last state of a deleted Instance or ActionSet, records a DELETED transition, forgets it when it comes back', () => {
		const clock = new FakeClock();
		const store = new Store(clock);
		const raw = loadFixtureObject('kanister/actionset-mysql-backup-complete.yaml');
		store.apply({type: 'upsert', resource: 'ActionSet', object: raw});
		const before = store.getSnapshot().objects[0]!;
		clock.advance(5000);
		store.apply({type: 'delete', resource: 'ActionSet', object: raw});
		const after = store.getSnapshot();
		expect(after.objects).toEqual([]);
		const key = `ActionSet/${before.namespace}/${before.name}`;
		expect(after.deleted?.get(key)).toEqual({object: before, at: clock.now()});
		expect(after.transitions.at(-1)).toMatchObject({objectKey: key, path: [], from: before.status, to: 'DELETED'});
		store.apply({type: 'upsert', resource: 'ActionSet', object: raw});
		expect(store.getSnapshot().deleted).toBeUndefined();
	});

	it('a relist without the object is a deletion too', () => {
		const store = new Store(new FakeClock());
		const raw = loadFixtureObject('kudo/instance-mysql-deploy-in-progress.yaml');
		store.apply({type: 'upsert', resource: 'Instance', object: raw});
		store.apply({type: 'replace', resource: 'Instance', objects: []});
		expect([...(store.getSnapshot().deleted?.keys() ?? [])]).toEqual(['Instance/default/mysql-instance']);
	});
});

describe('store: a KUDO run watched from its start is timed as a fresh read of the final state times it', () => {
	const instance = (uid: string, status: string, at: string): KubeObject => ({
		apiVersion: 'kudo.dev/v1beta1',
		kind: 'Instance',
		metadata: {name: 'op', namespace: 'default', uid: 'i1', creationTimestamp: '2026-01-01T09:00:00Z'},
		spec: {operatorVersion: {name: 'op-0.1.0'}},
		status: {planStatus: {deploy: {name: 'deploy', status, uid, lastUpdatedTimestamp: at, phases: [{name: 'deploy', status, steps: [{name: 's', status}]}]}}},
	});
	// The manager re-counts its one PlanStarted Event of the plan in place: a new run is a greater resourceVersion.
	const started = (rv: string, at: string, count: number): KubeObject => ({
		apiVersion: 'v1',
		kind: 'Event',
		metadata: {name: 'op.deploy-started', namespace: 'default', uid: 'e1', resourceVersion: rv},
		involvedObject: {kind: 'Instance', namespace: 'default', name: 'op', uid: 'i1'},
		reason: 'PlanStarted',
		message: 'Execution of plan deploy started',
		type: 'Normal',
		firstTimestamp: '2026-01-01T10:00:00Z',
		lastTimestamp: at,
		count,
	});
	const fresh = (objects: KubeObject[]) => {
		const store = new Store(new FakeClock());
		for (const o of objects) {
			store.apply({type: 'upsert', resource: o.kind as 'Instance', object: o});
		}

		return store.getSnapshot().objects[0]!.tree[0]!;
	};

	it('the new run\'s re-counted PlanStarted gives the watched run the times a fresh read gives', () => {
		const clock = new FakeClock(Date.parse('2026-01-01T10:00:05Z'));
		const store = new Store(clock);
		store.apply({type: 'upsert', resource: 'Event', object: started('10', '2026-01-01T10:00:00Z', 1)});
		store.apply({type: 'upsert', resource: 'Instance', object: instance('a', 'COMPLETE', '2026-01-01T10:00:01Z')});
		clock.advance(1000);
		// The new run in the same second as the previous one's last update: not told apart yet, planwatch's own timer.
		store.apply({type: 'upsert', resource: 'Instance', object: instance('b', 'IN_PROGRESS', '2026-01-01T10:00:01Z')});
		expect(store.getSnapshot().objects[0]!.tree[0]!.startedAt).toBeUndefined();
		store.apply({type: 'upsert', resource: 'Event', object: started('14', '2026-01-01T10:00:01Z', 2)});
		const final = [instance('b', 'COMPLETE', '2026-01-01T10:00:03Z'), started('14', '2026-01-01T10:00:01Z', 2)];
		store.apply({type: 'upsert', resource: 'Instance', object: final[0]!});
		const watched = store.getSnapshot().objects[0]!.tree[0]!;
		expect(watched).toMatchObject({startedAt: '2026-01-01T10:00:01Z', endedAt: '2026-01-01T10:00:03Z'});
		expect([watched.startedAt, watched.endedAt]).toEqual([fresh(final).startedAt, fresh(final).endedAt]);
	});
});
