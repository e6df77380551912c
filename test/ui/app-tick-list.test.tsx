/**
 * What a 1 Hz tick costs in the list: the timers and spinners redraw themselves, and no object is looked at
 * (the rows, the column widths and the App do not render again). Counted, not timed: every object is a Proxy
 * that records reads of its properties.
 */
import {afterEach, describe, expect, test} from 'vitest';
import {objectKey, type PlanObject} from '../../source/model/plan-tree.js';
import {objectTimingId, type NodeTiming} from '../../source/state/store.js';
import {renderApp} from '../helpers/render-app.js';
import {cleanupUi} from '../helpers/ui.js';
import {mysqlDeploy, snapshotOf, t0} from '../helpers/ui-objects.js';

afterEach(cleanupUi);

let reads = 0;
let counting = false;

function watched(object: PlanObject): PlanObject {
	return new Proxy(object, {
		get(target, property, receiver) {
			if (counting) {
				reads++;
			}

			return Reflect.get(target, property, receiver) as unknown;
		},
	});
}

describe('a tick in the list of 300 objects', () => {
	test('moves the running timers without reading any object', async () => {
		const plain = Array.from({length: 300}, (_, i) => ({...mysqlDeploy(), name: `mysql-${String(i).padStart(3, '0')}`}));
		const timings = new Map<string, ReadonlyMap<string, NodeTiming>>(plain.map((o, i) => [objectKey(o), new Map([[objectTimingId, {startedAt: t0 - 59_000 - i}]])]));
		const objects = plain.map(o => watched(o));
		const app = renderApp({snapshot: snapshotOf({objects, timings}), rows: 30, columns: 120});
		await app.waitForFrame(f => /mysql-000 .* 0:59 {2}deploy is running/m.test(f), {what: 'the first timer at 0:59'});

		reads = 0;
		counting = true;
		app.clock.advance(1000);
		await app.waitForFrame(f => /mysql-000 .* 1:00 {2}deploy is running/m.test(f), {what: 'the first timer at 1:00'});
		counting = false;
		expect(reads).toBe(0);
	});
});
