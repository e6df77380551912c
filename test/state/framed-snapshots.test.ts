import {describe, expect, test} from 'vitest';
import {FakeClock} from '../helpers/fake-clock.js';
import {framedSnapshots} from '../../source/state/framed-snapshots.js';
import {Store} from '../../source/state/store.js';
import {loadFixtureObject} from '../helpers/fixtures.js';

const running = loadFixtureObject('kanister/actionset-mysql-backup-running.yaml');

function named(name: string) {
	return {...running, metadata: {...running.metadata, name}};
}

/** Store notifications come in a microtask. */
async function settled(): Promise<void> {
	await Promise.resolve();
	await Promise.resolve();
}

function setup() {
	const clock = new FakeClock();
	const store = new Store(clock);
	const framed = framedSnapshots(store, clock, 33);
	const seen: number[] = [];
	framed.subscribe(() => {
		seen.push(framed.getSnapshot().objects.length);
	});
	return {clock, store, framed, seen};
}

describe('framedSnapshots', () => {
	test('the first change after a quiet frame is published at once', async () => {
		const {store, framed, seen} = setup();
		store.apply({type: 'upsert', resource: 'ActionSet', object: named('a')});
		await settled();
		expect(seen).toEqual([1]);
		expect(framed.getSnapshot()).toBe(store.getSnapshot());
	});

	test('changes within a frame are folded into one snapshot at its end', async () => {
		const {clock, store, framed, seen} = setup();
		store.apply({type: 'upsert', resource: 'ActionSet', object: named('a')});
		await settled();
		clock.advance(10);
		store.apply({type: 'upsert', resource: 'ActionSet', object: named('b')});
		await settled();
		clock.advance(10);
		store.apply({type: 'upsert', resource: 'ActionSet', object: named('c')});
		await settled();
		expect(seen).toEqual([1]);
		expect(framed.getSnapshot().objects).toHaveLength(1);
		clock.advance(13);
		expect(seen).toEqual([1, 3]);
		expect(framed.getSnapshot()).toBe(store.getSnapshot());
	});

	test('a snapshot every subscriber turns down (off screen) starts no frame: the next change is published at once', async () => {
		const clock = new FakeClock();
		const store = new Store(clock);
		const framed = framedSnapshots(store, clock, 33);
		const seen: number[] = [];
		// The render gate: objects named off-* are off screen.
		framed.subscribe(() => {
			const {objects} = framed.getSnapshot();
			seen.push(objects.length);
			return !objects.at(-1)!.name.startsWith('off-');
		});
		for (const name of ['off-a', 'off-b', 'off-c']) {
			store.apply({type: 'upsert', resource: 'ActionSet', object: named(name)});
			await settled();
			clock.advance(5);
		}

		// Each published at once, 5 ms apart: none used a frame.
		expect(seen).toEqual([1, 2, 3]);
		store.apply({type: 'upsert', resource: 'ActionSet', object: named('on-d')});
		await settled();
		expect(seen).toEqual([1, 2, 3, 4]);
		// That one was drawn: what follows within its frame waits for the frame's end.
		clock.advance(5);
		store.apply({type: 'upsert', resource: 'ActionSet', object: named('on-e')});
		await settled();
		expect(seen).toEqual([1, 2, 3, 4]);
		clock.advance(28);
		expect(seen).toEqual([1, 2, 3, 4, 5]);
	});

	test('the snapshot stays the same object between publications', async () => {
		const {clock, store, framed} = setup();
		store.apply({type: 'upsert', resource: 'ActionSet', object: named('a')});
		await settled();
		const published = framed.getSnapshot();
		clock.advance(5);
		store.apply({type: 'upsert', resource: 'ActionSet', object: named('b')});
		await settled();
		expect(framed.getSnapshot()).toBe(published);
	});

	test('flush publishes a pending change now; dispose stops publishing', async () => {
		const {clock, store, framed, seen} = setup();
		store.apply({type: 'upsert', resource: 'ActionSet', object: named('a')});
		await settled();
		store.apply({type: 'upsert', resource: 'ActionSet', object: named('b')});
		await settled();
		framed.flush();
		expect(seen).toEqual([1, 2]);
		framed.dispose();
		clock.advance(100);
		store.apply({type: 'upsert', resource: 'ActionSet', object: named('c')});
		await settled();
		clock.advance(100);
		expect(seen).toEqual([1, 2]);
	});
});
