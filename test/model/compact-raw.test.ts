import {describe, expect, it} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import {compactRaw, sameRaw, StringTable} from '../../source/model/compact-raw.js';
import {adaptActionSet} from '../../source/model/adapt-kanister-action-set.js';
import {loadFixtureObject} from '../helpers/fixtures.js';

const lastApplied = 'kubectl.kubernetes.io/last-applied-configuration';

/** Every string of `value` with where it sits, in walk order. */
function strings(value: unknown, at = '', out: Array<[string, string]> = []): Array<[string, string]> {
	if (typeof value === 'string') {
		out.push([at, value]);
	} else if (typeof value === 'object' && value !== null) {
		for (const [key, item] of Object.entries(value)) {
			strings(item, `${at}/${key}`, out);
		}
	}

	return out;
}

describe('compactRaw', () => {
	it('drops managedFields and the last-applied annotation, and nothing else', () => {
		const raw = structuredClone(loadFixtureObject('kanister/actionset-mysql-backup-complete.yaml'));
		const expected = structuredClone(raw);
		raw.metadata = {...raw.metadata, managedFields: [{manager: 'kubectl', fieldsV1: {'f:status': {}}}], annotations: {[lastApplied]: '{"big":"json"}', keep: 'me'}};
		expected.metadata = {...expected.metadata, annotations: {keep: 'me'}};
		const compacted = compactRaw(raw, new StringTable());
		expect(compacted).toBe(raw);
		expect(compacted).toStrictEqual(expected);
	});

	it('leaves an object without them as it was, and adapting it draws the same', () => {
		const blueprint = loadFixtureObject('kanister/blueprint-mysql-defer.yaml');
		const raw = structuredClone(loadFixtureObject('kanister/actionset-mysql-backup-complete.yaml'));
		const before = adaptActionSet(structuredClone(raw), () => blueprint, []);
		const copy = structuredClone(raw);
		compactRaw(raw, new StringTable());
		expect(raw).toStrictEqual(copy);
		expect(adaptActionSet(raw, () => blueprint, [])).toStrictEqual(before);
	});

	it('shares repeated strings through the table, but not uids and resourceVersions', () => {
		const table = new StringTable();
		const raw = (): KubeObject => structuredClone(loadFixtureObject('kanister/actionset-mysql-backup-complete.yaml'));
		compactRaw(raw(), table);
		const held = table.size;
		const all = strings(raw());
		const distinct = new Set(all.filter(([at]) => !/\/(uid|resourceVersion)$/.test(at)).map(([, text]) => text));
		// Each distinct string once (a second equal object adds nothing); uid and resourceVersion never.
		expect(held).toBe(distinct.size);
		compactRaw(raw(), table);
		expect(table.size).toBe(held);
	});

	it('the table stays within its limit and passes long strings through', () => {
		const table = new StringTable(4);
		for (let i = 0; i < 20; i++) {
			expect(table.share(`s${i}`)).toBe(`s${i}`);
			expect(table.size).toBeLessThanOrEqual(4);
		}

		const long = 'x'.repeat(500);
		const before = table.size;
		expect(table.share(long)).toBe(long);
		expect(table.size).toBe(before);
	});
});

/** A value nested `depth` deep: {a: {a: … 'deep' …}}. */
function nested(depth: number): unknown {
	let value: unknown = 'deep';
	for (let i = 0; i < depth; i++) {
		value = {a: value};
	}

	return value;
}

describe('sameRaw', () => {
	const raw = () => structuredClone(loadFixtureObject('kanister/actionset-mysql-backup-running.yaml'));

	it('is the same object when only the resourceVersion moved', () => {
		const a = raw();
		const b = raw();
		b.metadata = {...b.metadata, resourceVersion: '999999'};
		expect(a.metadata?.resourceVersion).not.toBe('999999');
		expect(sameRaw(a, b)).toBe(true);
		expect(sameRaw(b, a)).toBe(true);
	});

	it('is another object when anything else differs: status, spec, a label, a key more or less, an array item', () => {
		const changes: Array<(o: KubeObject & Record<string, unknown>) => void> = [
			o => {
				(o['status'] as {progress: {percentCompleted: string}}).progress.percentCompleted = '43';
			},
			o => {
				(o['spec'] as {actions: Array<{name: string}>}).actions[0]!.name = 'restore';
			},
			o => {
				o.metadata = {...o.metadata, labels: {...o.metadata?.labels, extra: 'x'}};
			},
			o => {
				o.metadata = {...o.metadata, deletionTimestamp: '2026-11-30T11:00:00Z'};
			},
			o => {
				o['extra'] = {};
			},
			o => {
				delete o['status'];
			},
			o => {
				(o['spec'] as {actions: unknown[]}).actions.push({name: 'second'});
			},
			o => {
				(o['spec'] as {actions: unknown}).actions = {0: (o['spec'] as {actions: unknown[]}).actions[0]};
			},
		];
		for (const [i, change] of changes.entries()) {
			const a = raw();
			const b = raw() as KubeObject & Record<string, unknown>;
			change(b);
			expect([i, sameRaw(a, b)]).toEqual([i, false]);
			expect([i, sameRaw(b, a)]).toEqual([i, false]);
		}
	});

	it('a hostile object nested far deeper than any Kubernetes object is compacted without overflowing the stack and counts as changed', () => {
		const a = raw() as KubeObject & Record<string, unknown>;
		const b = raw() as KubeObject & Record<string, unknown>;
		a['spec'] = nested(1_000_000);
		b['spec'] = nested(1_000_000);
		expect(() => compactRaw(a, new StringTable())).not.toThrow();
		expect(sameRaw(a, b)).toBe(false);
		// Within the bound, equal nesting is equal.
		a['spec'] = nested(20);
		b['spec'] = nested(20);
		expect(sameRaw(a, b)).toBe(true);
	});
});
