import {describe, expect, test} from 'vitest';
import {ChangeLog} from '../../source/state/change-log.js';
import {Store} from '../../source/state/store.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {loadFixtureObject} from '../helpers/fixtures.js';
import {mysqlDeploy} from '../helpers/ui-objects.js';

describe('change log', () => {
	test('answers the objects changed in place between two versions, and unknown past anything else', () => {
		const log = new ChangeLog();
		const a = mysqlDeploy();
		const b = {...a, status: 'COMPLETE'};
		log.object(1, {key: 'k1', before: a, after: b});
		log.object(2, {key: 'k2', before: a, after: b});
		log.other(3);
		log.object(4, {key: 'k3', eventsOnly: true});
		expect(log.between(0, 2)?.map(c => c.key)).toEqual(['k1', 'k2']);
		expect(log.between(1, 2)?.map(c => c.key)).toEqual(['k2']);
		expect(log.between(2, 2)).toEqual([]);
		expect(log.between(2, 3)).toBeUndefined();
		expect(log.between(3, 4)?.map(c => c.key)).toEqual(['k3']);
	});

	test('a range older than what it keeps is unknown', () => {
		const log = new ChangeLog();
		const a = mysqlDeploy();
		for (let version = 1; version <= 600; version++) {
			log.object(version, {key: `k${version}`, before: a, after: a});
		}

		expect(log.between(1, 600)).toBeUndefined();
		expect(log.between(590, 600)).toHaveLength(10);
	});

	test("the store's snapshots say what changed: an update in place, and an added object as unknown", () => {
		const store = new Store(new FakeClock());
		const raw = loadFixtureObject('kanister/actionset-mysql-backup-running.yaml');
		store.apply({type: 'upsert', resource: 'ActionSet', object: raw});
		const first = store.getSnapshot();
		store.apply({type: 'upsert', resource: 'ActionSet', object: {...raw, status: {...(raw['status'] as object), state: 'complete'}}});
		const second = store.getSnapshot();
		const changes = second.changes?.between(first.version, second.version);
		expect(changes?.map(c => c.key)).toEqual([`ActionSet/${raw.metadata!.namespace!}/${raw.metadata!.name!}`]);
		expect(changes?.[0] && 'before' in changes[0] ? [changes[0].before, changes[0].after] : []).toEqual([first.objects[0], second.objects[0]]);
		store.apply({type: 'upsert', resource: 'ActionSet', object: {...raw, metadata: {...raw.metadata, name: 'another'}}});
		expect(store.getSnapshot().changes?.between(second.version, store.getSnapshot().version)).toBeUndefined();
		store.apply({type: 'connection', state: {status: 'live'}});
		const third = store.getSnapshot();
		store.apply({type: 'connection', state: {status: 'live'}});
		expect(third.changes?.between(third.version, store.getSnapshot().version)).toBeUndefined();
	});
});
