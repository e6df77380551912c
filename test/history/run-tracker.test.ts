import {describe, expect, it, vi} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import {RunTracker} from '../../source/history/run-tracker.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {Store} from '../../source/state/store.js';
import {loadFixture, loadFixtureObject} from '../helpers/fixtures.js';

type PlanStatus = {status: string; uid?: string; phases: Array<{status: string; steps: Array<{name: string; status: string}>}>};

/** The mysql deploy plan with every phase and step in `status`. */
function deploy(status: 'PENDING' | 'IN_PROGRESS' | 'COMPLETE', uid = 'plan-uid-1'): KubeObject {
	const o = structuredClone(loadFixtureObject('kudo/instance-mysql-deploy-in-progress.yaml'));
	const s = o['status'] as {planStatus: Record<string, PlanStatus>};
	const spec = o['spec'] as {planExecution?: {uid?: string}};
	const plan = s.planStatus['deploy']!;
	plan.status = status;
	plan.uid = uid;
	if (spec.planExecution) {
		spec.planExecution.uid = uid;
	}

	for (const phase of plan.phases) {
		phase.status = status;
		for (const step of phase.steps) {
			step.status = status;
		}
	}

	return o;
}

function storeWith(clock: FakeClock): Store {
	const store = new Store(clock);
	for (const o of loadFixture('kudo/operatorversion-mysql.yaml')) {
		store.apply({type: 'upsert', resource: 'OperatorVersion', object: o});
	}

	return store;
}

