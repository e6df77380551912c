import {describe, expect, test} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import {limitedMessage, maxObjectsPerKind, Store} from '../../source/state/store.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {kudoInstance} from '../helpers/kudo-instance.js';

/*
 * The store holds at most maxObjectsPerKind distinct objects of a kind (docs/limits.md): a watch that keeps
 * creating objects must not grow memory without bound. A small cap here; the same code runs at 20 000.
 */

const instance = (name: string, status = 'IN_PROGRESS'): KubeObject => {
	const i = kudoInstance({deploy: {status, at: '2026-01-01T10:00:01Z'}});
	return {...i, metadata: {...(i.metadata as object), name, uid: `uid-${name}`}};
};

const event = (name: string, about: {kind: string; name: string}, reason = 'PlanStarted', message = 'Execution of plan deploy started'): KubeObject => ({
	apiVersion: 'v1',
	kind: 'Event',
	metadata: {name, namespace: 'default', uid: `e-${name}`},
	involvedObject: {kind: about.kind, namespace: 'default', name: about.name},
	reason,
	message,
	type: 'Normal',
	lastTimestamp: '2026-01-01T10:00:00Z',
});

const flush = async (): Promise<void> => {
	await Promise.resolve();
};

describe('the cap on distinct objects', () => {
	test('is 20 000 of a kind, said in one line naming it', () => {
		expect(maxObjectsPerKind).toBe(20_000);
		expect(limitedMessage('Instance')).toBe('more Instances than planwatch holds (20,000): the ones past it are not shown');
		expect(limitedMessage('Event')).toBe('more Events about Instances and ActionSets than planwatch holds (20,000): the oldest are dropped');
	});

	test('Instances past the cap are not held; the ones held still update; a deletion makes room', async () => {
		const store = new Store(new FakeClock(), {maxPerKind: 3});
		for (const n of ['a', 'b', 'c', 'd', 'e']) {
			store.apply({type: 'upsert', resource: 'Instance', object: instance(n)});
		}

		let s = store.getSnapshot();
		expect(s.objects.map(o => o.name)).toEqual(['a', 'b', 'c']);
		expect(s.limited).toEqual([{resource: 'Instance', message: 'more Instances than planwatch holds (3): the ones past it are not shown'}]);

		store.apply({type: 'upsert', resource: 'Instance', object: instance('b', 'COMPLETE')});
		expect(store.getSnapshot().objects.find(o => o.name === 'b')?.status).toBe('COMPLETE');

		store.apply({type: 'delete', resource: 'Instance', object: instance('a')});
		store.apply({type: 'upsert', resource: 'Instance', object: instance('f')});
		s = store.getSnapshot();
		expect(s.objects.map(o => o.name)).toEqual(['b', 'c', 'f']);
		// Said once, however often the cap is met.
		store.apply({type: 'upsert', resource: 'Instance', object: instance('g')});
		expect(store.getSnapshot().limited).toHaveLength(1);
		await flush();
	});

	test('a relist past the cap holds its first objects and says so', () => {
		const store = new Store(new FakeClock(), {maxPerKind: 2});
		store.apply({type: 'replace', resource: 'Instance', objects: ['a', 'b', 'c'].map(n => instance(n))});
		const s = store.getSnapshot();
		expect(s.objects.map(o => o.name)).toEqual(['a', 'b']);
		expect(s.limited?.map(l => l.resource)).toEqual(['Instance']);
	});

	test('below the cap nothing is said', () => {
		const store = new Store(new FakeClock(), {maxPerKind: 3});
		store.apply({type: 'replace', resource: 'Instance', objects: ['a', 'b', 'c'].map(n => instance(n))});
		expect(store.getSnapshot()).not.toHaveProperty('limited');
	});

	test('each kind has its own count, over all contexts', () => {
		const store = new Store(new FakeClock(), {maxPerKind: 2});
		store.apply({type: 'upsert', resource: 'Instance', object: instance('a'), context: 'one'});
		store.apply({type: 'upsert', resource: 'Instance', object: instance('a'), context: 'two'});
		store.apply({type: 'upsert', resource: 'Instance', object: instance('b'), context: 'one'});
		store.apply({type: 'upsert', resource: 'OperatorVersion', object: {apiVersion: 'kudo.dev/v1beta1', kind: 'OperatorVersion', metadata: {name: 'op-0.1.0', namespace: 'default'}}});
		const s = store.getSnapshot();
		expect(s.objects.map(o => `${o.context}/${o.name}`)).toEqual(['one/a', 'two/a']);
		expect(s.limited?.map(l => l.resource)).toEqual(['Instance']);
	});

	test('Events past the cap push out the oldest, whose facts go with them', () => {
		const store = new Store(new FakeClock(), {maxPerKind: 2});
		store.apply({type: 'upsert', resource: 'Instance', object: instance('op')});
		store.apply({type: 'upsert', resource: 'Event', object: event('e1', {kind: 'Instance', name: 'op'})});
		store.apply({type: 'upsert', resource: 'Event', object: event('e2', {kind: 'Instance', name: 'op'}, 'Other', 'two')});
		store.apply({type: 'upsert', resource: 'Event', object: event('e3', {kind: 'Instance', name: 'op'}, 'Other', 'three')});
		const s = store.getSnapshot();
		expect([...s.events.values()].flat().map(e => e.message)).toEqual(['two', 'three']);
		// The PlanStarted Event that timed the plan went with e1.
		expect(s.objects[0]?.tree[0]).not.toHaveProperty('startedAt');
		expect(s.limited).toEqual([{resource: 'Event', message: 'more Events about Instances and ActionSets than planwatch holds (2): the oldest are dropped'}]);
	});

	test('Events about anything else are not held, so they never count', () => {
		const store = new Store(new FakeClock(), {maxPerKind: 2});
		for (let i = 0; i < 10; i++) {
			store.apply({type: 'upsert', resource: 'Event', object: event(`pod-${i}`, {kind: 'Pod', name: `p${i}`})});
		}

		store.apply({type: 'upsert', resource: 'Instance', object: instance('op')});
		store.apply({type: 'upsert', resource: 'Event', object: event('e1', {kind: 'Instance', name: 'op'})});
		const s = store.getSnapshot();
		expect(s).not.toHaveProperty('limited');
		expect([...s.events.values()].flat().map(e => e.reason)).toEqual(['PlanStarted']);
		expect(s.objects[0]?.tree[0]).toMatchObject({startedAt: '2026-01-01T10:00:00Z'});
	});

	test('an object past the cap, once said, changes nothing: no new snapshot, no notification', async () => {
		const store = new Store(new FakeClock(), {maxPerKind: 1});
		let notified = 0;
		store.subscribe(() => {
			notified++;
		});
		store.apply({type: 'upsert', resource: 'Instance', object: instance('a')});
		store.apply({type: 'upsert', resource: 'Instance', object: instance('b')});
		await flush();
		const said = store.getSnapshot();
		expect(said.limited).toHaveLength(1);
		const before = notified;
		for (const n of ['c', 'd', 'e']) {
			store.apply({type: 'upsert', resource: 'Instance', object: instance(n)});
		}

		await flush();
		expect(notified).toBe(before);
		expect(store.getSnapshot()).toBe(said);
	});
});
