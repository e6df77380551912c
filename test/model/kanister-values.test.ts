import {describe, expect, it} from 'vitest';
import {cutValue, flatValues, kanisterValues, valueLimits, valuesLine, valuesLines, type KanisterValues} from '../../source/model/kanister-values.js';
import {uncleanStrings} from '../helpers/clean-strings.js';

describe('kanisterValues: a Kanister output or artifacts map, sanitized and bounded', () => {
	it.each<[string, unknown, KanisterValues | undefined]>([
		['the object reference KubeOps outputs (the real controller, test/fixtures/kanister-recorded)',
			{apiVersion: 'v1', group: '', kind: '', name: 'rec-okok', namespace: 'kanister', resource: 'configmaps'},
			{values: {apiVersion: 'v1', group: '', kind: '', name: 'rec-okok', namespace: 'kanister', resource: 'configmaps'}}],
		['an artifact map', {dump: {keyValue: {s3path: '/b/dump.gz'}, kopiaSnapshot: '{"id":"k1"}'}},
			{values: {dump: {keyValue: {s3path: '/b/dump.gz'}, kopiaSnapshot: '{"id":"k1"}'}}}],
		['numbers, booleans, null and arrays kept as they are', {n: 3, f: 1.5, b: false, z: null, list: [1, 'a', null]},
			{values: {n: 3, f: 1.5, b: false, z: null, list: [1, 'a', null]}}],
		['non-finite numbers (YAML .inf/.nan) become text', {inf: Number.POSITIVE_INFINITY, nan: Number.NaN}, {values: {inf: 'Infinity', nan: 'NaN'}}],
		['a YAML timestamp is an ISO time', {at: new Date('2025-06-02T09:57:19Z')}, {values: {at: '2025-06-02T09:57:19Z'}}],
		['YAML binary is not shown as text', {blob: new Uint8Array([1, 2, 3])}, {values: {blob: '(3 bytes)'}}],
		['a bigint is text', {big: 12_345_678_901_234_567_890n}, {values: {big: '12345678901234567890'}}],
		['what JSON cannot hold is left out', {f: () => 1, u: undefined, s: Symbol('x'), kept: 'k'}, {values: {kept: 'k'}}],
		['not a map: nothing', ['a', 'b'], undefined],
		['a string: nothing', 's3://bucket', undefined],
		['null: nothing', null, undefined],
		['a number: nothing', 42, undefined],
		['an empty map: nothing', {}, undefined],
	])('%s', (_name, raw, want) => {
		expect(kanisterValues(raw)).toEqual(want);
	});

	it('sanitizes values and keys: escape sequences, controls and line breaks never reach a view', () => {
		const raw = {'\u001B]0;pwned\u0007key\u202E': 'a\u001B[2Jb\nc\td', nested: {['x\u0000y']: ['\u009B31m red']}};
		const got = kanisterValues(raw)!;
		expect(uncleanStrings(got.values)).toEqual([]);
		expect(got.values).toEqual({key: 'ab ⏎ c d', nested: {xy: [' red']}});
		expect(got.truncated).toBeUndefined();
	});

	it('a key named __proto__ is an ordinary key, never the prototype', () => {
		const got = kanisterValues(JSON.parse('{"__proto__": {"polluted": true}, "a": 1}'))!;
		expect(Object.getPrototypeOf(got.values)).toBe(Object.prototype);
		expect(Object.keys(got.values)).toEqual(['__proto__', 'a']);
		expect(JSON.stringify(got.values)).toBe('{"__proto__":{"polluted":true},"a":1}');
		expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
	});

	it('keys equal once sanitized: the first stays, the loss is marked', () => {
		expect(kanisterValues({a: 1, 'a\u200B': 2})).toEqual({values: {a: 1}, truncated: true});
	});

	it('cuts a long string and marks it; a long string exactly at the cap is not cut', () => {
		const long = kanisterValues({s: 'x'.repeat(100_000)})!;
		expect([...(long.values['s'] as string)]).toHaveLength(valueLimits.stringLength);
		expect(long.values['s']).toMatch(/…$/);
		expect(long.truncated).toBe(true);
		expect(kanisterValues({s: 'y'.repeat(valueLimits.stringLength)})).toEqual({values: {s: 'y'.repeat(valueLimits.stringLength)}});
		const key = 'k'.repeat(400);
		expect(Object.keys(kanisterValues({[key]: 1})!.values)[0]).toHaveLength(valueLimits.keyLength);
	});

	it('a tree deeper than the limit is cut to "…" at the limit, and marked', () => {
		let deep: unknown = 'bottom';
		for (let i = 0; i < 50; i++) {
			deep = {level: deep};
		}

		const got = kanisterValues(deep)!;
		expect(got.truncated).toBe(true);
		expect(got.values).toEqual({level: {level: {level: {level: cutValue}}}});
		expect(kanisterValues({a: {b: {c: 'leaf'}}})).toEqual({values: {a: {b: {c: 'leaf'}}}});
	});

	it('a huge map or array keeps at most the entry budget in all, and is marked', () => {
		const wide = Object.fromEntries(Array.from({length: 10_000}, (_, i) => [`k${i}`, i]));
		const got = kanisterValues(wide)!;
		expect(Object.keys(got.values)).toHaveLength(valueLimits.entries);
		expect(got.truncated).toBe(true);
		const list = kanisterValues({list: Array.from({length: 10_000}, (_, i) => i)})!;
		expect(flatValues(list.values).length).toBeLessThanOrEqual(valueLimits.entries);
		expect(list.truncated).toBe(true);
		// The budget is for the whole tree, not per map: 10 maps of 50 keep 100 values in all.
		const nested = Object.fromEntries(Array.from({length: 10}, (_, i) => [`m${i}`, Object.fromEntries(Array.from({length: 50}, (_, j) => [`k${j}`, j]))]));
		expect(flatValues(kanisterValues(nested)!.values).length).toBeLessThan(valueLimits.entries);
	});

	it('flatValues: each leaf with its path; empty containers say so', () => {
		expect(flatValues({a: {b: 1, c: [true, null]}, e: {}, l: [], s: 'x'})).toEqual([
			{path: 'a.b', value: '1'},
			{path: 'a.c.0', value: 'true'},
			{path: 'a.c.1', value: 'null'},
			{path: 'e', value: '{}'},
			{path: 'l', value: '[]'},
			{path: 's', value: 'x'},
		]);
	});

	it('valuesLine / valuesLines: one line per output and per artifact, empty strings left out, cuts said', () => {
		expect(valuesLine('output', {values: {apiVersion: 'v1', group: '', name: 'cm'}})).toBe('output: apiVersion=v1 · name=cm');
		expect(valuesLine('output', {values: {n: 1}, truncated: true}, ' | ')).toBe('output: n=1 (truncated)');
		const artifacts = {values: {dump: {keyValue: {s3path: '/b'}}, snap: {kopiaSnapshot: '{"id":1}'}}, rendered: true};
		expect(valuesLines({artifacts})).toEqual(['artifact dump: keyValue.s3path=/b', 'artifact snap: kopiaSnapshot={"id":1}']);
		expect(valuesLines({artifacts: {...artifacts, rendered: false, truncated: true}, output: {values: {o: 'x'}}})).toEqual([
			'output: o=x',
			'artifact template dump: keyValue.s3path=/b',
			'artifact template snap: kopiaSnapshot={"id":1}',
			'artifacts truncated (see -o json)',
		]);
		expect(valuesLines({})).toEqual([]);
	});
});
