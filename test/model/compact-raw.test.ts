import {describe, expect, it} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import {compactRaw, StringTable} from '../../source/model/compact-raw.js';
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
