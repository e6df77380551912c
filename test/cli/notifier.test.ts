import {describe, expect, it} from 'vitest';
import {Notifier, watchFailures} from '../../source/cli/notifier.js';
import {ChangeLog} from '../../source/state/change-log.js';
import type {TerminalSignals} from '../../source/cli/terminal-signals.js';
import {objectKey, type PlanObject} from '../../source/model/plan-tree.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {Store} from '../../source/state/store.js';
import {loadFixtureObject} from '../helpers/fixtures.js';
import {mysqlDeploy} from '../helpers/ui-objects.js';

const running = () => loadFixtureObject('kanister/actionset-mysql-backup-running.yaml');
const failed = () => {
	const o = loadFixtureObject('kanister/actionset-postgres-backup-defer-failed.yaml');
	return o;
};

function fakeSignals(available = true): TerminalSignals & {sent: string[]} {
	const sent: string[] = [];
	return {
		available,
		sent,
		notify(title, body) {
			sent.push(`${title}|${body}`);
			return available;
		},
		copy() {
			return 'copied';
		},
	};
}

describe('watchFailures', () => {
	it('tells once when a watched object turns failed; one already failed when first seen is not news', async () => {
		const store = new Store(new FakeClock());
		const seen: PlanObject[] = [];
		const stop = watchFailures(store, [], o => seen.push(o));
		store.apply({type: 'upsert', resource: 'ActionSet', object: failed()});
		await Promise.resolve();
		expect(seen).toEqual([]);
		const a = running();
		store.apply({type: 'upsert', resource: 'ActionSet', object: a});
		await Promise.resolve();
		type Status = {state: string; error?: {message: string}};
		const broken = structuredClone(a);
		(broken['status'] as Status).state = 'failed';
		(broken['status'] as Status).error = {message: 'boom'};
		store.apply({type: 'upsert', resource: 'ActionSet', object: broken});
		await Promise.resolve();
		store.apply({type: 'upsert', resource: 'ActionSet', object: {...broken, metadata: {...broken.metadata, resourceVersion: '999'}}});
		await Promise.resolve();
		expect(seen.map(o => `${o.name} ${o.outcome}`)).toEqual(['backup-rslmb failed']);
		stop();
	});

	it('only the targets count when there are targets', async () => {
		const store = new Store(new FakeClock());
		const seen: PlanObject[] = [];
		watchFailures(store, ['ActionSet/other/x'], o => seen.push(o));
		const a = running();
		store.apply({type: 'upsert', resource: 'ActionSet', object: a});
		await Promise.resolve();
		const broken = structuredClone(a);
		(broken['status'] as {state: string}).state = 'failed';
		store.apply({type: 'upsert', resource: 'ActionSet', object: broken});
		await Promise.resolve();
		expect(seen).toEqual([]);
	});
});

describe('watchFailures over the change log', () => {
	it('looks only at the objects that changed in place, not at all of them per event', () => {
		let reads = 0;
		const watched = (object: PlanObject): PlanObject =>
			new Proxy(object, {
				get(target, property, receiver) {
					reads++;
					return Reflect.get(target, property, receiver) as unknown;
				},
			});
		const log = new ChangeLog();
		const objects = Array.from({length: 500}, (_, i) => watched({...mysqlDeploy(), name: `m-${i}`, outcome: 'running'}));
		let snapshot = {objects, version: 1, changes: log};
		const listeners = new Set<() => void>();
		const store = {
			getSnapshot: () => snapshot,
			subscribe(listener: () => void) {
				listeners.add(listener);
				return () => listeners.delete(listener);
			},
		};
		const seen: PlanObject[] = [];
		watchFailures(store, [], o => seen.push(o));
		const before = objects[7]!;
		const after = watched({...before, outcome: 'failed'});
		log.object(2, {key: objectKey(before), before, after});
		snapshot = {objects: objects.map(o => (o === before ? after : o)), version: 2, changes: log};
		reads = 0;
		for (const listener of listeners) {
			listener();
		}

		expect(seen.map(o => o.name)).toEqual(['m-7']);
		// The changed object's outcome and name: a handful of reads, not one per object.
		expect(reads).toBeLessThan(10);
	});
});

describe('Notifier', () => {
	const object = {kind: 'ActionSet', namespace: 'kanister', name: 'backup-x', summary: 'phase dump failed'} as PlanObject;

	it('auto waits 30 s before it speaks; n turns it off and on', () => {
		const signals = fakeSignals();
		const n = new Notifier('auto', signals, 0);
		expect(n.objectFailed(object, 10_000)).toBe(false);
		expect(n.objectFailed(object, 31_000)).toBe(true);
		expect(n.toggle()).toBe('notifications off');
		expect(n.waitEnded({exitCode: 0, message: ''}, 60_000)).toBe(false);
		expect(n.toggle()).toBe('notifications on (when a wait takes over 30s)');
		expect(n.waitEnded({exitCode: 3, message: 'timed out after 1m'}, 60_000)).toBe(true);
		expect(signals.sent).toEqual(['planwatch|ActionSet kanister/backup-x failed: phase dump failed', 'planwatch|timed out after 1m']);
	});

	it('never starts off; n turns it on for every end', () => {
		const signals = fakeSignals();
		const n = new Notifier('never', signals, 0);
		expect(n.waitEnded({exitCode: 1, message: ''}, 1000)).toBe(false);
		expect(n.toggle()).toBe('notifications on');
		expect(n.waitEnded({exitCode: 1, message: ''}, 1000)).toBe(true);
	});
});
