import {expect, it} from 'vitest';
import type {ObjectSource, SourceSink} from '../../source/state/object-source.js';
import {openSession} from '../../source/state/session.js';
import {FakeClock} from '../helpers/fake-clock.js';

it('openSession starts the source feeding a new store on the clock', () => {
	let sink: SourceSink | undefined;
	const source: ObjectSource = {
		label: 'test',
		scope: 'default',
		start(s) {
			sink = s;
		},
		stop() {},
	};
	const clock = new FakeClock();
	const session = openSession(source, clock);
	expect(session.source).toBe(source);
	expect(session.clock).toBe(clock);
	expect(sink).toBeUndefined();
	session.start();
	sink?.({type: 'synced'});
	expect(session.store.getSnapshot().synced).toBe(true);
});

it('openSession: a sink given to start sees the events first; the store clock may differ from the run clock', () => {
	let sink: SourceSink | undefined;
	const source: ObjectSource = {label: 'test', scope: 'default', start(s) {
		sink = s;
	}, stop() {}};
	const clock = new FakeClock();
	const storeClock = new FakeClock(Date.parse('2020-01-01T00:00:00Z'));
	const session = openSession(source, {clock, storeClock});
	const seen: string[] = [];
	session.start(event => {
		seen.push(event.type);
		session.store.apply(event);
	});
	sink?.({type: 'upsert', resource: 'Event', object: {apiVersion: 'v1', kind: 'Event', metadata: {name: 'e', namespace: 'default'}}});
	expect(seen).toEqual(['upsert']);
	expect(session.store.getSnapshot().lastEventAt).toBe(storeClock.now());
});

it('openSession: the wall clock defaults to the run clock, and is kept apart when given (a replay paces frames on it)', () => {
	const source: ObjectSource = {label: 'test', scope: 'default', start() {}, stop() {}};
	const clock = new FakeClock();
	const wallClock = new FakeClock(Date.parse('2020-01-01T00:00:00Z'));
	expect(openSession(source, clock).wallClock).toBe(clock);
	const session = openSession(source, {clock, wallClock});
	expect(session.wallClock).toBe(wallClock);
	expect(session.clock).toBe(clock);
});
