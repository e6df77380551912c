/**
 * A context whose credential plugin has not answered (a login, or a plugin that hangs) holds the first picture of
 * the others for a bounded time only (`--once`: its budget), then is left out of it and named (issue 19).
 * Time is a FakeClock: the hold ends when the test moves it, not after a wait.
 */
import {describe, expect, it} from 'vitest';
import {exitCodes} from '../../source/core/exit-codes.js';
import {createMultiContextSource} from '../../source/sources/multi-context-source.js';
import {contextFailures} from '../../source/state/context-results.js';
import type {SourceEvent} from '../../source/state/object-source.js';
import {Store} from '../../source/state/store.js';
import {drivenSource} from '../helpers/driven-source.js';
import {FakeClock} from '../helpers/fake-clock.js';

function setup(credentialsHoldMs?: number) {
	const clock = new FakeClock();
	const store = new Store(clock);
	const up = drivenSource();
	const stuck = drivenSource();
	const events: SourceEvent[] = [];
	const source = createMultiContextSource([{context: 'up', source: up}, {context: 'stuck', source: stuck}], 'default', {clock, ...(credentialsHoldMs === undefined ? {} : {credentialsHoldMs})});
	source.start(event => {
		events.push(event);
		store.apply(event);
	});
	stuck.sink({type: 'connection', state: {status: 'waiting-credentials', plugin: 'hang-login', limitMs: 180_000}});
	up.sink({type: 'connection', state: {status: 'live'}});
	up.sink({type: 'replace', resource: 'ActionSet', objects: []});
	up.sink({type: 'synced'});
	return {clock, store, events};
}

const synced = (events: readonly SourceEvent[]) => events.some(e => e.type === 'synced' && e.context === undefined);

describe('a context waiting for credentials', () => {
	it('holds the picture of the others until the hold ends, then is left out and named', () => {
		const {clock, store, events} = setup(30_000);
		expect(synced(events)).toBe(false);
		clock.advance(29_999);
		expect(synced(events)).toBe(false);
		clock.advance(1);
		expect(synced(events)).toBe(true);
		expect(contextFailures(store.getSnapshot().contexts, {unreachable: true})).toEqual([{
			context: 'stuck',
			exitCode: exitCodes.cluster,
			message: 'context stuck: still waiting for credentials from hang-login',
		}]);
	});

	it('without a hold (a live view) it holds the picture until the plugin answers', () => {
		const {clock, events} = setup();
		clock.advance(600_000);
		expect(synced(events)).toBe(false);
	});
});