describe('RunTracker', () => {
	it('records a KUDO plan run seen from start to end: names and durations only', () => {
		const clock = new FakeClock();
		const store = storeWith(clock);
		const tracker = new RunTracker();
		store.apply({type: 'upsert', resource: 'Instance', object: deploy('PENDING')});
		expect(tracker.observe(store.getSnapshot())).toEqual([]);
		store.apply({type: 'upsert', resource: 'Instance', object: deploy('IN_PROGRESS')});
		expect(tracker.observe(store.getSnapshot())).toEqual([]);
		clock.advance(90_000);
		store.apply({type: 'upsert', resource: 'Instance', object: deploy('COMPLETE')});
		const [record, ...more] = tracker.observe(store.getSnapshot());
		expect(more).toEqual([]);
		expect(record).toMatchObject({v: 1, kind: 'Instance', group: 'mysql-5.7-0.3.0', top: 'deploy', outcome: 'succeeded'});
		expect(record!.durations).toContainEqual({path: [], ms: 90_000});
		expect(record!.durations).toContainEqual({path: ['deploy', 'init'], ms: 90_000});
		// No namespace, object name, uid or message in the record.
		const text = JSON.stringify(record);
		expect(text).not.toContain('mysql-instance');
		expect(text).not.toContain('plan-uid-1');
		expect(text).not.toContain('default');
		// The same run is not recorded twice (a label more: the store adapts the object again).
		const again = deploy('COMPLETE');
		store.apply({type: 'upsert', resource: 'Instance', object: {...again, metadata: {...again.metadata, resourceVersion: '99', labels: {again: 'yes'}}}});
		expect(tracker.observe(store.getSnapshot())).toEqual([]);
	});

	it('after an update it walks only the object the store\'s change log names, not every object; a deletion walks them all', () => {
		const clock = new FakeClock();
		const store = storeWith(clock);
		const tracker = new RunTracker();
		const base = deploy('COMPLETE');
		for (let i = 0; i < 300; i++) {
			store.apply({type: 'upsert', resource: 'Instance', object: {...base, metadata: {...base.metadata, name: `i-${String(i).padStart(3, '0')}`}}});
		}

		tracker.observe(store.getSnapshot());
		let reads = 0;
		const counted = () => {
			const snapshot = store.getSnapshot();
			const objects = new Proxy(snapshot.objects, {
				get(target, property, receiver) {
					if (typeof property === 'string' && /^\d+$/.test(property)) {
						reads++;
					}

					return Reflect.get(target, property, receiver) as unknown;
				},
			});
			return {...snapshot, objects};
		};

		// A plan run seen from start to end on one object, among 300.
		const one = (status: 'IN_PROGRESS' | 'COMPLETE') => {
			const o = deploy(status, 'plan-uid-2');
			return {...o, metadata: {...o.metadata, name: 'i-150'}};
		};

		store.apply({type: 'upsert', resource: 'Instance', object: one('IN_PROGRESS')});
		expect(tracker.observe(counted())).toEqual([]);
		clock.advance(60_000);
		store.apply({type: 'upsert', resource: 'Instance', object: one('COMPLETE')});
		const records = tracker.observe(counted());
		expect(records).toHaveLength(1);
		expect(records[0]!.durations).toContainEqual({path: [], ms: 60_000});
		expect(reads).toBeLessThan(10);

		store.apply({type: 'delete', resource: 'Instance', object: one('COMPLETE')});
		tracker.observe(counted());
		expect(reads).toBeGreaterThanOrEqual(299);
	});

	it('updates to a finished object, filed or not timed, hash nothing again (the run is told apart by what names it)', () => {
		const clock = new FakeClock();
		const store = storeWith(clock);
		const tracker = new RunTracker();
		const crypto = process.getBuiltinModule('node:crypto');
		const createHash = vi.spyOn(crypto, 'createHash');
		try {
			store.apply({type: 'upsert', resource: 'Instance', object: deploy('PENDING')});
			tracker.observe(store.getSnapshot());
			store.apply({type: 'upsert', resource: 'Instance', object: deploy('IN_PROGRESS')});
			tracker.observe(store.getSnapshot());
			clock.advance(90_000);
			store.apply({type: 'upsert', resource: 'Instance', object: deploy('COMPLETE')});
			expect(tracker.observe(store.getSnapshot())).toHaveLength(1);
			// An Instance listed already finished: not timed, never filed.
			const late = deploy('COMPLETE', 'plan-uid-late');
			store.apply({type: 'upsert', resource: 'Instance', object: {...late, metadata: {...late.metadata, name: 'late'}}});
			expect(tracker.observe(store.getSnapshot())).toEqual([]);
			const hashed = createHash.mock.calls.length;
			for (let i = 0; i < 10; i++) {
				for (const [name, o] of [['mysql-instance', deploy('COMPLETE')], ['late', late]] as const) {
					store.apply({type: 'upsert', resource: 'Instance', object: {...o, metadata: {...o.metadata, name, labels: {update: String(i)}}}});
					expect(tracker.observe(store.getSnapshot())).toEqual([]);
				}
			}

			expect(createHash.mock.calls.length - hashed).toBe(0);
		} finally {
			createHash.mockRestore();
		}
	});

	it('a plan first seen already running is not timed (its start was missed); the next run is', () => {
		const clock = new FakeClock();
		const store = storeWith(clock);
		const tracker = new RunTracker();
		store.apply({type: 'upsert', resource: 'Instance', object: deploy('IN_PROGRESS')});
		tracker.observe(store.getSnapshot());
		clock.advance(10_000);
		store.apply({type: 'upsert', resource: 'Instance', object: deploy('COMPLETE')});
		expect(tracker.observe(store.getSnapshot())).toEqual([]);
		store.apply({type: 'upsert', resource: 'Instance', object: deploy('IN_PROGRESS', 'plan-uid-2')});
		tracker.observe(store.getSnapshot());
		clock.advance(30_000);
		store.apply({type: 'upsert', resource: 'Instance', object: deploy('COMPLETE', 'plan-uid-2')});
		const records = tracker.observe(store.getSnapshot());
		expect(records).toHaveLength(1);
		expect(records[0]!.durations).toContainEqual({path: [], ms: 30_000});
	});

	it('a plan of many steps first seen running: none of them is timed, every one of the next run is', () => {
		const clock = new FakeClock();
		const store = storeWith(clock);
		const tracker = new RunTracker();
		const big = (status: 'IN_PROGRESS' | 'COMPLETE', uid: string): KubeObject => {
			const o = deploy(status, uid);
			const phase = (o['status'] as {planStatus: Record<string, PlanStatus>}).planStatus['deploy']!.phases[0]!;
			phase.steps = Array.from({length: 40}, (_, i) => ({name: `step-${i}`, status}));
			return o;
		};

		store.apply({type: 'upsert', resource: 'Instance', object: big('IN_PROGRESS', 'plan-uid-1')});
		tracker.observe(store.getSnapshot());
		clock.advance(10_000);
		store.apply({type: 'upsert', resource: 'Instance', object: big('COMPLETE', 'plan-uid-1')});
		expect(tracker.observe(store.getSnapshot())).toEqual([]);
		store.apply({type: 'upsert', resource: 'Instance', object: big('IN_PROGRESS', 'plan-uid-2')});
		tracker.observe(store.getSnapshot());
		clock.advance(30_000);
		store.apply({type: 'upsert', resource: 'Instance', object: big('COMPLETE', 'plan-uid-2')});
		const [record, ...more] = tracker.observe(store.getSnapshot());
		expect(more).toEqual([]);
		const steps = record!.durations.filter(d => d.path.at(-1)?.startsWith('step-'));
		expect(steps).toHaveLength(40);
		expect(steps.every(d => d.ms === 30_000)).toBe(true);
	});

	it('a KUDO plan found finished at start-up adds nothing: KUDO gives no start times', () => {
		const clock = new FakeClock();
		const store = storeWith(clock);
		const tracker = new RunTracker();
		store.apply({type: 'upsert', resource: 'Instance', object: deploy('COMPLETE')});
		expect(tracker.observe(store.getSnapshot())).toEqual([]);
	});

	it('a completed ActionSet still in the cluster seeds the history from its Started/Ended events, once they are there', () => {
		const clock = new FakeClock();
		const store = new Store(clock);
		const tracker = new RunTracker();
		for (const o of loadFixture('kanister/blueprint-mysql-defer.yaml')) {
			store.apply({type: 'upsert', resource: 'Blueprint', object: o});
		}

		store.apply({type: 'upsert', resource: 'ActionSet', object: loadFixtureObject('kanister/actionset-mysql-backup-complete.yaml')});
		expect(tracker.observe(store.getSnapshot())).toEqual([]);
		for (const e of loadFixture('kanister/events-mysql-backup-complete.yaml')) {
			store.apply({type: 'upsert', resource: 'Event', object: e});
		}

		const [record, ...more] = tracker.observe(store.getSnapshot());
		expect(more).toEqual([]);
		expect(record).toMatchObject({kind: 'ActionSet', group: 'mysql-blueprint-defer', top: 'backup', outcome: 'succeeded'});
		// Started Phase 09:56:32 → Ended Phase 09:57:12.
		expect(record!.durations).toContainEqual({path: ['dumpToObjectStore'], ms: 40_000});
		expect(record!.durations.find(d => d.path.length === 0)?.ms).toBeGreaterThanOrEqual(40_000);
	});
});
