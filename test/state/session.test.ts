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
	sink?.({type: 'synced'});
	expect(session.store.getSnapshot().synced).toBe(true);
});
