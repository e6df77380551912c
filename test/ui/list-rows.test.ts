import {describe, expect, test} from 'vitest';
import {objectKey} from '../../source/model/plan-tree.js';
import {attentionRank, byAttention, countsText, isFailing, listObjects, progressText} from '../../source/ui/list-rows.js';
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
});
