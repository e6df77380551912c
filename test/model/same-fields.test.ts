import {describe, expect, it} from 'vitest';
import {sameFieldsExcept} from '../../source/model/same-fields.js';

const skip = new Set(['children']);

describe('sameFieldsExcept', () => {
	it.each([
		['equal values', {a: 1, b: 'x'}, {a: 1, b: 'x'}, true],
		['a value differs', {a: 1}, {a: 2}, false],
		['a skipped field differs', {a: 1, children: [1]}, {a: 1, children: [2]}, true],
		['objects by their JSON', {o: {k: [1, 2]}}, {o: {k: [1, 2]}}, true],
		['objects that differ', {o: {k: [1, 2]}}, {o: {k: [2, 1]}}, false],
		['a field only on the right', {a: 1}, {a: 1, b: 2}, false],
		['a field only on the left', {a: 1, b: 2}, {a: 1}, false],
		['null against an object', {o: null}, {o: {}}, false],
		['undefined against absent', {a: 1, b: undefined}, {a: 1}, false],
	])('%s', (_name, a, b, same) => {
		expect(sameFieldsExcept(a, b, skip)).toBe(same);
		expect(sameFieldsExcept(b, a, skip)).toBe(same);
	});
});
