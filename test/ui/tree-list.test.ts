import {describe, expect, test} from 'vitest';
import {objectKey, type PlanObject} from '../../source/model/plan-tree.js';
import {buildTreeList, indexOfRow, rowAt, rowsIn, type TreeList} from '../../source/ui/tree-list.js';
import {kafkaRetrying, mysqlDeploy, nightlyComplete} from '../helpers/ui-objects.js';

// Default rows of their trees: mysql 7 (deploy open down to its steps, backup, restore), kafka 5.
const mysql = mysqlDeploy();
const kafka = kafkaRetrying();
const nightly = nightlyComplete();
const objects = [mysql, kafka, nightly];
const none = new Map<string, boolean>();

/** Each object's name, `+N` after it when it is expanded with N tree rows. */
function shape(list: TreeList): string[] {
	return list.objects.map((o, i) => {
		const block = list.blocks.find(b => b.index === i);
		return block ? `${o.name}+${block.rows.length}` : o.name;
	});
}

describe('which objects start expanded', () => {
	test.each([
		['everything fits: the running ones open, the finished one stays closed', 30, ['mysql-instance+7', 'kafka+5', 'nightly-x7k2q']],
		// mysql: its row, 7 tree rows and the "more" line below fill 9 lines exactly.
		['room for the first tree only', 9, ['mysql-instance+7', 'kafka', 'nightly-x7k2q']],
		['the first does not fit, a later one does', 8, ['mysql-instance', 'kafka+5', 'nightly-x7k2q']],
		['no room at all', 3, ['mysql-instance', 'kafka', 'nightly-x7k2q']],
	])('%s (budget %i)', (_, budget, expected) => {
		expect(shape(buildTreeList(objects, {expand: none, folds: new Map(), budget}))).toEqual(expected);
	});

	test('the first screen never holds more rows than the budget', () => {
		for (let budget = 0; budget < 20; budget++) {
			const list = buildTreeList([...objects, ...objects.map(o => ({...o, name: `${o.name}-2`}))], {expand: none, folds: new Map(), budget});
			const lastExpanded = list.blocks.at(-1);
			if (lastExpanded) {
				// Its last tree row, plus a "more" line when anything follows.
				expect(lastExpanded.index + lastExpanded.before + lastExpanded.rows.length + 1 + 1).toBeLessThanOrEqual(budget);
			}
		}
	});

	test("the user's choice wins: collapsed while running, expanded when finished or below the first screen", () => {
		const expand = new Map([
			[objectKey(mysql), false],
			[objectKey(nightly), true],
		]);
		expect(shape(buildTreeList(objects, {expand, folds: new Map(), budget: 30}))).toEqual(['mysql-instance', 'kafka+5', 'nightly-x7k2q+1']);
		expect(shape(buildTreeList(objects, {expand, folds: new Map(), budget: 0}))).toEqual(['mysql-instance', 'kafka', 'nightly-x7k2q+1']);
	});

	test('fold choices inside a tree are the tree screen’s', () => {
		const folds = new Map([[objectKey(mysql), new Map([['plan:deploy', false]])]]);
		expect(shape(buildTreeList(objects, {expand: none, folds, budget: 30}))).toEqual(['mysql-instance+3', 'kafka+5', 'nightly-x7k2q']);
	});
});

describe('rows', () => {
	const list = buildTreeList(objects, {expand: new Map([[objectKey(nightly), true]]), folds: new Map(), budget: 9});
	const all = rowsIn(list, 0, list.total);

	test('objects and their tree rows in order, one level deeper than in their own tree', () => {
		expect(list.total).toBe(3 + 7 + 1);
		expect(all.map(r => (r.type === 'object' ? r.object.name : `${'  '.repeat(r.row.depth)}${r.row.node.name}`))).toEqual([
			'mysql-instance',
			'  deploy',
			'    deploy',
			'      deploy',
			'      init',
			'      cleanup',
			'  backup',
			'  restore',
			'kafka',
			'nightly-x7k2q',
			'  backup',
		]);
		expect(all.filter(r => r.type === 'object').map(r => r.type === 'object' && r.expanded)).toEqual([true, false, true]);
	});

	test('indexOfRow finds every row rowAt gives', () => {
		all.forEach((row, i) => {
			expect(indexOfRow(list, row.key, row.type === 'node' ? row.row.node.id : undefined)).toBe(i);
		});
	});

	test('a node that is not shown lands on its nearest shown ancestor; an unknown object is -1', () => {
		expect(indexOfRow(list, objectKey(kafka), 'plan:deploy/phase:deploy-kafka/step:service')).toBe(8);
		expect(indexOfRow(list, objectKey(mysql), 'plan:backup/phase:backup/step:backup')).toBe(6);
		expect(indexOfRow(list, 'Instance/nowhere/x')).toBe(-1);
		expect(rowAt(list, list.total)).toBeUndefined();
	});
});

describe('cost', () => {
	test('a list of 10 000 running objects looks at the first screen’s objects only', () => {
		let reads = 0;
		const many: PlanObject[] = Array.from({length: 10_000}, (_, i) => {
			const object = {...mysqlDeploy(), name: `mysql-${i}`};
			return new Proxy(object, {
				get(target, property, receiver) {
					if (property === 'tree') {
						reads++;
					}

					return Reflect.get(target, property, receiver) as unknown;
				},
			});
		});
		const list = buildTreeList(many, {expand: none, folds: new Map(), budget: 40});
		expect(list.total).toBe(10_000 + 4 * 7);
		expect(reads).toBeLessThan(40 * 3);
	});
});
