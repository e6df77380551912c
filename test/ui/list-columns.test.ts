import {describe, expect, test} from 'vitest';
import {columnBasis, type ColumnItem} from '../../source/ui/list-columns.js';
import {seededRandom as random} from '../helpers/random-strings.js';

function item(rnd: () => number): ColumnItem {
	const w = () => Math.floor(rnd() * 12);
	const kind = rnd();
	const startedAt = 1000 + Math.floor(rnd() * 50);
	const timing = kind < 0.3 ? undefined : kind < 0.6 ? {startedAt} : {startedAt, endedAt: startedAt + Math.floor(rnd() * 40)};
	return {widths: {context: w(), kind: w(), namespace: w(), name: w(), active: w(), state: w(), progress: w(), message: w()}, ...(timing ? {timing} : {})};
}

describe('list column basis', () => {
	test('updated from the replaced objects only, it always equals the basis measured from every object', () => {
		const rnd = random(7);
		const identity = (o: ColumnItem) => o;
		let objects = Array.from({length: 40}, () => item(rnd));
		let basis = columnBasis(objects, identity);
		for (let round = 0; round < 2000; round++) {
			const next = [...objects];
			const changes = 1 + Math.floor(rnd() * 3);
			for (let c = 0; c < changes; c++) {
				next[Math.floor(rnd() * next.length)] = item(rnd);
			}

			if (rnd() < 0.05) {
				next.push(item(rnd));
			}

			basis = columnBasis(next, identity, {objects, basis});
			objects = next;
			expect(basis, `round ${round}`).toEqual(columnBasis(objects, identity));
		}
	});

	test('the same array costs nothing: the basis is the previous one', () => {
		const objects = [item(random(1))];
		const basis = columnBasis(objects, o => o);
		let measured = 0;
		expect(columnBasis([...objects], o => {
			measured++;
			return o;
		}, {objects, basis})).toBe(basis);
		expect(measured).toBe(0);
	});
});
