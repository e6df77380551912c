/**
 * An ActionSet's actions and nodes are built once per change of what they read (ActionSetMemo), and an update from
 * the cluster keeps its unchanged parts the objects held (reuseUnchanged), so a watch event that moves only a
 * resourceVersion or a progress time re-adapts the object without building its actions again (issue #23: the
 * store's per-event allocation was mostly those rebuilt actions).
 */
import {describe, expect, it} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import {ActionSetMemo, adaptActionSet} from '../../source/model/adapt-kanister-action-set.js';
import {reuseUnchanged} from '../../source/model/compact-raw.js';
import {Store} from '../../source/state/store.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {loadFixtureObject} from '../helpers/fixtures.js';

type Raw = KubeObject & {status: {progress: Record<string, unknown>; actions: Array<{phases: Array<Record<string, unknown>>}>}};

const blueprint = loadFixtureObject('kanister/blueprint-mysql.yaml');
const fixture = (): Raw => structuredClone(loadFixtureObject('kanister/actionset-multiple-actions.yaml')) as Raw;

/** As a watch event brings it: decoded afresh, a new resourceVersion and progress time. */
function moved(raw: Raw, version: number): Raw {
	const next = structuredClone(raw);
	next.metadata = {...next.metadata, resourceVersion: String(version)};
	next.status.progress['lastTransitionTime'] = `2025-06-02T12:02:${String(version % 60).padStart(2, '0')}Z`;
	return next;
}

describe('ActionSetMemo', () => {
	it('an update that changes nothing the actions read builds them once and keeps their nodes (===), with the same result', () => {
		const memo = new ActionSetMemo();
		const first = fixture();
		const before = adaptActionSet(first, () => blueprint, [], memo);
		const next = moved(first, 2);
		// The actions are the held ones, as the store hands them on (reuseUnchanged).
		const after = adaptActionSet(reuseUnchanged(first, next), () => blueprint, [], memo);
		expect(memo.builds).toBe(1);
		expect(after.tree).toBe(before.tree);
		expect(after).toStrictEqual(adaptActionSet(next, () => blueprint, []));
		expect(after.updatedAt).not.toBe(before.updatedAt);
	});

	it('a changed action state, error, event list or Blueprint builds again, and draws as without the memo', () => {
		const memo = new ActionSetMemo();
		const first = fixture();
		adaptActionSet(first, () => blueprint, [], memo);
		const done = reuseUnchanged(first, (() => {
			const next = moved(first, 3);
			next.status.actions[1]!.phases[0]!['state'] = 'complete';
			return next;
		})());
		expect(adaptActionSet(done, () => blueprint, [], memo)).toStrictEqual(adaptActionSet(done, () => blueprint, []));
		expect(memo.builds).toBe(2);
		// The same again (another empty event list is no other input); then events about it are read.
		adaptActionSet(done, () => blueprint, [], memo);
		expect(memo.builds).toBe(2);
		const started = {involvedKind: 'ActionSet', involvedName: 'backup-x', reason: 'Started Action', message: 'Executing action backup'};
		adaptActionSet(done, () => blueprint, [started as never], memo);
		expect(memo.builds).toBe(3);
	});

	it('a Blueprint looked up that is another object now builds again', () => {
		// No status: the phases are named from the Blueprint.
		const raw = fixture() as KubeObject;
		delete raw['status'];
		const memo = new ActionSetMemo();
		adaptActionSet(raw, () => blueprint, [], memo);
		adaptActionSet(raw, () => blueprint, [], memo);
		expect(memo.builds).toBe(1);
		const other = structuredClone(blueprint);
		expect(adaptActionSet(raw, () => other, [], memo)).toStrictEqual(adaptActionSet(raw, () => other, []));
		expect(memo.builds).toBe(2);
	});
});

describe('reuseUnchanged', () => {
	it('keeps the unchanged parts the held objects, copies only the way to a change, and changes neither input', () => {
		const held = {a: {b: [1, {c: 'x'}]}, d: {e: 1}, f: 'y'};
		const next = {a: {b: [1, {c: 'x'}]}, d: {e: 2}, f: 'y'};
		const copy = structuredClone(next);
		const merged = reuseUnchanged(held, next);
		expect(merged).toStrictEqual(copy);
		expect(next).toStrictEqual(copy);
		expect(merged.a).toBe(held.a);
		expect(merged.d).toBe(next.d);
		expect(reuseUnchanged(held, structuredClone(held))).toBe(held);
		// A key more or less is a change.
		expect(reuseUnchanged({a: 1}, {a: 1, b: 2})).toStrictEqual({a: 1, b: 2});
		expect(reuseUnchanged({a: 1, b: 2}, {a: 1})).toStrictEqual({a: 1});
		expect(reuseUnchanged([1, 2], [1])).toStrictEqual([1]);
		// A change after equal parts: those are the held ones, the change is next's.
		const list = {items: [{n: 1}, {n: 2}, {n: 3}], after: {x: 1}};
		const changed = reuseUnchanged(list, {items: [{n: 1}, {n: 2}, {n: 4}], after: {x: 1}});
		expect(changed).toStrictEqual({items: [{n: 1}, {n: 2}, {n: 4}], after: {x: 1}});
		expect(changed.items[0]).toBe(list.items[0]);
		expect(changed.items[1]).toBe(list.items[1]);
		expect(changed.after).toBe(list.after);
		// Decoded JSON's `__proto__` key stays a key.
		const hostile = reuseUnchanged(JSON.parse('{"__proto__": {"a": 1}, "b": 1}') as object, JSON.parse('{"__proto__": {"a": 1}, "b": 2}') as object);
		expect(Object.getPrototypeOf(hostile)).toBe(Object.prototype);
		expect(Object.hasOwn(hostile, '__proto__')).toBe(true);
	});
});

describe('the store', () => {
	it('a watch event decoded afresh that moves only a progress time keeps the object\'s plan tree (===)', () => {
		const store = new Store(new FakeClock());
		store.apply({type: 'upsert', resource: 'Blueprint', object: structuredClone(blueprint)});
		const first = fixture();
		store.apply({type: 'upsert', resource: 'ActionSet', object: structuredClone(first)});
		const before = store.getSnapshot().objects[0]!;
		store.apply({type: 'upsert', resource: 'ActionSet', object: moved(first, 4)});
		const after = store.getSnapshot().objects[0]!;
		expect(after.updatedAt).not.toBe(before.updatedAt);
		expect(after.tree).toBe(before.tree);
		// One action changes: the other's node is the one held.
		const next = moved(first, 5);
		next.status.actions[1]!.phases[0]!['state'] = 'complete';
		store.apply({type: 'upsert', resource: 'ActionSet', object: next});
		const changed = store.getSnapshot().objects[0]!;
		expect(changed.tree[0]).toBe(before.tree[0]);
		expect(changed.tree[1]).not.toBe(before.tree[1]);
	});
});
