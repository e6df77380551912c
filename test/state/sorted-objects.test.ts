import {afterEach, describe, expect, it, vi} from 'vitest';
import {objectKey, type PlanObject} from '../../source/model/plan-tree.js';
import {SortedObjects} from '../../source/state/sorted-objects.js';

function object(name: string, summary = ''): PlanObject {
	return {
		kind: 'ActionSet', namespace: 'ns', name, outcome: 'running', summary, state: 'running', status: 'running',
		wait: {kind: 'ActionSet', actions: []} as unknown as PlanObject['wait'], tree: [],
	};
}

describe('SortedObjects', () => {
	afterEach(() => {
		vi.restoreAllMocks();
	});

	it('an update of a held object takes its place without comparing names; an added one sorts again', () => {
		const sorted = new SortedObjects();
		const names = Array.from({length: 300}, (_, i) => `a-${String((i * 7919) % 300).padStart(3, '0')}`);
		for (const name of names) {
			sorted.set(objectKey(object(name)), object(name));
		}

		expect(sorted.array().map(o => o.name)).toEqual([...names].sort());
		const compare = vi.spyOn(String.prototype, 'localeCompare');
		for (let i = 0; i < 100; i++) {
			const name = names[(i * 31) % names.length]!;
			sorted.set(objectKey(object(name)), object(name, `update ${i}`));
			if (i % 10 === 0) {
				sorted.array();
			}
		}

		expect(compare).not.toHaveBeenCalled();
		const array = sorted.array();
		expect(array.map(o => o.name)).toEqual([...names].sort());
		expect(array.find(o => o.name === names[(99 * 31) % names.length])!.summary).toBe('update 99');
		sorted.set(objectKey(object('a-150b')), object('a-150b'));
		expect(sorted.array().map(o => o.name)).toEqual([...names, 'a-150b'].sort());
		expect(compare).toHaveBeenCalled();
	});
});
