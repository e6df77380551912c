import {describe, expect, it} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import type {SourceEvent} from '../../source/state/object-source.js';
import {findScenario} from '../../source/scenarios/catalog.js';
import {scenarioDuration, type Scenario} from '../../source/scenarios/scenario.js';
import {createDemoSource} from '../../source/sources/demo-source.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {play} from '../scenarios/play.js';

function scenarioNamed(name: string): Scenario {
	const s = findScenario(name);
	if (!s) {
		throw new Error(name);
	}

	return s;
}

/** Starts a demo source and mirrors what it says, like a store would. */
function run(scenarios: Scenario[], options: {speed?: number; loop?: boolean; namespace?: string; loopPauseMs?: number} = {}) {
	const clock = new FakeClock();
	const events: SourceEvent[] = [];
	const mirror = new Map<string, KubeObject>();
	const source = createDemoSource({scenarios, clock, ...options});
	source.start(event => {
		events.push(event);
		switch (event.type) {
			case 'replace': {
				for (const o of event.objects) {
					mirror.set(`${event.resource}/${o.metadata?.name ?? ''}`, o);
				}

				break;
			}

			case 'upsert': {
				mirror.set(`${event.resource}/${event.object.metadata?.name ?? ''}`, event.object);
				break;
			}

			case 'delete': {
				mirror.delete(`${event.resource}/${event.object.metadata?.name ?? ''}`);
				break;
			}

			default:
		}
	});
	return {clock, events, mirror, source};
}

describe('demo source', () => {
	it('says what a cluster source says: live, one replace per resource in its namespace, synced', () => {
		const {events, source} = run([scenarioNamed('kudo-fatal')], {namespace: 'shop'});
		expect(source.label).toBe('demo');
		expect(source.scope).toBe('shop');
		expect(events.slice(0, 7).map(e => e.type)).toEqual(['connection', 'replace', 'replace', 'replace', 'replace', 'replace', 'synced']);
		expect(events[0]).toEqual({type: 'connection', state: {status: 'live'}});
		const replaces = events.filter(e => e.type === 'replace');
		expect(replaces.map(e => e.resource).sort()).toEqual(['ActionSet', 'Blueprint', 'Event', 'Instance', 'OperatorVersion']);
		expect(replaces.every(e => e.namespace === 'shop')).toBe(true);
		// The Instance installed before the demo started is in the first list, with its past runs.
		const instances = replaces.find(e => e.resource === 'Instance')!.objects;
		expect(instances.map(o => o.metadata?.name)).toEqual(['mysql-orders']);
		expect(instances[0]!.metadata?.namespace).toBe('shop');
		expect((instances[0]!['status'] as any).planStatus.backup.status).toBe('COMPLETE');
	});

	it('plays each step when it is due, not before', () => {
		const {clock, events} = run([scenarioNamed('mysql-deploy')]);
		const created = () => events.some(e => e.type === 'upsert' && e.resource === 'Instance');
		clock.advance(499);
		expect(created()).toBe(false);
		clock.advance(1);
		expect(created()).toBe(true);
	});

	it('ends with exactly the objects the scenario produces, at any speed', () => {
		for (const speed of [1, 4]) {
			const s = scenarioNamed('tour');
			const {clock, mirror} = run([s], {speed, namespace: 'scenario-test'});
			clock.advance((scenarioDuration(s) / speed) + 1);
			const expected = play(s, {speed});
			for (const resource of ['Instance', 'ActionSet', 'OperatorVersion', 'Blueprint', 'Event'] as const) {
				for (const o of expected.cluster.list(resource)) {
					expect(mirror.get(`${resource}/${o.metadata?.name ?? ''}`), `${resource}/${o.metadata?.name ?? ''} at speed ${speed}`).toEqual(o);
				}
			}

			expect(mirror.size).toBe(['Instance', 'ActionSet', 'OperatorVersion', 'Blueprint', 'Event'].reduce((n, r) => n + expected.cluster.list(r as any).length, 0));
		}
	});

	it('runs faster with speed: the tour at 10x is over in about four seconds', () => {
		const s = scenarioNamed('tour');
		const {clock, events} = run([s], {speed: 10});
		clock.advance(Math.ceil(scenarioDuration(s) / 10) - 200);
		const before = events.length;
		clock.advance(200);
		expect(events.length).toBeGreaterThan(before);
		const after = events.length;
		clock.advance(60_000);
		expect(events.length).toBe(after);
	});

	it('plays several scenarios together, creating shared definitions once', () => {
		const {clock, mirror} = run([scenarioNamed('mysql-deploy'), scenarioNamed('kudo-fatal'), scenarioNamed('mysql-backup')]);
		clock.advance(60_000);
		expect([...mirror.keys()].filter(k => !k.startsWith('Event/')).sort()).toEqual([
			'ActionSet/backup-rslmb',
			'Blueprint/mysql-blueprint-defer',
			'Instance/mysql-instance',
			'Instance/mysql-orders',
			'OperatorVersion/mysql-5.7-0.3.0',
		]);
	});

	it('loops: pauses, deletes everything, starts over with newer resourceVersions', () => {
		const s = scenarioNamed('mysql-backup');
		const {clock, events, mirror} = run([s], {loop: true, loopPauseMs: 3000});
		clock.advance(scenarioDuration(s) + 1);
		const firstRound = new Map(mirror);
		const lastVersion = Math.max(...[...mirror.values()].map(o => Number(o.metadata?.resourceVersion)));
		const count = events.length;
		clock.advance(2998);
		expect(events.length).toBe(count);
		clock.advance(2);
		const deletes = events.slice(count).filter(e => e.type === 'delete');
		expect(deletes.length).toBe(firstRound.size);
		// The Blueprint is back at once (it exists from the start); the ActionSet comes again later.
		expect([...mirror.keys()]).toEqual(['Blueprint/mysql-blueprint-defer']);
		clock.advance(scenarioDuration(s));
		expect([...mirror.keys()].filter(k => !k.startsWith('Event/')).sort()).toEqual(['ActionSet/backup-rslmb', 'Blueprint/mysql-blueprint-defer']);
		expect((mirror.get('ActionSet/backup-rslmb')!['status'] as any).state).toBe('complete');
		expect(Number(mirror.get('ActionSet/backup-rslmb')!.metadata?.resourceVersion)).toBeGreaterThan(lastVersion);
		expect(events.filter(e => e.type === 'synced')).toHaveLength(1);
	});

	it('goes quiet on stop', () => {
		const {clock, events, source} = run([scenarioNamed('tour')], {loop: true});
		clock.advance(5000);
		void source.stop();
		const count = events.length;
		clock.advance(120_000);
		expect(events.length).toBe(count);
	});

	it('rejects a speed that is not a positive number', () => {
		for (const speed of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
			expect(() => createDemoSource({scenarios: [], clock: new FakeClock(), speed})).toThrow(RangeError);
		}
	});
});
