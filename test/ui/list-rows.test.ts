import {describe, expect, test} from 'vitest';
import {objectKey, type PlanObject} from '../../source/model/plan-tree.js';
import {attentionRank, byAttention, countsByContext, countsText, isFailing, listObjects, progressText} from '../../source/ui/list-rows.js';
import {backupFailed, kafkaRetrying, mysqlDeploy, nightlyComplete} from '../helpers/ui-objects.js';

const objects = [backupFailed(), nightlyComplete(), mysqlDeploy(), kafkaRetrying()];
const names = (list: ReturnType<typeof listObjects>) => list.map(o => o.name);

describe('list rows', () => {
	test('the filter matches namespace/name, case-insensitively', () => {
		expect(names(listObjects(objects, {text: 'KANISTER/', failingOnly: false}))).toEqual(['backup-glptq', 'nightly-x7k2q']);
		expect(names(listObjects(objects, {text: 'sql', failingOnly: false}))).toEqual(['mysql-instance']);
	});

	test('failing only keeps failed and retrying objects', () => {
		expect(objects.filter(o => isFailing(o)).map(o => o.name)).toEqual(['backup-glptq', 'kafka']);
		expect(names(listObjects(objects, {text: '', failingOnly: true}))).toEqual(['backup-glptq', 'kafka']);
	});

	test('targets restrict the list', () => {
		expect(names(listObjects(objects, {text: '', failingOnly: false, targets: [objectKey(objects[3]!)]}))).toEqual(['kafka']);
	});

	test('progress: steps for KUDO, percent for Kanister', () => {
		expect(objects.map(o => progressText(o))).toEqual(['62%', '100%', '1/3 steps', '7/12 steps']);
	});
});

describe('what needs attention first', () => {
	/** 300 objects in the store's order (namespace, name): every tenth failed, the next two running, the rest done. */
	const many = Array.from({length: 300}, (_, i) => {
		const base = i % 10 === 0 ? backupFailed() : i % 10 <= 2 ? mysqlDeploy() : nightlyComplete();
		return {...base, kind: 'ActionSet' as const, namespace: `ns-${String(i).padStart(3, '0')}`, name: `o-${String(i).padStart(3, '0')}`};
	});

	test('ranks failed and retrying, then running, then the rest', () => {
		expect(objects.map(o => [o.name, attentionRank(o)])).toEqual([['backup-glptq', 0], ['nightly-x7k2q', 2], ['mysql-instance', 1], ['kafka', 0]]);
	});

	test('failed first, then running, then the rest; the store\'s order (namespace, name) within each', () => {
		const listed = listObjects(many, {text: '', failingOnly: false});
		expect(listed.slice(0, 30).every(o => o.outcome === 'failed')).toBe(true);
		expect(listed.slice(30, 90).every(o => o.outcome === 'running')).toBe(true);
		expect(listed.slice(90).every(o => o.outcome === 'succeeded')).toBe(true);
		for (const group of [listed.slice(0, 30), listed.slice(30, 90), listed.slice(90)]) {
			expect(group.map(o => o.namespace)).toEqual(group.map(o => o.namespace).sort());
		}

		// Filters keep that order.
		expect(names(listObjects(many, {text: 'o-01', failingOnly: false}))).toEqual(['o-010', 'o-011', 'o-012', ...Array.from({length: 7}, (_, i) => `o-01${i + 3}`)]);
	});

	test('regrouped once per store array: the same array back on every frame, and the array itself when one group only', () => {
		expect(byAttention(many)).toBe(byAttention(many));
		const done = many.filter(o => o.outcome === 'succeeded');
		expect(byAttention(done)).toBe(done);
	});

	test('counts for the header: total, failed and running, the zeros left out; nothing for a single object', () => {
		expect(countsText(many, ' · ')).toBe('300 · 30 failed · 60 running');
		expect(countsText([nightlyComplete(), nightlyComplete()], ' · ')).toBe('2');
		expect(countsText([mysqlDeploy()], ' · ')).toBeUndefined();
	});

	test('counts per context, in the same words: failed, running, the zeros left out; a context with neither has none', () => {
		const inContext = (context: string) => (o: PlanObject): PlanObject => ({...o, context});
		const objects = [
			...many.slice(0, 40).map(inContext('prod')),
			...many.filter(o => o.outcome === 'running').slice(0, 2).map(inContext('dr')),
			...many.filter(o => o.outcome === 'succeeded').slice(0, 5).map(inContext('staging')),
		];
		const counts = countsByContext(objects);
		const prod = objects.filter(o => o.context === 'prod');
		const failed = prod.filter(o => o.outcome === 'failed').length;
		const running = prod.filter(o => o.outcome === 'running').length;
		expect(failed).toBeGreaterThan(0);
		expect(running).toBeGreaterThan(0);
		expect([...counts]).toEqual([['prod', `${failed} failed, ${running} running`], ['dr', '2 running']]);
		expect(countsByContext(objects)).toBe(counts);
		expect(countsByContext(many).size).toBe(0);
	});
});

describe('the list order kept incrementally', () => {
	let reads = 0;
	const watched = (object: PlanObject): PlanObject =>
		new Proxy(object, {
			get(target, property, receiver) {
				reads++;
				return Reflect.get(target, property, receiver) as unknown;
			},
		});
	const many = Array.from(
		{length: 1000},
		(_, i) => watched(i % 10 === 0 ? {...backupFailed(), name: `o-${String(i).padStart(4, '0')}`} : {...mysqlDeploy(), name: `o-${String(i).padStart(4, '0')}`}),
	);
	const fresh = (list: readonly PlanObject[]) => byAttention([...list]);

	test('an object changed in its group takes its place without a pass over the others', () => {
		const first = byAttention(many);
		listObjects(many, {text: '', failingOnly: true});
		/** `list` with its object `i` changed (in its group): the new array and the change. */
		const step = (list: readonly PlanObject[], i: number, version: string) => {
			const before = list[i]!;
			const after = watched({...(isFailing(before) ? backupFailed() : mysqlDeploy()), name: before.name, resourceVersion: version});
			return {next: list.map(o => (o === before ? after : o)), changes: [{key: objectKey(before), before, after}], before, after};
		};

		// The first step builds the key → place index (once, handed on to every list patched from it).
		const one = step(many, 3, '2');
		byAttention(one.next, {objects: many, changes: one.changes});
		listObjects(one.next, {text: '', failingOnly: true}, {objects: many, changes: one.changes});
		const {next, changes, before, after} = step(one.next, 5, '3');
		reads = 0;
		const ordered = byAttention(next, {objects: one.next, changes});
		const failing = listObjects(next, {text: '', failingOnly: true}, {objects: one.next, changes});
		// The changed object's group, before and after; no other object is read.
		expect(reads).toBeLessThan(20);
		expect(ordered).toEqual(fresh(next));
		expect(ordered.indexOf(after)).toBe(first.indexOf(before));
		expect(failing).toEqual(next.filter(o => o.outcome === 'failed'));
	});

	test('an object that changes group sorts again', () => {
		byAttention(many);
		const before = many[7]!;
		const after = watched({...backupFailed(), name: 'o-0007'});
		const next = many.map(o => (o === before ? after : o));
		const ordered = byAttention(next, {objects: many, changes: [{key: objectKey(before), before, after}]});
		expect(ordered).toEqual(fresh(next));
		expect(ordered.indexOf(after)).toBeLessThan(100);
	});
});
